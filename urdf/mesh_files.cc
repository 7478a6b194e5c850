#include "urdf/mesh_files.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>

namespace hydro {
namespace urdf {

namespace {

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InvalidInput(path + ": cannot open the mesh file");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

[[noreturn]] void Fail(const std::string& name, int line, const std::string& message) {
  throw InvalidInput(name + ":" + std::to_string(line) + ": " + message);
}

void CheckNotEmpty(const SurfaceMeshData& mesh, const std::string& name) {
  if (mesh.triangles.empty()) throw InvalidInput(name + ": the mesh has no faces");
}

// An OBJ face corner "v", "v/vt", "v//vn" or "v/vt/vn": the vertex index, 1-based or negative
// (relative to the end).
int ObjVertexIndex(const std::string& corner, int num_vertices, const std::string& name, int line) {
  const std::string index_text = corner.substr(0, corner.find('/'));
  char* end = nullptr;
  const long index = std::strtol(index_text.c_str(), &end, 10);
  if (index_text.empty() || end != index_text.c_str() + index_text.size())
    Fail(name, line, "bad face corner '" + corner + "'");
  const long zero_based = index > 0 ? index - 1 : num_vertices + index;
  if (index == 0 || zero_based < 0 || zero_based >= num_vertices)
    Fail(name, line,
         "face refers to vertex " + index_text + ", but only " + std::to_string(num_vertices) +
             " vertices are defined so far");
  return static_cast<int>(zero_based);
}

}  // namespace

SurfaceMeshData ReadObjFromString(const std::string& text, const std::string& name) {
  SurfaceMeshData mesh;
  std::istringstream in(text);
  std::string line_text;
  int line = 0;
  while (std::getline(in, line_text)) {
    ++line;
    std::istringstream fields(line_text);
    std::string keyword;
    if (!(fields >> keyword) || keyword[0] == '#') continue;
    if (keyword == "v") {
      double x, y, z;
      if (!(fields >> x >> y >> z)) Fail(name, line, "a vertex needs three numbers");
      if (!std::isfinite(x) || !std::isfinite(y) || !std::isfinite(z)) Fail(name, line, "non-finite vertex");
      mesh.vertices.emplace_back(x, y, z);
    } else if (keyword == "f") {
      std::vector<int> corners;
      std::string corner;
      while (fields >> corner)
        corners.push_back(ObjVertexIndex(corner, static_cast<int>(mesh.vertices.size()), name, line));
      if (corners.size() < 3) Fail(name, line, "a face needs at least three vertices");
      for (size_t i = 1; i + 1 < corners.size(); ++i)
        mesh.triangles.push_back({corners[0], corners[i], corners[i + 1]});
    }
    // vn, vt, o, g, s, usemtl, mtllib, l, p: not geometry we use.
  }
  CheckNotEmpty(mesh, name);
  return mesh;
}

SurfaceMeshData ReadObj(const std::string& path) { return ReadObjFromString(ReadAll(path), path); }

SurfaceMeshData ReadStlFromString(const std::string& bytes, const std::string& name) {
  SurfaceMeshData mesh;
  // Binary: 80-byte header, uint32 count, 50 bytes per facet. Some binary files start with
  // "solid" too, so the size decides.
  if (bytes.size() >= 84) {
    std::uint32_t count;
    std::memcpy(&count, bytes.data() + 80, 4);
    if (bytes.size() == 84 + 50ull * count) {
      for (std::uint32_t f = 0; f < count; ++f) {
        const char* facet = bytes.data() + 84 + 50ull * f;
        std::array<int, 3> triangle;
        for (int k = 0; k < 3; ++k) {
          float xyz[3];
          std::memcpy(xyz, facet + 12 + 12 * k, 12);
          if (!std::isfinite(xyz[0]) || !std::isfinite(xyz[1]) || !std::isfinite(xyz[2]))
            throw InvalidInput(name + ": facet " + std::to_string(f) + " has a non-finite vertex");
          triangle[k] = static_cast<int>(mesh.vertices.size());
          mesh.vertices.emplace_back(xyz[0], xyz[1], xyz[2]);
        }
        mesh.triangles.push_back(triangle);
      }
      CheckNotEmpty(mesh, name);
      return mesh;
    }
  }
  std::istringstream in(bytes);
  std::string line_text;
  int line = 0, corners = 0;
  bool solid = false;
  while (std::getline(in, line_text)) {
    ++line;
    std::istringstream fields(line_text);
    std::string keyword;
    if (!(fields >> keyword)) continue;
    keyword = Lower(keyword);
    if (keyword == "solid")
      solid = true;
    else if (!solid)
      Fail(name, line, "neither a binary STL (size does not match its facet count) nor ASCII ('solid' first)");
    else if (keyword == "vertex") {
      double x, y, z;
      if (!(fields >> x >> y >> z)) Fail(name, line, "a vertex needs three numbers");
      if (!std::isfinite(x) || !std::isfinite(y) || !std::isfinite(z)) Fail(name, line, "non-finite vertex");
      mesh.vertices.emplace_back(x, y, z);
      ++corners;
    } else if (keyword == "endloop") {
      if (corners < 3) Fail(name, line, "a facet needs at least three vertices");
      const int first = static_cast<int>(mesh.vertices.size()) - corners;
      for (int i = 1; i + 1 < corners; ++i) mesh.triangles.push_back({first, first + i, first + i + 1});
      corners = 0;
    } else if (keyword == "facet" || keyword == "outer" || keyword == "endfacet" || keyword == "endsolid") {
      continue;
    } else {
      Fail(name, line, "unexpected '" + keyword + "' in an ASCII STL");
    }
  }
  if (!solid) throw InvalidInput(name + ": empty STL file");
  CheckNotEmpty(mesh, name);
  return mesh;
}

SurfaceMeshData ReadStl(const std::string& path) { return ReadStlFromString(ReadAll(path), path); }

bool IsSurfaceMeshFile(const std::string& path) {
  const std::string lower = Lower(path);
  return EndsWith(lower, ".obj") || EndsWith(lower, ".stl");
}

bool IsVtkFile(const std::string& path) { return EndsWith(Lower(path), ".vtk"); }

SurfaceMeshData ReadSurfaceMesh(const std::string& path) {
  const std::string lower = Lower(path);
  if (EndsWith(lower, ".obj")) return ReadObj(path);
  if (EndsWith(lower, ".stl")) return ReadStl(path);
  throw InvalidInput(path + ": unsupported mesh format (use .obj, .stl, or .vtk for tet meshes)");
}

}  // namespace urdf
}  // namespace hydro
