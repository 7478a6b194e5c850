#include "hydro/point_approximation.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace hydro {

double EffectiveGradient(double grad_A, double grad_B) {
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  if (grad_A == kInfinity) return grad_B;
  if (grad_B == kInfinity) return grad_A;
  return grad_A * grad_B / (grad_A + grad_B);
}

namespace {

// The polygon's effective gradient, or 0 where it makes no point.
double UsableGradient(const ContactPolygon& poly) {
  if (!(poly.grad_A_Pa_per_m > 0 && poly.grad_B_Pa_per_m > 0)) return 0;
  const double g = EffectiveGradient(poly.grad_A_Pa_per_m, poly.grad_B_Pa_per_m);
  return g > 0 && std::isfinite(g) ? g : 0;
}

}  // namespace

void MakeContactPoints(const ContactSurface& surface, std::vector<ContactPoint>* points, PointQuadrature quadrature) {
  points->clear();
  double patch_stiffness = 0;  // K, for kScaledTriangleFan's shares
  if (quadrature == PointQuadrature::kScaledTriangleFan)
    for (int i = 0; i < surface.num_polygons(); ++i)
      patch_stiffness += UsableGradient(surface.polygon(i)) * surface.polygon(i).area_m2;
  for (int i = 0; i < surface.num_polygons(); ++i) {
    const ContactPolygon& poly = surface.polygon(i);
    const double g = UsableGradient(poly);
    if (!(g > 0)) continue;
    auto add = [&](const Vector3& p_WC, double area, double pressure, int fan_triangle) {
      ContactPoint point;
      point.p_WC = p_WC;
      point.nhat_BA_W = poly.nhat_BA_W;
      point.g_Pa_per_m = g;
      point.area_m2 = area;
      point.stiffness_N_per_m = g * area;
      point.pressure_Pa = pressure;
      point.phi0_m = -pressure / g;
      point.fn0_N = area * pressure;
      point.element_A = poly.element_A;
      point.element_B = poly.element_B;
      point.fan_triangle = fan_triangle;
      points->push_back(point);
    };
    double spread = 1;  // w: how far the fan's points stand from the centroid (header)
    if (quadrature == PointQuadrature::kScaledTriangleFan) {
      const double share = g * poly.area_m2 / patch_stiffness;
      spread = std::clamp((share - kFanShareNone) / (kFanShareFull - kFanShareNone), 0.0, 1.0);
    }
    if (quadrature == PointQuadrature::kPolygonCentroid || !(spread > 0)) {
      add(poly.p_WC, poly.area_m2, poly.pressure_at_centroid_Pa, 0);
      continue;
    }
    // The fan about the centroid c: triangle (c, vᵢ, vᵢ₊₁) has its centroid at (c + vᵢ + vᵢ₊₁)/3,
    // where the linear p0 is the mean of the three. A vertex that appears or vanishes as the
    // polygon moves adds or removes a triangle of zero area, so the points move continuously
    // (001 §5, Fig. 5.1). The polygon's own triangles would not: their diagonals jump.
    for (int k = 0; k < poly.num_vertices; ++k) {
      const int next = k + 1 < poly.num_vertices ? k + 1 : 0;
      const Vector3& v0 = surface.vertex(poly, k);
      const Vector3& v1 = surface.vertex(poly, next);
      const double area = 0.5 * (v0 - poly.p_WC).cross(v1 - poly.p_WC).dot(poly.nhat_BA_W);
      if (!(area > 0)) continue;
      const double mean_pressure =
          (poly.pressure_at_centroid_Pa + surface.pressure(poly, k) + surface.pressure(poly, next)) / 3;
      if (spread == 1) {  // the whole fan, as the triangles' own centroids and mean pressures
        add((poly.p_WC + v0 + v1) / 3, area, std::max(0.0, mean_pressure), k);
        continue;
      }
      const double pressure =
          std::max(0.0, poly.pressure_at_centroid_Pa + spread * (mean_pressure - poly.pressure_at_centroid_Pa));
      add(poly.p_WC + spread * ((v0 + v1) / 3 - (2.0 / 3) * poly.p_WC), area, pressure, k);
    }
  }
}

double CalcPointForceAfterStep(const ContactPoint& point, double vn_m_per_s, double dt_s) {
  return std::max(0.0, -point.stiffness_N_per_m * (point.phi0_m + dt_s * vn_m_per_s));
}

}  // namespace hydro
