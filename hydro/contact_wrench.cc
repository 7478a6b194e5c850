#include "hydro/contact_wrench.h"

#include <cmath>

namespace hydro {

ContactWrench CalcContactWrench(const ContactSurface& surface, const SpatialVelocity& V_WA, const SpatialVelocity& V_WB,
                                const ContactTractionParameters& params, const Vector3& p_WO) {
  CheckNonNegative(params.dissipation_s_per_m, "CalcContactWrench: dissipation");
  CheckNonNegative(params.friction, "CalcContactWrench: friction coefficient");
  CheckPositive(params.stiction_speed_m_per_s, "CalcContactWrench: stiction speed");
  for (const SpatialVelocity* V : {&V_WA, &V_WB}) {
    if (!(IsFinite(V->w_W) && IsFinite(V->v_WP) && IsFinite(V->p_WP)))
      throw InvalidInput("CalcContactWrench: non-finite body velocity");
  }
  ContactWrench wrench;
  Vector3 pressure_moment = Vector3::Zero();
  // Traction at quadrature point Q with pressure p0 and weight w (an area).
  auto add_point = [&](const Vector3& p_WQ, double p0, double weight, const Vector3& n) {
    const Vector3 v_AB = V_WA.VelocityAt(p_WQ) - V_WB.VelocityAt(p_WQ);
    const double vn = v_AB.dot(n);
    const double p = p0 * std::max(1.0 - params.dissipation_s_per_m * vn, 0.0);
    const Vector3 v_t = v_AB - vn * n;
    const Vector3 traction = p * n - params.friction * p * v_t / std::max(v_t.norm(), params.stiction_speed_m_per_s);
    const Vector3 df = weight * traction;
    wrench.f_A_W += df;
    wrench.tau_A_W += (p_WQ - p_WO).cross(df);
    wrench.normal_force_N += weight * p;
    pressure_moment += weight * p * p_WQ;
  };
  for (const ContactPolygon& poly : surface.polygons()) {
    const Vector3& n = poly.nhat_BA_W;
    const Vector3& c = poly.p_WC;
    const double pc = poly.pressure_at_centroid_Pa;
    for (int i = 0; i < poly.num_vertices; ++i) {
      const int j = (i + 1) % poly.num_vertices;
      const Vector3& a = surface.vertex(poly, i);
      const Vector3& b = surface.vertex(poly, j);
      const double pa = surface.pressure(poly, i), pb = surface.pressure(poly, j);
      const double area = 0.5 * (a - c).cross(b - c).dot(n);
      if (area <= 0) continue;
      const double w = area / 3.0;
      add_point(0.5 * (c + a), 0.5 * (pc + pa), w, n);
      add_point(0.5 * (a + b), 0.5 * (pa + pb), w, n);
      add_point(0.5 * (b + c), 0.5 * (pb + pc), w, n);
      wrench.area_m2 += area;
    }
  }
  if (wrench.normal_force_N > 0) wrench.p_WCoP = pressure_moment / wrench.normal_force_N;
  return wrench;
}

}  // namespace hydro
