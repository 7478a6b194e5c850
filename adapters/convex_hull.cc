#include "adapters/convex_hull.h"

#include <LinearMath/btConvexHullComputer.h>

#include <Eigen/SVD>

#include <algorithm>
#include <string>

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

// Each face is a polygon, its edges in order around it; a fan from its first vertex covers it,
// turned to face away from the vertices' mean.
std::vector<Triangle> FanTriangles(const btConvexHullComputer& computer, const std::vector<Vector3>& vertices) {
  const int num_vertices = static_cast<int>(vertices.size());
  Vector3 inside = Vector3::Zero();
  for (const Vector3& v : vertices) inside += v / num_vertices;
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
    if (polygon.size() < 3) continue;
    Vector3 area_normal = Vector3::Zero();  // Newell: twice the polygon's vector area
    for (size_t i = 0; i < polygon.size(); ++i)
      area_normal += vertices[polygon[i]].cross(vertices[polygon[(i + 1) % polygon.size()]]);
    const bool outward = area_normal.dot(vertices[polygon[0]] - inside) > 0;
    for (size_t i = 1; i + 1 < polygon.size(); ++i) {
      if (outward) triangles.push_back({polygon[0], polygon[i], polygon[i + 1]});
      else triangles.push_back({polygon[0], polygon[i + 1], polygon[i]});
    }
  }
  return triangles;
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
    std::vector<Triangle> triangles = FanTriangles(computer, vertices);
    TriangleSurfaceMesh hull(std::move(vertices), std::move(triangles));
    if (exact && !FacesPointAwayFromCentroid(hull)) continue;
    if (!(hull.CalcEnclosedVolume() > tolerance * extent * extent)) fail_flat("coplanar");
    return hull;
  }
  Fail("Bullet's hull has a face turned inwards");
}

}  // namespace bullet
}  // namespace hydro
