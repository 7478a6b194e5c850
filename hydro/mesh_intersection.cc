// Rigid–compliant contact surfaces (001 §5.0.2 "Rigid-compliant contacts"): the part of the rigid
// boundary that lies inside the compliant volume, found by clipping rigid triangles with tets, or
// by slicing tets with a rigid plane; and the mirror case of a compliant half-space.
#include <array>
#include <limits>

#include "hydro/contact_surface_calculator.h"
#include "hydro/contact_surface_util.h"

namespace hydro {

using internal::AppendPolygon;
using internal::NormalAgreesWithGradient;
using internal::TetVertices;

namespace {
constexpr double kInfinity = std::numeric_limits<double>::infinity();
}  // namespace

void CalcContactSurface(const CompliantMesh& A, const RigidTransform& X_WA, const RigidMesh& B,
                        const RigidTransform& X_WB, ContactSurface* surface) {
  const RigidTransform X_AB = internal::BeginContactSurface(X_WA, "pose of the compliant mesh (X_WA)", X_WB,
                                                            "pose of the rigid mesh (X_WB)", surface);
  const Matrix3 R_AB = X_AB.linear();
  const PressureField& field = A.field();
  const TriangleSurfaceMesh& rigid = B.mesh();
  internal::CollideInPieces(
      A.bvh(), B.bvh(), X_AB, /*cull_by_value_range=*/false,
      [&](int tet, int tri, ContactSurface* out, internal::CarriedElements* carried) {
        // The triangle is carried into A once for the visits that share it, all of it at once (its
        // normal and vertices; `complete` is unused): the normal test below rejects almost no visit
        // (none of 4,128 for a sphere on a rigid box face at R/8), and carrying the vertices only
        // after it took 5.79M instructions a query there instead of 5.76M.
        internal::CarriedElement* carried_tri = carried->SlotFor(tri);
        if (carried_tri->element != tri) {
          carried_tri->n_A[0] = R_AB * rigid.face_normal(tri);
          for (int i = 0; i < 3; ++i) carried_tri->p_AV[i] = X_AB * rigid.vertex(rigid.triangle(tri)[i]);
          carried_tri->element = tri;
        }
        // The rigid face normal points out of B into A; the face presses A only where A's pressure
        // rises along it.
        const Vector3& n_A = carried_tri->n_A[0];
        const Vector3& grad_A = field.gradient(tet);
        if (!NormalAgreesWithGradient(n_A, grad_A)) return;
        ClipPolygon poly;
        for (int i = 0; i < 3; ++i) poly.Push(carried_tri->p_AV[i]);
        // Most candidate pairs from the box test are a triangle wholly outside one of the tet's faces:
        // twelve dot products find them, where the clips would copy the polygon up to four times. (The
        // clip empties such a triangle too: all its points, and any part of it, are beyond the face's
        // tolerance.)
        const std::array<Vector3, 4>& inward_normals = A.mesh().inward_normals(tet);
        const std::array<double, 4>& offsets = A.mesh().face_offsets(tet);
        const double tolerance = A.mesh().clip_tolerance(tet);
        if (internal::AllOutsideOneFace(poly.p.data(), 3, inward_normals, offsets, -1, tolerance)) return;
        internal::ClipPolygonByTet(inward_normals, offsets, n_A, -1, tolerance, &poly);
        AppendPolygon(
            poly, X_WA, n_A, [&](const Vector3& p_AQ) { return field.EvaluateInTet(tet, p_AQ); },
            internal::NormalGradient(grad_A, n_A), kInfinity, tet, tri, out);
      },
      surface);
}

void CalcContactSurface(const CompliantMesh& A, const RigidTransform& X_WA, const RigidHalfSpace&,
                        const RigidTransform& X_WB, ContactSurface* surface) {
  const RigidTransform X_AB = internal::BeginContactSurface(X_WA, "pose of the compliant mesh (X_WA)", X_WB,
                                                            "pose of the rigid half-space (X_WB)", surface);
  // B's boundary plane in A: n_A·p = d, with n_A = ẑ_B out of B into A.
  const Vector3 n_A = X_AB.linear().col(2);
  const double d = n_A.dot(X_AB.translation());
  const PressureField& field = A.field();
  A.bvh().CollideSlab(n_A, d, d, [&](int tet) {
    const Vector3& grad_A = field.gradient(tet);
    if (!NormalAgreesWithGradient(n_A, grad_A)) return;
    ClipPolygon poly;
    SliceTetByPlane(TetVertices(A.mesh(), tet), n_A, d, &poly);
    AppendPolygon(
        poly, X_WA, n_A, [&](const Vector3& p_AQ) { return field.EvaluateInTet(tet, p_AQ); },
        internal::NormalGradient(grad_A, n_A), kInfinity, tet, -1, surface);
  });
}

void CalcContactSurface(const CompliantHalfSpace& A, const RigidTransform& X_WA, const RigidMesh& B,
                        const RigidTransform& X_WB, ContactSurface* surface) {
  const RigidTransform X_AB = internal::BeginContactSurface(X_WA, "pose of the compliant half-space (X_WA)", X_WB,
                                                            "pose of the rigid mesh (X_WB)", surface);
  const Matrix3 R_AB = X_AB.linear();
  // In A's frame p0 = (E/H)·(−z) below z = 0 (001 App. B), so ∇p0 = −(E/H)·ẑ.
  const double gradient = A.gradient_magnitude();
  const Vector3 grad_A = -gradient * Vector3::UnitZ();
  // z_A(p_BQ) = n_B·p_BQ + z(p_AB); triangles with some point at z_A ≤ 0.
  const Vector3 n_B = R_AB.row(2).transpose();
  const TriangleSurfaceMesh& rigid = B.mesh();
  const double scale = B.bvh().root_box().half_size.maxCoeff();
  B.bvh().CollideSlab(n_B, -kInfinity, -X_AB.translation().z(), [&](int tri) {
    const Vector3 n_A = R_AB * rigid.face_normal(tri);
    if (!NormalAgreesWithGradient(n_A, grad_A)) return;
    ClipPolygon poly;
    for (int i = 0; i < 3; ++i) poly.Push(X_AB * rigid.vertex(rigid.triangle(tri)[i]));
    ClipPolygonByHalfSpace(-Vector3::UnitZ(), 0.0, 1e-12 * scale, &poly);
    AppendPolygon(
        poly, X_WA, n_A, [&](const Vector3& p_AQ) { return -gradient * p_AQ.z(); },
        internal::NormalGradient(grad_A, n_A), kInfinity, -1, tri, surface);
  });
}

}  // namespace hydro
