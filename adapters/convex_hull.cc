#include "adapters/convex_hull.h"

#include <LinearMath/btConvexHullComputer.h>

#include <Eigen/SVD>

#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>

namespace hydro {
namespace bullet {
namespace {

[[noreturn]] void Fail(const std::string& message) { throw InvalidInput("MakeConvexHull: " + message); }

// The points' spread about their mean along its three principal directions, largest first.
Vector3 PrincipalSpread(const std::vector<Vector3>& points) {
  Vector3 mean = Vector3::Zero();
  for (const Vector3& p : points) mean += p;
  mean /= static_cast<double>(points.size());
  Matrix3 scatter = Matrix3::Zero();
  for (const Vector3& p : points) scatter += (p - mean) * (p - mean).transpose();
  return Eigen::JacobiSVD<Matrix3>(scatter).singularValues().cwiseMax(0.0).cwiseSqrt() /
         std::sqrt(static_cast<double>(points.size()));
}

// Each face is a polygon, its edges in order around it (counter-clockwise seen from outside, on
// Bullet's grid); a fan from its first vertex covers it. The order is Bullet's, not judged again
// at `vertices`: a face a few grid steps wide may be a segment there, with no side to face.
std::vector<Triangle> FanTriangles(const btConvexHullComputer& computer) {
  const int num_vertices = computer.vertices.size();
  std::vector<Triangle> triangles;
  std::vector<int> polygon;
  for (int f = 0; f < computer.faces.size(); ++f) {
    polygon.clear();
    const btConvexHullComputer::Edge* first = &computer.edges[computer.faces[f]];
    const btConvexHullComputer::Edge* edge = first;
    do {
      polygon.push_back(edge->getTargetVertex());
      edge = edge->getNextEdgeOfFace();
    } while (edge != first && polygon.size() <= static_cast<size_t>(num_vertices));
    for (size_t i = 1; i + 1 < polygon.size(); ++i) triangles.push_back({polygon[0], polygon[i], polygon[i + 1]});
  }
  return triangles;
}

// Whether the triangle (a, b, c) is a cap: one vertex (nearly) on the line through the other two.
// The bound is TriangleSurfaceMesh's zero-area test (twice the area against the longest edge
// squared, 1e-12) with a margin of 100, so that what passes here passes there.
bool IsCap(const Vector3& a, const Vector3& b, const Vector3& c) {
  const double longest = std::max({(b - a).squaredNorm(), (c - b).squaredNorm(), (a - c).squaredNorm()});
  return !((b - a).cross(c - a).norm() > 1e-10 * longest);
}

// Bullet finds a hull's faces on its grid (each axis in 10216 steps, coordinates truncated), where
// input points that are exactly colinear (the sampled edge of a plane, a chain along a mesh's
// border) zigzag and stay hull vertices. Back at the exact points, such a chain is straight, and a
// fan through it has caps, triangles of zero area with one vertex on the opposite edge:
//
//        d                  d
//       / \                /|\     the cap (a, b, c) and its neighbour (b, a, d)
//      /   \              / | \    become (c, a, d) and (c, d, b)
//     a--c--b     →      a--c--b
//
// A cap is not dropped (that would leave its three edges open) but flipped away: its longest edge
// a–b (the middle vertex c lies on it) is swapped for c–d in the quadrilateral it makes with its
// neighbour (b, a, d). When c lies on a–b the two new triangles cover the neighbour exactly, so
// the surface is unchanged and stays closed, every edge shared by two triangles. A face that is a
// segment at the exact points is all caps, and a cap's neighbour may be a cap too: a flip is
// then made only when a–b is the longest edge of both (c and d lie between a and b) and the new
// edge is shorter. Each flip removes a cap, or keeps their number and shortens an edge; so the
// flips end, with no cap left, or with caps no flip removes (the new edge exists already): then
// this returns false, and the caller uses Bullet's grid vertices, which have no caps.
bool FlipCaps(const std::vector<Vector3>& vertices, std::vector<Triangle>* triangles) {
  std::vector<Triangle>& mesh = *triangles;
  auto is_cap = [&](const Triangle& t) { return IsCap(vertices[t[0]], vertices[t[1]], vertices[t[2]]); };
  if (std::none_of(mesh.begin(), mesh.end(), is_cap)) return true;  // the usual case: no edge map
  const int64_t n = static_cast<int64_t>(vertices.size());
  auto key = [n](int u, int v) { return u * n + v; };
  std::unordered_map<int64_t, int> face_of_edge;  // directed edge u→v → the triangle that has it
  for (int f = 0; f < static_cast<int>(mesh.size()); ++f)
    for (int k = 0; k < 3; ++k) face_of_edge[key(mesh[f][k], mesh[f][(k + 1) % 3])] = f;
  auto longest_edge = [&](const Triangle& t) {  // k such that t[k]→t[k+1] is the longest edge
    int k = 0;
    for (int i = 1; i < 3; ++i)
      if ((vertices[t[(i + 1) % 3]] - vertices[t[i]]).squaredNorm() >
          (vertices[t[(k + 1) % 3]] - vertices[t[k]]).squaredNorm())
        k = i;
    return k;
  };
  // Flips the cap f across its longest edge: onto a neighbour that is no cap when the two new
  // triangles are none (`between_caps` false), or onto a cap of the same longest edge.
  auto try_flip = [&](int f, bool between_caps) {
    const Triangle t = mesh[f];
    const int k = longest_edge(t);
    const int a = t[k], b = t[(k + 1) % 3], c = t[(k + 2) % 3];
    const auto across = face_of_edge.find(key(b, a));
    if (across == face_of_edge.end()) return false;  // an open edge: not from Bullet's closed hull
    const int g = across->second;
    const Triangle u = mesh[g];
    const int j = u[0] == b ? 0 : (u[1] == b ? 1 : 2);  // u[j]→u[j+1] is b→a
    const int d = u[(j + 2) % 3];
    const Triangle t1 = {c, a, d}, t2 = {c, d, b};
    if (face_of_edge.count(key(c, d)) || face_of_edge.count(key(d, c))) return false;
    const bool shorter = (vertices[d] - vertices[c]).squaredNorm() < (vertices[b] - vertices[a]).squaredNorm();
    if (between_caps ? !(is_cap(u) && longest_edge(u) == j && shorter) : (is_cap(u) || is_cap(t1) || is_cap(t2)))
      return false;
    for (const Triangle& old : {t, u})
      for (int i = 0; i < 3; ++i) face_of_edge.erase(key(old[i], old[(i + 1) % 3]));
    mesh[f] = t1;
    mesh[g] = t2;
    for (const int h : {f, g})
      for (int i = 0; i < 3; ++i) face_of_edge[key(mesh[h][i], mesh[h][(i + 1) % 3])] = h;
    return true;
  };
  while (true) {
    bool flipped = false, caps = false;
    for (int f = 0; f < static_cast<int>(mesh.size()); ++f) {
      if (!is_cap(mesh[f])) continue;
      if (try_flip(f, false))
        flipped = true;
      else
        caps = true;
    }
    if (!caps) return true;
    for (int f = 0; f < static_cast<int>(mesh.size()) && !flipped; ++f) flipped = is_cap(mesh[f]) && try_flip(f, true);
    if (!flipped) return false;
  }
}

// Whether every face's plane has the enclosed volume's centroid strictly behind it, as
// MakeConvexVolumeMesh needs (the same test and tolerance).
bool FacesPointAwayFromCentroid(const TriangleSurfaceMesh& hull) {
  double volume = 0;
  Vector3 moment = Vector3::Zero();
  for (int f = 0; f < hull.num_triangles(); ++f) {
    const Triangle& t = hull.triangle(f);
    const Vector3 &a = hull.vertex(t[0]), &b = hull.vertex(t[1]), &c = hull.vertex(t[2]);
    const double v = a.dot(b.cross(c)) / 6.0;
    volume += v;
    moment += v * (a + b + c) / 4.0;
  }
  if (!(volume > 0)) return false;
  const Vector3 center = moment / volume;
  double reach = 0;
  for (const Vector3& p : hull.vertices()) reach = std::max(reach, (p - center).norm());
  for (int f = 0; f < hull.num_triangles(); ++f)
    if (!(hull.face_normal(f).dot(hull.vertex(hull.triangle(f)[0]) - center) > 1e-9 * reach)) return false;
  return true;
}

}  // namespace

TriangleSurfaceMesh MakeConvexHull(const std::vector<Vector3>& points) {
  if (points.size() < 4) Fail("need at least 4 points, got " + std::to_string(points.size()));
  Vector3 lo = points[0], hi = points[0];
  for (size_t i = 0; i < points.size(); ++i) {
    if (!IsFinite(points[i])) Fail("point " + std::to_string(i) + " has a non-finite coordinate");
    lo = lo.cwiseMin(points[i]);
    hi = hi.cwiseMax(points[i]);
  }
  // Flatness, judged on the spread of the points: a hull needs volume.
  const double extent = (hi - lo).norm();
  const Vector3 spread = PrincipalSpread(points);
  const double tolerance = 1e-9 * extent;
  auto fail_flat = [](const char* what) { Fail(std::string("the points are ") + what + "; a hull needs volume"); };
  if (!(extent > 0)) fail_flat("all coincident");
  if (spread[1] <= tolerance) fail_flat("colinear");
  if (spread[2] <= tolerance) fail_flat("coplanar");

  std::vector<double> coordinates(3 * points.size());
  for (size_t i = 0; i < points.size(); ++i)
    for (int k = 0; k < 3; ++k) coordinates[3 * i + k] = points[i][k];
  btConvexHullComputer computer;
  computer.compute(coordinates.data(), 3 * sizeof(double), static_cast<int>(points.size()), 0, 0);
  const int num_vertices = computer.vertices.size();
  if (num_vertices < 4 || computer.faces.size() < 4) fail_flat("coplanar");
  // Hull vertices are the exact input points (a box's corners stay its corners). But Bullet
  // found the faces on its grid, and a face only a few grid steps across can fold when its
  // vertices move back to their exact places: Bullet's testFileFracture.bullet has such 1e-6 m²
  // faces on 2 m Voronoi pieces, and 16 of its 100 hulls came out with a face turned inwards.
  // Then Bullet's own vertices (its grid's, convex by construction) are used instead.
  for (const bool exact : {true, false}) {
    std::vector<Vector3> vertices(num_vertices);
    for (int v = 0; v < num_vertices; ++v)
      vertices[v] = exact ? points[computer.original_vertex_index[v]]
                          : Vector3(computer.vertices[v].x(), computer.vertices[v].y(), computer.vertices[v].z());
    std::vector<Triangle> triangles = FanTriangles(computer);
    if (!FlipCaps(vertices, &triangles)) {
      if (exact) continue;
      Fail("Bullet's hull has a face of zero area");
    }
    TriangleSurfaceMesh hull(std::move(vertices), std::move(triangles));
    if (exact && !FacesPointAwayFromCentroid(hull)) continue;
    if (!(hull.CalcEnclosedVolume() > tolerance * extent * extent)) fail_flat("coplanar");
    return hull;
  }
  Fail("Bullet's hull has a face turned inwards");
}

}  // namespace bullet
}  // namespace hydro
