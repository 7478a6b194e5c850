#pragma once
// Random rigid poses for property tests over many configurations.
#include <Eigen/Geometry>

#include <random>

#include "hydro/math.h"

namespace hydro {
namespace test {

// A random rotation (a normalized quaternion of uniform coefficients: not uniform over SO(3), but
// covering it) and a translation in the cube of half-side `spread`.
inline RigidTransform RandomPose(std::mt19937* rng, double spread) {
  std::uniform_real_distribution<double> u(-1, 1);
  RigidTransform X = RigidTransform::Identity();
  X.linear() = Eigen::Quaterniond(u(*rng), u(*rng), u(*rng), u(*rng)).normalized().toRotationMatrix();
  X.translation() = spread * Vector3(u(*rng), u(*rng), u(*rng));
  return X;
}

}  // namespace test
}  // namespace hydro
