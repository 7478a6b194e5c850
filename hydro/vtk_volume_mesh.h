#pragma once
// Tetrahedral meshes from legacy ASCII VTK files (DATASET UNSTRUCTURED_GRID), as written by Gmsh,
// TetGen and Bullet's example data, turned into compliant geometry: the extent is the distance to
// the mesh boundary normalized by its largest value (0 on the boundary, 1 deepest inside).
#include <string>
#include <vector>

#include "hydro/mesh_builder.h"

namespace hydro {

struct VtkReadReport {
  int ignored_lower_dimensional_cells{0};  // vertices, lines, triangles, quads (Gmsh's markup)
  int dropped_unreferenced_vertices{0};
  int reoriented_tets{0};             // listed with negative orientation, fixed by a swap
  std::vector<std::string> warnings;  // one line each, "path: message"
};

// Reads the file. Every problem is an InvalidInput whose message starts with "path:line: ".
VolumeMeshWithExtent ReadVtkVolumeMesh(const std::string& path, VtkReadReport* report = nullptr);
// The same from text in memory; `name` stands for the path in messages.
VolumeMeshWithExtent ReadVtkVolumeMeshFromString(const std::string& text, const std::string& name,
                                                 VtkReadReport* report = nullptr);

// Extent from the distance to the boundary (faces used by one tet), normalized to [0, 1].
std::vector<double> CalcDistanceExtent(const VolumeMesh& mesh);

// Distance from p to the triangle (a, b, c).
double DistanceToTriangle(const Vector3& p, const Vector3& a, const Vector3& b, const Vector3& c);

}  // namespace hydro
