#include "hydro/convex_support.h"

#include <algorithm>

namespace hydro {

ConvexSupport::ConvexSupport(const TriangleSurfaceMesh& hull, double tolerance_m)
    : vertices_(hull.vertices()), tolerance_m_(tolerance_m) {
  CheckNonNegative(tolerance_m, "ConvexSupport: tolerance");
  // The vertex graph from the triangles' edges, each edge once per direction.
  const int n = hull.num_vertices();
  std::vector<std::pair<int, int>> edges;
  edges.reserve(6 * hull.num_triangles());
  for (const Triangle& t : hull.triangles())
    for (int i = 0; i < 3; ++i) {
      edges.emplace_back(t[i], t[(i + 1) % 3]);
      edges.emplace_back(t[(i + 1) % 3], t[i]);
    }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  neighbour_start_.assign(n + 1, 0);
  for (const auto& [from, to] : edges) ++neighbour_start_[from + 1];
  for (int v = 0; v < n; ++v) neighbour_start_[v + 1] += neighbour_start_[v];
  neighbours_.reserve(edges.size());
  for (const auto& edge : edges) neighbours_.push_back(edge.second);
  // Seeds: the extreme vertices along ±x, ±y, ±z and the four diagonals both ways.
  std::array<Vector3, 14> directions;
  for (int k = 0; k < 3; ++k) {
    directions[2 * k] = Vector3::Unit(k);
    directions[2 * k + 1] = -Vector3::Unit(k);
  }
  for (int k = 0; k < 4; ++k) {
    const Vector3 d((k & 1) ? -1 : 1, (k & 2) ? -1 : 1, 1);
    directions[6 + 2 * k] = d;
    directions[7 + 2 * k] = -d;
  }
  for (int s = 0; s < 14; ++s) {
    int best = 0;
    for (int v = 1; v < n; ++v)
      if (directions[s].dot(vertices_[v]) > directions[s].dot(vertices_[best])) best = v;
    seeds_[s] = best;
  }
}

double ConvexSupport::MaxAlong(const Vector3& d) const {
  int at = seeds_[0];
  double height = d.dot(vertices_[at]);
  for (int s = 1; s < 14; ++s) {
    const double h = d.dot(vertices_[seeds_[s]]);
    if (h > height) height = h, at = seeds_[s];
  }
  // Steepest ascent: strictly uphill, so it ends.
  for (;;) {
    int next = -1;
    for (int k = neighbour_start_[at]; k < neighbour_start_[at + 1]; ++k) {
      const double h = d.dot(vertices_[neighbours_[k]]);
      if (h > height) height = h, next = neighbours_[k];
    }
    if (next < 0) return height;
    at = next;
  }
}

std::pair<double, double> ConvexSupport::ExtentAlong(const Vector3& nhat_G) const {
  return {-MaxAlong(-nhat_G) - tolerance_m_, MaxAlong(nhat_G) + tolerance_m_};
}

}  // namespace hydro
