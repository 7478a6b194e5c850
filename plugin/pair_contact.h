#pragma once
// One pair's pressure-field contact, engine-facing: the surface between two shape geometries in
// the world frame, oriented so that A is Bullet's body0.
#include "adapters/shape_geometry.h"
#include "hydro/contact_surface.h"
#include "hydro/point_approximation.h"

#include <vector>

namespace hydro {
namespace bullet {

// What CalcPairSurface found.
enum class PairSurfaceOutcome {
  kComputed,         // *surface is the pair's contact surface (empty when they do not touch)
  kNoPressureField,  // rigid–rigid, half-space–half-space or an unsupported kind: Bullet's contact
  kInvalidPose,      // a non-finite or sheared pose: no contact this step rather than NaNs
};

// Computes the contact surface between geometry a (shape frame posed at X_WSa) and b, with the
// normal out of b into a. *surface is left empty unless the outcome is kComputed. A compliant mesh
// whose bounding box reaches into a rigid box through one face only meets the half-space below that
// face: the same surface, its polygons cut by the tets alone, not also by the face's triangles.
PairSurfaceOutcome CalcPairSurface(const ShapeGeometry& a, const RigidTransform& X_WSa, const ShapeGeometry& b,
                                   const RigidTransform& X_WSb, ContactSurface* surface);

// Where the solver points of the pair's polygons stand (hydro/point_approximation.h), for a patch
// reduced to at most max_patch_points (0: whole). On their centroid fans where a compliant tet
// mesh takes part, whose polygons are slices of its tets and can be as large as a soft ball's whole
// patch: the whole fan for whole patches, the scaled one (only polygons that hold a large share of
// the patch spread) for reduced ones. At the polygons' centroids where boxes meet in closed form
// (their polygons are cells of the faces' grids at the hint, hydro/box_surface_grid.h) and where a
// rigid mesh meets a compliant half-space (its triangles are subdivided at the hint already,
// adapters/shape_geometry.cc MakeSubdividedHull): there the fan would only multiply the points.
//
// Measured on plugin_bench BM_DropMixedPile/1/8/4 (spheres, capsules, cylinders, hulls and boxes,
// 120 steps, 16-point patches), the work on points (making, bounding, reducing, mapping back,
// keeping) took 2.36 G instructions with the whole fan and 1.14 G with the scaled one (of 16.4 G
// and 14.3 G for the whole run, whose chaotic trajectories differ). A faceted soft
// ball (1e6 Pa) set down on a plane at 60 Hz in 16 orientations came to rest within 5 s in every
// one with the scaled fan and 16 points, but with whole patches it was still rolling in 7 of 16
// (2 with the whole fan, 11 with a point a polygon): whole patches keep the whole fan.
PointQuadrature PairPointQuadrature(const ShapeGeometry& a, const ShapeGeometry& b, int max_patch_points = 0);

// Whether the geometries are apart by more than round-off (1e-9 of their sizes), so that their
// surface is empty: along one of CalcGapsAlongAxes's axes, or along a direction Bullet's GJK
// finds between their hulls (or bounding boxes), checked with their extents. CalcPairSurface
// skips the surface of a pair apart, except a pair of boxes, which meet in closed form for less.
// False when they overlap, are closer than GJK resolves (its tolerances are 1e-12 in Bullet's
// double build, 1e-4 in the float build), or the direction found does not check out.
//
// A pair is asked at several poses a step (now, ahead, moved toward each other), and most asks
// are apart: in the mixed pile (plugin_bench BM_DropMixedPile/1, 120 steps) 11,109 of 15,632
// compliant–compliant BVH queries came out empty. The seven axes showed 6,280 of them apart; the
// rest are apart along other directions (an edge against an edge, a hull's slanted face).
bool AreApart(const ShapeGeometry& a, const RigidTransform& X_WSa, const ShapeGeometry& b, const RigidTransform& X_WSb);

// The round-off AreApart allows: a gap above it (CalcGapsAlongAxes's, say) proves the surface
// empty. 1e-9 of the bounded geometries' extent radii: far above the clips' tolerances (1e-12 of a
// mesh's size), far below any contact's depth.
double GapRoundOff(const ShapeGeometry& a, const ShapeGeometry& b);

// Whether the pair's surface is large enough to be clipped in pieces on several threads
// (hydro/contact_surface_util.h: two meshes of 512+ BVH nodes together).
bool SplitsInPieces(const ShapeGeometry& a, const ShapeGeometry& b);

// How much deeper than now a speculative patch may be taken (m): a quarter of the smallest
// compliant field's reach (its mesh's smallest bounding half-size, or a slab's thickness); +∞ when
// neither side is compliant. Deeper, a surface can reach where a field levels off (a box's centre)
// and its points would carry nothing.
double SpeculativeOverlapLimit(const ShapeGeometry& a, const ShapeGeometry& b);

// How deep the two geometries can be in each other at most: the smallest overlap of their extents
// (a half-space's face) over the candidate separating axes of CalcGapsAlongAxes,
// 0 when one of them separates them, +∞ for two half-spaces (m).
double CalcOverlapBound(const ShapeGeometry& a, const RigidTransform& X_WSa, const ShapeGeometry& b,
                        const RigidTransform& X_WSb);

// Points deeper than `limit_m` (SpeculativeOverlapLimit) are taken at that depth: bodies found
// that deep (pushed there by a third body, teleported, or just out of Bullet's fallback contact
// for a body wholly inside another) are pushed out over several steps, as Bullet's own contact
// would, instead of at depth/δt in one (a box 11 cm inside the ground left it at 7.5 m/s).
void LimitRecoveryDepth(double limit_m, std::vector<ContactPoint>* points);

// How far apart the two geometries are along the unit direction d̂ from b toward a (negative when
// their extents overlap along it): min over a of d̂·p minus max over b of d̂·p. A mesh's extent
// is its bounding box's, narrowed to its convex hull's (ShapeGeometry::support): exact for boxes,
// and for convex meshes to within the hull's widening (about 1e-4 of the mesh's size), an
// underestimate of the gap otherwise; a half-space's is its face. Also gives the direction d̂
// used: from b's bounding-box centre to a's, or a half-space's normal. False when both are
// half-spaces.
bool CalcGapAlongCentres(const ShapeGeometry& a, const RigidTransform& X_WSa, const ShapeGeometry& b,
                         const RigidTransform& X_WSb, Vector3* dhat_W, double* gap_m);

// How far apart the two geometries' extents (as CalcGapAlongCentres) are along each of the
// candidate separating axes — the line between the centres, each box's three axes, a half-space's
// normal — as gap_m[k] along dhat_W[k], which points from b toward a (negative where they overlap
// along it; an axis then points to the side of the smaller overlap).
// Any positive gap proves the geometries apart. Returns the number of axes (at most 7; 0 when
// both are half-spaces). A box far larger than the other (a ground box) separates along its own
// face normal, where the line between the centres, leaning across its width, does not.
int CalcGapsAlongAxes(const ShapeGeometry& a, const RigidTransform& X_WSa, const ShapeGeometry& b,
                      const RigidTransform& X_WSb, Vector3 dhat_W[7], double gap_m[7]);

// The radius about the shape frame's origin within which the geometry lies (its bounding box's
// farthest corner); +∞ for a half-space.
double CalcExtentRadius(const ShapeGeometry& g);

// Bounds each point's depth φ0 by how far its two elements overlap along its normal
// (hydro/depth_bound.h), for points made from a surface CalcPairSurface gave for these poses.
// A rigid side's element lies in the polygon's plane; against a compliant half-space the bound is
// the other body's depth below its face over n̂·ν̂ (none between two half-spaces). Called again
// at the present poses for points mapped back from poses ahead (not against a rigid shape).
void BoundPointDepths(const ShapeGeometry& a, const RigidTransform& X_WSa, const ShapeGeometry& b,
                      const RigidTransform& X_WSb, std::vector<ContactPoint>* points);

}  // namespace bullet
}  // namespace hydro
