#include "hydro/point_approximation.h"

#include <cmath>
#include <limits>

namespace hydro {

double EffectiveGradient(double grad_A, double grad_B) {
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  if (grad_A == kInfinity) return grad_B;
  if (grad_B == kInfinity) return grad_A;
  return grad_A * grad_B / (grad_A + grad_B);
}

void MakeContactPoints(const ContactSurface& surface, std::vector<ContactPoint>* points) {
  points->clear();
  for (int i = 0; i < surface.num_polygons(); ++i) {
    const ContactPolygon& poly = surface.polygon(i);
    if (!(poly.grad_A_Pa_per_m > 0 && poly.grad_B_Pa_per_m > 0)) continue;
    const double g = EffectiveGradient(poly.grad_A_Pa_per_m, poly.grad_B_Pa_per_m);
    if (!(g > 0 && std::isfinite(g))) continue;
    ContactPoint point;
    point.p_WC = poly.p_WC;
    point.nhat_BA_W = poly.nhat_BA_W;
    point.g_Pa_per_m = g;
    point.area_m2 = poly.area_m2;
    point.stiffness_N_per_m = g * poly.area_m2;
    point.phi0_m = -poly.pressure_at_centroid_Pa / g;
    point.fn0_N = poly.area_m2 * poly.pressure_at_centroid_Pa;
    point.element_A = poly.element_A;
    point.element_B = poly.element_B;
    point.polygon = i;
    points->push_back(point);
  }
}

double CalcPointForceAfterStep(const ContactPoint& point, double vn_m_per_s, double dt_s) {
  return std::max(0.0, -point.stiffness_N_per_m * (point.phi0_m + dt_s * vn_m_per_s));
}

}  // namespace hydro
