#include "hydro/box_face_region.h"

#include <algorithm>
#include <cmath>

#include "hydro/box_surface_grid.h"

namespace hydro {
namespace internal {

std::array<HalfSpace, 6> FaceRegion(const Vector3& h, int face) {
  const int a = BoxSurfaceGrid::FaceAxis(face);
  const double s = BoxSurfaceGrid::FaceSide(face);
  std::array<HalfSpace, 6> region;
  int k = 0;
  region[k++] = {-s * Vector3::Unit(a), -h[a]};  // s·x_a ≤ h_a
  region[k++] = {s * Vector3::Unit(a), 0.0};     // s·x_a ≥ 0
  for (int b = 0; b < 3; ++b) {
    if (b == a) continue;
    // h_a − s·x_a ≤ h_b − σ·x_b  ⟺  s·x_a − σ·x_b ≥ h_a − h_b, for σ = ±1.
    for (double sigma : {1.0, -1.0}) region[k++] = {s * Vector3::Unit(a) - sigma * Vector3::Unit(b), h[a] - h[b]};
  }
  return region;
}

ClipPolygon Parallelogram(const Vector3& centre, const Vector3& u, const Vector3& v) {
  ClipPolygon poly;
  poly.Push(centre - u - v);
  poly.Push(centre + u - v);
  poly.Push(centre + u + v);
  poly.Push(centre - u + v);
  return poly;
}

ClipPolygon SquareOnPlane(const Vector3& n, double d, const Vector3& h) {
  const Vector3 u = 1.5 * h.norm() * n.unitOrthogonal();
  return Parallelogram(d * n, u, n.cross(u));
}

void ClipByRegion(const Vector3& h, int face, const Matrix3& R_AB, const Vector3& p_AB, double tolerance,
                  ClipPolygon* poly) {
  for (const HalfSpace& half : FaceRegion(h, face)) {
    const Vector3 n_A = R_AB * half.n;
    ClipPolygonByHalfSpace(n_A, half.d + n_A.dot(p_AB), tolerance, poly);
    if (poly->n < 3) return;
  }
}

bool PlaneMissesRegion(const Vector3& n, double d, const Vector3& h, int face, double tolerance, double scale) {
  const int a = BoxSurfaceGrid::FaceAxis(face);
  const double lowest = std::max(0.0, h[a] - std::min(h[(a + 1) % 3], h[(a + 2) % 3]));
  Vector3 centre = Vector3::Zero();
  Vector3 half = h + Vector3::Constant(2 * tolerance);
  centre[a] = BoxSurfaceGrid::FaceSide(face) * 0.5 * (lowest + h[a]);
  half[a] = 0.5 * (h[a] - lowest) + tolerance;
  const double reach = n.cwiseAbs().dot(half);
  return std::abs(n.dot(centre) - d) > reach + 1e-12 * (reach + std::abs(d) + scale);
}

}  // namespace internal
}  // namespace hydro
