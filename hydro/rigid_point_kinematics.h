#pragma once
// A rigid body's point kinematics in the twist order [ω; v] about a reference point, for the patch
// problem (hydro/patch_problem.h): a point's velocity, the Jacobian J, the wrench Jᵀ·γ of an
// impulse, and the curvature blocks Jᵀ·H·J.
#include "hydro/math.h"

namespace hydro::internal {

using Matrix6 = Eigen::Matrix<double, 6, 6>;
using Vector6 = Eigen::Matrix<double, 6, 1>;

// J = [−[r]×, I]: the velocity of the point at offset r from a twist [ω; v] about the origin of r.
inline Eigen::Matrix<double, 3, 6> PointJacobian(const Vector3& r) {
  Eigen::Matrix<double, 3, 6> J;
  J << 0, r.z(), -r.y(), 1, 0, 0,  //
      -r.z(), 0, r.x(), 0, 1, 0,   //
      r.y(), -r.x(), 0, 0, 0, 1;
  return J;
}

inline Vector3 PointVelocity(const Vector6& V, const Vector3& r) { return V.tail<3>() + V.head<3>().cross(r); }

inline Matrix3 Skew(const Vector3& r) {
  Matrix3 R;
  R << 0, -r.z(), r.y(),  //
      r.z(), 0, -r.x(),   //
      -r.y(), r.x(), 0;
  return R;
}

// S += J_sᵀ·H·J_t for J = PointJacobian(r) at r_s and r_t, by its blocks: with R = [r]×,
// Jᵀ·H·J' = [[r_s]×; I]·H·[−[r_t]×, I] = [−R_s·H·R_t, R_s·H; −H·R_t, H] (3×3 products only:
// a fifth of the multiplications of the 6×3·3×6 product, the step's largest cost per point).
inline void AddCurvature(const Matrix3& R_s, const Matrix3& H, const Matrix3& R_t, Matrix6* S) {
  const Matrix3 HR_t = H * R_t;
  S->topLeftCorner<3, 3>().noalias() -= R_s * HR_t;
  S->topRightCorner<3, 3>().noalias() += R_s * H;
  S->bottomLeftCorner<3, 3>() -= HR_t;
  S->bottomRightCorner<3, 3>() += H;
}

// Jᵀ·γ for J = PointJacobian(r): the wrench [r × γ; γ] of an impulse γ at offset r.
inline Vector6 Wrench(const Vector3& r, const Vector3& gamma) {
  Vector6 W;
  W << r.cross(gamma), gamma;
  return W;
}

}  // namespace hydro::internal
