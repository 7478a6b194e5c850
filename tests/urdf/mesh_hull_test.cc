// The convex hull a moving link's mesh collides as (adapters/convex_hull.h), on points that are
// exactly colinear: the sampled border of a plate, as in Bullet's torus/torus_with_plane.obj,
// whose hull threw "triangle 73 (vertices 32, 25, 26) has zero area". Bullet finds the hull on a
// grid where such a chain zigzags, and keeps its points as hull vertices; at the exact points the
// fan of a face through them had triangles of zero area. The hull must be the closed-form solid,
// closed, on the input's own points, and mesh; a compliant body with such a mesh rests on a patch.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "adapters/convex_hull.h"
#include "hydro/contact_surface.h"
#include "hydro/make_meshes.h"
#include "plugin/btHydroelasticContactQuery.h"
#include "test_world.h"
#include "urdf/compliance_rules.h"

namespace hydro {
namespace urdf {
namespace {

using bullet::MakeConvexHull;

// Every edge a→b of a triangle is b→a of exactly one other, and no directed edge repeats: the
// hull is a closed, consistently oriented surface. Returns the number of edges that are not.
int CountUnpairedEdges(const TriangleSurfaceMesh& mesh) {
  std::map<std::pair<int, int>, int> directed;
  for (const Triangle& t : mesh.triangles())
    for (int k = 0; k < 3; ++k) ++directed[{t[k], t[(k + 1) % 3]}];
  int unpaired = 0;
  for (const auto& [edge, count] : directed) {
    const auto reverse = directed.find({edge.second, edge.first});
    if (count != 1 || reverse == directed.end() || reverse->second != 1) ++unpaired;
  }
  return unpaired;
}

// The smallest of every triangle's twice area over its longest edge squared (1 for no triangle;
// TriangleSurfaceMesh refuses ≤ 1e-12).
double SmallestShape(const TriangleSurfaceMesh& mesh) {
  double smallest = 1;
  for (int f = 0; f < mesh.num_triangles(); ++f) {
    const Triangle& t = mesh.triangle(f);
    const Vector3 &a = mesh.vertex(t[0]), &b = mesh.vertex(t[1]), &c = mesh.vertex(t[2]);
    const double longest = std::max({(b - a).squaredNorm(), (c - b).squaredNorm(), (a - c).squaredNorm()});
    smallest = std::min(smallest, 2 * mesh.area(f) / longest);
  }
  return smallest;
}

// Closed, on the input's points, with every point inside or on it.
void ExpectExactHullOf(const TriangleSurfaceMesh& hull, const std::vector<Vector3>& points, double size) {
  EXPECT_EQ(CountUnpairedEdges(hull), 0);
  EXPECT_GT(SmallestShape(hull), 1e-10);
  for (const Vector3& v : hull.vertices())
    EXPECT_NE(std::find(points.begin(), points.end(), v), points.end()) << v.transpose();
  for (const Vector3& p : points)
    for (int f = 0; f < hull.num_triangles(); ++f)
      ASSERT_LE(hull.face_normal(f).dot(p - hull.vertex(hull.triangle(f)[0])), 1e-15 * size) << "face " << f;
}

TEST(MeshHullTest, ATetWithPointsAlongItsEdgesIsThatTet) {
  // Dyadic corners and k = 2, 4, …, 32 steps on each of the six edges: every chain is exactly
  // straight in double. Before the fix every k threw "… has zero area".
  const Vector3 corners[4] = {{0, 0, 0}, {1, 0.75, 0}, {0.25, 1, 0.125}, {0.5, 0.375, 1}};
  const double volume =
      std::abs((corners[1] - corners[0]).cross(corners[2] - corners[0]).dot(corners[3] - corners[0])) / 6;
  double area = 0;
  for (const auto& f : {std::array<int, 3>{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}})
    area += 0.5 * (corners[f[1]] - corners[f[0]]).cross(corners[f[2]] - corners[f[0]]).norm();
  for (int k = 2; k <= 32; k *= 2) {
    std::vector<Vector3> points(corners, corners + 4);
    for (int a = 0; a < 4; ++a)
      for (int b = a + 1; b < 4; ++b)
        for (int i = 1; i < k; ++i)
          points.push_back(corners[a] + (corners[b] - corners[a]) * (static_cast<double>(i) / k));
    const TriangleSurfaceMesh hull = MakeConvexHull(points);
    // Measured: volume and area to 2.2e-16, at most 29 of the 190 points kept as vertices.
    EXPECT_NEAR(hull.CalcEnclosedVolume(), volume, 1e-15 * volume) << k;
    EXPECT_NEAR(hull.CalcTotalArea(), area, 1e-15 * area) << k;
    ExpectExactHullOf(hull, points, 1.0);
    const VolumeMeshWithExtent mesh = MakeConvexVolumeMesh(hull, 0.2);
    EXPECT_NEAR(mesh.mesh->CalcTotalVolume(), volume, 1e-12 * volume) << k;
  }
}

// A plate of side a at z = 0 and one of side b at z = h, each sampled on an n × n grid (so their
// borders are straight chains of points), sheared by a dyadic map of determinant 1 so that no
// chain lies along an axis of Bullet's grid: a square frustum, V = h/3·(a² + ab + b²).
std::vector<Vector3> ShearedFrustumPoints(int n, double a, double b, double h) {
  Matrix3 shear;
  shear << 1, 0, 0.5, 0.25, 1, 0.125, 0, 0, 1;  // z is kept: the plates stay level
  std::vector<Vector3> points;
  for (const auto& [side, z] : {std::pair<double, double>{a, 0}, {b, h}})
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        points.push_back(shear * Vector3(side * (static_cast<double>(i) / (n - 1) - 0.5),
                                         side * (static_cast<double>(j) / (n - 1) - 0.5), z));
  return points;
}

TEST(MeshHullTest, TwoSampledPlatesAreTheirFrustum) {
  const double a = 1, b = 0.5, h = 0.25;
  const double volume = h / 3 * (a * a + a * b + b * b);
  for (int n : {5, 9, 17}) {  // n = 3 has no point inside a border; 5, 9 and 17 threw
    const std::vector<Vector3> points = ShearedFrustumPoints(n, a, b, h);
    const TriangleSurfaceMesh hull = MakeConvexHull(points);
    // The area from the eight corners' six planar faces (Newell's vector area of each quad).
    auto corner = [&](int i, int j, int top) { return points[top * n * n + i * (n - 1) * n + j * (n - 1)]; };
    auto quad_area = [](const Vector3& p, const Vector3& q, const Vector3& r, const Vector3& s) {
      return 0.5 * (p.cross(q) + q.cross(r) + r.cross(s) + s.cross(p)).norm();
    };
    double area = quad_area(corner(0, 0, 0), corner(1, 0, 0), corner(1, 1, 0), corner(0, 1, 0)) +
                  quad_area(corner(0, 0, 1), corner(1, 0, 1), corner(1, 1, 1), corner(0, 1, 1));
    for (const auto& [i0, j0, i1, j1] : {std::array<int, 4>{0, 0, 1, 0}, {1, 0, 1, 1}, {1, 1, 0, 1}, {0, 1, 0, 0}})
      area += quad_area(corner(i0, j0, 0), corner(i1, j1, 0), corner(i1, j1, 1), corner(i0, j0, 1));
    EXPECT_NEAR(hull.CalcEnclosedVolume(), volume, 1e-15 * volume) << n;
    EXPECT_NEAR(hull.CalcTotalArea(), area, 1e-14 * area) << n;
    ExpectExactHullOf(hull, points, 1.0);
  }
}

// The same two plates as an OBJ mesh on a moving link, made compliant by --compliant all: it
// rests on a rigid plane on a patch that carries its weight. Before the fix its geometry failed
// ("has zero area") and the pair fell back to Bullet's points.
TEST(MeshHullTest, AMeshWithStraightBordersRestsOnAPatch) {
  const int n = 9;
  const std::vector<Vector3> points = ShearedFrustumPoints(n, 0.2, 0.1, 0.05);
  std::ostringstream obj;
  obj.precision(17);
  for (const Vector3& p : points) obj << "v " << p.x() << " " << p.y() << " " << p.z() << "\n";
  for (int plate = 0; plate < 2; ++plate)  // each plate's grid, two triangles a cell
    for (int i = 0; i + 1 < n; ++i)
      for (int j = 0; j + 1 < n; ++j) {
        const int v = 1 + plate * n * n + i * n + j;  // OBJ counts from 1
        obj << "f " << v << " " << v + n << " " << v + n + 1 << "\nf " << v << " " << v + n + 1 << " " << v + 1 << "\n";
      }
  test::TempDir dir("mesh_hull");
  dir.Write("plates.obj", obj.str());
  const std::string file = dir.Write("plates.sdf", R"(<sdf version="1.7"><world name="w">
  <model name="ground"><static>true</static><link name="l"><collision name="c"><geometry>
    <plane><normal>0 0 1</normal><size>10 10</size></plane></geometry></collision></link></model>
  <model name="plates"><link name="l">
    <inertial><pose>0 0 0.02 0 0 0</pose><mass>1</mass><inertia><ixx>1e-3</ixx><iyy>1e-3</iyy><izz>1e-3</izz></inertia></inertial>
    <collision name="c"><geometry><mesh><uri>plates.obj</uri></mesh></geometry></collision>
  </link></model></world></sdf>)");
  Diagnostics d;
  ReadOptions options;
  options.search.use_environment = false;
  auto scene = ReadModelFile(file, options, &d);
  ASSERT_TRUE(scene) << d.ToString();
  ASSERT_EQ(ApplyComplianceRules(*ParseCompliantOption("all", &d), &*scene), 2);
  test::World w;
  w.Build(*scene);
  const double dt = 1e-3;
  w.Step(300, dt);
  const auto patches = hydroGetContactPatches(w.world->getDispatcher(), dt);
  ASSERT_EQ(patches.size(), 1u);
  EXPECT_GT(patches[0].m_surface->num_polygons(), 4);
  EXPECT_NEAR(std::abs(patches[0].m_forceOnBody0.z()), 9.81, 0.01 * 9.81);
  // On its 0.2 m plate, pressed in by m·g·ℓ/(E·A) (ℓ: the hull's centroid height over its plate,
  // under 0.05 m) at the default E = 1e7 Pa: at most 1.3 µm.
  EXPECT_NEAR(w.built->LinkPose(*w.built->Find("plates::l")).translation().z(), 0, 1e-5);
}

}  // namespace
}  // namespace urdf
}  // namespace hydro
