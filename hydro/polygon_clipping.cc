#include "hydro/polygon_clipping.h"

#include <algorithm>
#include <cmath>

namespace hydro {

void ClipPolygonByHalfSpace(const Vector3& n, double d, double tolerance, ClipPolygon* poly) {
  if (poly->n == 0) return;
  std::array<double, ClipPolygon::kCapacity> s;
  bool all_in = true, all_out = true;
  for (int i = 0; i < poly->n; ++i) {
    s[i] = n.dot(poly->p[i]) - d;
    if (std::abs(s[i]) <= tolerance) s[i] = 0;
    all_in = all_in && s[i] >= 0;
    all_out = all_out && s[i] <= 0;
  }
  if (all_in) return;
  if (all_out) {
    poly->n = 0;
    return;
  }
  ClipPolygon out;
  for (int i = 0; i < poly->n; ++i) {
    const int j = (i + 1) % poly->n;
    const Vector3& pi = poly->p[i];
    const Vector3& pj = poly->p[j];
    if (s[i] >= 0) out.Push(pi);
    // An edge that strictly crosses the plane contributes its crossing point.
    if ((s[i] > 0 && s[j] < 0) || (s[i] < 0 && s[j] > 0)) {
      const double t = s[i] / (s[i] - s[j]);
      out.Push(pi + t * (pj - pi));
    }
  }
  *poly = out;
  if (poly->n < 3) poly->n = 0;
}

void SliceTetByPlane(const std::array<Vector3, 4>& tet, const Vector3& n, double offset, ClipPolygon* poly) {
  poly->n = 0;
  std::array<double, 4> s;
  for (int i = 0; i < 4; ++i) s[i] = n.dot(tet[i]) - offset;
  // Crossing points on the six edges. A vertex exactly on the plane is recorded once (as the
  // crossing of every edge it touches, deduplicated below).
  static constexpr int kEdges[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
  ClipPolygon raw;
  for (const auto& e : kEdges) {
    const double si = s[e[0]], sj = s[e[1]];
    if ((si < 0 && sj > 0) || (si > 0 && sj < 0)) {
      const double t = si / (si - sj);
      raw.Push(tet[e[0]] + t * (tet[e[1]] - tet[e[0]]));
    }
  }
  int num_on_plane = 0;
  for (int i = 0; i < 4; ++i) {
    if (s[i] == 0) {
      raw.Push(tet[i]);
      ++num_on_plane;
    }
  }
  if (raw.n < 3) return;
  // A face lying exactly in the plane is shared with the neighbouring tet; report it only for
  // the tet on the +n side so the face is counted once.
  if (num_on_plane == 3) {
    for (int i = 0; i < 4; ++i)
      if (s[i] != 0 && s[i] < 0) return;
  }
  // Order counter-clockwise about n around the centroid (the slice is convex, ≤ 4 points here
  // except in the degenerate case of a face lying in the plane, which has 3).
  Vector3 center = Vector3::Zero();
  for (int i = 0; i < raw.n; ++i) center += raw.p[i];
  center /= raw.n;
  const Vector3 u = (std::abs(n.x()) < 0.9 ? Vector3::UnitX() : Vector3::UnitY()).cross(n).normalized();
  const Vector3 v = n.cross(u);
  std::array<std::pair<double, int>, ClipPolygon::kCapacity> angle;
  for (int i = 0; i < raw.n; ++i) {
    const Vector3 r = raw.p[i] - center;
    angle[i] = {std::atan2(r.dot(v), r.dot(u)), i};
  }
  std::sort(angle.begin(), angle.begin() + raw.n);
  for (int i = 0; i < raw.n; ++i) poly->Push(raw.p[angle[i].second]);
}

}  // namespace hydro
