#pragma once
// A compliant box's pressure field in closed form, beside the tet mesh that carries it
// (hydro/make_box_mesh.h). The field p0 = E·e with
//   e = min(hx − |x|, hy − |y|, hz − |z|)/Hmin,  Hmin = min(hx, hy, hz),
// is linear inside each of the six face regions (the points nearer to that face than to any
// other, bounded by the face, four medial planes at 45° and the mid plane), where
//   p0 = (E/Hmin)·(h_a − s·x_a)   for face (a, s), s = ±1.
// Two such fields are then equal on one plane per pair of regions, so a box–box contact surface is
// at most 36 polygons (004 App. X-B, eq. 16, applied to regions instead of tets). The mesh's own
// surfaces are the same polygons cut by the tets; this class keeps what the closed form needs and,
// so that polygons can name elements as the mesh's do, a tet of each face region under each cell
// of the face's surface grid.
#include <array>
#include <vector>

#include "hydro/hydroelastic_geometry.h"

namespace hydro {

class CompliantBox {
 public:
  // `size`: full edge lengths along x, y, z; `modulus_Pa`: E of the linear field p0 = E·e;
  // `resolution_hint`: the one `mesh` was made with (MakeBoxVolumeMesh(size, resolution_hint),
  // field MakeCompliantMesh(…, modulus_Pa) with no stiffening). The hint sets the surface grid,
  // ⌈size_i/hint⌉ cells along axis i, by which surfaces are cut into pieces. Throws InvalidInput
  // for non-positive or non-finite input, or a mesh that is not that box's (a face cell with no
  // tet of that face's region under it).
  CompliantBox(const Vector3& size, double modulus_Pa, double resolution_hint, const CompliantMesh& mesh);

  const Vector3& half_size() const { return half_size_; }
  double modulus() const { return modulus_Pa_; }
  // |∇p0| = E/Hmin in every region (Pa/m).
  double gradient_magnitude() const { return gradient_Pa_per_m_; }
  int cells(int axis) const { return cells_[axis]; }
  // Edge length of a surface grid cell along `axis`.
  double cell_size(int axis) const { return 2 * half_size_[axis] / cells_[axis]; }

  // Face f = 2a + (s > 0 ? 1 : 0) is the face of axis a on side s. Its two other axes, in
  // increasing order.
  static int FaceAxis(int face) { return face / 2; }
  static double FaceSide(int face) { return face % 2 == 1 ? 1.0 : -1.0; }
  static void FaceTangentAxes(int face, int* b, int* c) {
    const int a = FaceAxis(face);
    *b = a == 0 ? 1 : 0;
    *c = a == 2 ? 1 : 2;
  }

  // A tet of the mesh in face f's region that has a boundary face in the surface cell under
  // p_BQ (the cell holding p_BQ's coordinates along the face's tangent axes, clamped to the grid).
  int TetUnder(int face, const Vector3& p_BQ) const;

 private:
  // Index into tet_under_cell_ of the cell under p_BQ.
  int Slot(int face, const Vector3& p_BQ) const;

  Vector3 half_size_;
  double modulus_Pa_;
  double gradient_Pa_per_m_;
  Eigen::Vector3i cells_;
  std::array<int, 7> face_offset_{};  // into tet_under_cell_, per face
  std::vector<int> tet_under_cell_;
};

}  // namespace hydro
