#pragma once
// One linear tetrahedron of a FEM body (002 §V): its shape-function gradients, rest element
// stiffness and consistent mass, the deformation gradient at given positions and the rotation
// of its polar decomposition (the corotational frame, 002 §V-B). Pure functions of their
// arguments; FemModel computes the rest quantities once per tet.
#include <Eigen/Core>

#include <array>

#include "fem/material.h"
#include "hydro/math.h"
#include "hydro/volume_mesh.h"

namespace hydro {
namespace fem {

using Matrix12 = Eigen::Matrix<double, 12, 12>;
using Vector12 = Eigen::Matrix<double, 12, 1>;

// ∇N_a of the four linear shape functions: ∇N_i (i = 1..3) are the rows of Dm⁻¹ (Dm = [X1 − X0,
// X2 − X0, X3 − X0]), ∇N_0 = −(∇N_1 + ∇N_2 + ∇N_3).
std::array<Vector3, 4> CalcShapeGradients(const Matrix3& Dm_inverse);

// K0e = V·Bᵀ C B for shape-function gradients g[a] (Voigt strain, engineering shear; C isotropic
// with Lamé λ, μ): the element stiffness in the rest frame.
Matrix12 CalcElementStiffness(const std::array<Vector3, 4>& g, double volume, const LameParameters& lame);

// The consistent mass matrix of a linear tet of mass m: m/20·(1 + δab) per axis.
Matrix12 CalcConsistentElementMass(double mass_kg);

// F = Ds·Dm⁻¹ of tet t at positions x (3 per vertex), Ds = [x1 − x0, x2 − x0, x3 − x0].
Matrix3 CalcDeformationGradient(const Eigen::VectorXd& x, const Tet& t, const Matrix3& Dm_inverse);

// R of the polar decomposition F = R·S, from the SVD; a reflection (an inverted element) is
// turned into the nearest rotation by flipping the weakest direction.
Matrix3 CalcPolarRotation(const Matrix3& F);

// R̂·K·R̂ᵀ with R̂ = blockdiag(R, R, R, R): an element matrix turned from the rest frame to R's.
Matrix12 RotateElementMatrix(const Matrix12& K, const Matrix3& R);

}  // namespace fem
}  // namespace hydro
