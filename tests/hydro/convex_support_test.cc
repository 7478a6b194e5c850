#include "hydro/convex_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "hydro/make_meshes.h"

namespace hydro {
namespace {

// [min, max] of n̂·p over every point, by brute force.
std::pair<double, double> BruteExtent(const std::vector<Vector3>& points, const Vector3& nhat) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const Vector3& p : points) {
    lo = std::min(lo, nhat.dot(p));
    hi = std::max(hi, nhat.dot(p));
  }
  return {lo, hi};
}

Vector3 RandomUnit(std::mt19937* rng) {
  std::normal_distribution<double> normal;
  return Vector3(normal(*rng), normal(*rng), normal(*rng)).normalized();
}

// The support climbed on the hull is the brute-force extent over all the mesh's vertices (to
// round-off, 1e-12 m), for 2,000 random directions and the axes, where the hull's flat faces are
// level plateaus (a box's, a cylinder's caps). Stopping at the best seed instead of climbing
// misses the extent by millimetres on the round shapes. The support vertex along a direction of
// any length reaches the same extent, and so does a climb from any hint.
TEST(ConvexSupportTest, TheClimbedSupportIsTheExtentOfEveryVertex) {
  const std::pair<std::string, VolumeMeshWithExtent> meshes[] = {
      {"sphere", MakeSphereVolumeMesh(0.1, 0.01)},
      {"capsule", MakeCapsuleVolumeMesh(0.06, 0.16, 0.01)},
      {"cylinder", MakeCylinderVolumeMesh(0.1, 0.16, 0.01)},
      {"box", MakeBoxVolumeMesh(Vector3(0.2, 0.14, 0.1), 0.02)},
  };
  std::mt19937 rng(7);
  for (const auto& [name, volume] : meshes) {
    const ConvexSupport support(ExtractBoundarySurface(*volume.mesh), Vector3::Zero());
    ASSERT_TRUE(support.climbs()) << name;
    const std::vector<Vector3>& points = volume.mesh->vertices();
    std::vector<Vector3> directions;
    for (int k = 0; k < 3; ++k) directions.push_back(Vector3::Unit(k)), directions.push_back(-Vector3::Unit(k));
    for (int i = 0; i < 2000; ++i) directions.push_back(RandomUnit(&rng));
    for (const Vector3& n : directions) {
      const auto [lo, hi] = support.ExtentAlong(n);
      const auto [brute_lo, brute_hi] = BruteExtent(points, n);
      ASSERT_NEAR(lo, brute_lo, 1e-12) << name << " along " << n.transpose();
      ASSERT_NEAR(hi, brute_hi, 1e-12) << name << " along " << n.transpose();
      ASSERT_NEAR(n.dot(support.SupportVertex(3.7 * n)), brute_hi, 1e-12) << name << " along " << n.transpose();
      // From a hint (the vertex a query along a nearby direction found, as callers keep it; a
      // random vertex; none; out of range), the same end, and the hint becomes a vertex at that end.
      int nearby = -1;
      support.MaxAlong((n + 0.05 * RandomUnit(&rng)).normalized(), &nearby);
      for (int hint : {nearby, static_cast<int>(rng() % support.num_vertices()), -1, support.num_vertices()}) {
        ASSERT_NEAR(support.MaxAlong(n, &hint), brute_hi, 1e-12) << name << " along " << n.transpose();
        ASSERT_TRUE(hint >= 0 && hint < support.num_vertices()) << name;
        // The vertex written back is one at that end.
        ASSERT_NEAR(n.dot(support.SupportVertex(n, &hint)), brute_hi, 1e-12) << name;
        ASSERT_NEAR(support.MinAlong(n, &hint), brute_lo, 1e-12) << name << " along " << n.transpose();
      }
      ASSERT_NEAR(n.dot(support.SupportVertex(-0.2 * n)), brute_lo, 1e-12) << name << " along " << n.transpose();
    }
  }
}

