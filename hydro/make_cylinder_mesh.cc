#include "hydro/make_cylinder_mesh.h"

#include <cmath>

#include "hydro/make_sphere_mesh.h"

namespace hydro {
namespace {

// Ring m of the disk lattice, with its 4m vertices on the unit circle, is a polygon inscribed in
// the circle. As for the sphere's shells, push it out by s_m = √(π/A_m) so it encloses the area
// of its circle and the field's iso-lines match the exact ones on average.
std::vector<double> RingScales(int n) {
  std::vector<double> scale(n + 1, 1.0);
  for (int m = 1; m <= n; ++m) {
    double area = 0;  // first quadrant: the fan of the points (m − i, i), i = 0..m
    for (int i = 0; i < m; ++i) {
      const Eigen::Vector2d a = Eigen::Vector2d(m - i, i).normalized(),
                            b = Eigen::Vector2d(m - i - 1, i + 1).normalized();
      area += 0.5 * (a.x() * b.y() - a.y() * b.x());
    }
    scale[m] = std::sqrt(M_PI / (4 * area));
  }
  return scale;
}

}  // namespace

VolumeMeshWithExtent MakeCylinderVolumeMesh(double radius, double length, double resolution_hint) {
  CheckPositive(radius, "MakeCylinderVolumeMesh: radius");
  CheckPositive(length, "MakeCylinderVolumeMesh: length");
  CheckPositive(resolution_hint, "MakeCylinderVolumeMesh: resolution hint");
  const int rings = internal::SphereShellCount(radius, resolution_hint);
  // Layers at least as fine as the rings near the caps, so the medial cone is resolved evenly; an
  // even number, so that the mid-plane, where the field of a disk folds, is a layer boundary.
  int layers = std::max(2, static_cast<int>(std::ceil(length / std::min(resolution_hint, radius / rings) - 1e-9)));
  layers += layers % 2;
  const double depth_scale = std::min(radius, 0.5 * length);
  const std::vector<double> ring_scale = RingScales(rings);
  internal::MeshBuilder builder;
  auto vertex = [&](int qx, int qy, int layer) {
    const int m = std::abs(qx) + std::abs(qy);
    // The nominal radius of ring m, which sets its extent. A disk thinner than its rings are wide
    // has its medial surface's rim edge (where the side is as near as the faces, L/2 in from the
    // rim) inside the outer ring; the last inner ring is moved out to it, so the outer ring's field
    // rises to the faces' at its inner edge and the pressure under a pressed disk stays uniform
    // out to L/2 from the rim.
    const double rho =
        m == rings - 1 && rings >= 2 ? std::max(radius * m / rings, radius - 0.5 * length) : radius * m / rings;
    Vector3 p(0, 0, -0.5 * length + length * layer / layers);
    if (m > 0) p.head<2>() = ring_scale[m] * rho * Eigen::Vector2d(qx, qy).normalized();
    const double e = std::min(radius - rho, 0.5 * length - std::abs(p.z())) / depth_scale;
    return builder.Vertex({qx, qy, layer, 0}, p, std::clamp(e, 0.0, 1.0));
  };
  // The rim's vertices first: a prism's split (MeshBuilder::AddPrism) runs its side diagonals from
  // the first-listed end of its lower-numbered column, and the rim's columns then come first. With
  // the prisms below the mid-plane listed bottom first and those above top first, the diagonal of
  // every rim prism of a thin disk runs from the rim's corner to the last inner ring's mid-plane
  // vertex, at R − L/2: along the medial cone, where the field folds. Each tet is then on one side
  // of the fold and interpolates the field exactly: the pressure under a disk pressed on a plane is
  // uniform out to the rim, not only to L/2 from it (a 1 GPa coin's ε was 3–6 % low).
  for (int layer = 0; layer <= layers; ++layer)
    for (int i = 0; i < 4 * rings; ++i) {
      const int quadrant = i / rings, step = i % rings;
      const int qx_q[4] = {rings - step, -step, -(rings - step), step};
      const int qy_q[4] = {step, rings - step, -step, -(rings - step)};
      vertex(qx_q[quadrant], qy_q[quadrant], layer);
    }
  for (int sx : {-1, 1})
    for (int sy : {-1, 1})
      internal::ForEachKuhnTriangle(rings, [&](const int(&uv)[3][2]) {
        for (int layer = 0; layer < layers; ++layer) {
          std::array<int, 3> bottom, top;
          for (int i = 0; i < 3; ++i) {
            const int qx = sx * (uv[i][0] - uv[i][1]), qy = sy * uv[i][1];
            bottom[i] = vertex(qx, qy, layer);
            top[i] = vertex(qx, qy, layer + 1);
          }
          if (2 * layer < layers)
            builder.AddPrism(bottom, top);
          else
            builder.AddPrism(top, bottom);
        }
      });
  // The rim ring's prisms have a tet with all four vertices on the side or a cap; give each an
  // interior vertex with the exact normalized distance there.
  builder.SplitBoundaryOnlyTets([&](const Vector3& p) {
    return std::clamp(std::min(radius - p.head<2>().norm(), 0.5 * length - std::abs(p.z())) / depth_scale, 0.0, 1.0);
  });
  return builder.Build();
}

}  // namespace hydro
