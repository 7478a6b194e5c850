#include "tests/fem/fem_scenes.h"

#include <cmath>
#include <utility>

namespace hydro {
namespace fem {
namespace scenes {

Material StoneMaterial() {
  Material stone;
  stone.youngs_modulus_Pa = 20e9;
  stone.poisson_ratio = 0.3;
  stone.density_kg_per_m3 = 2300;
  stone.stiffness_damping_s = 0.01;
  return stone;
}

TetMesh MakeSoftCube(double size, int cells) {
  TetMesh cube;
  MakeTetGrid(Vector3(size, size, size), cells, cells, cells, &cube.vertices, &cube.tets);
  for (Vector3& p : cube.vertices) p -= Vector3(0.5 * size, 0.5 * size, 0);
  return cube;
}

Material SoftCubeMaterial(double youngs_modulus_Pa) {
  Material soft;
  soft.youngs_modulus_Pa = youngs_modulus_Pa;
  soft.poisson_ratio = 0.4;
  soft.density_kg_per_m3 = 500;
  soft.stiffness_damping_s = 0.01;
  return soft;
}

TetMesh MakeHexahedron(const std::array<Vector3, 8>& corners) {
  TetMesh mesh;
  mesh.vertices.assign(corners.begin(), corners.end());
  Vector3 centroid = Vector3::Zero();
  for (const Vector3& p : corners) centroid += p / 8;
  mesh.vertices.push_back(centroid);
  // The six faces as corner quads, each split along one diagonal into two triangles.
  constexpr int kFaces[6][4] = {{0, 1, 3, 2}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 3, 7, 6}, {0, 2, 6, 4}, {1, 3, 7, 5}};
  for (const auto& f : kFaces) {
    for (const std::array<int, 3>& tri : {std::array<int, 3>{f[0], f[1], f[2]}, std::array<int, 3>{f[0], f[2], f[3]}}) {
      Tet t{tri[0], tri[1], tri[2], 8};
      const Vector3& a = mesh.vertices[t[0]];
      const double volume = (mesh.vertices[t[1]] - a).cross(mesh.vertices[t[2]] - a).dot(mesh.vertices[t[3]] - a);
      if (volume < 0) std::swap(t[1], t[2]);
      mesh.tets.push_back(t);
    }
  }
  return mesh;
}

std::vector<TetMesh> MakeArch(int blocks, double r_inner, double thickness, double depth, double joint_overlap) {
  const double half_overlap_angle = 0.5 * joint_overlap / (r_inner + 0.5 * thickness);
  std::vector<TetMesh> arch;
  for (int k = 0; k < blocks; ++k) {
    std::array<Vector3, 8> corners;
    for (int c = 0; c < 8; ++c) {
      const int side = c & 1;  // x bit: angle
      double theta = M_PI * (k + side) / blocks;
      if (side == 1 && k + 1 < blocks) theta += half_overlap_angle;
      if (side == 0 && k > 0) theta -= half_overlap_angle;
      const double y = (c & 2) ? depth / 2 : -depth / 2;
      const double r = (c & 4) ? r_inner + thickness : r_inner;
      // The springing blocks' bottom faces lie exactly on z = 0.
      const double z = (k == 0 && side == 0) || (k == blocks - 1 && side == 1) ? 0.0 : r * std::sin(theta);
      corners[c] = Vector3(r * std::cos(theta), y, z);
    }
    arch.push_back(MakeHexahedron(corners));
  }
  return arch;
}

}  // namespace scenes
}  // namespace fem
}  // namespace hydro
