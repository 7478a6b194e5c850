#include "fem/spring_law.h"

namespace hydro {
namespace fem {

Vector3 CalcSpringGap(const SpringLaw& law, const Vector3& v_W) { return law.gap0_W + law.dt_s * v_W; }

Vector3 CalcSpringImpulse(const SpringLaw& law, const Vector3& v_W, double* curvature) {
  if (curvature) *curvature = law.dt_s * law.dt_s * law.stiffness_N_per_m;
  return -law.dt_s * law.stiffness_N_per_m * CalcSpringGap(law, v_W);
}

double CalcSpringPotential(const SpringLaw& law, const Vector3& v_W) {
  return 0.5 * law.stiffness_N_per_m * CalcSpringGap(law, v_W).squaredNorm();
}

}  // namespace fem
}  // namespace hydro
