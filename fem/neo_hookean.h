#pragma once
// The compressible Neo-Hookean model, Ψ(F) = μ/2·(tr FᵀF − 3) − μ·ln J + λ/2·(ln J)², its first
// Piola–Kirchhoff stress P = μ(F − F⁻ᵀ) + λ·ln J·F⁻ᵀ and the derivative dP/dF (a 9×9 matrix on
// column-major vec(F)). Matches linear elasticity with the same μ, λ at small strain.
#include <Eigen/Core>

#include "fem/material.h"
#include "hydro/math.h"

namespace hydro {
namespace fem {

// +infinity for J = det F ≤ 0 (an inverted element), so a line search never accepts it.
double NeoHookeanEnergyDensity(const Matrix3& F, const LameParameters& lame);
Matrix3 NeoHookeanStress(const Matrix3& F, const LameParameters& lame);
Eigen::Matrix<double, 9, 9> NeoHookeanStressDerivative(const Matrix3& F, const LameParameters& lame);

}  // namespace fem
}  // namespace hydro
