#pragma once
// A rigid body's point kinematics in the twist order [ω; v] about a reference point, for the patch
// problem (hydro/patch_problem.h): a point's velocity, the Jacobian J, the wrench Jᵀ·γ of an
// impulse. (The curvature blocks Jᵀ·H·J are summed patch by patch in PatchProblem::EvaluatePatch.)
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

// Jᵀ·γ for J = PointJacobian(r): the wrench [r × γ; γ] of an impulse γ at offset r.
inline Vector6 Wrench(const Vector3& r, const Vector3& gamma) {
  Vector6 W;
  W << r.cross(gamma), gamma;
  return W;
}

}  // namespace hydro::internal
