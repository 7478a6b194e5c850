// Compliant–compliant contact surfaces (004 §VI-B and App. X-B, 001 §5.0.2): inside each pair of
// overlapping tets both pressures are linear, so the set where they are equal is a plane; the
// piece of it inside both tets is a convex polygon.
#include <algorithm>
#include <cmath>
#include <limits>

#include "hydro/contact_surface_calculator.h"
#include "hydro/contact_surface_util.h"

namespace hydro {

using internal::AppendPolygon;
using internal::EqualPressurePlane;
using internal::NormalAgreesWithGradient;
using internal::TetVertices;

namespace {

// True when the affine function f(p) = g·p + c has one strict sign at all four corners, so its
// zero plane misses the tet. The margin is relative to the values, so round-off near a corner
// never culls a tet the slice would keep.
bool PlaneMissesTet(const Vector3& g, double c, const VolumeMesh& mesh, int tet) {
  const Tet& k = mesh.tet(tet);
  double lowest = std::numeric_limits<double>::infinity(), highest = -lowest;
  for (int i = 0; i < 4; ++i) {
    const double f = g.dot(mesh.vertex(k[i])) + c;
    lowest = std::min(lowest, f);
    highest = std::max(highest, f);
  }
  const double margin = 1e-12 * std::max(std::abs(lowest), std::abs(highest));
  return lowest > margin || highest < -margin;
}

}  // namespace

void CalcContactSurface(const CompliantMesh& A, const RigidTransform& X_WA, const CompliantMesh& B,
                        const RigidTransform& X_WB, ContactSurface* surface) {
  const RigidTransform X_AB = internal::BeginContactSurface(X_WA, "pose of compliant mesh A (X_WA)", X_WB,
                                                            "pose of compliant mesh B (X_WB)", surface);
  const Matrix3 R_AB = X_AB.linear();
  const Vector3 p_BAo = X_AB.inverse(Eigen::Isometry).translation();
  const PressureField& field_A = A.field();
  const PressureField& field_B = B.field();
  // The fields can only be equal inside both tets where their pressure ranges overlap: the BVHs
  // carry each node's pressure range and skip pairs that cannot meet.
  internal::CollideInPieces(
      A.bvh(), B.bvh(), X_AB, /*cull_by_value_range=*/true,
      [&](int tet_a, int tet_b, ContactSurface* out, internal::CarriedElements* carried) {
        // Four tests, each necessary for a polygon, reject most candidate pairs before the slice and
        // the clip; their order sets the cost, not the polygons. Counted in one query (hydro_bench's
        // scenes): pairs the BVH visits, then how many pass each test in this order, then polygons:
        //   two bricks at the default hint (/4):  1,938 → 565 → 400 → 363 → 234 → 144;
        //   two bricks at /8:                     5,385 → 1,541 → 1,349 → 1,238 → 695 → 452;
        //   two spheres at hint R/8:             42,803 → 20,352 → 13,319 → 9,196 → 6,779 → 2,166;
        //   two bricks laid on a grid (/4):       4,821 → 2,918 → 2,791 → 2,759 → 1,949 → 331.
        // Instructions (callgrind, before tet B was carried into A once per piece) against the
        // planes first, then A's corners, then B's: bricks /4 2.08M → 1.86M, /8 6.05M → 5.03M; on
        // a grid /4 7.23M → 6.53M; spheres R/8 48.1M → 48.6M. Both corner tests first: bricks
        // 1.84M and 4.88M, spheres 49.7M; plane A, then B's corners: 1.98M, 5.61M, 48.8M.
        // 1. Tet B's corners against tet A's faces (16 dot products; the BVH's boxes around a mesh's
        //    tets overlap much more than the tets: a hex's six Kuhn tets share its box). Tet B is
        //    carried into A once for the visits that share it.
        internal::CarriedElement* carried_B = carried->SlotFor(tet_b);
        if (carried_B->element != tet_b) {
          const Tet& k = B.mesh().tet(tet_b);
          for (int i = 0; i < 4; ++i) carried_B->p_AV[i] = X_AB * B.mesh().vertex(k[i]);
          carried_B->element = tet_b;
          carried_B->complete = false;
        }
        const double tolerance = B.mesh().clip_tolerance(tet_b);
        if (internal::AllOutsideOneFace(carried_B->p_AV.data(), 4, A.mesh().inward_normals(tet_a),
                                        A.mesh().face_offsets(tet_a), -1, tolerance))
          return;
        if (!carried_B->complete) {
          // B's field re-expressed in A: pB(p_AQ) = ∇pB_B·(X_BA p_AQ) + cB.
          carried_B->grad_in_A = R_AB * field_B.gradient(tet_b);
          carried_B->value_at_Ao = field_B.EvaluateInTet(tet_b, p_BAo);
          // Tet B's faces in A: n_B·p_BQ ≥ d_B  ⟺  (R_AB n_B)·p_AQ ≥ d_B − n_B·p_BAo.
          for (int f = 0; f < 4; ++f) {
            const Vector3& n_B = B.mesh().inward_normals(tet_b)[f];
            carried_B->n_A[f] = R_AB * n_B;
            carried_B->d_A[f] = B.mesh().face_offsets(tet_b)[f] - n_B.dot(p_BAo);
          }
          carried_B->complete = true;
        }
        // 2–3. The equal-pressure plane of the two fields' linear extensions must cut both tets:
        // eight dot products on pA − pB at the corners.
        const Vector3& grad_A = field_A.gradient(tet_a);
        const double c_A = field_A.EvaluateInTet(tet_a, Vector3::Zero());
        const Vector3& grad_B = carried_B->grad_in_A;
        const double c_B = carried_B->value_at_Ao;
        const Vector3 grad_diff = grad_A - grad_B;
        if (PlaneMissesTet(grad_diff, c_A - c_B, A.mesh(), tet_a)) return;
        // In B's frame: f(p_BQ) = (R_BA·g)·p_BQ + g·p_ABo + c.
        if (PlaneMissesTet(R_AB.transpose() * grad_diff, grad_diff.dot(X_AB.translation()) + c_A - c_B, B.mesh(),
                           tet_b))
          return;
        // 4. Tet A's corners against tet B's faces.
        const std::array<Vector3, 4>& normals = carried_B->n_A;
        const std::array<double, 4>& offsets = carried_B->d_A;
        // 001 §5.0.2, clipping degeneracy: where both tets have a zero-pressure face, those faces cut
        // the plane along the same line; clip by A's (implicit in the slice) and skip B's.
        const int skip_face = field_A.ZeroPressureFace(tet_a) >= 0 ? field_B.ZeroPressureFace(tet_b) : -1;
        const std::array<Vector3, 4> tet_A = TetVertices(A.mesh(), tet_a);
        if (internal::AllOutsideOneFace(tet_A.data(), 4, normals, offsets, skip_face, tolerance)) return;
        Vector3 n;
        double d;
        if (!EqualPressurePlane(grad_A, c_A, grad_B, c_B, &n, &d)) return;
        ClipPolygon poly;
        SliceTetByPlane(tet_A, n, d, &poly);
        if (poly.n < 3) return;
        internal::ClipPolygonByTet(normals, offsets, n, skip_face, tolerance, &poly);
        AppendPolygon(
            poly, X_WA, n, [&](const Vector3& p_AQ) { return field_A.EvaluateInTet(tet_a, p_AQ); },
            internal::NormalGradient(grad_A, n), -internal::NormalGradient(grad_B, n), tet_a, tet_b, out);
      },
      surface);
}

void CalcContactSurface(const CompliantMesh& A, const RigidTransform& X_WA, const CompliantHalfSpace& B,
                        const RigidTransform& X_WB, ContactSurface* surface) {
  const RigidTransform X_AB = internal::BeginContactSurface(X_WA, "pose of the compliant mesh (X_WA)", X_WB,
                                                            "pose of the compliant half-space (X_WB)", surface);
  // B's plane in A: n_A·p = d; below it pB = (E/H)·(d − n_A·p) (001 App. B).
  const Vector3 n_A = X_AB.linear().col(2);
  const double d_plane = n_A.dot(X_AB.translation());
  const double slope = B.gradient_magnitude();
  const Vector3 grad_B = -slope * n_A;
  const double c_B = slope * d_plane;
  const PressureField& field_A = A.field();
  const double tolerance = 1e-12 * A.bvh().root_box().half_size.maxCoeff();
  A.bvh().CollideSlab(n_A, -std::numeric_limits<double>::infinity(), d_plane, [&](int tet_a) {
    const Vector3& grad_A = field_A.gradient(tet_a);
    const double c_A = field_A.EvaluateInTet(tet_a, Vector3::Zero());
    Vector3 n;
    double d;
    if (!EqualPressurePlane(grad_A, c_A, grad_B, c_B, &n, &d)) return;
    ClipPolygon poly;
    SliceTetByPlane(TetVertices(A.mesh(), tet_a), n, d, &poly);
    // pB is zero above B's plane, not the negative linear extension.
    ClipPolygonByHalfSpace(-n_A, -d_plane, tolerance, &poly);
    AppendPolygon(
        poly, X_WA, n, [&](const Vector3& p_AQ) { return field_A.EvaluateInTet(tet_a, p_AQ); },
        internal::NormalGradient(grad_A, n), -internal::NormalGradient(grad_B, n), tet_a, -1, surface);
  });
}

}  // namespace hydro
