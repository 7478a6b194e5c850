#include "hydro/make_box_mesh.h"

#include "hydro/box_surface_grid.h"

#include <cmath>

namespace hydro {

VolumeMeshWithExtent MakeBoxVolumeMesh(const Vector3& size, double resolution_hint) {
  for (int i = 0; i < 3; ++i) CheckPositive(size[i], "MakeBoxVolumeMesh: box size");
  CheckPositive(resolution_hint, "MakeBoxVolumeMesh: resolution hint");
  const Vector3 h = 0.5 * size;
  const double h_min = h.minCoeff();
  const int layers = std::max(1, static_cast<int>(std::ceil(h_min / resolution_hint - 1e-9)));
  const Eigen::Vector3i cells = BoxGridCells(size, resolution_hint);

  internal::MeshBuilder builder;
  // Grid point g (0 ≤ g_i ≤ cells_i, on the surface of the grid) of nested box k.
  auto vertex = [&](const Eigen::Vector3i& g, int k) {
    const double t = h_min * k / layers;
    Vector3 p;
    for (int i = 0; i < 3; ++i) p[i] = (h[i] - t) * (2.0 * g[i] / cells[i] - 1.0);
    // Coincident points of the collapsed innermost box must be one vertex: key them by position
    // on the collapsed axes.
    std::array<int, 4> key = {g.x(), g.y(), g.z(), k};
    for (int i = 0; i < 3; ++i)
      if (h[i] - t <= 1e-12 * h[i]) key[i] = 0;
    return builder.Vertex(key, p, static_cast<double>(k) / layers);
  };
  // For each face (axis a, side s) the surface quads are spanned by the two other axes (b, c),
  // always in increasing grid order, and the third local axis is the layer: neighbouring hexes
  // then share faces with matching Kuhn diagonals.
  for (int a = 0; a < 3; ++a) {
    const int b = (a + 1) % 3, c = (a + 2) % 3;
    const int lo = std::min(b, c), hi = std::max(b, c);
    for (int side = 0; side < 2; ++side)
      for (int i = 0; i < cells[lo]; ++i)
        for (int j = 0; j < cells[hi]; ++j)
          for (int k = 0; k < layers; ++k) {
            std::array<int, 8> corner;
            for (int local = 0; local < 8; ++local) {
              Eigen::Vector3i g;
              g[a] = side * cells[a];
              g[lo] = i + (local & 1);
              g[hi] = j + ((local >> 1) & 1);
              corner[local] = vertex(g, k + ((local >> 2) & 1));
            }
            builder.AddHex(corner);
          }
  }
  return builder.Build();
}

}  // namespace hydro
