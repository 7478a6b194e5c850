#pragma once
// btVector3/btTransform ⇄ the core's Eigen types. The only place the two conventions meet.
#include <LinearMath/btTransform.h>

#include "hydro/math.h"

namespace hydro {
namespace bullet {

inline Vector3 ToEigen(const btVector3& v) { return Vector3(v.x(), v.y(), v.z()); }
inline btVector3 ToBullet(const Vector3& v) { return btVector3(v.x(), v.y(), v.z()); }

inline Matrix3 ToEigen(const btMatrix3x3& R) {
  Matrix3 result;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) result(i, j) = R[i][j];
  return result;
}

// A float Bullet's rotation is orthonormal only to float rounding (RᵀR − I of 1e-7), which the
// core rejects as a sheared pose; it is taken to the nearest rotation in double through its
// normalized quaternion. Anything farther from a rotation than float rounding explains is passed
// as it is, for the core to reject with its message.
inline RigidTransform ToRigidTransform(const btTransform& X) {
  RigidTransform result = RigidTransform::Identity();
  result.linear() = ToEigen(X.getBasis());
  result.translation() = ToEigen(X.getOrigin());
  if constexpr (sizeof(btScalar) < sizeof(double)) {
    const Matrix3 R = result.linear();
    constexpr double kFloatRounding = 1e-5;
    if ((R.transpose() * R - Matrix3::Identity()).norm() < kFloatRounding && R.determinant() > 0)
      result.linear() = Eigen::Quaterniond(R).normalized().toRotationMatrix();
  }
  return result;
}

inline btTransform ToBullet(const RigidTransform& X) {
  const Matrix3& R = X.linear();
  btMatrix3x3 basis(R(0, 0), R(0, 1), R(0, 2), R(1, 0), R(1, 1), R(1, 2), R(2, 0), R(2, 1), R(2, 2));
  return btTransform(basis, ToBullet(Vector3(X.translation())));
}

}  // namespace bullet
}  // namespace hydro
