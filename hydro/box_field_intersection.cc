// Contact surfaces of compliant boxes in closed form (hydro/compliant_box.h), cut along both boxes'
// surface grids:
// - compliant box–compliant box: per pair of face regions, the plane where the two linear fields
//   are equal (004 App. X-B, eq. 16) clipped by both regions;
// - compliant box–rigid box: per rigid face and compliant region, the face clipped by the region
//   (001 §5.0.2, rigid–compliant).
//
// The mesh-based queries (hydro/field_intersection.cc, hydro/mesh_intersection.cc) find the same
// polygons cut by every pair of elements that meet: on two bricks of a wall at the default hint
// the first visits 4,821 tet pairs to emit 331 polygons. Here 36 region pairs are tested against
// the regions' bounding boxes, and those that pass are clipped by 12 planes each. The cut along
// the grids keeps what the polygons are for: one solver point each (hydro/point_approximation.h),
// a point per cell spreads the patch's stiffness as the mesh's polygons did, so the patch resists
// rocking (adapters/shape_geometry.cc, boxes).
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>

#include "hydro/box_face_region.h"
#include "hydro/compliant_box.h"
#include "hydro/contact_surface_calculator.h"
#include "hydro/contact_surface_util.h"

namespace hydro {

using internal::AppendPolygon;
using internal::ClipByRegion;
using internal::EqualPressurePlane;
using internal::NormalAgreesWithGradient;
using internal::NormalGradient;
using internal::Parallelogram;
using internal::PlaneMissesRegion;
using internal::SquareOnPlane;

namespace {

// One axis of a surface grid, as t = axis·p + offset ∈ [0, count·cell] (frame A), and the clipping
// tolerance of its box.
struct GridAxis {
  Vector3 axis;
  double offset;
  double cell;
  int count;
  double tolerance;
};

// Cuts `poly` into the cells of grids[level..3] and hands each piece to emit.
template <typename Emit>
void CutAlongGrids(const ClipPolygon& poly, const std::array<GridAxis, 4>& grids, int level, const Emit& emit) {
  if (level == 4) {
    emit(poly);
    return;
  }
  const GridAxis& g = grids[level];
  double low = std::numeric_limits<double>::infinity(), high = -low;
  for (int i = 0; i < poly.n; ++i) {
    const double t = g.axis.dot(poly.p[i]) + g.offset;
    low = std::min(low, t);
    high = std::max(high, t);
  }
  // A polygon that reaches a cell's boundary only within round-off is not cut there; nor within the
  // clipping tolerance, where the split would leave it whole on one side.
  const double slack = std::max(1e-9 * g.cell, 2 * g.tolerance);
  const int first = std::clamp(static_cast<int>(std::floor((low + slack) / g.cell)), 0, g.count - 1);
  const int last = std::clamp(static_cast<int>(std::floor((high - slack) / g.cell)), first, g.count - 1);
  if (first == last) {
    CutAlongGrids(poly, grids, level + 1, emit);
    return;
  }
  // Cell m's piece is what lies below the line t = (m + 1)·cell of what the earlier cuts left: one
  // pass over the rest at each line (SplitBySignedDistances), where clipping the whole polygon to
  // each cell took two.
  std::array<ClipPolygon, 2> rests;
  ClipPolygon piece;
  ClipPolygon* rest = &rests[0];
  ClipPolygon* next_rest = &rests[1];
  *rest = poly;
  std::array<double, ClipPolygon::kCapacity> s;
  for (int m = first; m < last && rest->n >= 3; ++m) {
    switch (SignedDistancesToPlane(*rest, g.axis, (m + 1) * g.cell - g.offset, g.tolerance, s.data())) {
      case PlaneSide::kInside:  // nothing of the rest in cell m
        continue;
      case PlaneSide::kInPlane:
      case PlaneSide::kOutside:  // all of it
        CutAlongGrids(*rest, grids, level + 1, emit);
        return;
      case PlaneSide::kCrossing:
        SplitBySignedDistances(*rest, s.data(), &piece, next_rest);
        if (piece.n >= 3) CutAlongGrids(piece, grids, level + 1, emit);
        std::swap(rest, next_rest);
        break;
    }
  }
  if (rest->n >= 3) CutAlongGrids(*rest, grids, level + 1, emit);
}

// The four grid axes a piece is cut along: face_A's two tangents on A's grid, face_B's two on B's
// (B posed at R_AB, p_AB in A).
std::array<GridAxis, 4> FaceGrids(const BoxSurfaceGrid& A, int face_A, const BoxSurfaceGrid& B, int face_B,
                                  const Matrix3& R_AB, const Vector3& p_AB, double tolerance_A, double tolerance_B) {
  std::array<GridAxis, 4> grids;
  int b, c;
  BoxSurfaceGrid::FaceTangentAxes(face_A, &b, &c);
  grids[0] = {Vector3::Unit(b), A.half_size()[b], A.cell_size(b), A.cells(b), tolerance_A};
  grids[1] = {Vector3::Unit(c), A.half_size()[c], A.cell_size(c), A.cells(c), tolerance_A};
  BoxSurfaceGrid::FaceTangentAxes(face_B, &b, &c);
  for (int k = 0; k < 2; ++k) {
    const int axis = k == 0 ? b : c;
    const Vector3 axis_A = R_AB.col(axis);
    grids[2 + k] = {axis_A, B.half_size()[axis] - axis_A.dot(p_AB), B.cell_size(axis), B.cells(axis), tolerance_B};
  }
  return grids;
}

// True when the boxes' bounding boxes, B's in A's frame, are apart along one of A's axes.
bool ApartAlongAxesOfA(const Vector3& h_A, const Vector3& h_B, const Matrix3& R_AB, const Vector3& p_AB) {
  const Vector3 reach_B = R_AB.cwiseAbs() * h_B;
  for (int i = 0; i < 3; ++i)
    if (std::abs(p_AB[i]) > h_A[i] + reach_B[i]) return true;
  return false;
}

// pA = g·(h_a − s·x_a) in face f's region of a compliant box: its gradient and value at A's origin.
void RegionField(const CompliantBox& box, int face, Vector3* grad, double* c) {
  const int a = BoxSurfaceGrid::FaceAxis(face);
  *grad = -box.gradient_magnitude() * BoxSurfaceGrid::FaceSide(face) * Vector3::Unit(a);
  *c = box.gradient_magnitude() * box.half_size()[a];
}

// What both queries set up: B's pose in A, and each box's clipping tolerance (1e-12 of its size,
// as the mesh queries take their elements': a large ground box must not blur a small box's clips).
struct BoxPair {
  RigidTransform X_WA;
  Matrix3 R_AB;
  Vector3 p_AB;
  double tolerance_A, tolerance_B;
};

// Validates the poses and empties the surface (BeginContactSurface); false when the boxes are
// apart along one of A's axes, where the surface stays empty.
bool BeginBoxPair(const RigidTransform& X_WA, const char* what_A, const Vector3& h_A, const RigidTransform& X_WB,
                  const char* what_B, const Vector3& h_B, ContactSurface* surface, BoxPair* pair) {
  const RigidTransform X_AB = internal::BeginContactSurface(X_WA, what_A, X_WB, what_B, surface);
  *pair = {X_WA, X_AB.linear(), X_AB.translation(), 1e-12 * h_A.norm(), 1e-12 * h_B.norm()};
  return !ApartAlongAxesOfA(h_A, h_B, pair->R_AB, pair->p_AB);
}

// Cuts `poly` (frame A; in face_A's region of A, and on face_B's region or face of B) along both
// grids and appends the pieces with A's pressure grad_A·p + c_A, each naming the elements under its
// vertices' mean.
void AppendPieces(const ClipPolygon& poly, const Vector3& n, const Vector3& grad_A, double c_A, double grad_B_n,
                  const BoxSurfaceGrid& A, int face_A, const BoxSurfaceGrid& B, int face_B, const BoxPair& pair,
                  ContactSurface* surface) {
  const double grad_A_n = NormalGradient(grad_A, n);
  CutAlongGrids(poly, FaceGrids(A, face_A, B, face_B, pair.R_AB, pair.p_AB, pair.tolerance_A, pair.tolerance_B), 0,
                [&](const ClipPolygon& piece) {
                  Vector3 p_AM = Vector3::Zero();
                  for (int i = 0; i < piece.n; ++i) p_AM += piece.p[i];
                  p_AM /= piece.n;
                  AppendPolygon(
                      piece, pair.X_WA, n, [&](const Vector3& p_AQ) { return grad_A.dot(p_AQ) + c_A; }, grad_A_n,
                      grad_B_n, A.ElementUnder(face_A, p_AM),
                      B.ElementUnder(face_B, pair.R_AB.transpose() * (p_AM - pair.p_AB)), surface);
                });
}

}  // namespace

void CalcContactSurface(const CompliantBox& A, const RigidTransform& X_WA, const CompliantBox& B,
                        const RigidTransform& X_WB, ContactSurface* surface) {
  const Vector3& h_A = A.half_size();
  const Vector3& h_B = B.half_size();
  BoxPair pair;
  if (!BeginBoxPair(X_WA, "pose of compliant box A (X_WA)", h_A, X_WB, "pose of compliant box B (X_WB)", h_B, surface,
                    &pair))
    return;
  const Matrix3& R_AB = pair.R_AB;
  const Vector3& p_AB = pair.p_AB;
  // B's six region fields carried into A, pB = ∇pB·(p − p_AB) + c in B's frame, once for all
  // 36 region pairs.
  std::array<Vector3, 6> grad_B;
  std::array<double, 6> c_B;
  for (int face_B = 0; face_B < 6; ++face_B) {
    Vector3 grad_pB_B;
    double c_pB_B;
    RegionField(B, face_B, &grad_pB_B, &c_pB_B);
    grad_B[face_B] = R_AB * grad_pB_B;
    c_B[face_B] = c_pB_B - grad_B[face_B].dot(p_AB);
  }
  for (int face_A = 0; face_A < 6; ++face_A) {
    Vector3 grad_A;
    double c_A;
    RegionField(A, face_A, &grad_A, &c_A);
    for (int face_B = 0; face_B < 6; ++face_B) {
      Vector3 n;
      double d;
      if (!EqualPressurePlane(grad_A, c_A, grad_B[face_B], c_B[face_B], &n, &d)) continue;
      if (PlaneMissesRegion(n, d, h_A, face_A, pair.tolerance_A, 0.0) ||
          PlaneMissesRegion(R_AB.transpose() * n, d - n.dot(p_AB), h_B, face_B, pair.tolerance_B,
                            std::abs(d) + std::abs(n.dot(p_AB))))
        continue;
      ClipPolygon poly = SquareOnPlane(n, d, h_A);  // ≤ 12 vertices after both regions, ≤ 20 a piece
      ClipByRegion(h_A, face_A, Matrix3::Identity(), Vector3::Zero(), pair.tolerance_A, &poly);
      if (poly.n < 3) continue;
      ClipByRegion(h_B, face_B, R_AB, p_AB, pair.tolerance_B, &poly);
      if (poly.n < 3) continue;
      AppendPieces(poly, n, grad_A, c_A, -NormalGradient(grad_B[face_B], n), A.grid(), face_A, B.grid(), face_B, pair,
                   surface);
    }
  }
}

void CalcContactSurface(const CompliantBox& A, const RigidTransform& X_WA, const RigidBox& B,
                        const RigidTransform& X_WB, ContactSurface* surface) {
  const Vector3& h_A = A.half_size();
  const Vector3& h_B = B.half_size();
  BoxPair pair;
  if (!BeginBoxPair(X_WA, "pose of the compliant box (X_WA)", h_A, X_WB, "pose of the rigid box (X_WB)", h_B, surface,
                    &pair))
    return;
  const Matrix3& R_AB = pair.R_AB;
  for (int face_B = 0; face_B < 6; ++face_B) {
    // The rigid face, counter-clockwise about its outward normal (out of B into A).
    const int a = BoxSurfaceGrid::FaceAxis(face_B);
    const double s = BoxSurfaceGrid::FaceSide(face_B);
    int b, c;
    BoxSurfaceGrid::FaceTangentAxes(face_B, &b, &c);
    const Vector3 n_B = s * Vector3::Unit(a);
    const Vector3 centre_B = h_B[a] * n_B;
    Vector3 u_B = h_B[b] * Vector3::Unit(b), v_B = h_B[c] * Vector3::Unit(c);
    if (u_B.cross(v_B).dot(n_B) < 0) std::swap(u_B, v_B);
    // In A.
    const Vector3 n = R_AB * n_B;
    const Vector3 centre = R_AB * centre_B + pair.p_AB, u = R_AB * u_B, v = R_AB * v_B;
    for (int face_A = 0; face_A < 6; ++face_A) {
      Vector3 grad_A;
      double c_A;
      RegionField(A, face_A, &grad_A, &c_A);
      // The face presses A only where A's pressure rises along its normal (kMaxNormalGradientAngle).
      if (!NormalAgreesWithGradient(n, grad_A)) continue;
      if (PlaneMissesRegion(n, n.dot(centre), h_A, face_A, pair.tolerance_A, centre.cwiseAbs().sum())) continue;
      ClipPolygon poly = Parallelogram(centre, u, v);
      ClipByRegion(h_A, face_A, Matrix3::Identity(), Vector3::Zero(), pair.tolerance_A, &poly);
      if (poly.n < 3) continue;
      AppendPieces(poly, n, grad_A, c_A, std::numeric_limits<double>::infinity(), A.grid(), face_A, B.grid(), face_B,
                   pair, surface);
    }
  }
}

}  // namespace hydro
