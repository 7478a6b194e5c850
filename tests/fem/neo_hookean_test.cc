// The Neo-Hookean model: stress and stress derivative against finite differences (at one F, and
// randomised over stretches, rotations and decades of modulus), agreement with linear elasticity
// at small strain. Its stepping is tested in neo_hookean_step_test.cc.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

#include "fem/neo_hookean.h"
#include "tests/fem/finite_differences.h"

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

TEST(NeoHookeanTest, StressAndItsDerivativeMatchCentralDifferencesOverDecades) {
  // P = ∂Ψ/∂F and dP/dF = ∂vec(P)/∂vec(F) against central differences of Ψ and of P, at
  // F = U·diag(s)·Vᵀ with U, V random rotations and principal stretches s_i from 0.6 to 1.6
  // (compression and extension) whose product J lies in [0.5, 2]; Young's modulus log-uniform
  // over 1e3–1e10 Pa, ν from 0 to 0.49 (λ/μ up to 49).
  //
  // The step is h = 1e-5·s_min, the same size relative to the smallest stretch, where Ψ's
  // derivatives grow (ln J, F⁻ᵀ). The differences then err by O(h²) times Ψ's third (or P's
  // second) derivative — about 1e-10 of the stress — and by the round-off of what is differenced
  // over 2h: about 1e-16·|Ψ|/h for P, 1e-16·‖P‖/h for dP/dF. The tolerances are 1e-7 relative
  // (to ‖P‖ or ‖dP/dF‖, Frobenius) plus 100 times that round-off. A Lamé parameter off by 1e-3
  // of μ is checked to exceed them tenfold.
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> stretch(0.6, 1.6);
  const double poisson_ratios[] = {0.0, 0.2, 0.3, 0.4, 0.45, 0.49};
  const double tolerance = 1e-7;
  double worst_P = 0, worst_dPdF = 0, least_wrong = 1;
  for (int trial = 0; trial < 300; ++trial) {
    Vector3 s;
    do {
      for (int i = 0; i < 3; ++i) s[i] = stretch(rng);
    } while (s.prod() < 0.5 || s.prod() > 2);
    const Matrix3 U = fd::RandomRotation(&rng), V = fd::RandomRotation(&rng);
    const Matrix3 F = U * s.asDiagonal() * V.transpose();
    const LameParameters lame = ToLame(fd::LogUniform(1e3, 1e10, &rng), poisson_ratios[trial % 6]);
    const double h = 1e-5 * s.minCoeff();
    const Eigen::VectorXd vec_F = Eigen::Map<const Eigen::Matrix<double, 9, 1>>(F.data());
    auto unvec = [](const Eigen::VectorXd& f) { return Matrix3(Eigen::Map<const Matrix3>(f.data())); };
    auto psi = [&](const Eigen::VectorXd& f) { return NeoHookeanEnergyDensity(unvec(f), lame); };
    auto stress = [&](const Eigen::VectorXd& f) {
      const Matrix3 P = NeoHookeanStress(unvec(f), lame);
      return Eigen::VectorXd(Eigen::Map<const Eigen::Matrix<double, 9, 1>>(P.data()));
    };
    const Eigen::VectorXd P = stress(vec_F);
    const Eigen::VectorXd P_fd = fd::CentralDifferenceGradient(psi, vec_F, h);
    const double P_tolerance = tolerance * P.norm() + 100 * 1e-16 * std::abs(NeoHookeanEnergyDensity(F, lame)) / h;
    worst_P = std::max(worst_P, (P - P_fd).norm() / P.norm());
    EXPECT_LT((P - P_fd).norm(), P_tolerance) << "trial " << trial << ": stretches " << s.transpose();
    const Eigen::Matrix<double, 9, 9> dPdF = NeoHookeanStressDerivative(F, lame);
    const Eigen::MatrixXd dPdF_fd = fd::CentralDifferenceJacobian(stress, vec_F, h);
    const double dPdF_tolerance = tolerance * dPdF.norm() + 100 * 1e-16 * P.norm() / h;
    worst_dPdF = std::max(worst_dPdF, (dPdF - dPdF_fd).norm() / dPdF.norm());
    EXPECT_LT((dPdF - dPdF_fd).norm(), dPdF_tolerance) << "trial " << trial << ": stretches " << s.transpose();
    // The check sees a wrong derivative: μ, or λ, off by 1e-3 of μ.
    for (const LameParameters& wrong :
         {LameParameters{lame.mu * (1 + 1e-3), lame.lambda}, LameParameters{lame.mu, lame.lambda + 1e-3 * lame.mu}}) {
      const double error = (NeoHookeanStressDerivative(F, wrong) - dPdF_fd).norm();
      least_wrong = std::min(least_wrong, error / dPdF.norm());
      EXPECT_GT(error, 10 * dPdF_tolerance) << "trial " << trial;
    }
  }
  std::printf(
      "Neo-Hookean against central differences, 300 F with J in [0.5, 2], E 1e3–1e10 Pa: worst relative error "
      "P %.1e, dP/dF %.1e (tolerance %.0e plus round-off); a wrong Lamé parameter shows as ≥ %.1e\n",
      worst_P, worst_dPdF, tolerance, least_wrong);
}

}  // namespace
}  // namespace fem
}  // namespace hydro
