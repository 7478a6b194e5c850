#include "fem/contact_impulse.h"

#include <cmath>

namespace hydro {
namespace fem {

ContactImpulse CalcContactImpulse(const ContactImpulseLaw& law, const Vector3& vc_W, double lagged_normal_impulse,
                                  Matrix3* H) {
  const Vector3& nh = law.nhat_W;
  const double vn = nh.dot(vc_W);
  const double y = -law.phi0_m - law.dt_s * vn;
  ContactImpulse result;
  result.gamma_n = y > 0 ? law.dt_s * law.stiffness_N_per_m * y : 0.0;
  const Vector3 vt = vc_W - vn * nh;
  const double vs = law.stiction_speed_m_per_s;
  const double s = std::sqrt(vt.squaredNorm() + vs * vs);
  const double bound = law.friction * lagged_normal_impulse;
  result.gamma_W = result.gamma_n * nh - bound * vt / s;
  if (H) {
    H->setZero();
    if (y > 0) *H = (law.dt_s * law.dt_s * law.stiffness_N_per_m) * nh * nh.transpose();
    const Matrix3 P = Matrix3::Identity() - nh * nh.transpose();
    *H += bound / s * (P - vt * vt.transpose() / (s * s));
  }
  return result;
}

}  // namespace fem
}  // namespace hydro
