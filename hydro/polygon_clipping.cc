#include "hydro/polygon_clipping.h"

#include <algorithm>
#include <cmath>

namespace hydro {

PlaneSide SignedDistancesToPlane(const ClipPolygon& poly, const Vector3& n, double d, double tolerance, double* s) {
  bool all_in = true, all_out = true;
  for (int i = 0; i < poly.n; ++i) {
    s[i] = n.dot(poly.p[i]) - d;
    if (std::abs(s[i]) <= tolerance) s[i] = 0;
    all_in = all_in && s[i] >= 0;
    all_out = all_out && s[i] <= 0;
  }
  if (all_in && all_out) return PlaneSide::kInPlane;
  if (all_in) return PlaneSide::kInside;
  return all_out ? PlaneSide::kOutside : PlaneSide::kCrossing;
}

void ClipBySignedDistances(const ClipPolygon& in, const double* s, ClipPolygon* out) {
  out->n = 0;
  for (int i = 0; i < in.n; ++i) {
    const int j = i + 1 < in.n ? i + 1 : 0;
    const Vector3& pi = in.p[i];
    if (s[i] >= 0) out->Push(pi);
    // An edge that strictly crosses the plane contributes its crossing point.
    if ((s[i] > 0 && s[j] < 0) || (s[i] < 0 && s[j] > 0)) {
      const double t = s[i] / (s[i] - s[j]);
      out->Push(pi + t * (in.p[j] - pi));
    }
  }
  if (out->n < 3) out->n = 0;
}

void SplitBySignedDistances(const ClipPolygon& in, const double* s, ClipPolygon* below, ClipPolygon* above) {
  below->n = 0;
  above->n = 0;
  for (int i = 0; i < in.n; ++i) {
    const int j = i + 1 < in.n ? i + 1 : 0;
    const Vector3& pi = in.p[i];
    if (s[i] <= 0) below->Push(pi);
    if (s[i] >= 0) above->Push(pi);
    if ((s[i] > 0 && s[j] < 0) || (s[i] < 0 && s[j] > 0)) {
      const double t = s[i] / (s[i] - s[j]);
      const Vector3 crossing = pi + t * (in.p[j] - pi);
      below->Push(crossing);
      above->Push(crossing);
    }
  }
  if (below->n < 3) below->n = 0;
  if (above->n < 3) above->n = 0;
}

void ClipPolygonByHalfSpace(const Vector3& n, double d, double tolerance, ClipPolygon* poly) {
  if (poly->n == 0) return;
  std::array<double, ClipPolygon::kCapacity> s;
  switch (SignedDistancesToPlane(*poly, n, d, tolerance, s.data())) {
    case PlaneSide::kInPlane:
    case PlaneSide::kInside:
      return;
    case PlaneSide::kOutside:
      poly->n = 0;
      return;
    case PlaneSide::kCrossing:
      break;
  }
  ClipPolygon out;
  ClipBySignedDistances(*poly, s.data(), &out);
  poly->n = out.n;
  std::copy_n(out.p.begin(), out.n, poly->p.begin());
}

void SliceTetByPlane(const std::array<Vector3, 4>& tet, const Vector3& n, double offset, ClipPolygon* poly) {
  poly->n = 0;
  std::array<double, 4> s;
  int num_pos = 0, num_neg = 0, num_zero = 0;
  for (int i = 0; i < 4; ++i) {
    s[i] = n.dot(tet[i]) - offset;
    num_pos += s[i] > 0;
    num_neg += s[i] < 0;
    num_zero += s[i] == 0;
  }
  if (num_pos == 0 || num_neg == 0) {
    // The plane misses the tet or touches it. A face lying exactly in the plane is shared with
    // the neighbouring tet; report it only for the tet on the +n side so it counts once.
    if (num_zero == 3 && num_pos == 1) {
      for (int i = 0; i < 4; ++i)
        if (s[i] == 0) poly->Push(tet[i]);
    } else {
      return;
    }
  } else {
    // Walk around the slice: every point is either a vertex on the plane or the crossing of an
    // edge joining a + vertex to a − vertex. Listing them as (+i, −j) pairs in the order
    // (p0,n0), (p0,n1), (p1,n1), (p1,n0) (and the degenerate variants) goes around the polygon.
    std::array<int, 4> pos, neg;
    int np = 0, nn = 0;
    for (int i = 0; i < 4; ++i) {
      if (s[i] > 0) pos[np++] = i;
      if (s[i] < 0) neg[nn++] = i;
    }
    auto crossing = [&](int i, int j) { return Vector3(tet[i] + s[i] / (s[i] - s[j]) * (tet[j] - tet[i])); };
    for (int i = 0; i < 4; ++i)
      if (s[i] == 0) poly->Push(tet[i]);
    if (np == 1 || nn == 1) {
      const int apex = np == 1 ? pos[0] : neg[0];
      const std::array<int, 4>& others = np == 1 ? neg : pos;
      const int num_others = np == 1 ? nn : np;
      for (int k = 0; k < num_others; ++k) poly->Push(crossing(apex, others[k]));
    } else {  // two on each side: a quadrilateral
      poly->Push(crossing(pos[0], neg[0]));
      poly->Push(crossing(pos[0], neg[1]));
      poly->Push(crossing(pos[1], neg[1]));
      poly->Push(crossing(pos[1], neg[0]));
    }
  }
  if (poly->n < 3) {
    poly->n = 0;
    return;
  }
  // The points go around the (convex) slice in one direction or the other; make it
  // counter-clockwise about n. With 3 points on a face any order is a cycle.
  const Vector3 normal = (poly->p[1] - poly->p[0]).cross(poly->p[2] - poly->p[0]) +
                         (poly->n == 4 ? (poly->p[2] - poly->p[0]).cross(poly->p[3] - poly->p[0]) : Vector3::Zero());
  if (normal.dot(n) < 0) std::reverse(poly->p.begin(), poly->p.begin() + poly->n);
}

}  // namespace hydro
