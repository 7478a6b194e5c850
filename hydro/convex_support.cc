#include "hydro/convex_support.h"

#include <algorithm>
#include <string>

namespace hydro {

ConvexSupport::ConvexSupport(const TriangleSurfaceMesh& hull, const Vector3& widening_G)
    : vertices_(hull.vertices()), widening_G_(widening_G) {
  for (int i = 0; i < 3; ++i) CheckNonNegative(widening_G[i], "ConvexSupport: widening " + std::to_string(i));
  const int n = hull.num_vertices();  // at least 3: the mesh has a triangle
  // Convex: at every edge, the far vertex of the triangle across it lies behind the plane of the
  // triangle on this side (to round-off of the mesh's size). A closed surface convex at every edge
  // bounds a convex body.
  Vector3 lo = vertices_[0], hi = lo;
  for (const Vector3& p : vertices_) lo = lo.cwiseMin(p), hi = hi.cwiseMax(p);
  const double round_off = 1e-12 * (hi - lo).norm();
  std::vector<std::array<int, 3>> sides;  // (a, b, c): edge a→b of the triangle (a, b, c)
  sides.reserve(3 * hull.num_triangles());
  for (const Triangle& t : hull.triangles())
    for (int i = 0; i < 3; ++i) sides.push_back({t[i], t[(i + 1) % 3], t[(i + 2) % 3]});
  std::sort(sides.begin(), sides.end());
  for (int f = 0; f < hull.num_triangles() && climbs_; ++f) {
    const Triangle& t = hull.triangle(f);
    const Vector3& normal = hull.face_normal(f);
    for (int i = 0; i < 3 && climbs_; ++i) {
      const int a = t[i], b = t[(i + 1) % 3];
      const auto across = std::lower_bound(sides.begin(), sides.end(), std::array<int, 3>{b, a, -1});
      // An open edge, or one folded inwards: climbing is not safe.
      climbs_ = across != sides.end() && (*across)[0] == b && (*across)[1] == a &&
                normal.dot(vertices_[(*across)[2]] - vertices_[a]) <= round_off;
    }
  }
  // The vertex graph from the triangles' edges, each edge once per direction.
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
  for (const auto& edge : edges) ++neighbour_start_[edge.first + 1];
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

int ConvexSupport::Highest(const Vector3& d, int* hint) const {
  int at = 0;
  if (!climbs_) {
    double height = d.dot(vertices_[0]);
    for (int v = 1; v < num_vertices(); ++v) {
      const double h = d.dot(vertices_[v]);
      if (h > height) height = h, at = v;
    }
    if (hint) *hint = at;
    return at;
  }
  at = seeds_[0];
  double height = d.dot(vertices_[at]);
  for (int s = 1; s < 14; ++s) {
    const double h = d.dot(vertices_[seeds_[s]]);
    if (h > height) height = h, at = seeds_[s];
  }
  if (hint && *hint >= 0 && *hint < num_vertices()) {
    const double h = d.dot(vertices_[*hint]);
    if (h > height) height = h, at = *hint;
  }
  // Steepest ascent: strictly uphill, so it ends.
  for (;;) {
    int next = -1;
    for (int k = neighbour_start_[at]; k < neighbour_start_[at + 1]; ++k) {
      const double h = d.dot(vertices_[neighbours_[k]]);
      if (h > height) height = h, next = neighbours_[k];
    }
    if (next < 0) break;
    at = next;
  }
  if (hint) *hint = at;
  return at;
}

double ConvexSupport::MaxAlong(const Vector3& nhat_G, int* hint) const {
  return nhat_G.dot(vertices_[Highest(nhat_G, hint)]) + nhat_G.cwiseAbs().dot(widening_G_);
}

std::pair<double, double> ConvexSupport::ExtentAlong(const Vector3& nhat_G) const {
  return {MinAlong(nhat_G), MaxAlong(nhat_G)};
}

}  // namespace hydro
