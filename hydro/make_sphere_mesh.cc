#include "hydro/make_sphere_mesh.h"

#include <cmath>

namespace hydro {
namespace internal {

int SphereShellCount(double radius, double resolution_hint) {
  return std::max(1, static_cast<int>(std::ceil(M_PI / 2 * radius / resolution_hint - 1e-9)));
}

namespace {

// Shell m of the lattice, with its vertices on the unit sphere, is a polyhedron inscribed in the
// sphere: its volume V_m < 4π/3, so an inscribed shell would sit inside the sphere by its sag
// everywhere but at the vertices, and the interpolated field would be low by sag/R all over. We
// push shell m's vertices out by s_m = (4π/3 / V_m)^(1/3) so each shell encloses the volume of
// its sphere: the iso-surfaces of the field then match the exact ones on average instead of
// being biased inward. (s_1 ≈ 1.46 for the octahedron, s_m → 1 + O(1/m²).)
std::vector<double> ShellScales(int n) {
  std::vector<double> scale(n + 1, 1.0);
  for (int m = 1; m <= n; ++m) {
    // The shell's triangles in the first octant: the 2D Kuhn lattice of 0 ≤ w ≤ v ≤ m on u = m.
    double volume = 0;
    ForEachKuhnTriangle(m, [&](const int(&vw)[3][2]) {
      Vector3 corner[3];
      for (int i = 0; i < 3; ++i) corner[i] = Vector3(m - vw[i][0], vw[i][0] - vw[i][1], vw[i][1]).normalized();
      volume += std::abs(corner[0].dot(corner[1].cross(corner[2]))) / 6.0;
    });
    scale[m] = std::cbrt(4.0 * M_PI / 3.0 / (8.0 * volume));
  }
  return scale;
}

// Where lattice point q (integer vector with |qx| + |qy| + |qz| = m) goes in the unit sphere:
// radius s_m·m/n along q's direction.
Vector3 UnitLatticePoint(const Vector3& q, int m, int n, const std::vector<double>& shell_scale) {
  if (m == 0) return Vector3::Zero();
  return (shell_scale[m] * m / n) * q.normalized();
}

// Visits the Kuhn tets of the octant with signs (sx, sy, sz) of an n-shell lattice, handing each
// tet's four lattice vectors to `emit`.
template <typename EmitTet>
void ForEachOctantTet(int n, int sx, int sy, int sz, EmitTet emit) {
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      for (int c = 0; c < n; ++c)
        for (const auto& perm : kPermutations) {
          std::array<std::array<int, 3>, 4> uvw;
          uvw[0] = {a, b, c};
          for (int s = 0; s < 3; ++s) {
            uvw[s + 1] = uvw[s];
            ++uvw[s + 1][perm[s]];
          }
          bool inside = true;
          for (const auto& p : uvw) inside = inside && 0 <= p[2] && p[2] <= p[1] && p[1] <= p[0] && p[0] <= n;
          if (!inside) continue;
          std::array<Eigen::Vector3i, 4> q;
          for (int i = 0; i < 4; ++i) {
            const auto& p = uvw[i];
            q[i] = Eigen::Vector3i(sx * (p[0] - p[1]), sy * (p[1] - p[2]), sz * p[2]);
          }
          emit(q);
        }
}

void CheckSize(double value, const char* what, const char* function) {
  CheckPositive(value, std::string(function) + ": " + what);
}

}  // namespace
}  // namespace internal

using internal::ForEachOctantTet;
using internal::UnitLatticePoint;

VolumeMeshWithExtent MakeEllipsoidVolumeMesh(const Vector3& semi_axes, double resolution_hint) {
  for (int i = 0; i < 3; ++i) internal::CheckSize(semi_axes[i], "semi-axis", "MakeEllipsoidVolumeMesh");
  internal::CheckSize(resolution_hint, "resolution hint", "MakeEllipsoidVolumeMesh");
  const int n = internal::SphereShellCount(semi_axes.maxCoeff(), resolution_hint);
  const std::vector<double> shell_scale = internal::ShellScales(n);
  internal::MeshBuilder builder;
  auto vertex = [&](const Eigen::Vector3i& q) {
    const int m = q.cwiseAbs().sum();
    const Vector3 p = UnitLatticePoint(q.cast<double>(), m, n, shell_scale).cwiseProduct(semi_axes);
    return builder.Vertex({q.x(), q.y(), q.z(), 0}, p, 1.0 - static_cast<double>(m) / n);
  };
  for (int sx : {-1, 1})
    for (int sy : {-1, 1})
      for (int sz : {-1, 1})
        ForEachOctantTet(n, sx, sy, sz, [&](const std::array<Eigen::Vector3i, 4>& q) {
          builder.AddTet(vertex(q[0]), vertex(q[1]), vertex(q[2]), vertex(q[3]));
        });
  return builder.Build();
}

VolumeMeshWithExtent MakeSphereVolumeMesh(double radius, double resolution_hint) {
  internal::CheckSize(radius, "radius", "MakeSphereVolumeMesh");
  internal::CheckSize(resolution_hint, "resolution hint", "MakeSphereVolumeMesh");
  return MakeEllipsoidVolumeMesh(Vector3::Constant(radius), resolution_hint);
}

VolumeMeshWithExtent MakeCapsuleVolumeMesh(double radius, double length, double resolution_hint) {
  internal::CheckSize(radius, "radius", "MakeCapsuleVolumeMesh");
  internal::CheckSize(length, "length", "MakeCapsuleVolumeMesh");
  internal::CheckSize(resolution_hint, "resolution hint", "MakeCapsuleVolumeMesh");
  const int n = internal::SphereShellCount(radius, resolution_hint);
  const int layers = std::max(1, static_cast<int>(std::ceil(length / resolution_hint - 1e-9)));
  const std::vector<double> shell_scale = internal::ShellScales(n);
  internal::MeshBuilder builder;
  // Key 4th entry: the hemisphere caps use layer index 0 (lower, z ≤ 0 of the lattice) and
  // `layers` (upper); the cylinder's equatorial-disk copies use 0..layers, so the caps' equators
  // are shared with the cylinder's end layers.
  auto vertex = [&](const Eigen::Vector3i& q, int layer, double z_shift) {
    const int m = q.cwiseAbs().sum();
    Vector3 p = radius * UnitLatticePoint(q.cast<double>(), m, n, shell_scale);
    p.z() += z_shift;
    return builder.Vertex({q.x(), q.y(), q.z(), layer}, p, 1.0 - static_cast<double>(m) / n);
  };
  for (int sz : {-1, 1}) {
    const int layer = sz > 0 ? layers : 0;
    const double shift = 0.5 * length * sz;
    for (int sx : {-1, 1})
      for (int sy : {-1, 1})
        ForEachOctantTet(n, sx, sy, sz, [&](const std::array<Eigen::Vector3i, 4>& q) {
          builder.AddTet(vertex(q[0], layer, shift), vertex(q[1], layer, shift), vertex(q[2], layer, shift),
                         vertex(q[3], layer, shift));
        });
  }
  // The equatorial disk's triangles (the 2D Kuhn lattice of each quadrant), extruded.
  for (int sx : {-1, 1})
    for (int sy : {-1, 1})
      internal::ForEachKuhnTriangle(n, [&](const int(&uv)[3][2]) {
        std::array<Eigen::Vector3i, 3> q;
        for (int i = 0; i < 3; ++i) q[i] = Eigen::Vector3i(sx * (uv[i][0] - uv[i][1]), sy * uv[i][1], 0);
        for (int layer = 0; layer < layers; ++layer) {
          const double z0 = -0.5 * length + length * layer / layers;
          const double z1 = -0.5 * length + length * (layer + 1) / layers;
          std::array<int, 3> bottom, top;
          for (int i = 0; i < 3; ++i) {
            bottom[i] = vertex(q[i], layer, z0);
            top[i] = vertex(q[i], layer + 1, z1);
          }
          builder.AddPrism(bottom, top);
        }
      });
  return builder.Build();
}

}  // namespace hydro
