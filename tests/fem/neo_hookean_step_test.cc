// Backward Euler's Neo-Hookean step: the mesh's energy gradient against finite differences, its
// Hessian symmetric and PSD after projection, inverted tets at +infinity; Newton's free motion
// zeroes the incremental potential's gradient; Newton's matrix refilled in place in a pattern kept
// across steps equals the one summed from triplets; and stepping (hanging block, free tumbling).
#include "fem/neo_hookean_step.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

#include "fem/fem_body.h"

namespace hydro {
namespace fem {
namespace {

FemBody Block(MaterialModel model, const Vector3& size, int nx, int ny, int nz, double E, double mass_damping = 5) {
  std::vector<Vector3> vertices;
  std::vector<Tet> tets;
  MakeTetGrid(size, nx, ny, nz, &vertices, &tets);
  Material material;
  material.youngs_modulus_Pa = E;
  material.poisson_ratio = 0.3;
  material.mass_damping_1_per_s = mass_damping;
  material.model = model;
  return FemBody("block", vertices, tets, material);
}

// The model's vertices moved at random by up to 1 cm (a tenth of a cell).
Eigen::VectorXd RandomDeformation(const FemModel& model, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> jitter(-0.01, 0.01);
  Eigen::VectorXd x(3 * model.num_vertices());
  for (int v = 0; v < model.num_vertices(); ++v)
    x.segment<3>(3 * v) = model.rest_positions()[v] + Vector3(jitter(random), jitter(random), jitter(random));
  return x;
}

// A 2×1×1 grid of soft Kuhn-split cubes (12 tets), undamped: D = 0 in the potentials below.
FemModel SmallModel() { return Block(MaterialModel::kNeoHookean, Vector3(0.2, 0.1, 0.1), 2, 1, 1, 1e5, 0).model(); }

TEST(NeoHookeanStepTest, EnergyGradientMatchesFiniteDifferences) {
  const FemModel model = SmallModel();
  const Eigen::VectorXd x = RandomDeformation(model, 1);
  Eigen::VectorXd gradient;
  const double energy = CalcNeoHookeanEnergy(model, x, &gradient, nullptr);
  ASSERT_TRUE(std::isfinite(energy));
  ASSERT_EQ(gradient.size(), x.size());
  const double h = 1e-7;
  for (int i = 0; i < x.size(); ++i) {
    Eigen::VectorXd plus = x, minus = x;
    plus[i] += h;
    minus[i] -= h;
    const double difference =
        (CalcNeoHookeanEnergy(model, plus, nullptr, nullptr) - CalcNeoHookeanEnergy(model, minus, nullptr, nullptr)) /
        (2 * h);
    EXPECT_NEAR(gradient[i], difference, 1e-5 * gradient.cwiseAbs().maxCoeff()) << "DoF " << i;
  }
}

TEST(NeoHookeanStepTest, HessianIsSymmetricAndPositiveSemidefinite) {
  const FemModel model = SmallModel();
  const Eigen::VectorXd x = RandomDeformation(model, 2);
  Eigen::VectorXd gradient;
  std::vector<Eigen::Triplet<double>> triplets;
  CalcNeoHookeanEnergy(model, x, &gradient, &triplets);
  Eigen::MatrixXd H = Eigen::MatrixXd::Zero(x.size(), x.size());
  for (const auto& t : triplets) H(t.row(), t.col()) += t.value();
  EXPECT_LT((H - H.transpose()).cwiseAbs().maxCoeff(), 1e-12 * H.cwiseAbs().maxCoeff());
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(0.5 * (H + H.transpose()));
  EXPECT_GT(eigen.eigenvalues().minCoeff(), -1e-10 * eigen.eigenvalues().maxCoeff());
}

TEST(NeoHookeanStepTest, AnInvertedTetMakesTheEnergyInfinite) {
  const FemModel model = SmallModel();
  Eigen::VectorXd x = RandomDeformation(model, 3);
  // Push tet 0's first corner through its opposite face.
  const Tet& t = model.tets()[0];
  const Vector3 opposite = (x.segment<3>(3 * t[1]) + x.segment<3>(3 * t[2]) + x.segment<3>(3 * t[3])) / 3;
  x.segment<3>(3 * t[0]) = 2 * opposite - Vector3(x.segment<3>(3 * t[0]));
  EXPECT_TRUE(std::isinf(CalcNeoHookeanEnergy(model, x, nullptr, nullptr)));
}

// Bit for bit: the same pattern (outer and inner indices) and the same values.
bool SameBits(const Eigen::SparseMatrix<double>& a, const Eigen::SparseMatrix<double>& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols() || a.nonZeros() != b.nonZeros()) return false;
  return std::equal(a.outerIndexPtr(), a.outerIndexPtr() + a.outerSize() + 1, b.outerIndexPtr()) &&
         std::equal(a.innerIndexPtr(), a.innerIndexPtr() + a.nonZeros(), b.innerIndexPtr()) &&
         std::equal(a.valuePtr(), a.valuePtr() + a.nonZeros(), b.valuePtr());
}

TEST(NeoHookeanStepTest, HessianAddedIntoThePatternEqualsTheTripletSum) {
  // Newton's matrix is refilled in place each iteration; the Hessian's free block added into the
  // pattern must be the one the triplets sum to (the same additions, in the same order).
  const FemModel model = SmallModel();
  FemState state(model);
  state.FixVertex(0);
  state.FixVertex(5);
  std::vector<int> index;
  const int num_free = state.IndexFreeDofs(&index);
  const Eigen::VectorXd x = RandomDeformation(model, 5);
  const double scale = 1e-4;
  std::vector<Eigen::Triplet<double>> triplets, scaled;
  Eigen::VectorXd gradient_triplets, gradient_pattern;
  const double energy_triplets = CalcNeoHookeanEnergy(model, x, &gradient_triplets, &triplets);
  for (const auto& t : triplets) scaled.emplace_back(t.row(), t.col(), scale * t.value());
  const ElementAssembly assembly(model.tets(), index, num_free);
  Eigen::SparseMatrix<double> A = assembly.zero_pattern();
  const double energy_pattern = CalcNeoHookeanEnergy(model, x, &gradient_pattern, assembly, scale, &A);
  EXPECT_EQ(energy_pattern, energy_triplets);
  EXPECT_TRUE(gradient_pattern == gradient_triplets);
  EXPECT_TRUE(SameBits(A, MakeFreeDofMatrix(scaled, index, num_free)));
}

TEST(NeoHookeanStepTest, AKeptWorkspaceStepsAsAFreshOneAndRemakesItsPatternWhenDofsAreFixed) {
  for (MassModel mass_model : {MassModel::kLumped, MassModel::kConsistent}) {
    std::vector<Vector3> vertices;
    std::vector<Tet> tets;
    MakeTetGrid(Vector3(0.2, 0.1, 0.1), 3, 2, 2, &vertices, &tets);
    Material material;
    material.model = MaterialModel::kNeoHookean;
    material.youngs_modulus_Pa = 1e5;
    material.mass_damping_1_per_s = 0.5;
    material.stiffness_damping_s = 0.01;
    const FemModel model("block", vertices, tets, material, mass_model);
    FemState state(model);
    state.FixVertex(0);
    state.q = RandomDeformation(model, 9);
    const double dt = 0.01;
    const Vector3 gravity(0, 0, -9.81);
    ReusedFactorization kept_factorization;
    NeoHookeanWorkspace kept;
    StepTimings timings;
    NewtonReport report;
    for (int step = 0; step < 4; ++step) {
      if (step == 2) state.FixVertex(model.num_vertices() - 1);  // a smaller pattern from here on
      const FreeMotion with_kept =
          CalcNeoHookeanFreeMotion(model, state, dt, gravity, &kept_factorization, &kept, &timings, &report);
      ReusedFactorization fresh_factorization;
      NeoHookeanWorkspace fresh;
      const FreeMotion with_fresh =
          CalcNeoHookeanFreeMotion(model, state, dt, gravity, &fresh_factorization, &fresh, &timings, &report);
      EXPECT_EQ(kept.num_patterns, step < 2 ? 1 : 2) << "step " << step;
      EXPECT_EQ(fresh.num_patterns, 1);
      ASSERT_TRUE(with_kept.v_star == with_fresh.v_star) << "step " << step;
      ASSERT_TRUE(SameBits(with_kept.A, with_fresh.A)) << "step " << step;
      state.q += dt * with_kept.v_star;
      state.v = with_kept.v_star;
    }
  }
}

TEST(NeoHookeanStepTest, FreeMotionZeroesThePotentialsGradientAtTheFreeDofs) {
  const FemModel model = SmallModel();
  FemState state(model);
  state.q = RandomDeformation(model, 4);
  for (int v = 0; v < model.num_vertices(); ++v)
    if (model.rest_positions()[v].x() == 0) state.FixVertex(v);
  const double dt = 0.01;
  const Vector3 gravity(0, 0, -9.81);
  ReusedFactorization factorization;
  NeoHookeanWorkspace workspace;
  StepTimings timings;
  NewtonReport report;
  const FreeMotion free_motion =
      CalcNeoHookeanFreeMotion(model, state, dt, gravity, &factorization, &workspace, &timings, &report);
  ASSERT_TRUE(report.converged);
  EXPECT_GE(report.iterations, 1);
  // ∇ of the incremental potential (no damping): M(v* − v) + δt·∇Ψ(q + δt·v*) − δt·M·g.
  std::vector<Eigen::Triplet<double>> M_triplets;
  model.AssembleMass(&M_triplets);
  Eigen::SparseMatrix<double> M(state.num_dofs(), state.num_dofs());
  M.setFromTriplets(M_triplets.begin(), M_triplets.end());
  Eigen::VectorXd g(state.num_dofs());
  for (int v = 0; v < model.num_vertices(); ++v) g.segment<3>(3 * v) = gravity;
  Eigen::VectorXd psi_gradient;
  CalcNeoHookeanEnergy(model, state.q + dt * free_motion.v_star, &psi_gradient, nullptr);
  const Eigen::VectorXd residual = M * (free_motion.v_star - state.v) + dt * psi_gradient - dt * (M * g);
  // Newton stops on the size of its step (1e-10 of the velocities), so the residual is small
  // against the largest of the three terms, not zero.
  const double scale = std::max({(M * (free_motion.v_star - state.v)).cwiseAbs().maxCoeff(),
                                 dt * psi_gradient.cwiseAbs().maxCoeff(), dt * (M * g).cwiseAbs().maxCoeff()});
  for (int i = 0; i < state.num_dofs(); ++i) {
    if (free_motion.index[i] < 0) {
      EXPECT_EQ(free_motion.v_star[i], 0.0) << "fixed DoF " << i;
      continue;
    }
    EXPECT_NEAR(residual[i], 0, 1e-6 * scale) << "DoF " << i;
  }
}

TEST(NeoHookeanStepTest, HangingBlockAtSmallStrainMatchesLinearStatics) {
  FemBody neo = Block(MaterialModel::kNeoHookean, Vector3(0.1, 0.1, 0.3), 2, 2, 6, 1e6);
  FemBody linear = Block(MaterialModel::kLinear, Vector3(0.1, 0.1, 0.3), 2, 2, 6, 1e6);
  for (int v = 0; v < neo.num_vertices(); ++v)
    if (neo.rest_positions()[v].z() == 0.3) neo.FixVertex(v), linear.FixVertex(v);
  linear.SolveLinearStatics(Vector3(0, 0, -9.81));
  int most_iterations = 0;
  for (int i = 0; i < 400; ++i) {
    neo.Step(0.01, Vector3(0, 0, -9.81));
    EXPECT_TRUE(neo.last_step_converged());
    most_iterations = std::max(most_iterations, neo.last_newton_iterations());
  }
  Eigen::VectorXd rest(3 * neo.num_vertices());
  for (int v = 0; v < neo.num_vertices(); ++v) rest.segment<3>(3 * v) = neo.rest_positions()[v];
  const double displacement = (linear.q() - rest).cwiseAbs().maxCoeff();
  const double difference = (neo.q() - linear.q()).cwiseAbs().maxCoeff();
  std::printf("hanging block: Neo-Hookean vs linear static %.2e m of %.2e m (%.2f%%), ≤ %d Newton iterations a step\n",
              difference, displacement, 100 * difference / displacement, most_iterations);
  EXPECT_LT(difference, 0.01 * displacement);  // strains ~1e-3: nonlinear terms are ~0.1%
}

TEST(NeoHookeanStepTest, FreeTumblingKeepsShapeAndCreatesNoEnergy) {
  FemBody body = Block(MaterialModel::kNeoHookean, Vector3(0.2, 0.1, 0.1), 4, 2, 2, 1e5, /*mass_damping=*/0);
  body.SetRigidState(RigidTransform::Identity(), Vector3::Zero(), Vector3(3, 5, 1));
  const double volume0 = body.CalcVolume();
  double energy = body.CalcKineticEnergy() + body.CalcElasticEnergy();
  const double energy0 = energy;
  double worst_volume = 0, largest_growth = 0;
  bool grew = false;
  for (int i = 0; i < 100; ++i) {
    body.Step(0.04, Vector3::Zero());
    const double e = body.CalcKineticEnergy() + body.CalcElasticEnergy();
    largest_growth = std::max(largest_growth, e / energy - 1);
    grew |= e > energy * (1 + 1e-9);
    energy = e;
    worst_volume = std::max(worst_volume, std::abs(body.CalcVolume() / volume0 - 1));
  }
  std::printf(
      "Neo-Hookean, 4 s tumbling at 40 ms: largest volume change %.2e, largest one-step energy growth %.2e, "
      "final/initial energy %.3f\n",
      worst_volume, largest_growth, energy / energy0);
  EXPECT_LT(worst_volume, 1e-3);
  EXPECT_FALSE(grew);
}

}  // namespace
}  // namespace fem
}  // namespace hydro
