// Compliant box–compliant box contact surfaces in closed form (hydro/compliant_box.h): per pair of
// face regions, the plane where the two linear fields are equal (004 App. X-B, eq. 16) clipped by
// both regions, then cut along both boxes' surface grids.
//
// The mesh-based query (hydro/field_intersection.cc) finds the same polygons cut by every pair of
// tets that meet: on two bricks of a wall at the default hint it visits 4,821 tet pairs to emit
// 331 polygons. Here 36 region pairs are clipped by 12 planes each. The cut along the grids keeps
// what the polygons are for: one solver point each (hydro/point_approximation.h), a point per cell
// spreads the patch's stiffness as the mesh's polygons did, so the patch resists rocking
// (adapters/shape_geometry.cc, boxes).
#include <algorithm>
#include <cmath>
#include <limits>

#include "hydro/compliant_box.h"
#include "hydro/contact_surface_calculator.h"
#include "hydro/contact_surface_util.h"

namespace hydro {

using internal::AppendPolygon;
using internal::EqualPressurePlane;
using internal::NormalGradient;

namespace {

// A half-space n·p ≥ d.
struct HalfSpace {
  Vector3 n;
  double d;
};

// Face f's region of a box with half-size h, in the box's frame (hydro/compliant_box.h): inside the
// face, no nearer to any side face (four medial planes), and on the face's half of the box.
std::array<HalfSpace, 6> FaceRegion(const Vector3& h, int face) {
  const int a = CompliantBox::FaceAxis(face);
  const double s = CompliantBox::FaceSide(face);
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

// One axis of a surface grid, as t = axis·p + offset ∈ [0, count·cell] (frame A).
struct GridAxis {
  Vector3 axis;
  double offset;
  double cell;
  int count;
};

// Cuts `poly` into the cells of grids[level..3] and hands each piece to emit.
template <typename Emit>
void CutAlongGrids(const ClipPolygon& poly, const std::array<GridAxis, 4>& grids, int level, double tolerance,
                   const Emit& emit) {
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
  // A polygon that reaches a cell's boundary only within round-off is not cut there.
  const double slack = 1e-9 * g.cell;
  const int first = std::clamp(static_cast<int>(std::floor((low + slack) / g.cell)), 0, g.count - 1);
  const int last = std::clamp(static_cast<int>(std::floor((high - slack) / g.cell)), first, g.count - 1);
  if (first == last) {
    CutAlongGrids(poly, grids, level + 1, tolerance, emit);
    return;
  }
  for (int m = first; m <= last; ++m) {
    ClipPolygon piece = poly;
    if (m > first) ClipPolygonByHalfSpace(g.axis, m * g.cell - g.offset, tolerance, &piece);
    if (m < last && piece.n >= 3) ClipPolygonByHalfSpace(-g.axis, g.offset - (m + 1) * g.cell, tolerance, &piece);
    if (piece.n >= 3) CutAlongGrids(piece, grids, level + 1, tolerance, emit);
  }
}

}  // namespace

void CalcContactSurface(const CompliantBox& A, const RigidTransform& X_WA, const CompliantBox& B,
                        const RigidTransform& X_WB, ContactSurface* surface) {
  const RigidTransform X_AB = internal::BeginContactSurface(X_WA, "pose of compliant box A (X_WA)", X_WB,
                                                            "pose of compliant box B (X_WB)", surface);
  const Matrix3 R_AB = X_AB.linear();
  const Vector3 p_AB = X_AB.translation();
  const Vector3& h_A = A.half_size();
  const Vector3& h_B = B.half_size();
  // Quick exit when B's box lies outside A's along one of A's axes.
  const Vector3 reach_B = R_AB.cwiseAbs() * h_B;
  for (int i = 0; i < 3; ++i)
    if (std::abs(p_AB[i]) > h_A[i] + reach_B[i]) return;
  const double tolerance = 1e-12 * std::max(h_A.norm(), h_B.norm());
  const double g_A = A.gradient_magnitude(), g_B = B.gradient_magnitude();

  for (int face_A = 0; face_A < 6; ++face_A) {
    const int a = CompliantBox::FaceAxis(face_A);
    // pA = g_A·(h_a − s·x_a) in this region.
    const Vector3 grad_A = -g_A * CompliantBox::FaceSide(face_A) * Vector3::Unit(a);
    const double c_A = g_A * h_A[a];
    const std::array<HalfSpace, 6> region_A = FaceRegion(h_A, face_A);
    for (int face_B = 0; face_B < 6; ++face_B) {
      const int a_B = CompliantBox::FaceAxis(face_B);
      // pB = g_B·(h_b − s·x_b) in B's frame, carried into A: ∇pB·(p − p_AB) + c.
      const Vector3 grad_B = R_AB * (-g_B * CompliantBox::FaceSide(face_B) * Vector3::Unit(a_B));
      const double c_B = g_B * h_B[a_B] - grad_B.dot(p_AB);
      Vector3 n;
      double d;
      if (!EqualPressurePlane(grad_A, c_A, grad_B, c_B, &n, &d)) continue;
      // A square on the plane around the point nearest A's centre, wide enough to hold the plane's
      // cut through A's box (which lies within |h_A| of its centre).
      const Vector3 centre = d * n;
      Vector3 u = n.unitOrthogonal();
      Vector3 v = n.cross(u);
      u *= 1.5 * h_A.norm();
      v *= 1.5 * h_A.norm();
      ClipPolygon poly;  // ≤ 12 vertices after both regions, ≤ 20 for a piece (ClipPolygon)
      poly.Push(centre - u - v);
      poly.Push(centre + u - v);
      poly.Push(centre + u + v);
      poly.Push(centre - u + v);
      for (const HalfSpace& half : region_A) {
        ClipPolygonByHalfSpace(half.n, half.d, tolerance, &poly);
        if (poly.n < 3) break;
      }
      if (poly.n < 3) continue;
      for (const HalfSpace& half : FaceRegion(h_B, face_B)) {
        const Vector3 n_A = R_AB * half.n;
        ClipPolygonByHalfSpace(n_A, half.d + n_A.dot(p_AB), tolerance, &poly);
        if (poly.n < 3) break;
      }
      if (poly.n < 3) continue;

      std::array<GridAxis, 4> grids;
      int b, c;
      CompliantBox::FaceTangentAxes(face_A, &b, &c);
      grids[0] = {Vector3::Unit(b), h_A[b], A.cell_size(b), A.cells(b)};
      grids[1] = {Vector3::Unit(c), h_A[c], A.cell_size(c), A.cells(c)};
      CompliantBox::FaceTangentAxes(face_B, &b, &c);
      for (int k = 0; k < 2; ++k) {
        const int axis = k == 0 ? b : c;
        const Vector3 axis_A = R_AB.col(axis);
        grids[2 + k] = {axis_A, h_B[axis] - axis_A.dot(p_AB), B.cell_size(axis), B.cells(axis)};
      }
      const double grad_A_n = NormalGradient(grad_A, n), grad_B_n = -NormalGradient(grad_B, n);
      CutAlongGrids(poly, grids, 0, tolerance, [&](const ClipPolygon& piece) {
        Vector3 p_AM = Vector3::Zero();
        for (int i = 0; i < piece.n; ++i) p_AM += piece.p[i];
        p_AM /= piece.n;
        const int tet_A = A.TetUnder(face_A, p_AM);
        const int tet_B = B.TetUnder(face_B, R_AB.transpose() * (p_AM - p_AB));
        AppendPolygon(
            piece, X_WA, n, [&](const Vector3& p_AQ) { return grad_A.dot(p_AQ) + c_A; }, grad_A_n, grad_B_n, tet_A,
            tet_B, surface);
      });
    }
  }
}

}  // namespace hydro
