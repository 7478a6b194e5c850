#pragma once
// Tolerances for quantities that pass through Bullet's btScalar, for tests that run against both
// of Bullet's builds. In the double build they are the tests' own. In the float build a length
// such as 0.2 is stored as 0.19999998807907104, a relative rounding of up to 2⁻²⁴ ≈ 6e-8 for each
// value Bullet stores (dimensions, poses, velocities), and Bullet's own arithmetic (its
// integrator, Featherstone's algorithm, its constraint solver) rounds at that level each step. A
// test loosens a tolerance for float only through these, which name the rounding as the reason.
#include <LinearMath/btScalar.h>

#include <algorithm>

namespace hydro {
namespace test {

inline constexpr bool kBulletIsFloat = sizeof(btScalar) < sizeof(double);

// One rounding of a btScalar, relative: 2⁻²⁴ in float, 2⁻⁵³ in double.
inline constexpr double kBulletRounding = kBulletIsFloat ? 0x1p-24 : 0x1p-53;

// A relative tolerance: `tolerance`, or in float at least `roundings` float roundings.
inline constexpr double BulletRelative(double tolerance, double roundings = 16) {
  return kBulletIsFloat ? std::max(tolerance, roundings * kBulletRounding) : tolerance;
}

// An absolute tolerance for a quantity of size `scale` (in its unit): `tolerance`, or in float at
// least `roundings` float roundings of that size.
inline constexpr double BulletAbsolute(double tolerance, double scale, double roundings = 16) {
  return kBulletIsFloat ? std::max(tolerance, roundings * kBulletRounding * scale) : tolerance;
}

// Where float's rounding changes an outcome by more than its size (Featherstone's integration of
// a long arm, a contact's count of polygons), the float build's own tolerance, with the reason at
// the call: `float_tolerance` in float, `tolerance` in double.
inline constexpr double BulletOr(double tolerance, double float_tolerance) {
  return kBulletIsFloat ? float_tolerance : tolerance;
}

}  // namespace test
}  // namespace hydro
