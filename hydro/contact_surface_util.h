#pragma once
// Internal helpers shared by the contact-surface algorithms (not part of the public API).
#include <array>
#include <cmath>

#include "hydro/bvh.h"
#include "hydro/contact_surface.h"
#include "hydro/contact_surface_calculator.h"
#include "hydro/function_ref.h"
#include "hydro/polygon_clipping.h"
#include "hydro/pressure_field.h"

namespace hydro {
namespace internal {

// What every CalcContactSurface overload does first: validates both poses (CheckPose, naming them
// `what_A` and `what_B`), empties `surface`, and returns X_AB, B's pose in A's frame.
inline RigidTransform BeginContactSurface(const RigidTransform& X_WA, const char* what_A, const RigidTransform& X_WB,
                                          const char* what_B, ContactSurface* surface) {
  CheckPose(X_WA, what_A);
  CheckPose(X_WB, what_B);
  surface->Clear();
  return X_WA.inverse(Eigen::Isometry) * X_WB;
}

// True when the polygon normal n (unit) agrees with the pressure gradient grad to within
// kMaxNormalGradientAngle. A zero gradient (constant-pressure tet) always agrees.
inline bool NormalAgreesWithGradient(const Vector3& n, const Vector3& grad) {
  static const double kCos = std::cos(kMaxNormalGradientAngle);
  return n.dot(grad) >= kCos * grad.norm();
}

// The equal-pressure plane of pA(p) = ∇pA·p + cA and pB(p) = ∇pB·p + cB (both in one frame),
// 004 eq. 16: (∇pA − ∇pB)·p = cB − cA. Its normal n = (∇pA − ∇pB)/|∇pA − ∇pB| points out of B
// into A (pA grows into A, pB grows into B). Returns false when the gradients are (nearly) equal,
// where the fields are parallel and meet nowhere or everywhere.
inline bool EqualPressurePlane(const Vector3& grad_A, double c_A, const Vector3& grad_B, double c_B, Vector3* n,
                               double* d) {
  const Vector3 difference = grad_A - grad_B;
  const double norm = difference.norm();
  if (!(norm > 1e-12 * (grad_A.norm() + grad_B.norm()))) return false;
  *n = difference / norm;
  *d = (c_B - c_A) / norm;
  // Both sides must push along the normal (see kMaxNormalGradientAngle).
  return NormalAgreesWithGradient(*n, grad_A) && NormalAgreesWithGradient(-*n, grad_B);
}

// grad·n, the rate of increase of a side's pressure along the normal, with the round-off of a
// normal perpendicular to the gradient (a rigid side face in a linear field) set to exactly 0, so
// the point approximation drops such polygons instead of making a point of near-zero stiffness and
// enormous depth (000 §IV-A).
inline double NormalGradient(const Vector3& grad, const Vector3& n) {
  const double g = grad.dot(n);
  return std::abs(g) <= 1e-12 * grad.norm() ? 0.0 : g;
}

// The tet's vertices, expressed in the mesh frame.
inline std::array<Vector3, 4> TetVertices(const VolumeMesh& mesh, int t) {
  const Tet& k = mesh.tet(t);
  return {mesh.vertex(k[0]), mesh.vertex(k[1]), mesh.vertex(k[2]), mesh.vertex(k[3])};
}

// Clips `poly` (normal n_poly) to the tet given by its inward face planes, skipping face
// `skip_face` (-1: none). A polygon lying within `tolerance` of a face plane is on the boundary
// between this tet and its neighbour: it is kept only by the tet on the +n_poly side, so a polygon
// on a shared face is counted once.
void ClipPolygonByTet(const std::array<Vector3, 4>& inward_normals, const std::array<double, 4>& offsets,
                      const Vector3& n_poly, int skip_face, double tolerance, ClipPolygon* poly);

// True when all n points lie outside one of a tet's faces (given by inward normals and offsets:
// inside is normal·p ≥ offset) by more than `tolerance`, face `skip_face` left out (-1: none).
// Then the tet and the points' convex hull are disjoint, and ClipPolygonByTet would empty any
// polygon within that hull: a dozen dot products instead of the clips.
inline bool AllOutsideOneFace(const Vector3* points, int n, const std::array<Vector3, 4>& inward_normals,
                              const std::array<double, 4>& offsets, int skip_face, double tolerance) {
  for (int f = 0; f < 4; ++f) {
    if (f == skip_face) continue;
    const double limit = offsets[f] - tolerance;
    bool all_outside = true;
    for (int i = 0; i < n && all_outside; ++i) all_outside = inward_normals[f].dot(points[i]) < limit;
    if (all_outside) return true;
  }
  return false;
}

// Appends `poly` (in frame A) to the surface in W with pressures from `pressure_of(p_AQ)`.
template <typename PressureFn>
void AppendPolygon(const ClipPolygon& poly, const RigidTransform& X_WA, const Vector3& n_A, PressureFn pressure_of,
                   double grad_A, double grad_B, int element_A, int element_B, ContactSurface* surface) {
  if (poly.n < 3) return;
  std::array<Vector3, ClipPolygon::kCapacity> p_WV;
  std::array<double, ClipPolygon::kCapacity> pressure;
  for (int i = 0; i < poly.n; ++i) {
    p_WV[i] = X_WA * poly.p[i];
    pressure[i] = std::max(0.0, pressure_of(poly.p[i]));
  }
  surface->AddPolygon(p_WV.data(), pressure.data(), poly.n, X_WA.linear() * n_A, grad_A, grad_B, element_A, element_B);
}

// An element of the second tree carried into A's frame. Which fields a clip fills in, and which of
// them only once a first test has passed, is its own affair; `element` and `complete` say for which
// element they hold.
struct CarriedElement {
  int element{-1};              // the element the fields below were carried for; −1 before the first
  bool complete{false};         // whether the fields filled in after a first test hold for `element` too
  std::array<Vector3, 4> n_A;   // its inward face normals, or a triangle's face normal in n_A[0]
  std::array<Vector3, 4> p_AV;  // its vertices (a triangle's first three)
  std::array<double, 4> d_A;    // its face offsets
  Vector3 grad_in_A;            // its pressure field's gradient, and the field's value at A's origin
  double value_at_Ao;
};

// The b elements a piece of a CollideInPieces query has carried into A, kept from one visit to the
// next: the descent visits one b element with several a elements in a row (Bvh::CollideFrom tests
// each of a b leaf's elements against all of an a leaf's), and comes back to the same b leaf for
// the next a leaf (it descends a's tree under one b node for several pops). An element's slot is
// picked by the low bits of its index. Instructions a query for two spheres at R/8 (hydro_bench,
// callgrind on Bvh::CollideFrom) by slots: carried anew at each visit 47.85M; 1 slot 44.29M, 4
// 43.58M, 8 42.70M, 16 42.18M, 32 41.31M, 64 40.73M, 256 40.29M. 64 slots take 17 KB a piece.
class CarriedElements {
 public:
  static constexpr int kSlots = 64;
  // The slot `element` would be kept in; its fields are the element's when slot->element == element.
  CarriedElement* SlotFor(int element) { return &slots_[element & (kSlots - 1)]; }

 private:
  std::array<CarriedElement, kSlots> slots_;
};

// A BVH query that clips element pairs into a surface, run on ContactThreads() (hydro/
// parallel_for.h) when the trees are large enough to pay for it: a.Collide(b, X_AB, …) split into
// pieces (Bvh::SplitCollide), each clipping into its own surface, appended to `surface` in
// the order one Collide visits them. The polygons are the same, in the same order, on any number
// of threads. `clip(element_a, element_b, out, carried)` must write only to `out` and `carried`,
// the piece's own, whose slots are all empty (element −1) at the piece's start.
void CollideInPieces(const Bvh& a, const Bvh& b, const RigidTransform& X_AB, bool cull_by_value_range,
                     FunctionRef<void(int, int, ContactSurface*, CarriedElements*)> clip, ContactSurface* surface);

// Whether CollideInPieces splits a query of trees of these sizes (on more than one thread): below
// 512 nodes in both together a query takes tens of microseconds, about what waking a thread costs.
constexpr int kMinNodesToSplit = 512;
inline bool SplitsInPieces(int nodes_a, int nodes_b) { return nodes_a + nodes_b >= kMinNodesToSplit; }

}  // namespace internal
}  // namespace hydro
