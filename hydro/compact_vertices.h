#pragma once
// Dropping the vertices of a tet mesh that no tet uses. Meshes from files carry such points (Gmsh
// writes its geometry's corner points; some exporters keep the surface's), and a FEM body given
// one would have DoFs with no mass and no stiffness: its step matrix would be singular.
#include <vector>

#include "hydro/math.h"
#include "hydro/volume_mesh.h"

namespace hydro {

// Keeps the vertices some tet uses, in their order, and renumbers the tets to match: a mesh that
// uses all its vertices is unchanged. Returns how many vertices were dropped. An index out of range throws InvalidInput
// "tet t refers to vertex v but there are n vertices", with nothing changed. No tets: every vertex is dropped.
int CompactVertices(std::vector<Vector3>* vertices, std::vector<Tet>* tets);

}  // namespace hydro
