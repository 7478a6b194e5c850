// FEM bodies against exact and classical results: the uniaxial patch test, a cantilever's tip
// deflection under refinement, a free tumbling body (shape kept, energy not created), dynamics
// settling onto the static solution, bad input, and a state moved from one body to another; the
// corotational force and element stiffness against finite differences.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include "fem/fem_body.h"
#include "fem/tet_element.h"
#include "tests/fem/finite_differences.h"
#include "tests/invalid_input.h"

namespace hydro {
namespace fem {
namespace {

FemBody MakeBlock(const Vector3& size, int nx, int ny, int nz, const Material& material,
                  const std::string& name = "block") {
  std::vector<Vector3> vertices;
  std::vector<Tet> tets;
  MakeTetGrid(size, nx, ny, nz, &vertices, &tets);
  return FemBody(name, vertices, tets, material);
}

TEST(FemBodyTest, UniaxialStretchReproducesTheExactLinearElasticField) {
  // Stretch x by ε with the planes x = 0, y = 0, z = 0 held only normal to themselves: the exact
  // solution u = ε·(x, −ν·y, −ν·z) is linear, so linear tets must reproduce it at every vertex.
  Material material;
  material.youngs_modulus_Pa = 1e6;
  material.poisson_ratio = 0.3;
  material.model = MaterialModel::kLinear;
  const Vector3 size(1.0, 0.4, 0.3);
  FemBody body = MakeBlock(size, 5, 3, 2, material);
  const double strain = 1e-3;
  std::vector<std::pair<int, double>> prescribed;
  for (int v = 0; v < body.num_vertices(); ++v) {
    const Vector3& X = body.rest_positions()[v];
    if (X.x() == 0) prescribed.emplace_back(3 * v, 0.0);
    if (X.x() == size.x()) prescribed.emplace_back(3 * v, strain * size.x());
    if (X.y() == 0) prescribed.emplace_back(3 * v + 1, 0.0);
    if (X.z() == 0) prescribed.emplace_back(3 * v + 2, 0.0);
  }
  body.SolveLinearStatics(Vector3::Zero(), prescribed);
  double worst = 0;
  for (int v = 0; v < body.num_vertices(); ++v) {
    const Vector3& X = body.rest_positions()[v];
    const Vector3 exact = strain * Vector3(X.x(), -0.3 * X.y(), -0.3 * X.z());
    worst = std::max(worst, (body.position(v) - X - exact).norm());
  }
  std::printf("patch test: largest displacement error %.2e m (displacements ~1e-3 m)\n", worst);
  EXPECT_LT(worst, 1e-12);
}

TEST(FemBodyTest, CantileverTipDeflectionConvergesToBeamTheory) {
  // A 1 m steel-like beam, 0.1 × 0.1 m, clamped at x = 0 and loaded by its weight: Euler–Bernoulli
  // gives δ = q·L⁴/(8·E·I) with q = ρ·g·A, I = h⁴/12 (ν = 0 so the beam is uniaxial in theory).
  Material material;
  material.youngs_modulus_Pa = 1e8;
  material.poisson_ratio = 0.0;
  material.density_kg_per_m3 = 1000;
  material.model = MaterialModel::kLinear;
  const double L = 1, h = 0.1, g = 9.81;
  const double theory = 1000 * g * h * h * std::pow(L, 4) / (8 * material.youngs_modulus_Pa * std::pow(h, 4) / 12);
  std::printf("cantilever under gravity, beam theory %.6f m\n  cells (x·y·z)   tets   tip deflection   error\n",
              theory);
  double last_error = 1e9;
  for (int n : {1, 2, 4}) {
    FemBody body = MakeBlock(Vector3(L, h, h), 10 * n, n, n, material, "beam");
    for (int v = 0; v < body.num_vertices(); ++v)
      if (body.rest_positions()[v].x() == 0) body.FixVertex(v);
    body.SolveLinearStatics(Vector3(0, 0, -g));
    double tip = 0;
    int count = 0;
    for (int v = 0; v < body.num_vertices(); ++v)
      if (body.rest_positions()[v].x() == L) tip += body.position(v).z() - body.rest_positions()[v].z(), ++count;
    tip = -tip / count;
    const double error = tip / theory - 1;
    std::printf("  %2d·%d·%d        %6d   %.6f m       %+.1f%%\n", 10 * n, n, n, body.num_tets(), tip, 100 * error);
    EXPECT_LT(std::abs(error), std::abs(last_error));  // converging
    last_error = error;
  }
  // Linear tets are stiff in bending (shear locking), so convergence is slow: −75%, −45%, −17%
  // at 60, 480 and 3840 tets; the finest mesh here must be within 20%.
  EXPECT_LT(std::abs(last_error), 0.20);
}

TEST(FemBodyTest, FreeTumblingKeepsItsShapeAndCreatesNoEnergy) {
  // A soft block spinning in free space at 40 ms steps: the corotational model keeps its volume
  // (to 0.1%) and never gains energy; the linear model, not rotation invariant, inflates it.
  for (MaterialModel model : {MaterialModel::kCorotational, MaterialModel::kLinear}) {
    Material material;
    material.youngs_modulus_Pa = 1e5;
    material.poisson_ratio = 0.3;
    material.model = model;
    FemBody body = MakeBlock(Vector3(0.2, 0.1, 0.1), 4, 2, 2, material);
    body.SetRigidState(RigidTransform::Identity(), Vector3::Zero(), Vector3(3, 5, 1));
    const double volume0 = body.CalcVolume();
    double energy = body.CalcKineticEnergy() + body.CalcElasticEnergy();
    bool grew = false;
    double worst_volume = 0;
    for (int i = 0; i < 100; ++i) {
      body.Step(0.04, Vector3::Zero());
      const double e = body.CalcKineticEnergy() + body.CalcElasticEnergy();
      grew |= e > energy * (1 + 1e-9);
      energy = e;
      worst_volume = std::max(worst_volume, std::abs(body.CalcVolume() / volume0 - 1));
    }
    std::printf("%s model, 4 s tumbling at 40 ms: largest volume change %.2e, energy grew: %s\n",
                model == MaterialModel::kLinear ? "linear" : "corotational", worst_volume, grew ? "yes" : "no");
    if (model == MaterialModel::kCorotational) {
      EXPECT_LT(worst_volume, 1e-3);
      EXPECT_FALSE(grew);
    } else {
      EXPECT_GT(worst_volume, 0.1);  // the artifact the corotational model removes
    }
  }
}

// The corotational elastic force f = −R·K·(Rᵀx − X), with R each tet's rotation from the polar
// decomposition of its deformation gradient, is the gradient of the energy
// Σ ½(Rᵀx − X)ᵀK(Rᵀx − X) (the terms in ∂R vanish: RᵀF is symmetric; McAdams et al. 2011), so the
// step's force must match central differences of CalcElasticEnergy. The force is read off one
// backward Euler step from rest without gravity or damping: A·Δv = δt·f, A = StepMatrix(δt).
// Rotated by 0.7 rad and strained by up to 2.5 %; tolerance 1e-6 of the largest force (central
// differences at h = 1e-7 m: truncation ~h², round-off ~1e-16·E/h ≈ 1e-11 N against 10 N forces).
TEST(FemBodyTest, TheCorotationalForceIsTheEnergysGradient) {
  Material material;
  material.youngs_modulus_Pa = 1e5;
  material.poisson_ratio = 0.3;
  material.model = MaterialModel::kCorotational;
  FemBody body = MakeBlock(Vector3(0.2, 0.1, 0.1), 2, 1, 1, material);
  RigidTransform X_WB = RigidTransform::Identity();
  X_WB.linear() = Eigen::AngleAxisd(0.7, Vector3(1, 2, 3).normalized()).toRotationMatrix();
  body.SetRigidState(X_WB, Vector3::Zero(), Vector3::Zero());
  Eigen::VectorXd q = body.q();
  std::srand(7);
  for (int i = 0; i < q.size(); ++i) q[i] += 0.0025 * (2.0 * std::rand() / RAND_MAX - 1);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(q.size());
  const double dt = 1e-3;
  body.SetState(q, zero);
  body.Step(dt, Vector3::Zero());
  const Eigen::VectorXd force = body.StepMatrix(dt) * body.v() / dt;  // no vertex is fixed: every DoF is free
  const double h = 1e-7;
  double worst = 0;
  for (int i = 0; i < q.size(); ++i) {
    Eigen::VectorXd q_plus = q, q_minus = q;
    q_plus[i] += h;
    q_minus[i] -= h;
    body.SetState(q_plus, zero);
    const double e_plus = body.CalcElasticEnergy();
    body.SetState(q_minus, zero);
    const double e_minus = body.CalcElasticEnergy();
    worst = std::max(worst, std::abs(force[i] + (e_plus - e_minus) / (2 * h)));
  }
  std::printf("corotational force against −∂E/∂q: largest difference %.2e N of %.2e N\n", worst,
              force.cwiseAbs().maxCoeff());
  EXPECT_GT(force.cwiseAbs().maxCoeff(), 1.0);  // strained: the check is not of zeros
  EXPECT_LT(worst, 1e-6 * force.cwiseAbs().maxCoeff());
}

TEST(FemBodyTest, TheCorotationalStiffnessIsTheForcesCentralDifferenceOverDecades) {
  // The element stiffness a corotational step uses, K_R = R̂·K0e·R̂ᵀ (002 §V-B; R the polar rotation
  // of the element's F, held through the step), against the central differences of the element
  // force with R held, written from the continuum rather than from K0e:
  //   f_a = −V·R·σ·∇N_a,  σ = 2μ·ε + λ·tr(ε)·I,  ε = sym(RᵀF) − I,
  // so CalcElementStiffness (V·BᵀCB) and RotateElementMatrix are both checked. Sampled: tets of
  // random shape, 1 cm to 1 m across, a random rotation, strains ‖ε‖ from 1e-4 to 0.3, a
  // translation, Young's modulus log-uniform over 1e3–1e10 Pa and ν from 0 to 0.49.
  //
  // With R held the force is affine in x, so the differences are exact but for round-off (of f,
  // about 1e-16·|K|·|x|, over 2h): 1e-7 of the largest entry is far above that and far below
  // what a wrong matrix gives — a stiffness off by 1e-5, or left unrotated, is checked to fail.
  //
  // The exact Hessian of the corotational energy, −∂f/∂x with R = R(x), adds the rotation's
  // derivative acting on the stress, a term of the size of the strain: K_R is the Hessian at
  // zero strain in any rotation, and within 2·‖ε‖ (relative) of it otherwise.
  std::mt19937 rng(16);
  std::uniform_real_distribution<double> signed_unit(-1, 1);
  auto random_vector = [&](double size) {
    const double x = signed_unit(rng), y = signed_unit(rng), z = signed_unit(rng);
    return Vector3(size * Vector3(x, y, z));
  };
  const double poisson_ratios[] = {0.0, 0.2, 0.3, 0.4, 0.45, 0.49};
  const double tolerance = 1e-7;
  double worst = 0, worst_hessian_per_strain = 0, least_wrong = 1;
  for (int trial = 0; trial < 300; ++trial) {
    const double size_m = fd::LogUniform(0.01, 1, &rng);
    std::array<Vector3, 4> X;
    Matrix3 Dm;
    do {  // a tet of fair shape: 6V ≥ 0.05·size³ (a regular one has 0.7·edge³)
      for (Vector3& corner : X) corner = random_vector(size_m);
      for (int i = 0; i < 3; ++i) Dm.col(i) = X[i + 1] - X[0];
    } while (std::abs(Dm.determinant()) < 0.05 * size_m * size_m * size_m);
    if (Dm.determinant() < 0) {
      std::swap(X[1], X[2]);
      for (int i = 0; i < 3; ++i) Dm.col(i) = X[i + 1] - X[0];
    }
    const Matrix3 Dm_inverse = Dm.inverse();
    const std::array<Vector3, 4> g = CalcShapeGradients(Dm_inverse);
    const double volume = Dm.determinant() / 6;
    const LameParameters lame = ToLame(fd::LogUniform(1e3, 1e10, &rng), poisson_ratios[trial % 6]);
    const Matrix12 K0e = CalcElementStiffness(g, volume, lame);
    // x_a = Q·(I + G)·X_a + t, ‖G‖ the strain's size (G's skew part a further small rotation).
    Matrix3 G;
    for (int i = 0; i < 3; ++i) G.col(i) = random_vector(1);
    const double strain = fd::LogUniform(1e-4, 0.3, &rng);
    G *= strain / G.norm();
    const Matrix3 Q = fd::RandomRotation(&rng);
    const Vector3 t = random_vector(size_m);
    Eigen::VectorXd x(12);
    for (int a = 0; a < 4; ++a) x.segment<3>(3 * a) = Q * (Matrix3::Identity() + G) * X[a] + t;
    const Tet tet{0, 1, 2, 3};
    const Matrix3 R = CalcPolarRotation(CalcDeformationGradient(x, tet, Dm_inverse));
    auto force = [&](const Eigen::VectorXd& y, const Matrix3& R_held) {
      const Matrix3 RtF = R_held.transpose() * CalcDeformationGradient(y, tet, Dm_inverse);
      const Matrix3 eps = 0.5 * (RtF + RtF.transpose()) - Matrix3::Identity();
      const Matrix3 P = R_held * (2 * lame.mu * eps + lame.lambda * eps.trace() * Matrix3::Identity());
      Eigen::VectorXd f(12);
      for (int a = 0; a < 4; ++a) f.segment<3>(3 * a) = -volume * P * g[a];
      return f;
    };
    const double h = 1e-6 * size_m;
    const Eigen::MatrixXd K_fd =
        -fd::CentralDifferenceJacobian([&](const Eigen::VectorXd& y) { return force(y, R); }, x, h);
    const double scale = K_fd.cwiseAbs().maxCoeff();
    auto error = [&](const Eigen::MatrixXd& K) { return (K - K_fd).cwiseAbs().maxCoeff() / scale; };
    const Matrix12 K_R = RotateElementMatrix(K0e, R);
    worst = std::max(worst, error(K_R));
    EXPECT_LT(error(K_R), tolerance) << "trial " << trial << ": μ " << lame.mu << " Pa, λ " << lame.lambda << " Pa";
    // The check sees a wrong matrix: one off by 1e-5, and one left in the rest frame.
    least_wrong = std::min(least_wrong, error((1 + 1e-5) * K_R));
    EXPECT_GT(error((1 + 1e-5) * K_R), 10 * tolerance) << "trial " << trial;
    if ((R - Matrix3::Identity()).norm() > 0.1) {
      EXPECT_GT(error(K0e), 1e-3) << "trial " << trial;
    }
    // The corotational energy's exact Hessian (the force with R = R(x)) is K_R up to O(‖ε‖).
    const Eigen::MatrixXd hessian = -fd::CentralDifferenceJacobian(
        [&](const Eigen::VectorXd& y) {
          return force(y, CalcPolarRotation(CalcDeformationGradient(y, tet, Dm_inverse)));
        },
        x, h);
    const double hessian_error = (K_R - hessian).cwiseAbs().maxCoeff() / hessian.cwiseAbs().maxCoeff();
    worst_hessian_per_strain = std::max(worst_hessian_per_strain, hessian_error / strain);
    EXPECT_LT(hessian_error, 2 * strain) << "trial " << trial;
  }
  std::printf(
      "corotational stiffness against central differences, 300 tets, E 1e3–1e10 Pa: worst %.1e (tolerance %.0e); "
      "a 1e-5 error shows as ≥ %.1e; K_R to the exact Hessian ≤ %.2f·‖ε‖\n",
      worst, tolerance, least_wrong, worst_hessian_per_strain);
}

TEST(FemBodyTest, DampedDynamicsSettleOnTheStaticSolution) {
  // A block hanging from its top face under gravity, stepped at 10 ms with Rayleigh damping,
  // settles where the static solve puts it (linear model, so both solve the same K).
  Material material;
  material.youngs_modulus_Pa = 1e5;
  material.poisson_ratio = 0.3;
  material.mass_damping_1_per_s = 5;
  material.stiffness_damping_s = 0.01;
  material.model = MaterialModel::kLinear;
  FemBody dynamic = MakeBlock(Vector3(0.1, 0.1, 0.3), 2, 2, 6, material);
  FemBody statics = MakeBlock(Vector3(0.1, 0.1, 0.3), 2, 2, 6, material);
  for (int v = 0; v < dynamic.num_vertices(); ++v)
    if (dynamic.rest_positions()[v].z() == 0.3) dynamic.FixVertex(v), statics.FixVertex(v);
  statics.SolveLinearStatics(Vector3(0, 0, -9.81));
  for (int i = 0; i < 500; ++i) dynamic.Step(0.01, Vector3(0, 0, -9.81));
  const double sag = (statics.q() - dynamic.q()).cwiseAbs().maxCoeff();
  const double scale =
      (statics.q() - Eigen::Map<const Eigen::VectorXd>(statics.rest_positions()[0].data(), 3 * statics.num_vertices()))
          .cwiseAbs()
          .maxCoeff();
  std::printf("hanging block: dynamic vs static positions differ by %.2e m (largest displacement %.2e m)\n", sag,
              scale);
  EXPECT_LT(sag, 1e-6 * std::max(1.0, scale / 1e-3));
  EXPECT_GT(scale, 1e-4);
}

TEST(FemBodyTest, BadInputNamesTheBodyAndElement) {
  std::vector<Vector3> vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {5, 5, 5}};
  const std::vector<Tet> tets = {{0, 1, 2, 3}};
  Material material;
  auto error_of = [&](const std::vector<Vector3>& v, const std::vector<Tet>& t, const Material& m) {
    return hydro::test::ErrorOf([&] { FemBody body("jelly", v, t, m); });
  };
  EXPECT_NE(error_of(vertices, {{0, 2, 1, 3}}, material).find("deformable 'jelly': "), std::string::npos);
  EXPECT_NE(error_of(vertices, {{0, 2, 1, 3}}, material).find("tet 0"), std::string::npos);  // inverted
  EXPECT_NE(error_of({{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 1, 0}}, tets, material).find("tet 0"), std::string::npos);
  std::vector<Vector3> nan = vertices;
  nan[2].y() = std::nan("");
  EXPECT_NE(error_of(nan, tets, material).find("deformable 'jelly': "), std::string::npos);
  Material incompressible = material;
  incompressible.poisson_ratio = 0.5;
  EXPECT_EQ(error_of(vertices, tets, incompressible),
            "deformable 'jelly': Poisson's ratio must be in (-1, 0.5) (got 0.500000)");
  Material soft = material;
  soft.youngs_modulus_Pa = 0;
  EXPECT_EQ(error_of(vertices, tets, soft), "deformable 'jelly': Young's modulus must be positive (got 0.000000)");
  // The unused fifth vertex is dropped with a warning.
  FemBody body("jelly", vertices, tets, material);
  EXPECT_EQ(body.num_vertices(), 4);
  ASSERT_EQ(body.warnings().size(), 1u);
  EXPECT_EQ(body.warnings()[0], "deformable 'jelly': 1 vertices no tet uses were dropped");
}

TEST(FemBodyTest, AStateSetOnASecondBodyOfTheSameModelStepsIdentically) {
  for (MaterialModel model : {MaterialModel::kCorotational, MaterialModel::kNeoHookean}) {
    Material material;
    material.model = model;
    material.mass_damping_1_per_s = 1;
    FemBody first = MakeBlock(Vector3(0.2, 0.1, 0.1), 4, 2, 2, material);
    FemBody second = MakeBlock(Vector3(0.2, 0.1, 0.1), 4, 2, 2, material);
    for (int v = 0; v < first.num_vertices(); ++v)
      if (first.rest_positions()[v].x() == 0) first.FixVertex(v);
    first.SetRigidState(RigidTransform::Identity(), Vector3(0, 0, 0.5), Vector3(0, 2, 0));
    for (int i = 0; i < 5; ++i) first.Step(0.01, Vector3(0, 0, -9.81));
    // The second body has stepped on its own, with no DoF fixed: its step matrix's pattern is
    // not the first's until the state brings the fixed DoFs.
    for (int i = 0; i < 2; ++i) second.Step(0.01, Vector3(0, 0, -9.81));
    second.SetState(first.state());
    EXPECT_EQ(second.state().fixed, first.state().fixed);
    for (int i = 0; i < 5; ++i) {
      first.Step(0.01, Vector3(0, 0, -9.81));
      second.Step(0.01, Vector3(0, 0, -9.81));
      // Bit for bit.
      ASSERT_TRUE(first.q() == second.q()) << "model " << static_cast<int>(model) << ", step " << i;
      ASSERT_TRUE(first.v() == second.v()) << "model " << static_cast<int>(model) << ", step " << i;
      ASSERT_EQ(first.state().rotations, second.state().rotations);
    }
  }
}

TEST(FemBodyTest, SetStateRefusesAStateOfTheWrongSizeOrNotFinite) {
  const Material material;
  FemBody body = MakeBlock(Vector3(0.2, 0.1, 0.1), 2, 1, 1, material, "jelly");
  const FemBody larger = MakeBlock(Vector3(0.2, 0.1, 0.1), 3, 1, 1, material);
  const FemState before = body.state();
  auto error_of = [&](const FemState& state) { return hydro::test::ErrorOf([&] { body.SetState(state); }); };
  const std::string n = std::to_string(3 * body.num_vertices());
  EXPECT_EQ(error_of(larger.state()), "deformable 'jelly': SetState: the state has " +
                                          std::to_string(3 * larger.num_vertices()) +
                                          " position entries; the model has " + n);
  FemState short_velocity = before;
  short_velocity.v.resize(3);
  EXPECT_EQ(error_of(short_velocity),
            "deformable 'jelly': SetState: the state has 3 velocity entries; the model has " + n);
  FemState nan_velocity = before;
  nan_velocity.v[7] = std::nan("");
  EXPECT_EQ(error_of(nan_velocity), "deformable 'jelly': SetState: velocity entry 7 (vertex 2) is nan, not finite");
  FemState infinite_position = before;
  infinite_position.q[0] = INFINITY;
  EXPECT_EQ(error_of(infinite_position),
            "deformable 'jelly': SetState: position entry 0 (vertex 0) is inf, not finite");
  FemState nan_rotation = before;
  nan_rotation.rotations[3](1, 2) = std::nan("");
  EXPECT_EQ(error_of(nan_rotation), "deformable 'jelly': SetState: the rotation of tet 3 is not finite");
  // Refused states leave the body as it was.
  EXPECT_TRUE(body.q() == before.q);
  EXPECT_TRUE(body.v() == before.v);
}

TEST(FemBodyTest, SetStateOfPositionsAndVelocitiesRefusesAsTheSnapshotOverloadDoes) {
  // The older overload (q, v) checks through the same helpers, with the same messages.
  const Material material;
  FemBody body = MakeBlock(Vector3(0.2, 0.1, 0.1), 2, 1, 1, material, "jelly");
  const Eigen::VectorXd q = body.q(), v = body.v();
  auto error_of = [&](const Eigen::VectorXd& new_q, const Eigen::VectorXd& new_v) {
    return hydro::test::ErrorOf([&] { body.SetState(new_q, new_v); });
  };
  const std::string n = std::to_string(3 * body.num_vertices());
  EXPECT_EQ(error_of(Eigen::VectorXd::Zero(5), v),
            "deformable 'jelly': SetState: the state has 5 position entries; the model has " + n);
  EXPECT_EQ(error_of(q, Eigen::VectorXd::Zero(3)),
            "deformable 'jelly': SetState: the state has 3 velocity entries; the model has " + n);
  Eigen::VectorXd bad_q = q;
  bad_q[4] = -INFINITY;
  EXPECT_EQ(error_of(bad_q, v), "deformable 'jelly': SetState: position entry 4 (vertex 1) is -inf, not finite");
  Eigen::VectorXd bad_v = v;
  bad_v[10] = std::nan("");
  EXPECT_EQ(error_of(q, bad_v), "deformable 'jelly': SetState: velocity entry 10 (vertex 3) is nan, not finite");
  EXPECT_TRUE(body.q() == q);
  EXPECT_TRUE(body.v() == v);
  // A good state is taken as given.
  Eigen::VectorXd moved_q = q, moved_v = v;
  moved_q[2] += 0.01;
  moved_v[5] = 0.3;
  EXPECT_EQ(error_of(moved_q, moved_v), "no error");
  EXPECT_TRUE(body.q() == moved_q);
  EXPECT_TRUE(body.v() == moved_v);
}

}  // namespace
}  // namespace fem
}  // namespace hydro
