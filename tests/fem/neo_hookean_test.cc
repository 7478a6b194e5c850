// The Neo-Hookean model: stress and stress derivative against finite differences, agreement with
// linear elasticity at small strain. Its stepping is tested in neo_hookean_step_test.cc.
#include <gtest/gtest.h>

#include <cmath>

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

}  // namespace
}  // namespace fem
}  // namespace hydro
