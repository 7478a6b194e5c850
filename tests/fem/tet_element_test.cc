// A linear tet's element functions against closed forms: shape-function gradients reproduce
// linear fields, F of an affine map is its matrix, the polar rotation of R·S is R (and a
// reflection becomes a rotation), the consistent mass carries m per axis, and rotating an element
// matrix is R̂·K·R̂ᵀ.
#include <gtest/gtest.h>

#include "fem/tet_element.h"

namespace hydro {
namespace fem {
namespace {

const std::array<Vector3, 4> kCorners = {Vector3(0.1, -0.2, 0.05), Vector3(0.9, 0.1, -0.1), Vector3(0.2, 0.7, 0.2),
                                         Vector3(0.3, 0.1, 0.8)};

Matrix3 RestDmInverse() {
  Matrix3 Dm;
  for (int i = 0; i < 3; ++i) Dm.col(i) = kCorners[i + 1] - kCorners[0];
  return Dm.inverse();
}

Matrix3 SomeRotation() { return Eigen::AngleAxisd(0.9, Vector3(1, -2, 0.5).normalized()).toRotationMatrix(); }

TEST(TetElementTest, ShapeGradientsReproduceTheGradientOfALinearField) {
  // φ(X) = c·X + d is linear, so Σ_a φ(X_a)·∇N_a = c exactly; and Σ_a ∇N_a = 0.
  const Vector3 c(2.0, -3.0, 0.5);
  const double d = 1.7;
  const std::array<Vector3, 4> g = CalcShapeGradients(RestDmInverse());
  Vector3 gradient = Vector3::Zero(), sum = Vector3::Zero();
  for (int a = 0; a < 4; ++a) {
    gradient += (c.dot(kCorners[a]) + d) * g[a];
    sum += g[a];
  }
  EXPECT_LT((gradient - c).norm(), 1e-13);
  EXPECT_LT(sum.norm(), 1e-13);
}

TEST(TetElementTest, DeformationGradientOfAnAffineMapIsItsMatrix) {
  Matrix3 A;
  A << 1.1, 0.2, -0.1, 0.05, 0.9, 0.3, -0.2, 0.1, 1.3;
  const Vector3 t(0.4, -0.5, 2.0);
  Eigen::VectorXd x(12);
  for (int a = 0; a < 4; ++a) x.segment<3>(3 * a) = A * kCorners[a] + t;
  const Matrix3 F = CalcDeformationGradient(x, Tet{0, 1, 2, 3}, RestDmInverse());
  EXPECT_LT((F - A).norm(), 1e-13);
}

TEST(TetElementTest, PolarRotationOfRotatedStretchIsTheRotation) {
  Matrix3 S;  // symmetric positive definite
  S << 1.3, 0.1, 0.2, 0.1, 0.8, -0.05, 0.2, -0.05, 1.1;
  const Matrix3 R = SomeRotation();
  EXPECT_LT((CalcPolarRotation(R * S) - R).norm(), 1e-13);
  // An inverted element (det F < 0) still gets a proper rotation.
  const Matrix3 reflected = R * S * Vector3(1, 1, -0.2).asDiagonal();
  const Matrix3 R_reflected = CalcPolarRotation(reflected);
  EXPECT_NEAR(R_reflected.determinant(), 1.0, 1e-13);
  EXPECT_LT((R_reflected.transpose() * R_reflected - Matrix3::Identity()).norm(), 1e-13);
}

TEST(TetElementTest, ConsistentMassCarriesTheElementMassPerAxis) {
  const double m = 2.5;
  const Matrix12 M = CalcConsistentElementMass(m);
  EXPECT_EQ(M, M.transpose());
  // A uniform velocity along one axis carries momentum m along it and none across.
  for (int axis = 0; axis < 3; ++axis) {
    Vector12 u = Vector12::Zero();
    for (int a = 0; a < 4; ++a) u[3 * a + axis] = 1;
    const Vector12 p = M * u;
    for (int k = 0; k < 3; ++k) {
      double momentum = 0;
      for (int a = 0; a < 4; ++a) momentum += p[3 * a + k];
      EXPECT_NEAR(momentum, k == axis ? m : 0.0, 1e-15);
    }
  }
  EXPECT_DOUBLE_EQ(M(0, 0), m / 10);  // m/20·(1 + δab)
  EXPECT_DOUBLE_EQ(M(0, 3), m / 20);
}

TEST(TetElementTest, RotatingAnElementMatrixIsConjugationByBlockDiagonalR) {
  Matrix12 K = Matrix12::Zero();
  for (int r = 0; r < 12; ++r)
    for (int c = 0; c < 12; ++c) K(r, c) = std::sin(1.0 + r + 13.0 * c);
  const Matrix3 R = SomeRotation();
  Matrix12 R_hat = Matrix12::Zero();
  for (int a = 0; a < 4; ++a) R_hat.block<3, 3>(3 * a, 3 * a) = R;
  EXPECT_LT((RotateElementMatrix(K, R) - R_hat * K * R_hat.transpose()).norm(), 1e-13);
}

}  // namespace
}  // namespace fem
}  // namespace hydro
