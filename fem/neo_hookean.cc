#include "fem/neo_hookean.h"

#include <cmath>
#include <limits>

namespace hydro {
namespace fem {

double NeoHookeanEnergyDensity(const Matrix3& F, const LameParameters& lame) {
  const double J = F.determinant();
  if (!(J > 0)) return std::numeric_limits<double>::infinity();
  const double log_J = std::log(J);
  return 0.5 * lame.mu * ((F.transpose() * F).trace() - 3) - lame.mu * log_J + 0.5 * lame.lambda * log_J * log_J;
}

Matrix3 NeoHookeanStress(const Matrix3& F, const LameParameters& lame) {
  const Matrix3 F_invT = F.inverse().transpose();
  return lame.mu * (F - F_invT) + lame.lambda * std::log(F.determinant()) * F_invT;
}

Eigen::Matrix<double, 9, 9> NeoHookeanStressDerivative(const Matrix3& F, const LameParameters& lame) {
  // dP = μ dF + (μ − λ ln J)·F⁻ᵀ dFᵀ F⁻ᵀ + λ·tr(F⁻¹ dF)·F⁻ᵀ, applied to each unit dF = E_kl.
  const Matrix3 F_inv = F.inverse();
  const Matrix3 F_invT = F_inv.transpose();
  const double c = lame.mu - lame.lambda * std::log(F.determinant());
  Eigen::Matrix<double, 9, 9> dPdF;
  for (int l = 0; l < 3; ++l)
    for (int k = 0; k < 3; ++k) {
      Matrix3 E = Matrix3::Zero();
      E(k, l) = 1;
      const Matrix3 dP = lame.mu * E + c * F_invT * E.transpose() * F_invT + lame.lambda * F_inv(l, k) * F_invT;
      dPdF.col(k + 3 * l) = Eigen::Map<const Eigen::Matrix<double, 9, 1>>(dP.data());
    }
  return dPdF;
}

}  // namespace fem
}  // namespace hydro
