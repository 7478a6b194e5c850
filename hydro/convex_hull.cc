#include "hydro/convex_hull.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace hydro {
namespace {

struct Face {
  std::array<int, 3> v;
  Vector3 n;  // outward unit normal
  double d;   // n·p = d on the face
  bool alive{true};
};

Face MakeFace(const std::vector<Vector3>& p, int a, int b, int c) {
  Face f;
  f.v = {a, b, c};
  f.n = (p[b] - p[a]).cross(p[c] - p[a]).normalized();
  f.d = f.n.dot(p[a]);
  return f;
}

}  // namespace

TriangleSurfaceMesh MakeConvexHull(const std::vector<Vector3>& p) {
  if (p.size() < 4) {
    std::ostringstream msg;
    msg << "MakeConvexHull: need at least 4 points, got " << p.size();
    throw InvalidInput(msg.str());
  }
  for (size_t i = 0; i < p.size(); ++i) {
    if (!IsFinite(p[i])) {
      std::ostringstream msg;
      msg << "MakeConvexHull: point " << i << " has a non-finite coordinate";
      throw InvalidInput(msg.str());
    }
  }
  Vector3 lo = p[0], hi = p[0];
  for (const Vector3& q : p) {
    lo = lo.cwiseMin(q);
    hi = hi.cwiseMax(q);
  }
  const double extent = (hi - lo).norm();
  const double eps = 1e-9 * extent;
  auto fail_flat = [&](const char* what) {
    throw InvalidInput(std::string("MakeConvexHull: the points are ") + what + "; a hull needs volume");
  };
  if (!(extent > 0)) fail_flat("all coincident");
  // Initial tetrahedron: two far-apart points, the point farthest from their line, the point
  // farthest from their plane.
  int i0 = 0, i1 = 0;
  for (size_t i = 0; i < p.size(); ++i) {
    if (p[i].x() < p[i0].x()) i0 = static_cast<int>(i);
    if (p[i].x() > p[i1].x()) i1 = static_cast<int>(i);
  }
  if ((p[i1] - p[i0]).norm() < 0.5 * eps) {
    for (size_t i = 0; i < p.size(); ++i)
      if ((p[i] - p[i0]).norm() > (p[i1] - p[i0]).norm()) i1 = static_cast<int>(i);
  }
  const Vector3 axis = (p[i1] - p[i0]).normalized();
  int i2 = -1;
  double best = eps;
  for (size_t i = 0; i < p.size(); ++i) {
    const Vector3 r = p[i] - p[i0];
    const double dist = (r - r.dot(axis) * axis).norm();
    if (dist > best) best = dist, i2 = static_cast<int>(i);
  }
  if (i2 < 0) fail_flat("colinear");
  const Vector3 plane_n = (p[i1] - p[i0]).cross(p[i2] - p[i0]).normalized();
  int i3 = -1;
  best = eps;
  for (size_t i = 0; i < p.size(); ++i) {
    const double dist = std::abs(plane_n.dot(p[i] - p[i0]));
    if (dist > best) best = dist, i3 = static_cast<int>(i);
  }
  if (i3 < 0) fail_flat("coplanar");
  if (plane_n.dot(p[i3] - p[i0]) > 0) std::swap(i1, i2);  // make (i0, i1, i2) face away from i3
  std::vector<Face> faces = {MakeFace(p, i0, i1, i2), MakeFace(p, i0, i3, i1), MakeFace(p, i1, i3, i2),
                             MakeFace(p, i2, i3, i0)};
  std::vector<bool> used(p.size(), false);
  used[i0] = used[i1] = used[i2] = used[i3] = true;
  for (size_t pi = 0; pi < p.size(); ++pi) {
    if (used[pi]) continue;
    // Faces that see the point; their boundary (edges seen from one side only) is the horizon.
    std::map<std::pair<int, int>, int> edge_count;
    bool visible_any = false;
    for (Face& f : faces) {
      if (!f.alive || f.n.dot(p[pi]) - f.d <= eps) continue;
      visible_any = true;
      f.alive = false;
      for (int e = 0; e < 3; ++e) edge_count[{f.v[e], f.v[(e + 1) % 3]}]++;
    }
    if (!visible_any) continue;
    for (const auto& [edge, count] : edge_count) {
      if (edge_count.count({edge.second, edge.first})) continue;  // interior to the visible region
      faces.push_back(MakeFace(p, edge.first, edge.second, static_cast<int>(pi)));
    }
    faces.erase(std::remove_if(faces.begin(), faces.end(), [](const Face& f) { return !f.alive; }), faces.end());
  }
  std::vector<int> remap(p.size(), -1);
  std::vector<Vector3> vertices;
  std::vector<Triangle> triangles;
  for (const Face& f : faces) {
    Triangle t;
    for (int i = 0; i < 3; ++i) {
      if (remap[f.v[i]] < 0) {
        remap[f.v[i]] = static_cast<int>(vertices.size());
        vertices.push_back(p[f.v[i]]);
      }
      t[i] = remap[f.v[i]];
    }
    triangles.push_back(t);
  }
  return TriangleSurfaceMesh(std::move(vertices), std::move(triangles));
}

}  // namespace hydro
