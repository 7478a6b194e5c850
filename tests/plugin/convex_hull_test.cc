// The convex hull of points by Bullet's btConvexHullComputer: the right vertices, exact input
// coordinates, outward faces, every point inside, a real mesh's thousands of coplanar and duplicate
// vertices, the convex volume mesh built on it, and clear errors for flat or bad input.
#include "adapters/convex_hull.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "hydro/make_meshes.h"
#include "tests/invalid_input.h"

namespace hydro {
namespace bullet {
namespace {

using hydro::test::ExpectInvalidInput;

// Every point lies inside or on the hull: behind every face plane.
void ExpectContains(const TriangleSurfaceMesh& hull, const std::vector<Vector3>& points, double tolerance) {
  for (const Vector3& p : points)
    for (int f = 0; f < hull.num_triangles(); ++f)
      ASSERT_LE(hull.face_normal(f).dot(p - hull.vertex(hull.triangle(f)[0])), tolerance) << "face " << f;
}

TEST(ConvexHullTest, ABoxWithPointsInsideAndOnItsFacesHasItsEightCorners) {
  std::vector<Vector3> points;
  for (int i = 0; i < 8; ++i) points.emplace_back(i & 1 ? 0.1 : -0.1, i & 2 ? 0.2 : -0.2, i & 4 ? 0.05 : -0.05);
  points.emplace_back(0, 0, 0);
  points.emplace_back(0.1, 0, 0);    // on a face
  points.emplace_back(0.1, 0.2, 0);  // on an edge
  points.emplace_back(0.02, -0.03, 0.01);
  points.push_back(points[3]);  // a duplicate corner
  const TriangleSurfaceMesh hull = MakeConvexHull(points);
  EXPECT_EQ(hull.num_vertices(), 8);
  EXPECT_EQ(hull.num_triangles(), 12);  // six square faces, two triangles each
  // The corners are the input's own coordinates, so the volume is exact.
  EXPECT_NEAR(hull.CalcEnclosedVolume(), 0.2 * 0.4 * 0.1, 1e-17);
  for (const Vector3& v : hull.vertices()) EXPECT_EQ(v.cwiseAbs(), Vector3(0.1, 0.2, 0.05));
  ExpectContains(hull, points, 1e-15);
  // Its convex volume mesh fills it.
  const VolumeMeshWithExtent mesh = MakeConvexVolumeMesh(hull, 0.03);
  EXPECT_NEAR(mesh.mesh->CalcTotalVolume(), 0.2 * 0.4 * 0.1, 1e-14);
}

TEST(ConvexHullTest, ARandomCloudIsEnclosedByOutwardFaces) {
  std::mt19937 rng(5);
  std::normal_distribution<double> gauss;
  std::vector<Vector3> cloud;
  for (int i = 0; i < 2000; ++i) cloud.emplace_back(gauss(rng), 0.5 * gauss(rng), 2 * gauss(rng));
  const TriangleSurfaceMesh hull = MakeConvexHull(cloud);
  EXPECT_GT(hull.CalcEnclosedVolume(), 0);  // outward
  ExpectContains(hull, cloud, 1e-9);
  // Every hull vertex is one of the points.
  for (const Vector3& v : hull.vertices()) EXPECT_NE(std::find(cloud.begin(), cloud.end(), v), cloud.end());
  const VolumeMeshWithExtent mesh = MakeConvexVolumeMesh(hull, 0.5);
  EXPECT_NEAR(mesh.mesh->CalcTotalVolume(), hull.CalcEnclosedVolume(), 1e-9 * hull.CalcEnclosedVolume());
}

TEST(ConvexHullTest, AFinelyTessellatedSphereMeshAsAnStlGivesIt) {
  // A real mesh's vertex list: a sphere's surface at a fine hint, each vertex repeated as STL
  // writes it (three times per triangle), many on one plane near the poles. The hull is the
  // sphere's polyhedron: its volume, and a vertex count no larger than the distinct vertices.
  const TriangleSurfaceMesh sphere = MakeSphereSurfaceMesh(0.1, 0.006);
  std::vector<Vector3> stl_vertices;
  for (const Triangle& t : sphere.triangles())
    for (int k = 0; k < 3; ++k) stl_vertices.push_back(sphere.vertex(t[k]));
  ASSERT_GT(stl_vertices.size(), 10000u);
  const TriangleSurfaceMesh hull = MakeConvexHull(stl_vertices);
  EXPECT_LE(hull.num_vertices(), sphere.num_vertices());
  EXPECT_GT(hull.num_vertices(), 0.99 * sphere.num_vertices());
  // Bullet chooses vertices and faces on a grid of 1/10216 of the extent: a vertex that stands
  // out of its neighbours' plane by less than a step may be left out, and nearly coplanar faces
  // merge (measured: 1.1e-7 of the volume lost, points up to 1.7e-6 m outside a 0.2 m hull).
  EXPECT_NEAR(hull.CalcEnclosedVolume(), sphere.CalcEnclosedVolume(), 1e-6 * sphere.CalcEnclosedVolume());
  ExpectContains(hull, sphere.vertices(), 0.2 / 10216);
}

TEST(ConvexHullTest, FlatOrBadInputIsRejectedWithAMessage) {
  const double nan = std::nan("");
  ExpectInvalidInput([] { MakeConvexHull({Vector3(0, 0, 0), Vector3(1, 0, 0), Vector3(0, 1, 0)}); }, "at least 4");
  ExpectInvalidInput(
      [] {
        MakeConvexHull({Vector3(0, 0, 0), Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(1, 1, 0)});
      },
      "coplanar");
  ExpectInvalidInput(
      [] {
        MakeConvexHull({Vector3(0, 0, 0), Vector3(1, 0, 0), Vector3(2, 0, 0), Vector3(3, 0, 0)});
      },
      "colinear");
  ExpectInvalidInput([] { MakeConvexHull(std::vector<Vector3>(5, Vector3(1, 2, 3))); }, "coincident");
  ExpectInvalidInput(
      [&] {
        MakeConvexHull({Vector3(0, 0, 0), Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, nan)});
      },
      "non-finite");
  // A sheet 1e-12 thick on a 1 m square is flat.
  ExpectInvalidInput(
      [] {
        MakeConvexHull(
            {Vector3(0, 0, 0), Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(1, 1, 0), Vector3(0.5, 0.5, 1e-12)});
      },
      "coplanar");
}

TEST(ConvexHullTest, EveryTetOfAHullsMeshHasAnInteriorVertex) {
  // Drake's property, for a thin wedge-like hull at several hints (as the other generators).
  const std::vector<Vector3> points = {Vector3(0, 0, 0), Vector3(0.3, 0, 0), Vector3(0, 0.2, 0), Vector3(0, 0, 0.02),
                                       Vector3(0.3, 0.2, 0.02)};
  const TriangleSurfaceMesh hull = MakeConvexHull(points);
  for (double hint : {0.01, 0.025, 0.05, 0.2}) {
    const VolumeMeshWithExtent m = MakeConvexVolumeMesh(hull, hint);
    int boundary_only = 0;
    for (const Tet& t : m.mesh->tets()) {
      bool interior = false;
      for (int k = 0; k < 4; ++k) interior = interior || m.extent[t[k]] > 0;
      boundary_only += interior ? 0 : 1;
    }
    EXPECT_EQ(boundary_only, 0) << "hull at " << hint;
  }
}

// A Voronoi piece of Bullet's data/testFileFracture.bullet (body 41, its 18 btConvexHullShape
// points in metres): Bullet finds a face of ~1e-7 m² on its grid that folds inwards when its
// vertices go back to their exact coordinates. The hull must still face outwards everywhere and
// mesh (before the fallback to Bullet's grid vertices, 16 of the file's 100 pieces threw "not
// convex around its centroid").
TEST(ConvexHullTest, AVoronoiPieceWithTinyFacesStillMeshes) {
  const std::vector<Vector3> points = {
      {-0.26362961530685425, -0.28452065587043762, 0.23114055395126343},
      {-0.43290585279464722, -0.15052242577075958, -0.022853076457977295},
      {-0.1962931901216507, -0.29684582352638245, 0.24513587355613708},
      {-0.26329758763313293, -0.25606584548950195, 0.27844849228858948},
      {-0.2729320228099823, -0.23569691181182861, 0.28476238250732422},
      {-0.46512389183044434, -0.12501610815525055, -0.071200884878635406},
      {0.0079979747533798218, -0.27376985549926758, 0.15915486216545105},
      {-0.25193065404891968, -0.26298198103904724, 0.27280047535896301},
      {-0.27601075172424316, -0.22918412089347839, 0.28678035736083984},
      {-0.43776196241378784, 0.11292093992233276, 0.39269536733627319},
      {-0.43149542808532715, -0.11697335541248322, -0.094369359314441681},
      {0.29841631650924683, -0.24095383286476135, 0.03690057247877121},
      {0.2432967871427536, 0.37254071235656738, 0.12532204389572144},
      {-0.40569746494293213, 0.12514469027519226, 0.38010743260383606},
      {0.2124873548746109, 0.037053916603326797, -0.5380246639251709},
      {0.34269177913665771, -0.2359500527381897, 0.018262468278408051},
      {0.32631522417068481, 0.40418106317520142, 0.092717207968235016},
      {0.25584322214126587, 0.047423388808965683, -0.56789290904998779},
  };
  const TriangleSurfaceMesh hull = MakeConvexHull(points);
  EXPECT_NO_THROW(MakeConvexVolumeMesh(hull, 0.1));
  Vector3 lo = points[0], hi = points[0];
  for (const Vector3& p : points) lo = lo.cwiseMin(p), hi = hi.cwiseMax(p);
  ExpectContains(hull, points, 2 * (hi - lo).norm() / 10216);
}

}  // namespace
}  // namespace bullet

}  // namespace hydro
