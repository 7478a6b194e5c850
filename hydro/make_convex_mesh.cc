#include "hydro/make_convex_mesh.h"

#include <cmath>
#include <map>

namespace hydro {

VolumeMeshWithExtent MakeConvexVolumeMesh(const TriangleSurfaceMesh& hull, double resolution_hint) {
  CheckPositive(resolution_hint, "MakeConvexVolumeMesh: resolution hint");
  // Volume centroid by the divergence theorem: Σ over faces of the tets (0, a, b, c).
  double volume = 0;
  Vector3 moment = Vector3::Zero();
  double longest_edge = 0;
  for (const Triangle& t : hull.triangles()) {
    const Vector3 &a = hull.vertex(t[0]), &b = hull.vertex(t[1]), &c = hull.vertex(t[2]);
    const double v = a.dot(b.cross(c)) / 6.0;
    volume += v;
    moment += v * (a + b + c) / 4.0;
    longest_edge = std::max({longest_edge, (b - a).norm(), (c - b).norm(), (a - c).norm()});
  }
  if (!(volume > 0)) throw InvalidInput("MakeConvexVolumeMesh: the hull encloses no volume (inward faces?)");
  const Vector3 center = moment / volume;
  double reach = 0;
  for (const Vector3& p : hull.vertices()) reach = std::max(reach, (p - center).norm());
  for (int f = 0; f < hull.num_triangles(); ++f) {
    // The gauge field needs c strictly inside: every face must face away from it.
    if (hull.face_normal(f).dot(hull.vertex(hull.triangle(f)[0]) - center) <= 1e-9 * reach)
      throw InvalidInput("MakeConvexVolumeMesh: the surface is not convex around its centroid");
  }
  const int k = std::max(1, static_cast<int>(std::ceil(longest_edge / resolution_hint - 1e-9)));
  const int layers = std::max(1, static_cast<int>(std::ceil(reach / resolution_hint - 1e-9)));

  // Surface lattice points, keyed so that neighbouring hull triangles share their edge points:
  // a hull vertex by its index, an edge point by (lower vertex, upper vertex, steps from lower),
  // an interior point by (face, i, j).
  std::map<std::array<int, 4>, int> surface_index;
  std::vector<Vector3> surface_points;
  auto surface_point = [&](int f, int i, int j) {
    const Triangle& t = hull.triangle(f);
    const Vector3 p = hull.vertex(t[0]) + (static_cast<double>(i) / k) * (hull.vertex(t[1]) - hull.vertex(t[0])) +
                      (static_cast<double>(j) / k) * (hull.vertex(t[2]) - hull.vertex(t[0]));
    std::array<int, 4> key;
    const int w0 = k - i - j;  // barycentric weights (w0, i, j) on (t0, t1, t2), in steps
    const int weights[3] = {w0, i, j};
    int nonzero = 0;
    for (int w : weights) nonzero += w > 0;
    if (nonzero == 1) {
      const int which = weights[0] ? 0 : (weights[1] ? 1 : 2);
      key = {0, t[which], 0, 0};
    } else if (nonzero == 2) {
      int a = -1, b = -1, steps_from_a = 0;
      for (int q = 0; q < 3; ++q) {
        if (!weights[q]) continue;
        if (a < 0)
          a = q;
        else
          b = q;
      }
      int va = t[a], vb = t[b];
      steps_from_a = weights[b];  // distance from a in steps is b's weight
      if (va > vb) {
        std::swap(va, vb);
        steps_from_a = k - steps_from_a;
      }
      key = {1, va, vb, steps_from_a};
    } else {
      key = {2 + f, i, j, 0};
    }
    const auto [it, inserted] = surface_index.emplace(key, static_cast<int>(surface_points.size()));
    if (inserted) surface_points.push_back(p);
    return it->second;
  };

  internal::MeshBuilder builder;
  auto vertex = [&](int s, int layer) {
    // Layer 0 is the centre: every surface point collapses onto it.
    if (layer == 0) return builder.Vertex({-1, 0, 0, 0}, center, 1.0);
    const double scale = static_cast<double>(layer) / layers;
    return builder.Vertex({s, layer, 0, 0}, center + scale * (surface_points[s] - center), 1.0 - scale);
  };
  for (int f = 0; f < hull.num_triangles(); ++f) {
    for (int i = 0; i < k; ++i)
      for (int j = 0; i + j < k; ++j)
        for (int up = 0; up < 2; ++up) {
          // Upright triangle (i,j),(i+1,j),(i,j+1); inverted (i+1,j),(i+1,j+1),(i,j+1).
          if (up && i + j + 2 > k) continue;
          std::array<int, 3> s =
              up ? std::array<int, 3>{surface_point(f, i + 1, j), surface_point(f, i + 1, j + 1),
                                      surface_point(f, i, j + 1)}
                 : std::array<int, 3>{surface_point(f, i, j), surface_point(f, i + 1, j), surface_point(f, i, j + 1)};
          for (int layer = 0; layer < layers; ++layer) {
            builder.AddPrism({vertex(s[0], layer), vertex(s[1], layer), vertex(s[2], layer)},
                             {vertex(s[0], layer + 1), vertex(s[1], layer + 1), vertex(s[2], layer + 1)});
          }
        }
  }
  return builder.Build();
}

}  // namespace hydro
