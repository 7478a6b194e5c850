#pragma once
// A box's hydroelastic geometry in closed form, beside the mesh that carries it.
//
// CompliantBox: the field p0 = E·e of hydro/make_box_mesh.h,
//   e = min(hx − |x|, hy − |y|, hz − |z|)/Hmin,  Hmin = min(hx, hy, hz),
// is linear inside each of the six face regions (the points nearer to that face than to any
// other, bounded by the face, four medial planes at 45° and the mid plane), where
//   p0 = (E/Hmin)·(h_a − s·x_a)   for face (a, s), s = ±1.
// Two such fields are equal on one plane per pair of regions, so a box–box contact surface is at
// most 36 polygons (004 App. X-B, eq. 16, applied to regions instead of tets), and a rigid box's
// face meets a compliant box in at most 36 polygons too. The meshes' surfaces are the same
// polygons cut by the elements.
//
// RigidBox: a rigid box's six faces, beside its surface mesh (MakeBoxSurfaceMesh).
//
// Each keeps its surface grid (hydro/box_surface_grid.h) with an element of its mesh per cell.
#include "hydro/box_surface_grid.h"
#include "hydro/hydroelastic_geometry.h"

namespace hydro {

class CompliantBox {
 public:
  // `size`: full edge lengths along x, y, z; `modulus_Pa`: E of the linear field p0 = E·e;
  // `resolution_hint`: the one `mesh` was made with (MakeBoxVolumeMesh(size, resolution_hint),
  // field MakeCompliantMesh(…, modulus_Pa) with no stiffening). Throws InvalidInput for
  // non-positive or non-finite input, or a mesh that is not that box's (a tet on the surface whose
  // field is not the box's, or a cell of the grid with no tet under it).
  CompliantBox(const Vector3& size, double modulus_Pa, double resolution_hint, const CompliantMesh& mesh);

  const BoxSurfaceGrid& grid() const { return grid_; }
  const Vector3& half_size() const { return grid_.half_size(); }
  // |∇p0| = E/Hmin in every region (Pa/m).
  double gradient_magnitude() const { return gradient_Pa_per_m_; }

 private:
  BoxSurfaceGrid grid_;  // elements: tets of each face's region, with a face on the boundary
  double gradient_Pa_per_m_;
};

class RigidBox {
 public:
  // `mesh` = MakeBoxSurfaceMesh(size, resolution_hint). Throws InvalidInput for non-positive or
  // non-finite input, or a mesh that is not that box's (a cell with no triangle).
  RigidBox(const Vector3& size, double resolution_hint, const TriangleSurfaceMesh& mesh);

  const BoxSurfaceGrid& grid() const { return grid_; }
  const Vector3& half_size() const { return grid_.half_size(); }

 private:
  BoxSurfaceGrid grid_;  // elements: triangles
};

}  // namespace hydro
