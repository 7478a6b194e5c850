#pragma once
// Meshes of 002's validation scenes that the core's generators do not make, shared by the
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

// The arch's stone (002 §VII-B): E = 20 GPa, ν = 0.3, ρ = 2300 kg/m³, Rayleigh α = 0, β = 0.01.
Material StoneMaterial();

// The gripper's soft cube on z = 0, centred on the z-axis, cells³ cubes of six tets, and its
// material (ν = 0.4, ρ = 500 kg/m³, β = 0.01).
TetMesh MakeSoftCube(double size, int cells);
Material SoftCubeMaterial(double youngs_modulus_Pa);

// A hexahedron of eight corners (ordered as the corners of a unit cube, bit 0 → x, 1 → y,
// 2 → z) cut into 12 positively oriented tets around its centroid.
TetMesh MakeHexahedron(const std::array<Vector3, 8>& corners);

}  // namespace scenes
}  // namespace fem
}  // namespace hydro
