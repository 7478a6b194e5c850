#include "hydro/depth_sensitivity.h"

#include <cmath>

namespace hydro {

Vector3 CalcDepthSensitivity(const Vector3& nhat_BA_W, double g_Pa_per_m, const Vector3* grad_A_W,
                             const Vector3* grad_B_W) {
  if (!(g_Pa_per_m > 0 && std::isfinite(g_Pa_per_m))) return -nhat_BA_W;
  Vector3 dp0_ddelta;
  if (grad_A_W && grad_B_W) {
    const Vector3 difference = *grad_A_W - *grad_B_W;
    const double norm = difference.norm();
    if (!(norm > 1e-12 * (grad_A_W->norm() + grad_B_W->norm()))) return -nhat_BA_W;
    const Vector3 m = difference / norm;
    dp0_ddelta = -(grad_A_W->dot(m) / norm) * *grad_B_W;
  } else if (grad_A_W) {
    dp0_ddelta = *grad_A_W;
  } else if (grad_B_W) {
    dp0_ddelta = -*grad_B_W;
  } else {
    return -nhat_BA_W;
  }
  return -dp0_ddelta / g_Pa_per_m;
}

}  // namespace hydro