// A cube whose faces are each split into eight triangles about their centres, and whose edges
// each carry a midpoint: vertices inside faces and edges, where a direction along a face's normal
// meets a level plateau. Every climb still ends at the extent, and the widening widens both ends
// by Σ|n̂_i|·widening_i. (Its corners are all seeds; the round meshes above check the climb.)
TEST(ConvexSupportTest, VerticesInsideFacesAndEdgesNeitherStopNorMisleadTheClimb) {
  std::vector<Vector3> vertices;
  std::vector<Triangle> triangles;
  // Each face: its four corners, four edge midpoints and centre, as eight triangles about the centre.
  for (int axis = 0; axis < 3; ++axis)
    for (int side : {-1, 1}) {
      const int u = (axis + 1) % 3, v = (axis + 2) % 3;
      const int base = static_cast<int>(vertices.size());
      const double ring[8][2] = {{-1, -1}, {0, -1}, {1, -1}, {1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}};
      for (const auto& [a, b] : ring) {
        Vector3 p = Vector3::Zero();
        p[axis] = side, p[u] = a, p[v] = b;
        vertices.push_back(p);
      }
      vertices.push_back(side * Vector3::Unit(axis));
      for (int i = 0; i < 8; ++i) {
        const Triangle t = {base + 8, base + i, base + (i + 1) % 8};
        // Outward: counter-clockwise seen from +axis for side +1.
        triangles.push_back(side > 0 ? t : Triangle{t[0], t[2], t[1]});
      }
    }
  // Merge the faces' shared corners and midpoints so the graph is connected across edges.
  std::vector<Vector3> unique;
  std::vector<int> index(vertices.size());
  for (size_t i = 0; i < vertices.size(); ++i) {
    int found = -1;
    for (size_t j = 0; j < unique.size(); ++j)
      if ((unique[j] - vertices[i]).norm() < 1e-12) found = static_cast<int>(j);
    if (found < 0) {
      found = static_cast<int>(unique.size());
      unique.push_back(vertices[i]);
    }
    index[i] = found;
  }
  for (Triangle& t : triangles)
    for (int& v : t) v = index[v];
  // Turned, so that no seed is an extreme by itself.
  const Matrix3 R = Eigen::AngleAxisd(0.7, Vector3(1, 2, 3).normalized()).toRotationMatrix();
  for (Vector3& p : unique) p = R * p;
  const Vector3 widening(1e-3, 2e-3, 3e-3);
  const ConvexSupport support(TriangleSurfaceMesh(unique, triangles), widening);
  ASSERT_EQ(support.num_vertices(), 26);
  ASSERT_TRUE(support.climbs());
  std::mt19937 rng(11);
  std::vector<Vector3> directions;
  for (int k = 0; k < 3; ++k) {
    // Along the faces' normals, and within 1e-3 of them: level or nearly level plateaus.
    directions.push_back(R.col(k)), directions.push_back(-R.col(k));
    directions.push_back((R.col(k) + 1e-3 * RandomUnit(&rng)).normalized());
  }
  for (int i = 0; i < 500; ++i) directions.push_back(RandomUnit(&rng));
  for (const Vector3& n : directions) {
    const auto [lo, hi] = support.ExtentAlong(n);
    const double reach = (R.transpose() * n).cwiseAbs().sum();  // the cube [-1, 1]³, turned
    const double widened = n.cwiseAbs().dot(widening);
    ASSERT_NEAR(lo, -reach - widened, 1e-12) << n.transpose();
    ASSERT_NEAR(hi, reach + widened, 1e-12) << n.transpose();
  }
}

// A cube with one face's centre pushed in: its surface folds inwards there, where a climb could
// stop on the face's corner below the rim; every extent is then found over all the vertices.
TEST(ConvexSupportTest, AFoldedSurfaceIsNotClimbed) {
  std::vector<Vector3> vertices;
  for (int c = 0; c < 8; ++c) vertices.emplace_back((c & 1) ? 1 : -1, (c & 2) ? 1 : -1, (c & 4) ? 1 : -1);
  vertices.emplace_back(0, 0, 0.5);  // the top face's centre, pushed in
  // Corners c = x + 2y + 4z; faces outward (counter-clockwise from outside).
  std::vector<Triangle> triangles = {{0, 2, 3}, {0, 3, 1}, {0, 1, 5}, {0, 5, 4}, {0, 4, 6}, {0, 6, 2}, {1, 3, 7},
                                     {1, 7, 5}, {2, 6, 7}, {2, 7, 3}, {4, 5, 8}, {5, 7, 8}, {7, 6, 8}, {6, 4, 8}};
  const TriangleSurfaceMesh folded(vertices, triangles);
  ASSERT_NEAR(folded.CalcEnclosedVolume(), 8 - 4.0 * 0.5 / 3, 1e-12);  // closed and outward
  const ConvexSupport support(folded, Vector3::Zero());
  EXPECT_FALSE(support.climbs());
  std::mt19937 rng(5);
  for (int i = 0; i < 200; ++i) {
    const Vector3 n = RandomUnit(&rng);
    const auto [lo, hi] = support.ExtentAlong(n);
    const auto [brute_lo, brute_hi] = BruteExtent(vertices, n);
    ASSERT_NEAR(lo, brute_lo, 1e-12);
    ASSERT_NEAR(hi, brute_hi, 1e-12);
    ASSERT_NEAR(n.dot(support.SupportVertex(n)), brute_hi, 1e-12);
  }
}

}  // namespace
}  // namespace hydro
