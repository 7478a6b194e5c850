#include "hydro/patch_slip.h"

#include <algorithm>
#include <cmath>

namespace hydro {

PatchSlip CalcPatchSlip(const std::vector<ContactPoint>& points, const Vector3& p_WO, const Vector3& v_BAo_W,
                        const Vector3& w_BA_W) {
  PatchSlip slip;
  if (points.empty()) return slip;
  double total_force = 0, total_area = 0;
  for (const ContactPoint& point : points) {
    total_force += std::max(point.fn0_N, 0.0);
    total_area += std::max(point.area_m2, 0.0);
  }
  const bool by_force = total_force > 0;
  const double total = by_force ? total_force : total_area;
  if (!(total > 0)) return slip;
  auto weight = [by_force](const ContactPoint& point) { return std::max(by_force ? point.fn0_N : point.area_m2, 0.0); };
  Vector3 p_WC = Vector3::Zero(), n_W = Vector3::Zero();
  for (const ContactPoint& point : points) {
    p_WC += weight(point) * (point.p_WC - p_WO);
    n_W += weight(point) * point.nhat_BA_W;
  }
  p_WC = p_WO + p_WC / total;
  const double n_norm = n_W.norm();
  if (!(n_norm > 0)) return slip;
  const Vector3 nhat_W = n_W / n_norm;
  double r2 = 0;  // Σ w·|r_t|², r_t the offset from the centroid in the patch's plane
  for (const ContactPoint& point : points) {
    const Vector3 r = point.p_WC - p_WC;
    r2 += weight(point) * (r - r.dot(nhat_W) * nhat_W).squaredNorm();
  }
  const double radius = std::sqrt(2 * r2 / total);
  const Vector3 v_BAc_W = v_BAo_W + w_BA_W.cross(p_WC - p_WO);
  slip.slide_m_per_s = (v_BAc_W - v_BAc_W.dot(nhat_W) * nhat_W).norm();
  slip.spin_m_per_s = std::abs(w_BA_W.dot(nhat_W)) * radius;
  return slip;
}

bool PatchFrictionTurns(const PatchSlip& slip, bool turned_last_step) {
  constexpr double kSpinPerSlide = 0.05;  // the spin centre within twenty radii of the centroid
  constexpr double kSpinFloor_m_per_s = 1e-3;
  const double scale = turned_last_step ? 0.5 : 1.0;
  return slip.spin_m_per_s >= scale * std::max(kSpinPerSlide * slip.slide_m_per_s, kSpinFloor_m_per_s);
}

}  // namespace hydro
