#include "hydro/compliant_point_law.h"

#include <algorithm>
#include <cmath>

namespace hydro {

double NearRigidScale(double stiffness_N_per_m, double dt_s, double dissipation_time_s, double inverse_mass_wn,
                      double beta) {
  const double horizon = dt_s + std::max(dissipation_time_s, 0.0);
  const double compliant = 1.0 / (dt_s * stiffness_N_per_m * horizon);
  const double rigid = beta * beta / (4 * M_PI * M_PI) * inverse_mass_wn;
  return rigid > compliant ? compliant / rigid : 1.0;
}

double PatchNearRigidScale(double horizon_stiffness_N_per_m, double dt_s, double inverse_mass_w, double beta) {
  return NearRigidScale(horizon_stiffness_N_per_m, dt_s, 0.0, inverse_mass_w, beta / kPatchPeriodDivisor);
}

CompliantPointLaw MakeCompliantPointLaw(const Vector3& nhat_W, double stiffness_N_per_m, double phi0_m, double dt_s,
                                        double dissipation_time_s, double inverse_mass_wn, double inverse_mass_wt,
                                        double beta, double sigma, bool* near_rigid) {
  CompliantPointLaw law;
  law.nhat_W = nhat_W;
  // A point that sees no mobility at all (both sides fixed) still needs Rt > 0.
  law.compliance_Rt = std::max(sigma * inverse_mass_wt, 1e-300);
  const double horizon = dt_s + std::max(dissipation_time_s, 0.0);
  const double compliant = 1.0 / (dt_s * stiffness_N_per_m * horizon);
  const double rigid = beta * beta / (4 * M_PI * M_PI) * inverse_mass_wn;
  law.compliance_Rn = std::max(compliant, rigid);
  if (near_rigid) *near_rigid = rigid > compliant;
  law.target_normal_speed = -phi0_m / horizon;
  return law;
}

Vector3 CalcPointImpulseAndCurvature(const CompliantPointLaw& law, const Vector3& vc_W, double* gamma_n,
                                     PointCurvature* curvature) {
  const Vector3& n = law.nhat_W;
  const double vn = n.dot(vc_W);
  const double gn = CalcPointNormalImpulse(law, vc_W);
  const Vector3 vt = vc_W - vn * n;
  const double speed = vt.norm();
  const double bound = law.friction_bound;
  const bool stuck = speed <= law.compliance_Rt * bound;
  if (gamma_n) *gamma_n = gn;
  if (stuck) {
    if (curvature) {
      curvature->b = bound > 0 ? 1 / law.compliance_Rt : 0.0;
      curvature->a_minus_b = (gn > 0 ? 1 / law.compliance_Rn : 0.0) - curvature->b;
      curvature->slip = 0;
    }
    return gn * n - vt / law.compliance_Rt;
  }
  const double b = bound / speed;
  if (curvature) {
    curvature->b = curvature->slip = b;
    curvature->a_minus_b = (gn > 0 ? 1 / law.compliance_Rn : 0.0) - b;
    curvature->t_W = vt / speed;
  }
  return gn * n - b * vt;
}

Vector3 CalcPointImpulse(const CompliantPointLaw& law, const Vector3& vc_W, double* gamma_n, Matrix3* H,
                         SlipCurvature slip) {
  if (!H) return CalcPointImpulseAndCurvature(law, vc_W, gamma_n, nullptr);
  PointCurvature c;
  const Vector3 gamma = CalcPointImpulseAndCurvature(law, vc_W, gamma_n, &c);
  const Vector3& n = law.nhat_W;
  *H = c.b * Matrix3::Identity() + c.a_minus_b * n * n.transpose() -
       (1 - slip.along_slip) * c.slip * c.t_W * c.t_W.transpose();
  return gamma;
}

double CalcPointPotential(const CompliantPointLaw& law, const Vector3& vc_W) {
  const Vector3& n = law.nhat_W;
  const double vn = n.dot(vc_W);
  const double gn = std::max((law.target_normal_speed - vn) / law.compliance_Rn, 0.0);
  const double speed = (vc_W - vn * n).norm();
  const double bound = law.friction_bound, Rt = law.compliance_Rt;
  const double friction = speed <= Rt * bound ? speed * speed / (2 * Rt) : bound * (speed - 0.5 * Rt * bound);
  return 0.5 * law.compliance_Rn * gn * gn + friction;
}

}  // namespace hydro
