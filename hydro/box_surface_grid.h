#pragma once
// The grid the box generators lay on a box's surface (hydro/make_box_mesh.h for the volume,
// hydro/make_surface_mesh.h for the surface): ⌈size_i/hint⌉ cells along axis i, and for each cell
// of each face one element of the mesh made at that hint on the surface in that cell (a tet with a
// boundary face there, or a triangle). Closed-form box surfaces (hydro/compliant_box.h) are cut
// into pieces along it, and each piece names the elements of its cells: one key per piece for
// warm starts, and elements of the right face region (so the right pressure gradient), though not
// always the very tet the piece lies in, which may be deeper in the same column of the mesh.
//
// Faces are numbered f = 2a + (s > 0), the face of axis a on side s = ±1.
#include <array>
#include <vector>

#include "hydro/math.h"

namespace hydro {

// ⌈size_i/hint⌉ cells along each axis (at least one): the grid every box generator lays.
Eigen::Vector3i BoxGridCells(const Vector3& size, double resolution_hint);

class BoxSurfaceGrid {
 public:
  // `size`: full edge lengths; throws InvalidInput for non-positive or non-finite size or hint.
  BoxSurfaceGrid(const Vector3& size, double resolution_hint);

  static int FaceAxis(int face) { return face / 2; }
  static double FaceSide(int face) { return face % 2 == 1 ? 1.0 : -1.0; }
  // The face's two other axes, in increasing order.
  static void FaceTangentAxes(int face, int* b, int* c) {
    const int a = FaceAxis(face);
    *b = a == 0 ? 1 : 0;
    *c = a == 2 ? 1 : 2;
  }

  const Vector3& half_size() const { return half_size_; }
  int cells(int axis) const { return cells_[axis]; }
  double cell_size(int axis) const { return 2 * half_size_[axis] / cells_[axis]; }

  // The face whose plane p_BQ, a point on the surface, lies on (the largest |x_a|/h_a).
  int FaceOf(const Vector3& p_BQ) const;
  // Records `element` for the cell of `face` under p_BQ unless one is recorded already; p_BQ must
  // lie on that face (within 1e-9 of the box's size), else InvalidInput naming `what`.
  void Record(int face, const Vector3& p_BQ, int element, const char* what);
  // The element recorded for the cell of `face` under p_BQ (the cell holding p_BQ's coordinates
  // along the face's tangent axes, clamped to the grid).
  int ElementUnder(int face, const Vector3& p_BQ) const { return element_[Slot(face, p_BQ)]; }
  // Throws InvalidInput naming `what` if a cell has no element: the mesh was not this box's.
  void CheckComplete(const char* what) const;

 private:
  int Slot(int face, const Vector3& p_BQ) const;

  Vector3 half_size_;
  Eigen::Vector3i cells_;
  std::array<int, 7> face_offset_{};  // into element_, per face
  std::vector<int> element_;
};

}  // namespace hydro
