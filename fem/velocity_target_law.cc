#include "fem/velocity_target_law.h"

#include <algorithm>
#include <cmath>

namespace hydro {
namespace fem {

double CalcVelocityTargetImpulse(const VelocityTargetLaw& law, double speed, double* curvature) {
  const double unbounded = law.stiffness * (law.target - speed);
  const bool inside = std::abs(unbounded) <= law.max_impulse;
  if (curvature) *curvature = inside ? law.stiffness : 0.0;
  return std::clamp(unbounded, -law.max_impulse, law.max_impulse);
}

double CalcVelocityTargetPotential(const VelocityTargetLaw& law, double speed) {
  const double error = speed - law.target;
  if (std::abs(law.stiffness * error) <= law.max_impulse) return 0.5 * law.stiffness * error * error;
  return law.max_impulse * std::abs(error) - law.max_impulse * law.max_impulse / (2 * law.stiffness);
}

}  // namespace fem
}  // namespace hydro
