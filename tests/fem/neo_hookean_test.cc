// The Neo-Hookean model: stress and stress derivative against finite differences, agreement with
// linear elasticity at small strain, and Newton stepping (free tumbling, hanging block).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "fem/fem_body.h"
#include "fem/neo_hookean.h"

namespace hydro {
namespace fem {
namespace {

TEST(NeoHookeanTest, StressAndItsDerivativeMatchFiniteDifferences) {
  const LameParameters lame = ToLame(1e5, 0.35);
  Matrix3 F;
  F << 1.1, 0.2, -0.05, 0.03, 0.9, 0.1, -0.1, 0.05, 1.05;
  const Matrix3 P = NeoHookeanStress(F, lame);
  const Eigen::Matrix<double, 9, 9> dPdF = NeoHookeanStressDerivative(F, lame);
  const double h = 1e-6;
  for (int k = 0; k < 3; ++k)
    for (int l = 0; l < 3; ++l) {
      Matrix3 Fp = F, Fm = F;
      Fp(k, l) += h;
      Fm(k, l) -= h;
      // P = ∂Ψ/∂F.
      const double dpsi = (NeoHookeanEnergyDensity(Fp, lame) - NeoHookeanEnergyDensity(Fm, lame)) / (2 * h);
      EXPECT_NEAR(P(k, l), dpsi, 1e-6 * P.cwiseAbs().maxCoeff());
      // Column k + 3l of dP/dF = ∂vec(P)/∂F_kl.
      const Matrix3 dP = (NeoHookeanStress(Fp, lame) - NeoHookeanStress(Fm, lame)) / (2 * h);
      for (int i = 0; i < 9; ++i) EXPECT_NEAR(dPdF(i, k + 3 * l), dP.data()[i], 1e-5 * dPdF.cwiseAbs().maxCoeff());
    }
  // Inverted: infinite energy, so a line search refuses it.
  Matrix3 inverted = Matrix3::Identity();
  inverted(2, 2) = -0.5;
  EXPECT_TRUE(std::isinf(NeoHookeanEnergyDensity(inverted, lame)));
  // At F = I the linearization is isotropic linear elasticity: dP/dF·vec(ε) = vec(2με + λ tr ε I).
  Matrix3 strain;
  strain << 1e-3, 2e-4, 0, 2e-4, -5e-4, 1e-4, 0, 1e-4, 3e-4;
  const Eigen::Matrix<double, 9, 1> linear = NeoHookeanStressDerivative(Matrix3::Identity(), lame) *
                                             Eigen::Map<const Eigen::Matrix<double, 9, 1>>(strain.data());
  const Matrix3 sigma = 2 * lame.mu * strain + lame.lambda * strain.trace() * Matrix3::Identity();
  for (int i = 0; i < 9; ++i) EXPECT_NEAR(linear[i], sigma.data()[i], 1e-9 * sigma.cwiseAbs().maxCoeff());
}

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

TEST(NeoHookeanTest, HangingBlockAtSmallStrainMatchesLinearStatics) {
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

TEST(NeoHookeanTest, FreeTumblingKeepsShapeAndCreatesNoEnergy) {
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
