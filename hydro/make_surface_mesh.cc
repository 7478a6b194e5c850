#include "hydro/make_surface_mesh.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "hydro/box_surface_grid.h"
#include "hydro/make_cylinder_mesh.h"
#include "hydro/make_sphere_mesh.h"

namespace hydro {

TriangleSurfaceMesh ExtractBoundarySurface(const VolumeMesh& mesh) {
  // Face i of a tet is opposite vertex i; each boundary face is oriented so its tet lies behind it.
  std::map<std::array<int, 3>, std::pair<int, int>> faces;  // sorted face → (tet, face index)
  std::map<std::array<int, 3>, int> count;
  for (int t = 0; t < mesh.num_tets(); ++t) {
    const Tet& k = mesh.tet(t);
    for (int i = 0; i < 4; ++i) {
      std::array<int, 3> f = {k[(i + 1) % 4], k[(i + 2) % 4], k[(i + 3) % 4]};
      std::sort(f.begin(), f.end());
      faces[f] = {t, i};
      ++count[f];
    }
  }
  std::vector<int> remap(mesh.num_vertices(), -1);
  std::vector<Vector3> vertices;
  std::vector<Triangle> triangles;
  for (const auto& [sorted, where] : faces) {
    if (count[sorted] != 1) continue;
    const Tet& k = mesh.tet(where.first);
    const int i = where.second;
    std::array<int, 3> f = {k[(i + 1) % 4], k[(i + 2) % 4], k[(i + 3) % 4]};
    const Vector3& a = mesh.vertex(f[0]);
    const Vector3 normal = (mesh.vertex(f[1]) - a).cross(mesh.vertex(f[2]) - a);
    if (normal.dot(mesh.vertex(k[i]) - a) > 0) std::swap(f[1], f[2]);  // the tet must lie behind
    Triangle tri;
    for (int j = 0; j < 3; ++j) {
      if (remap[f[j]] < 0) {
        remap[f[j]] = static_cast<int>(vertices.size());
        vertices.push_back(mesh.vertex(f[j]));
      }
      tri[j] = remap[f[j]];
    }
    triangles.push_back(tri);
  }
  return TriangleSurfaceMesh(std::move(vertices), std::move(triangles));
}

TriangleSurfaceMesh MakeSphereSurfaceMesh(double radius, double resolution_hint) {
  return ExtractBoundarySurface(*MakeSphereVolumeMesh(radius, resolution_hint).mesh);
}

TriangleSurfaceMesh MakeEllipsoidSurfaceMesh(const Vector3& semi_axes, double resolution_hint) {
  return ExtractBoundarySurface(*MakeEllipsoidVolumeMesh(semi_axes, resolution_hint).mesh);
}

TriangleSurfaceMesh MakeCylinderSurfaceMesh(double radius, double length, double resolution_hint) {
  return ExtractBoundarySurface(*MakeCylinderVolumeMesh(radius, length, resolution_hint).mesh);
}

TriangleSurfaceMesh MakeCapsuleSurfaceMesh(double radius, double length, double resolution_hint) {
  return ExtractBoundarySurface(*MakeCapsuleVolumeMesh(radius, length, resolution_hint).mesh);
}

TriangleSurfaceMesh MakeBoxSurfaceMesh(const Vector3& size, double resolution_hint) {
  for (int i = 0; i < 3; ++i) CheckPositive(size[i], "MakeBoxSurfaceMesh: box size");
  CheckPositive(resolution_hint, "MakeBoxSurfaceMesh: resolution hint");
  const Eigen::Vector3i cells = BoxGridCells(size, resolution_hint);
  std::map<std::array<int, 3>, int> index;
  std::vector<Vector3> vertices;
  auto vertex = [&](const Eigen::Vector3i& g) {
    const auto [it, inserted] =
        index.emplace(std::array<int, 3>{g.x(), g.y(), g.z()}, static_cast<int>(vertices.size()));
    if (inserted)
      vertices.push_back(size.cwiseProduct(g.cast<double>().cwiseQuotient(cells.cast<double>())) - 0.5 * size);
    return it->second;
  };
  std::vector<Triangle> triangles;
  for (int a = 0; a < 3; ++a) {
    const int b = (a + 1) % 3, c = (a + 2) % 3;  // (b, c, a) is right-handed
    for (int side = 0; side < 2; ++side)
      for (int i = 0; i < cells[b]; ++i)
        for (int j = 0; j < cells[c]; ++j) {
          std::array<int, 4> q;
          for (int corner = 0; corner < 4; ++corner) {
            Eigen::Vector3i g;
            g[a] = side * cells[a];
            g[b] = i + (corner == 1 || corner == 2);
            g[c] = j + (corner >= 2);
            q[corner] = vertex(g);
          }
          // q runs counter-clockwise about +a; flip on the −a side.
          if (side == 1) {
            triangles.push_back({q[0], q[1], q[2]});
            triangles.push_back({q[0], q[2], q[3]});
          } else {
            triangles.push_back({q[0], q[2], q[1]});
            triangles.push_back({q[0], q[3], q[2]});
          }
        }
  }
  return TriangleSurfaceMesh(std::move(vertices), std::move(triangles));
}

}  // namespace hydro
