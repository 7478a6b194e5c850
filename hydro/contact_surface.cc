#include "hydro/contact_surface.h"

#include <algorithm>
#include <string>
#include <utility>

#include "hydro/buffers.h"
#include "hydro/check.h"

namespace hydro {

double ContactSurface::CalcTotalArea() const {
  double area = 0;
  for (const ContactPolygon& poly : polygons_) area += poly.area_m2;
  return area;
}

Vector3 ContactSurface::CalcElasticForceOnA() const {
  Vector3 f = Vector3::Zero();
  for (const ContactPolygon& poly : polygons_) f += poly.area_m2 * poly.pressure_at_centroid_Pa * poly.nhat_BA_W;
  return f;
}

namespace {

// ∫ p·r dA over the polygon, fanned from its first vertex: on a triangle with linear p,
// ∫ λi·λj dA = A·(1 + δij)/12, so ∫ p·r dA = A/12·Σi (p_i + Σj p_j)·r_i.
Vector3 PolygonFirstMoment(const ContactSurface& surface, const ContactPolygon& poly) {
  Vector3 moment = Vector3::Zero();
  const Vector3& a = surface.vertex(poly, 0);
  const double pa = surface.pressure(poly, 0);
  for (int i = 1; i + 1 < poly.num_vertices; ++i) {
    const Vector3& b = surface.vertex(poly, i);
    const Vector3& c = surface.vertex(poly, i + 1);
    const double pb = surface.pressure(poly, i), pc = surface.pressure(poly, i + 1);
    const double area = 0.5 * (b - a).cross(c - a).norm();
    const double sum = pa + pb + pc;
    moment += area / 12 * ((pa + sum) * a + (pb + sum) * b + (pc + sum) * c);
  }
  return moment;
}

}  // namespace

Vector3 ContactSurface::CalcPressureFirstMoment() const {
  Vector3 moment = Vector3::Zero();
  for (const ContactPolygon& poly : polygons_) moment += PolygonFirstMoment(*this, poly);
  return moment;
}

Vector3 ContactSurface::CalcElasticMomentOnA() const {
  Vector3 moment = Vector3::Zero();
  for (const ContactPolygon& poly : polygons_) moment += PolygonFirstMoment(*this, poly).cross(poly.nhat_BA_W);
  return moment;
}

double ContactSurface::CalcPressureIntegral() const {
  double total = 0;
  for (const ContactPolygon& poly : polygons_) total += poly.area_m2 * poly.pressure_at_centroid_Pa;
  return total;
}

double ContactSurface::CalcMaxPressure() const {
  double p = 0;
  for (double v : pressures_) p = std::max(p, v);
  return p;
}

bool ContactSurface::AddPolygon(const Vector3* p_WV, const double* pressure, int n, const Vector3& nhat_BA_W,
                                double grad_A, double grad_B, int element_A, int element_B, double min_area) {
  HYDRO_DEMAND(n >= 3, "a polygon of " + std::to_string(n) + " vertices");
  // Fan from the vertex average Q (inside a convex polygon); p is linear so p(Q) is the average.
  Vector3 p_WQ = Vector3::Zero();
  double p_Q = 0;
  for (int i = 0; i < n; ++i) {
    p_WQ += p_WV[i];
    p_Q += pressure[i];
  }
  p_WQ /= n;
  p_Q /= n;
  double area = 0;
  Vector3 weighted_centroid = Vector3::Zero();
  double weighted_pressure = 0;
  // Each fan triangle's centroid and mean pressure are its corners' sums over 3; the 3 is taken
  // out once, below (this runs for every polygon of every surface).
  for (int i = 0, j = 1; i < n; ++i, j = j + 1 < n ? j + 1 : 0) {
    const double a = 0.5 * (p_WV[i] - p_WQ).cross(p_WV[j] - p_WQ).dot(nhat_BA_W);
    area += a;
    weighted_centroid += a * (p_WQ + p_WV[i] + p_WV[j]);
    weighted_pressure += a * (p_Q + pressure[i] + pressure[j]);
  }
  weighted_centroid /= 3.0;
  weighted_pressure /= 3.0;
  if (!(area > min_area) || !(area > 0)) return false;
  ContactPolygon poly;
  poly.first_vertex = static_cast<int>(vertices_.size());
  poly.num_vertices = n;
  poly.nhat_BA_W = nhat_BA_W;
  poly.area_m2 = area;
  poly.p_WC = weighted_centroid / area;
  poly.pressure_at_centroid_Pa = std::max(0.0, weighted_pressure / area);
  poly.grad_A_Pa_per_m = grad_A;
  poly.grad_B_Pa_per_m = grad_B;
  poly.element_A = element_A;
  poly.element_B = element_B;
  for (int i = 0; i < n; ++i) {
    vertices_.push_back(p_WV[i]);
    pressures_.push_back(pressure[i]);
  }
  polygons_.push_back(poly);
  return true;
}

void ContactSurface::Append(const ContactSurface& other) {
  // Grown as push_back grows: a surface appended from pieces grows as often as one built polygon by
  // polygon.
  ReserveGrowing(&vertices_, other.vertices_.size());
  ReserveGrowing(&pressures_, other.pressures_.size());
  ReserveGrowing(&polygons_, other.polygons_.size());
  const int offset = static_cast<int>(vertices_.size());
  vertices_.insert(vertices_.end(), other.vertices_.begin(), other.vertices_.end());
  pressures_.insert(pressures_.end(), other.pressures_.begin(), other.pressures_.end());
  for (ContactPolygon poly : other.polygons_) {
    poly.first_vertex += offset;
    polygons_.push_back(poly);
  }
}

void ContactSurface::SwapAB() {
  for (ContactPolygon& poly : polygons_) {
    poly.nhat_BA_W = -poly.nhat_BA_W;
    std::swap(poly.grad_A_Pa_per_m, poly.grad_B_Pa_per_m);
    std::swap(poly.element_A, poly.element_B);
    // Keep the vertex order counter-clockwise about the flipped normal.
    std::reverse(vertices_.begin() + poly.first_vertex, vertices_.begin() + poly.first_vertex + poly.num_vertices);
    std::reverse(pressures_.begin() + poly.first_vertex, pressures_.begin() + poly.first_vertex + poly.num_vertices);
  }
}

void ContactSurface::TransformBy(const RigidTransform& X) {
  for (Vector3& p : vertices_) p = X * p;
  for (ContactPolygon& poly : polygons_) {
    poly.p_WC = X * poly.p_WC;
    poly.nhat_BA_W = X.linear() * poly.nhat_BA_W;
  }
}

}  // namespace hydro
