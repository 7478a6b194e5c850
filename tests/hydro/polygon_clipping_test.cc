#include "hydro/polygon_clipping.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "hydro/volume_mesh.h"

namespace hydro {
namespace {

double Area(const ClipPolygon& poly, const Vector3& n) {
  double area = 0;
  for (int i = 1; i + 1 < poly.n; ++i) area += 0.5 * (poly.p[i] - poly.p[0]).cross(poly.p[i + 1] - poly.p[0]).dot(n);
  return area;
}

TEST(PolygonClippingTest, ClipSquareByHalfPlane) {
  ClipPolygon square;
  square.Push(Vector3(0, 0, 0));
  square.Push(Vector3(1, 0, 0));
  square.Push(Vector3(1, 1, 0));
  square.Push(Vector3(0, 1, 0));
  ClipPolygon half = square;
  ClipPolygonByHalfSpace(Vector3(-1, 0, 0), -0.25, 0, &half);  // keep x ≤ 0.25
  EXPECT_EQ(half.n, 4);
  EXPECT_NEAR(Area(half, Vector3::UnitZ()), 0.25, 1e-15);
  ClipPolygon corner = square;
  ClipPolygonByHalfSpace(Vector3(1, 1, 0), 1.5, 0, &corner);  // keep x + y ≥ 1.5
  EXPECT_EQ(corner.n, 3);
  EXPECT_NEAR(Area(corner, Vector3::UnitZ()), 0.125, 1e-15);
  ClipPolygon none = square;
  ClipPolygonByHalfSpace(Vector3(1, 0, 0), 2.0, 0, &none);
  EXPECT_EQ(none.n, 0);
  ClipPolygon all = square;
  ClipPolygonByHalfSpace(Vector3(1, 0, 0), 0.0, 1e-12, &all);  // edge on the plane: kept whole
  EXPECT_EQ(all.n, 4);
}

TEST(PolygonClippingTest, SignedDistancesSayWhereAPolygonLies) {
  ClipPolygon square;
  for (const Vector3& p : {Vector3(0, 0, 0), Vector3(1, 0, 0), Vector3(1, 1, 0), Vector3(0, 1, 0)}) square.Push(p);
  std::array<double, ClipPolygon::kCapacity> s;
  EXPECT_EQ(SignedDistancesToPlane(square, Vector3(1, 0, 0), -0.5, 0, s.data()), PlaneSide::kInside);
  EXPECT_EQ(SignedDistancesToPlane(square, Vector3(1, 0, 0), 1.5, 0, s.data()), PlaneSide::kOutside);
  // An edge on the plane, the rest inside: inside (ClipPolygonByHalfSpace keeps it whole).
  EXPECT_EQ(SignedDistancesToPlane(square, Vector3(1, 0, 0), 0.0, 0, s.data()), PlaneSide::kInside);
  // Within the tolerance of the plane z = 0 on both sides: in the plane, every distance exactly 0.
  square.p[2].z() = 1e-13;
  square.p[3].z() = -1e-13;
  EXPECT_EQ(SignedDistancesToPlane(square, Vector3::UnitZ(), 0.0, 1e-12, s.data()), PlaneSide::kInPlane);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(s[i], 0.0);
  EXPECT_EQ(SignedDistancesToPlane(square, Vector3::UnitZ(), 0.0, 0, s.data()), PlaneSide::kCrossing);
  // Crossing: the distances are n·p − d, and the clip keeps the part where they are ≥ 0, as
  // ClipPolygonByHalfSpace does, vertex for vertex.
  const Vector3 n(1, 1, 0);
  ASSERT_EQ(SignedDistancesToPlane(square, n, 1.5, 1e-12, s.data()), PlaneSide::kCrossing);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(s[i], n.dot(square.p[i]) - 1.5);
  ClipPolygon clipped, reference = square;
  ClipBySignedDistances(square, s.data(), &clipped);
  ClipPolygonByHalfSpace(n, 1.5, 1e-12, &reference);
  ASSERT_EQ(clipped.n, 3);
  ASSERT_EQ(reference.n, 3);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(clipped.p[i], reference.p[i]);
  EXPECT_NEAR(Area(clipped, Vector3::UnitZ()), 0.125, 1e-15);
  // Touching the plane at an edge from below is outside: nothing of area is kept.
  ClipPolygon triangle;
  for (const Vector3& p : {Vector3(0, 0, 0), Vector3(1, 0, 0), Vector3(0, 1, 0)}) triangle.Push(p);
  EXPECT_EQ(SignedDistancesToPlane(triangle, Vector3(1, 1, 0), 1.0, 1e-12, s.data()), PlaneSide::kOutside);
}

TEST(PolygonClippingTest, SplitGivesBothClipsBitForBit) {
  // Random convex polygons (points on an ellipse in the plane z = x/3, some of them on the cut)
  // split by random planes: the part below is ClipBySignedDistances with −s, the part above with s,
  // vertex for vertex, and their areas add up to the polygon's.
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  int crossings = 0;
  for (int trial = 0; trial < 500; ++trial) {
    ClipPolygon poly;
    const int n = 3 + trial % 10;
    for (int i = 0; i < n; ++i) {
      const double angle = 2 * M_PI * (i + 0.2 * u(rng)) / n;
      const Vector3 p(std::cos(angle), 0.6 * std::sin(angle), 0);
      poly.Push(Vector3(p.x(), p.y(), p.x() / 3));
    }
    const Vector3 normal = Vector3(u(rng), u(rng), u(rng)).normalized();
    // Every fourth plane goes through a vertex (zero distance: the vertex goes to both parts).
    const double d = trial % 4 == 0 ? normal.dot(poly.p[trial % n]) : 0.5 * u(rng);
    std::array<double, ClipPolygon::kCapacity> s, minus_s;
    if (SignedDistancesToPlane(poly, normal, d, 1e-12, s.data()) != PlaneSide::kCrossing) continue;
    ++crossings;
    for (int i = 0; i < n; ++i) minus_s[i] = -s[i];
    ClipPolygon below, above, below_reference, above_reference;
    SplitBySignedDistances(poly, s.data(), &below, &above);
    ClipBySignedDistances(poly, minus_s.data(), &below_reference);
    ClipBySignedDistances(poly, s.data(), &above_reference);
    ASSERT_EQ(below.n, below_reference.n) << "trial " << trial;
    ASSERT_EQ(above.n, above_reference.n) << "trial " << trial;
    for (int i = 0; i < below.n; ++i) EXPECT_EQ(below.p[i], below_reference.p[i]) << "trial " << trial;
    for (int i = 0; i < above.n; ++i) EXPECT_EQ(above.p[i], above_reference.p[i]) << "trial " << trial;
    const Vector3 n_poly = Vector3(-1, 0, 3).normalized();
    EXPECT_NEAR(Area(below, n_poly) + Area(above, n_poly), Area(poly, n_poly), 1e-14) << "trial " << trial;
  }
  EXPECT_GT(crossings, 250);
}

TEST(PolygonClippingTest, SliceTetAreaMatchesCrossSection) {
  // Unit right tet: the plane z = h cuts a right triangle with legs (1 − h).
  const std::array<Vector3, 4> tet = {Vector3(0, 0, 0), Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)};
  for (double h : {0.1, 0.5, 0.9}) {
    ClipPolygon poly;
    SliceTetByPlane(tet, Vector3::UnitZ(), h, &poly);
    ASSERT_EQ(poly.n, 3);
    EXPECT_NEAR(Area(poly, Vector3::UnitZ()), 0.5 * (1 - h) * (1 - h), 1e-14);  // CCW about +z
  }
  // A quadrilateral slice: plane x + y = 0.5... through the tet (1,1,0) direction.
  ClipPolygon quad;
  SliceTetByPlane(tet, Vector3(1, -1, 0).normalized(), 0.0, &quad);
  EXPECT_EQ(quad.n, 3);  // passes through vertices 0 and 3
  ClipPolygon miss;
  SliceTetByPlane(tet, Vector3::UnitZ(), 1.5, &miss);
  EXPECT_EQ(miss.n, 0);
}

TEST(PolygonClippingTest, SliceVolumeIntegratesToTetVolume) {
  // ∫ area(slice at height h) dh over the tet's extent in a random direction equals its volume.
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int trial = 0; trial < 20; ++trial) {
    std::array<Vector3, 4> tet;
    for (auto& p : tet) p = Vector3(u(rng), u(rng), u(rng));
    double volume = SignedTetVolume(tet[0], tet[1], tet[2], tet[3]);
    if (volume < 0) {
      std::swap(tet[0], tet[1]);
      volume = -volume;
    }
    if (volume < 1e-3) continue;
    const Vector3 n = Vector3(u(rng), u(rng), u(rng)).normalized();
    double lo = 1e9, hi = -1e9;
    for (const auto& p : tet) {
      lo = std::min(lo, n.dot(p));
      hi = std::max(hi, n.dot(p));
    }
    // Area(h) is piecewise quadratic: Simpson on many panels is accurate to ~1e-9.
    const int panels = 2000;
    double integral = 0;
    for (int i = 0; i <= panels; ++i) {
      const double h = lo + (hi - lo) * i / panels;
      ClipPolygon poly;
      SliceTetByPlane(tet, n, h, &poly);
      const double weight = (i == 0 || i == panels) ? 1 : (i % 2 ? 4 : 2);
      integral += weight * Area(poly, n);
    }
    integral *= (hi - lo) / panels / 3;
    EXPECT_NEAR(integral, volume, 1e-6 * volume);
  }
}

TEST(PolygonClippingTest, FaceInPlaneCountsForOneTetOnly) {
  // Two tets sharing the face z = 0; a slice exactly on it is reported once.
  const std::array<Vector3, 4> above = {Vector3(0, 0, 0), Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)};
  const std::array<Vector3, 4> below = {Vector3(0, 0, 0), Vector3(0, 1, 0), Vector3(1, 0, 0), Vector3(0, 0, -1)};
  ClipPolygon a, b;
  SliceTetByPlane(above, Vector3::UnitZ(), 0.0, &a);
  SliceTetByPlane(below, Vector3::UnitZ(), 0.0, &b);
  EXPECT_EQ(a.n + b.n, 3);
  EXPECT_EQ(a.n, 3);
}

}  // namespace
}  // namespace hydro
