#include "fem/tet_element.h"

#include <Eigen/SVD>

namespace hydro {
namespace fem {

std::array<Vector3, 4> CalcShapeGradients(const Matrix3& Dm_inverse) {
  std::array<Vector3, 4> g;
  for (int i = 0; i < 3; ++i) g[i + 1] = Dm_inverse.row(i).transpose();
  g[0] = -(g[1] + g[2] + g[3]);
  return g;
}

Matrix12 CalcElementStiffness(const std::array<Vector3, 4>& g, double volume, const LameParameters& lame) {
  Eigen::Matrix<double, 6, 12> B = Eigen::Matrix<double, 6, 12>::Zero();
  for (int a = 0; a < 4; ++a) {
    const int c = 3 * a;
    B(0, c) = g[a].x();
    B(1, c + 1) = g[a].y();
    B(2, c + 2) = g[a].z();
    B(3, c + 1) = g[a].z(), B(3, c + 2) = g[a].y();
    B(4, c) = g[a].z(), B(4, c + 2) = g[a].x();
    B(5, c) = g[a].y(), B(5, c + 1) = g[a].x();
  }
  Eigen::Matrix<double, 6, 6> C = Eigen::Matrix<double, 6, 6>::Zero();
  C.topLeftCorner<3, 3>().setConstant(lame.lambda);
  C.topLeftCorner<3, 3>().diagonal().array() += 2 * lame.mu;
  C.bottomRightCorner<3, 3>().diagonal().setConstant(lame.mu);
  return volume * B.transpose() * C * B;
}

Matrix12 CalcConsistentElementMass(double mass_kg) {
  Matrix12 Me = Matrix12::Zero();
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) Me.block<3, 3>(3 * a, 3 * b) = (a == b ? 2 : 1) * mass_kg / 20 * Matrix3::Identity();
  return Me;
}

Matrix3 CalcDeformationGradient(const Eigen::VectorXd& x, const Tet& t, const Matrix3& Dm_inverse) {
  Matrix3 Ds;
  for (int i = 0; i < 3; ++i) Ds.col(i) = x.segment<3>(3 * t[i + 1]) - x.segment<3>(3 * t[0]);
  return Ds * Dm_inverse;
}

Matrix3 CalcPolarRotation(const Matrix3& F) {
  const Eigen::JacobiSVD<Matrix3> svd(F, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Matrix3 U = svd.matrixU();
  const Matrix3 V = svd.matrixV();
  if ((U * V.transpose()).determinant() < 0) U.col(2) *= -1;
  return U * V.transpose();
}

Matrix12 RotateElementMatrix(const Matrix12& K, const Matrix3& R) {
  Matrix12 RK;
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) RK.block<3, 3>(3 * a, 3 * b) = R * K.block<3, 3>(3 * a, 3 * b) * R.transpose();
  return RK;
}

}  // namespace fem
}  // namespace hydro
