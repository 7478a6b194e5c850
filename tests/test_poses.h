#pragma once
// Poses the tests and benchmarks build again and again, written once.
#include "hydro/math.h"

namespace hydro {
namespace test {

// The pose that moves by p, without turning.
inline RigidTransform Translation(const Vector3& p) {
  RigidTransform X = RigidTransform::Identity();
  X.translation() = p;
  return X;
}

// The pose that turns by `angle` (rad) about `axis` (any length) and then moves by p.
inline RigidTransform Pose(const Vector3& p, double angle = 0, const Vector3& axis = Vector3::UnitX()) {
  RigidTransform X = Translation(p);
  X.linear() = Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
  return X;
}

}  // namespace test
}  // namespace hydro
