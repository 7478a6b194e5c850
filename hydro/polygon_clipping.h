#pragma once
// Convex polygon primitives used by every contact-surface algorithm (001 §5.0.2: "clipping"):
// slicing a tet by a plane, and clipping a convex polygon by a half-space or splitting it by a
// plane. Polygons are small
// fixed-capacity arrays, so these run without allocation.
#include <array>

#include "hydro/check.h"
#include "hydro/math.h"

namespace hydro {

// A convex polygon of at most kCapacity vertices. A triangle clipped by a tet's four faces has at
// most 7; a tet slice (≤ 4) clipped by four faces at most 8; a plane clipped by two boxes' face
// regions (six half-spaces each) at most 12, and one of its pieces, cut to a cell of each box's
// surface grid (four more pairs of parallel planes), at most 20 (hydro/box_field_intersection.cc).
// 24 instead of 16 left the mesh queries' instruction counts unchanged (callgrind, hydro_bench).
struct ClipPolygon {
  static constexpr int kCapacity = 24;
  std::array<Vector3, kCapacity> p;
  int n{0};
  // The bound above holds by construction; a release build still never writes past the end.
  void Push(const Vector3& v) {
    HYDRO_ASSERT(n < kCapacity);
    if (n < kCapacity) p[n++] = v;
  }
};

// Keeps the part of `poly` where n·p ≥ d (n need not be unit). Vertices within `tolerance` of the
// plane count as on it, so a polygon lying in the plane is kept whole. Sutherland–Hodgman.
void ClipPolygonByHalfSpace(const Vector3& n, double d, double tolerance, ClipPolygon* poly);

// The two halves of ClipPolygonByHalfSpace, for callers that clip by several planes in turn
// (ClipPolygonByTet) and so look at each plane's distances once and never copy a polygon back, or
// that keep both sides of a plane (SplitBySignedDistances).
enum class PlaneSide { kInPlane, kInside, kOutside, kCrossing };
// Writes s_i = n·p_i − d for poly's vertices, 0 for those within `tolerance` of the plane, to `s`
// (poly.n values), and says where the polygon lies: every vertex on the plane, none below it, none
// above it, or on both sides.
PlaneSide SignedDistancesToPlane(const ClipPolygon& poly, const Vector3& n, double d, double tolerance, double* s);
// Writes to *out the part of `in` where s ≥ 0, with s from SignedDistancesToPlane (kCrossing); an
// out of fewer than 3 vertices is emptied.
void ClipBySignedDistances(const ClipPolygon& in, const double* s, ClipPolygon* out);
// Writes to *below the part of `in` where s ≤ 0 and to *above the part where s ≥ 0, with s from
// SignedDistancesToPlane (kCrossing): one pass for what ClipBySignedDistances with −s, then with s,
// would give (the same points: both compute an edge's crossing from the same ratio). A part of
// fewer than 3 vertices is emptied. Neither part may be `in`.
void SplitBySignedDistances(const ClipPolygon& in, const double* s, ClipPolygon* below, ClipPolygon* above);

// The intersection of the tet (a, b, c, d) with the plane n·p = offset (n unit), ordered
// counter-clockwise about n. Leaves poly->n = 0 when the plane misses the tet or only touches it
// at an edge or vertex.
void SliceTetByPlane(const std::array<Vector3, 4>& tet, const Vector3& n, double offset, ClipPolygon* poly);

}  // namespace hydro
