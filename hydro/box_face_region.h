#pragma once
// A box's face regions, the pieces of a compliant box over which its pressure is one linear field
// (hydro/compliant_box.h): face f's region holds the points no nearer to any other face. The
// closed-form box queries (hydro/box_field_intersection.cc) clip planes by them, and cull the
// planes that miss a region before clipping.
#include <array>

#include "hydro/math.h"
#include "hydro/polygon_clipping.h"

namespace hydro {
namespace internal {

// A half-space n·p ≥ d.
struct HalfSpace {
  Vector3 n;
  double d;
};

// Face f's region of a box with half-size h, in the box's frame: inside the face, no nearer to
// any side face (four medial planes), and on the face's half of the box.
std::array<HalfSpace, 6> FaceRegion(const Vector3& h, int face);

// The parallelogram centre ± u ± v, counter-clockwise about u × v.
ClipPolygon Parallelogram(const Vector3& centre, const Vector3& u, const Vector3& v);

// A square on the unit-normal plane n·p = d in the frame of a box of half-size h (its centre at the
// origin), counter-clockwise about n, around the point nearest the box's centre, wide enough to
// hold the plane's cut through the box (which lies within |h| of its centre): the box's regions
// then cut all of its sides away.
ClipPolygon SquareOnPlane(const Vector3& n, double d, const Vector3& h);

// Clips `poly` by face f's region of a box with half-size h posed at R_AB, p_AB in poly's frame,
// each plane with `tolerance` (ClipPolygonByHalfSpace).
void ClipByRegion(const Vector3& h, int face, const Matrix3& R_AB, const Vector3& p_AB, double tolerance,
                  ClipPolygon* poly);

// True when the unit-normal plane n·p = d misses face f's region of a box with half-size h (in the
// box's frame), as ClipByRegion clips it with `tolerance`: the plane misses the region's bounding
// box, s·x_a ∈ [max(0, h_a − min(h_b, h_c)), h_a] (the medial planes keep s·x_a ≥ h_a − h_b +
// |x_b|), |x_b| ≤ h_b, |x_c| ≤ h_c, grown by what the clips keep beyond the planes: `tolerance`
// along x_a, 2·tolerance along x_b and x_c (|x_b| ≤ s·x_a − h_a + h_b + tolerance with s·x_a ≤ h_a
// + tolerance). `scale` is the largest length that went into d, for its round-off. Most region
// pairs' planes miss (54 % of those ClipByRegion would clip, in ten steps of the 1,000-brick wall),
// and this takes a few dot products where the clip takes six passes over a polygon.
bool PlaneMissesRegion(const Vector3& n, double d, const Vector3& h, int face, double tolerance, double scale);

}  // namespace internal
}  // namespace hydro
