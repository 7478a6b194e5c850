#pragma once
// Shared numeric types and input checks for the hydroelastic core.
//
// Frames use monogram notation (see hydro/README.md): X_AB is the pose of frame B in frame A,
// p_AQ the position of point Q measured and expressed in A, nhat_BA_W a unit vector pointing
// from B into A expressed in W. All quantities are SI.
#include <Eigen/Core>
#include <Eigen/Geometry>

#include <cmath>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace hydro {

using Vector3 = Eigen::Vector3d;
using Matrix3 = Eigen::Matrix3d;
// A rigid transform. Only its rotation and translation are used; CheckPose() validates that the
// linear part is a proper rotation.
using RigidTransform = Eigen::Isometry3d;

// Thrown for every invalid user input (non-finite pose, E ≤ 0, degenerate mesh, …). The message
// names what was wrong and where.
class InvalidInput : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

inline bool IsFinite(const Vector3& v) { return v.allFinite(); }

// Throws InvalidInput unless `value` is finite and > 0. `what` names the quantity for the message
// (a view: a check that passes builds no string, so a step's checks allocate nothing).
void CheckPositive(double value, std::string_view what);
// Throws InvalidInput unless `value` is finite and ≥ 0.
void CheckNonNegative(double value, std::string_view what);
// Throws InvalidInput unless X is finite and its linear part is a rotation (orthonormal, det +1)
// to within 1e-9.
void CheckPose(const RigidTransform& X, const char* what);
// Throws InvalidInput naming the first vertex with a non-finite coordinate ("`mesh`: vertex v has
// a non-finite coordinate").
void CheckFiniteVertices(const std::vector<Vector3>& vertices, const char* mesh);

}  // namespace hydro
