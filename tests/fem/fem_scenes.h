#pragma once
// Meshes of the validation scenes that the core's generators do not make, shared by the
// FEM tests and benchmarks: the masonry arch of 002 §VII-B.
#include <vector>

#include "fem/fem_body.h"

namespace hydro {
namespace fem {
namespace scenes {

struct TetMesh {
  std::vector<Vector3> vertices;
  std::vector<Tet> tets;
};

// A semicircular arch in the xz-plane standing on z = 0, of `blocks` voussoirs between radii
// r_inner and r_inner + thickness, `depth` deep along y. Each block is a hexahedron cut into 12
// tets around its centre: one interior vertex, so that every tet carries pressure (a block of
// tets with all four vertices on its surface would have a zero distance field). Neighbouring
// blocks overlap by `joint_overlap` at mid-thickness: blocks that merely touch have no contact
// patch yet, and the first step would drop the arch by g·δt² into itself.
std::vector<TetMesh> MakeArch(int blocks, double r_inner, double thickness, double depth, double joint_overlap = 0);

// A hexahedron of eight corners (ordered as the corners of a unit cube, bit 0 → x, 1 → y,
// 2 → z) cut into 12 positively oriented tets around its centroid.
TetMesh MakeHexahedron(const std::array<Vector3, 8>& corners);

}  // namespace scenes
}  // namespace fem
}  // namespace hydro
