#pragma once
// Surface meshes from Wavefront OBJ and STL (ASCII and binary) files: vertices and triangles
// (polygons fanned), nothing else (materials, normals and texture coordinates are skipped).
// Every problem is an InvalidInput whose message starts with "path:line: " (binary STL: "path: ").
#include <array>
#include <string>
#include <vector>

#include "hydro/math.h"

namespace hydro {
namespace urdf {

struct SurfaceMeshData {
  std::vector<Vector3> vertices;
  std::vector<std::array<int, 3>> triangles;
};

SurfaceMeshData ReadObj(const std::string& path);
SurfaceMeshData ReadObjFromString(const std::string& text, const std::string& name);
SurfaceMeshData ReadStl(const std::string& path);
SurfaceMeshData ReadStlFromString(const std::string& bytes, const std::string& name);
// By extension (.obj, .stl, case-insensitive).
SurfaceMeshData ReadSurfaceMesh(const std::string& path);

// True for the extensions ReadSurfaceMesh understands, and for .vtk (tet meshes).
bool IsSurfaceMeshFile(const std::string& path);
bool IsVtkFile(const std::string& path);

}  // namespace urdf
}  // namespace hydro
