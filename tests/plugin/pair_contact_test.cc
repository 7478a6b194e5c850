// Separating axes between two geometries (plugin/pair_contact.h: CalcGapsAlongAxes): a positive
// gap must prove them apart, and a large ground box must separate along its own normal. Also the
// points a pair's patch gives the solver: their reduction, and how they respond to motion.
#include <gtest/gtest.h>

#include <btBulletCollisionCommon.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <random>

#include "adapters/bullet_conversions.h"
#include "adapters/shape_geometry.h"
#include "hydro/contact_surface_calculator.h"
#include "hydro/point_reduction.h"
#include "plugin/pair_contact.h"
#include "random_pose.h"
#include "test_world.h"
#include "tests/hydro/contact_test_util.h"
#include "tests/test_poses.h"

#include "tests/bullet_precision.h"

namespace hydro {
namespace bullet {
namespace {

using test::RandomPose;

double LargestGap(const ShapeGeometry& a, const RigidTransform& X_WA, const ShapeGeometry& b,
                  const RigidTransform& X_WB) {
  Vector3 axes[7];
  double gaps[7];
  const int n = CalcGapsAlongAxes(a, X_WA, b, X_WB, axes, gaps);
  double largest = -std::numeric_limits<double>::infinity();
  for (int k = 0; k < n; ++k) {
    EXPECT_NEAR(axes[k].norm(), 1, 1e-12);
    largest = std::max(largest, gaps[k]);
  }
  return largest;
}

// The three outcomes: a compliant box on a rigid slab is computed (touching: a surface), two rigid
// shapes have no pressure field between them, and a NaN pose gives no contact instead of NaNs.
TEST(PairContactTest, ThePairSurfaceSaysWhatItFound) {
  btHydroelasticProperties soft;
  soft.m_hydroelasticModulus = 1e6;
  btBoxShape box(btVector3(0.1, 0.1, 0.1)), slab(btVector3(0.5, 0.5, 0.02));
  const ShapeGeometry g_box = MakeShapeGeometry(box, &soft);
  const ShapeGeometry g_rigid_box = MakeShapeGeometry(box, nullptr);
  const ShapeGeometry g_slab = MakeShapeGeometry(slab, nullptr);
  RigidTransform X_WA = RigidTransform::Identity();
  X_WA.translation() = Vector3(0, 0, 0.11);  // 1 cm into the slab's top at z = 0.02
  ContactSurface surface;
  EXPECT_EQ(CalcPairSurface(g_box, X_WA, g_slab, RigidTransform::Identity(), &surface), PairSurfaceOutcome::kComputed);
  EXPECT_FALSE(surface.empty());
  EXPECT_EQ(CalcPairSurface(g_rigid_box, X_WA, g_slab, RigidTransform::Identity(), &surface),
            PairSurfaceOutcome::kNoPressureField);
  EXPECT_TRUE(surface.empty());
  X_WA.translation().x() = NAN;
  EXPECT_EQ(CalcPairSurface(g_box, X_WA, g_slab, RigidTransform::Identity(), &surface),
            PairSurfaceOutcome::kInvalidPose);
  EXPECT_TRUE(surface.empty());
}

// Two compliant boxes meet in closed form (hydro/compliant_box.h), with the force and moment their
// meshes give; a stiffened box's field is not linear in its regions, and it keeps its mesh. A
// compliant box meets a rigid box in closed form too.
TEST(PairContactTest, TwoCompliantBoxesMeetInClosedFormWithTheirMeshesWrench) {
  btHydroelasticProperties soft = test::Compliant(1e8), stiffened = test::Compliant(1e8);
  stiffened.m_stiffening = 0.5;
  btBoxShape brick(btVector3(0.1, 0.05, 0.05)), cube(btVector3(0.05, 0.05, 0.05));
  const ShapeGeometry a = MakeShapeGeometry(brick, &soft), b = MakeShapeGeometry(cube, &soft);
  ASSERT_TRUE(a.compliant_box && b.compliant_box);
  EXPECT_FALSE(MakeShapeGeometry(cube, &stiffened).compliant_box);
  EXPECT_FALSE(MakeShapeGeometry(cube, nullptr).compliant_box);
  const RigidTransform X_WA = test::Pose(Vector3(0.03, 0.01, 0.099), 0.02, Vector3(1, 2, 0));
  const RigidTransform X_WB = test::Pose(Vector3(0, 0, 0), -0.01, Vector3(0, 1, 1));
  ContactSurface closed, meshed;
  ASSERT_EQ(CalcPairSurface(a, X_WA, b, X_WB, &closed), PairSurfaceOutcome::kComputed);
  CalcContactSurface(*a.compliant_mesh, X_WA, *b.compliant_mesh, X_WB, &meshed);
  const Vector3 f = meshed.CalcElasticForceOnA();
  ASSERT_GT(f.norm(), 0);
  EXPECT_LE((closed.CalcElasticForceOnA() - f).norm(), 1e-9 * f.norm());
  EXPECT_LE((closed.CalcElasticMomentOnA() - meshed.CalcElasticMomentOnA()).norm(), 1e-9 * f.norm() * 0.2);
  EXPECT_LT(closed.num_polygons(), meshed.num_polygons());
  EXPECT_FALSE(SplitsInPieces(a, b));  // no trees to split across threads
  // On a rigid box, in either order (the rigid one first is computed compliant-first and swapped).
  const ShapeGeometry ground = MakeShapeGeometry(brick, nullptr);
  ASSERT_TRUE(ground.rigid_box);
  EXPECT_FALSE(b.rigid_box);
  ASSERT_EQ(CalcPairSurface(b, X_WA, ground, X_WB, &closed), PairSurfaceOutcome::kComputed);
  CalcContactSurface(*b.compliant_mesh, X_WA, *ground.rigid_mesh, X_WB, &meshed);
  const Vector3 f_rigid = meshed.CalcElasticForceOnA();
  ASSERT_GT(f_rigid.norm(), 0);
  EXPECT_LE((closed.CalcElasticForceOnA() - f_rigid).norm(), 1e-9 * f_rigid.norm());
  ASSERT_EQ(CalcPairSurface(ground, X_WB, b, X_WA, &closed), PairSurfaceOutcome::kComputed);
  EXPECT_LE((closed.CalcElasticForceOnA() + f_rigid).norm(), 1e-9 * f_rigid.norm());  // on the ground
  EXPECT_FALSE(SplitsInPieces(ground, b));
}

// A compliant mesh that reaches into a rigid box through one face only meets it as the half-space
// below that face: the same surface (force, moment and area to round-off, 1e-9 of the force), in
// no more polygons, cut by the tets alone instead of by the tets and the face's triangles. Over a
// box's edge the face's triangles are clipped as before: the surface is the mesh query's, bit for
// bit. A sphere (r = 0.1 m) and a capsule at 1e8 Pa and their default hints, 5 mm into a rigid
// 4 × 4 × 1 m box's top face, into its +y and its −z face turned up, and over its edge.
TEST(PairContactTest, AMeshReachingIntoARigidBoxThroughOneFaceMeetsTheHalfSpaceBelowIt) {
  const btHydroelasticProperties soft = test::Compliant(1e8);
  btSphereShape sphere(0.1);
  btCapsuleShapeZ capsule(0.06, 0.16);
  btBoxShape ground(btVector3(2, 2, 0.5));
  const ShapeGeometry g_ground = MakeShapeGeometry(ground, nullptr);
  ASSERT_TRUE(g_ground.rigid_box);
  std::mt19937 rng(7);
  int one_face = 0, over_edge = 0;
  for (btConvexShape* shape : {static_cast<btConvexShape*>(&sphere), static_cast<btConvexShape*>(&capsule)}) {
    const ShapeGeometry g = MakeShapeGeometry(*shape, &soft);
    ASSERT_EQ(g.kind, ShapeGeometry::Kind::kCompliantMesh);
    for (int trial = 0; trial < 12; ++trial) {
      // The ground box upright, turned a quarter about x so that its +y face looks up, or turned
      // half a turn about y so that its −z face does.
      const int turn = trial % 3;
      const bool turned = turn == 1;
      RigidTransform X_WO = RigidTransform::Identity();
      if (turned) X_WO.linear() = Eigen::AngleAxisd(M_PI / 2, Vector3::UnitX()).toRotationMatrix();
      if (turn == 2) X_WO.linear() = Eigen::AngleAxisd(M_PI, Vector3::UnitY()).toRotationMatrix();
      X_WO.translation() = Vector3(0, 0, turned ? -2 : -0.5);  // its upper face at z = 0
      // The body turned at random, its lowest point 5 mm below z = 0; the last trials over the edge x = 2.
      const bool edge = trial >= 8;
      RigidTransform X_WS = RandomPose(&rng, 0.0);
      if (edge) X_WS.linear().setIdentity();  // its lowest point over the box, its side past the edge
      X_WS.translation() = Vector3(edge ? 1.95 : -1.0 + 0.2 * trial, 0.1, 0);
      double low = std::numeric_limits<double>::infinity();
      for (const Vector3& p : g.compliant_mesh->mesh().vertices()) low = std::min(low, (X_WS * g.X_SG * p).z());
      X_WS.translation().z() -= low + 0.005;
      ContactSurface pair, meshed;
      ASSERT_EQ(CalcPairSurface(g, X_WS, g_ground, X_WO, &pair), PairSurfaceOutcome::kComputed);
      CalcContactSurface(*g.compliant_mesh, X_WS * g.X_SG, *g_ground.rigid_mesh, X_WO * g_ground.X_SG, &meshed);
      const Vector3 f = meshed.CalcElasticForceOnA();
      ASSERT_GT(f.norm(), 0) << trial;
      EXPECT_LE((pair.CalcElasticForceOnA() - f).norm(), 1e-9 * f.norm()) << trial;
      EXPECT_LE((pair.CalcElasticMomentOnA() - meshed.CalcElasticMomentOnA()).norm(), 1e-9 * f.norm() * 3) << trial;
      EXPECT_NEAR(pair.CalcTotalArea(), meshed.CalcTotalArea(), 1e-9 * meshed.CalcTotalArea()) << trial;
      // The half-space's polygons name no element of the ground (−1), the mesh's a triangle.
      int from_triangles = 0;
      for (const ContactPolygon& polygon : pair.polygons()) from_triangles += polygon.element_B >= 0;
      if (edge) {
        ++over_edge;
        EXPECT_EQ(from_triangles, pair.num_polygons()) << trial;
        EXPECT_EQ(pair.num_polygons(), meshed.num_polygons()) << trial;
        EXPECT_EQ(pair.CalcElasticForceOnA(), f) << trial;
      } else {
        ++one_face;
        EXPECT_EQ(from_triangles, 0) << trial;
        EXPECT_LE(pair.num_polygons(), meshed.num_polygons()) << trial;
      }
    }
  }
  EXPECT_EQ(one_face, 16);
  EXPECT_EQ(over_edge, 8);
}

// A positive gap never comes with a contact surface, for boxes against boxes and against a
// plane, over random poses; and most pairs without contact are found apart. Measured: 299 of 308
// box pairs, 171 of 174 box–slab pairs (others are apart along no box axis nor their centre line),
// 77 of 179 box–plane pairs: the other 102 boxes lie wholly below the plane, inside it, where the
// surface is empty too but the geometries overlap.
TEST(PairContactTest, APositiveGapAlongAnyAxisMeansNoContact) {
  btHydroelasticProperties soft;
  soft.m_hydroelasticModulus = 1e6;
  btBoxShape box(btVector3(0.1, 0.2, 0.05)), slab(btVector3(0.5, 0.5, 0.02));
  btStaticPlaneShape plane(btVector3(0, 0, 1), 0);
  const ShapeGeometry g_box = MakeShapeGeometry(box, &soft);
  const ShapeGeometry g_slab = MakeShapeGeometry(slab, nullptr);
  const ShapeGeometry g_plane = MakeShapeGeometry(plane, nullptr);
  std::mt19937 rng(3);
  for (const ShapeGeometry* other : {&g_box, &g_slab, &g_plane}) {
    int apart = 0, found = 0;
    for (int trial = 0; trial < 400; ++trial) {
      const RigidTransform X_WA = RandomPose(&rng, 0.3);
      const RigidTransform X_WB = other == &g_plane ? RandomPose(&rng, 0.1) : RandomPose(&rng, 0.3);
      ContactSurface surface;
      ASSERT_EQ(CalcPairSurface(g_box, X_WA, *other, X_WB, &surface), PairSurfaceOutcome::kComputed);
      const double gap = LargestGap(g_box, X_WA, *other, X_WB);
      if (gap > 0) {
        EXPECT_TRUE(surface.empty()) << "trial " << trial << ": gap " << gap;
      }
      if (surface.empty()) ++apart;
      if (gap > 0) ++found;
    }
    std::printf("found apart %d of %d pairs without contact\n", found, apart);
    EXPECT_GT(apart, 50);
    EXPECT_GT(found, apart / 3);
  }
}

// A 0.2 m box 5 cm above a 100 m ground box, off its centre: the line between the centres leans
// across the ground's width and overlaps it, the ground's normal separates them.
TEST(PairContactTest, ASmallBoxAboveAGroundBoxIsApartAlongTheGroundsNormal) {
  btHydroelasticProperties soft;
  soft.m_hydroelasticModulus = 1e6;
  btBoxShape box(btVector3(0.1, 0.1, 0.1)), ground(btVector3(50, 50, 50));
  const ShapeGeometry g_box = MakeShapeGeometry(box, &soft);
  const ShapeGeometry g_ground = MakeShapeGeometry(ground, nullptr);
  RigidTransform X_WA = RigidTransform::Identity(), X_WB = RigidTransform::Identity();
  X_WA.translation() = Vector3(0.8, 0.6, 0.15);
  X_WB.translation() = Vector3(0, 0, -50);
  Vector3 d;
  double along_centres = 0;
  ASSERT_TRUE(CalcGapAlongCentres(g_box, X_WA, g_ground, X_WB, &d, &along_centres));
  EXPECT_LT(along_centres, 0);
  EXPECT_NEAR(LargestGap(g_box, X_WA, g_ground, X_WB), 0.05, test::BulletAbsolute(1e-12, 0.1));
}

// The axes point from b toward a, and the overlap bound is the smallest overlap over them: two
// 0.2 m boxes one on the other, offset by (5, 3) cm and 1 mm into each other, overlap by 1 mm
// (along z), 15 cm along x and 17 cm along y; 1 cm apart, by nothing. Against a plane, the depth
// of the box's lowest corner below it.
TEST(PairContactTest, AxesPointFromBTowardAAndTheOverlapBoundIsTheSmallestOverlap) {
  btHydroelasticProperties soft;
  soft.m_hydroelasticModulus = 1e6;
  btBoxShape box(btVector3(0.1, 0.1, 0.1));
  btStaticPlaneShape plane(btVector3(0, 0, 1), 0);
  const ShapeGeometry g_box = MakeShapeGeometry(box, &soft);
  const ShapeGeometry g_plane = MakeShapeGeometry(plane, nullptr);
  RigidTransform X_WA = RigidTransform::Identity(), X_WB = RigidTransform::Identity();
  X_WA.translation() = Vector3(0, 0, 0.199);
  X_WB.translation() = Vector3(0.05, 0.03, 0);
  Vector3 axes[7];
  double gaps[7];
  const int n = CalcGapsAlongAxes(g_box, X_WA, g_box, X_WB, axes, gaps);
  ASSERT_EQ(n, 7);
  const Vector3 centre_line = X_WA.translation() - X_WB.translation();
  for (int k = 0; k < n; ++k) EXPECT_GE(axes[k].dot(centre_line), 0) << "axis " << k;
  // (In the float build the box's half size is stored as 0.1 rounded.)
  EXPECT_NEAR(CalcOverlapBound(g_box, X_WA, g_box, X_WB), 1e-3, test::BulletAbsolute(1e-12, 0.2));
  EXPECT_NEAR(CalcOverlapBound(g_box, X_WB, g_box, X_WA), 1e-3, test::BulletAbsolute(1e-12, 0.2));  // symmetric
  X_WA.translation().z() = 0.21;
  EXPECT_EQ(CalcOverlapBound(g_box, X_WA, g_box, X_WB), 0);
  // Turned by 0.1 rad about y, its centre 0.1 m up: its lowest edge is 0.1·(cos 0.1 + sin 0.1)
  // − 0.1 below the plane.
  X_WA = RigidTransform::Identity();
  X_WA.linear() = Eigen::AngleAxisd(0.1, Vector3::UnitY()).toRotationMatrix();
  X_WA.translation() = Vector3(0, 0, 0.1);
  EXPECT_NEAR(CalcOverlapBound(g_box, X_WA, g_plane, RigidTransform::Identity()),
              0.1 * (std::cos(0.1) + std::sin(0.1)) - 0.1, test::BulletAbsolute(1e-12, 0.2));
}

// A turned convex hull 1 mm into a ground box, or 1 mm above it: the overlap bound is that 1 mm and
// the widest gap that 1 mm, to within the hull's widening (0.1 mm at most), over 200 random
// turns. Its bounding box, turned with it, reaches up to 11.4 cm past its lowest vertex over these
// turns: bounded by the box, the overlap came out that deep, and the contact points' depths
// bounded by it threw a tumbling hull off the ground at 1e8 Pa (stiff_scenes_test).
TEST(PairContactTest, ATurnedHullsOverlapAndGapComeFromItsLowestVertexNotItsBoundingBox) {
  btHydroelasticProperties stiff;
  stiff.m_hydroelasticModulus = 1e8;
  btConvexHullShape hull;
  test::AddIrregularHullPoints(&hull);
  std::vector<Vector3> points;
  for (int i = 0; i < hull.getNumPoints(); ++i) points.push_back(ToEigen(hull.getUnscaledPoints()[i]));
  btBoxShape ground(btVector3(50, 50, 50));
  const ShapeGeometry g_hull = MakeShapeGeometry(hull, &stiff);
  const ShapeGeometry g_ground = MakeShapeGeometry(ground, nullptr);
  ASSERT_TRUE(g_hull.support);
  EXPECT_FALSE(g_ground.support);  // a box's bounding box is exact
  RigidTransform X_WG = RigidTransform::Identity();
  X_WG.translation() = Vector3(0, 0, -50);
  // (In the float build the hull's points are stored rounded.)
  const double rounding = test::BulletAbsolute(1e-12, 0.2);
  // The hull's widening along z, at most Σ 2.1 grid steps of its 0.18, 0.16 and 0.22 m extents.
  const double tolerance = 2.1 / 10216 * (0.18 + 0.16 + 0.22) + rounding;
  std::mt19937 rng(3);
  double loosest_box = 0;  // how far the hull's turned bounding box reaches below its lowest vertex
  for (int i = 0; i < 200; ++i) {
    RigidTransform X_WH = RandomPose(&rng, 0.0);
    double lowest = std::numeric_limits<double>::infinity();
    for (const Vector3& p : points) lowest = std::min(lowest, (X_WH.linear() * p).z());
    const Aabb box = g_hull.compliant_mesh->bvh().root_box();
    const Vector3 n_H = X_WH.linear().transpose() * Vector3::UnitZ();
    loosest_box = std::max(loosest_box, lowest - (n_H.dot(box.center) - n_H.cwiseAbs().dot(box.half_size)));
    for (double height : {-1e-3, 1e-3}) {
      X_WH.translation() = Vector3(0.3, -0.2, height - lowest);
      if (height < 0) {
        const double overlap = CalcOverlapBound(g_hull, X_WH, g_ground, X_WG);
        ASSERT_GE(overlap, 1e-3 - rounding) << i;  // a bound: never less than the overlap
        ASSERT_LE(overlap, 1e-3 + tolerance) << i;
      } else {
        const double gap = LargestGap(g_hull, X_WH, g_ground, X_WG);
        ASSERT_LE(gap, 1e-3 + rounding) << i;  // never more than the gap
        ASSERT_GE(gap, 1e-3 - tolerance) << i;
      }
    }
  }
  EXPECT_GT(loosest_box, 0.1);  // what the box alone gave
}

// The surface of two geometries computed by the core, without CalcPairSurface's test for pairs
// apart. `a` is a compliant mesh; `b` a compliant or rigid mesh.
ContactSurface DirectSurface(const ShapeGeometry& a, const RigidTransform& X_WSa, const ShapeGeometry& b,
                             const RigidTransform& X_WSb) {
  const RigidTransform X_WA = X_WSa * a.X_SG, X_WB = X_WSb * b.X_SG;
  ContactSurface surface;
  if (a.compliant_box && b.compliant_box)
    CalcContactSurface(*a.compliant_box, X_WA, *b.compliant_box, X_WB, &surface);
  else if (b.kind == ShapeGeometry::Kind::kCompliantMesh)
    CalcContactSurface(*a.compliant_mesh, X_WA, *b.compliant_mesh, X_WB, &surface);
  else
    CalcContactSurface(*a.compliant_mesh, X_WA, *b.rigid_mesh, X_WB, &surface);
  return surface;
}

// Pairs told apart (AreApart) have an empty surface, and pairs with an empty surface are told
// apart, also where none of CalcGapsAlongAxes's seven axes separates them (an edge against an
// edge, a hull's slanted face against a rim): Bullet's GJK finds those directions. 400 random
// poses of each pair, a fifth to a quarter of them touching: two turned hulls, a capsule and a
// cylinder, two boxes (no hull: GJK on their bounding boxes, as for a box against a hull; two boxes
// meet in closed form, and CalcPairSurface does not ask), and a sphere against a rigid hull.
// CalcPairSurface, which skips the pairs apart, gives the core's surface every time; a NaN or
// sheared pose of a pair apart is still reported as such.
TEST(PairContactTest, PairsToldApartHaveNoSurfaceAndEveryPairWithoutOneIsToldApart) {
  btHydroelasticProperties stiff;
  stiff.m_hydroelasticModulus = 1e8;
  btConvexHullShape hull;
  test::AddIrregularHullPoints(&hull);
  btCapsuleShapeZ capsule(0.06, 0.16);
  btCylinderShapeZ cylinder(btVector3(0.1, 0.1, 0.08));
  btBoxShape box(btVector3(0.1, 0.07, 0.05));
  btSphereShape sphere(0.1);
  const ShapeGeometry g_hull = MakeShapeGeometry(hull, &stiff), g_capsule = MakeShapeGeometry(capsule, &stiff),
                      g_cylinder = MakeShapeGeometry(cylinder, &stiff), g_box = MakeShapeGeometry(box, &stiff),
                      g_sphere = MakeShapeGeometry(sphere, &stiff), g_rigid_hull = MakeShapeGeometry(hull, nullptr);
  ASSERT_TRUE(g_box.compliant_box);
  const struct {
    const char* name;
    const ShapeGeometry *a, *b;
  } pairs[] = {{"hull-hull", &g_hull, &g_hull},
               {"capsule-cylinder", &g_capsule, &g_cylinder},
               {"box-box", &g_box, &g_box},
               {"sphere-rigid hull", &g_sphere, &g_rigid_hull}};
  std::mt19937 rng(11);
  for (const auto& [name, a, b] : pairs) {
    int empty = 0, told_apart = 0, apart_along_axes = 0;
    for (int i = 0; i < 400; ++i) {
      const RigidTransform X_WA = RandomPose(&rng, 0.0), X_WB = RandomPose(&rng, 0.25);
      const bool apart = AreApart(*a, X_WA, *b, X_WB);
      const ContactSurface direct = DirectSurface(*a, X_WA, *b, X_WB);
      const bool has_surface = !direct.empty();
      ASSERT_FALSE(apart && has_surface) << name << ", pose " << i;
      ContactSurface via_pair;
      ASSERT_EQ(CalcPairSurface(*a, X_WA, *b, X_WB, &via_pair), PairSurfaceOutcome::kComputed);
      ASSERT_EQ(via_pair.num_polygons(), direct.num_polygons()) << name << ", pose " << i;
      empty += !has_surface;
      told_apart += apart;
      apart_along_axes += LargestGap(*a, X_WA, *b, X_WB) > 0;
    }
    std::printf("%s: %d of 400 empty, %d told apart, %d along the seven axes\n", name, empty, told_apart,
                apart_along_axes);
    // None of these poses is closer than GJK resolves (1e-4 m), so every pair apart is told so.
    EXPECT_EQ(told_apart, empty) << name;
    EXPECT_LT(apart_along_axes, told_apart) << name;  // GJK found the rest
  }
  // A sphere 1 m from a hull, apart along every axis: a bad pose is found before the test.
  RigidTransform X_WH = RigidTransform::Identity(), X_WS = RigidTransform::Identity();
  X_WS.translation() = Vector3(1, 0.5, 0.2);
  ContactSurface surface;
  ASSERT_TRUE(AreApart(g_sphere, X_WS, g_hull, X_WH));
  RigidTransform sheared = X_WS;
  sheared.linear()(0, 1) = 0.1;
  RigidTransform not_finite = X_WS;
  not_finite.translation().x() = NAN;
  for (const RigidTransform& bad : {sheared, not_finite}) {
    EXPECT_EQ(CalcPairSurface(g_sphere, bad, g_hull, X_WH, &surface), PairSurfaceOutcome::kInvalidPose);
    EXPECT_EQ(CalcPairSurface(g_hull, X_WH, g_sphere, bad, &surface), PairSurfaceOutcome::kInvalidPose);
  }
}

// A rigid coin (btCylinderShapeZ, hint R/8) sunk 10 µm into a compliant slab, as the surface at
// the poses a step ahead takes it under gravity at 1 ms: besides its face, its side wall cuts the
// slab in slivers whose normals are horizontal. Merged into the face's cells by the point
// reduction, they tilted the rim's normals and deepened its points, and a sliding, spinning coin
// rocked (its ε 20–45 % high, coin_test). Every merged point must be a face point (normal within
// 0.1° of the flat face's: no sliver tilts it) or a side point (beyond 60°); force and stiffness
// are kept.
TEST(PairContactTest, ReducedPointsKeepACoinsFaceApartFromItsSideWall) {
  const double R = 0.01213, half_thickness = 0.000875;
  btCylinderShapeZ coin(btVector3(R, R, half_thickness));
  btStaticPlaneShape floor(btVector3(0, 0, 1), 0);
  btHydroelasticProperties rigid, slab;
  rigid.m_kind = btHydroelasticProperties::RIGID;
  rigid.m_resolutionHint = R / 8;
  slab.m_hydroelasticModulus = 1e8;
  slab.m_slabThickness = 0.01;
  const ShapeGeometry g_coin = MakeShapeGeometry(coin, &rigid);
  const ShapeGeometry g_slab = MakeShapeGeometry(floor, &slab);
  RigidTransform X_WC = RigidTransform::Identity();
  X_WC.translation() = Vector3(0, 0, half_thickness - 1e-5);
  // Tilted by 10 nrad, as a simulated coin is: the side wall's polygons then see a pressure
  // gradient of 1e10 Pa/m·1e-8 = 100 Pa/m along their normals and become points (at φ0 = −p/g,
  // hundreds of metres), where upright they carry none.
  X_WC.linear() = Eigen::AngleAxisd(1e-8, Vector3::UnitX()).toRotationMatrix();
  ContactSurface surface;
  ASSERT_EQ(CalcPairSurface(g_slab, RigidTransform::Identity(), g_coin, X_WC, &surface), PairSurfaceOutcome::kComputed);
  std::vector<ContactPoint> points, reduced;
  MakeContactPoints(surface, &points);
  int sides = 0;
  double force = 0, stiffness = 0;
  for (const ContactPoint& p : points) {
    sides += std::abs(p.nhat_BA_W.z()) < 0.5;
    force += p.fn0_N, stiffness += p.stiffness_N_per_m;
  }
  ASSERT_GT(sides, 10) << "the side wall must reach into the slab for this test";
  for (int n : {4, 16, 64}) {
    ReduceContactPoints(points, n, &reduced);
    EXPECT_LE(static_cast<int>(reduced.size()), n);
    int face = 0, side = 0;
    double reduced_force = 0, reduced_stiffness = 0;
    for (const ContactPoint& p : reduced) {
      const double along = std::abs(p.nhat_BA_W.z());
      EXPECT_TRUE(along >= std::cos(0.1 * M_PI / 180) || along < 0.5)
          << n << ": a merged normal part way to the face's (" << along << ")";
      face += along >= 0.5, side += along < 0.5;
      reduced_force += p.fn0_N, reduced_stiffness += p.stiffness_N_per_m;
    }
    EXPECT_GE(face, n / 2) << n;
    EXPECT_GE(side, 1) << n;
    EXPECT_NEAR(reduced_force, force, 1e-12 * force) << n;
    EXPECT_NEAR(reduced_stiffness, stiffness, 1e-12 * stiffness) << n;
  }
}

// A box of a pyramid rests on four others' corners, each contact a quarter of a face; tilted by
// 7.5e-5 rad against µm of overlap, a quarter face presses as a wedge, and the line where the two
// faces cross runs through the patch (the pose is one from the 1,015-box pyramid at 60 Hz). As the
// box rocks that line sweeps across the polygons; each polygon is one solver point at its
// centroid, so the points move with it. The solver linearizes each step with K = Σ k·j·jᵀ of the
// points; the patch recomputed at the next step must follow that K, or the step feeds a moment the
// solve did not see back into the next one. With two cells across the box (the default before),
// the patch was two triangles and its moment's response to an approach was 17 % off K (and not
// symmetric): the pyramid rocked apart after 45 steps. The default four cells give 5 % (4.8 %
// with two boxes' surface in closed form, one piece per cell of both grids: 19 points). A
// cylinder's or a convex hull's flat face on the same corner, at their defaults: 0.1 % and 0.3 %
// with the whole fan (2,472 and 504 points), 0.2 % and 0.4 % with the scaled one (703 and 223).
// The cylinder at hint 0.1 m (one cell across its 0.1 m face) gives 17 %, at 0.05 m 2 %; the hull mesher's
// faces keep it within 5 % even at a hint of 0.4 m, so its case guards the mesher, not the hint.
//
// Returns the largest |D − K| over rocking about x and y and the approach along z, relative to the
// diagonal, where D is the central-difference derivative of the points' wrench; the lower box is
// tilted, `upper` sits at `p_WUpper` with `face_overlap_m2` of its face over the lower box's. The
// points are those of a patch of max_patch_points (PairPointQuadrature: 0, whole, takes the whole
// fan; the default 16 the scaled one, whose spread changes with the pose).
double WedgeStiffnessMismatch(const btCollisionShape& upper, const Vector3& p_WUpper, double face_overlap_m2,
                              int max_patch_points) {
  btBoxShape box(btVector3(0.1, 0.1, 0.1));
  const btHydroelasticProperties properties = test::Compliant(1e8);
  const ShapeGeometry lower_geometry = MakeShapeGeometry(box, &properties);
  const ShapeGeometry upper_geometry = MakeShapeGeometry(upper, &properties);
  const RigidTransform X_WLower = test::Pose(Vector3::Zero(), 7.5e-5, Vector3(-1, 1, 0).normalized());
  const RigidTransform X_WUpper0 = test::Pose(p_WUpper);
  // The upper shape is A, so that hydro::test::ElasticWrenchDerivative moves it.
  auto points_at = [&](const RigidTransform& X_WUpper) {
    ContactSurface surface;
    std::vector<ContactPoint> points;
    EXPECT_EQ(CalcPairSurface(upper_geometry, X_WUpper, lower_geometry, X_WLower, &surface),
              PairSurfaceOutcome::kComputed);
    MakeContactPoints(surface, &points, PairPointQuadrature(upper_geometry, lower_geometry, max_patch_points));
    BoundPointDepths(upper_geometry, X_WUpper, lower_geometry, X_WLower, &points);
    return points;
  };
  const std::vector<ContactPoint> points = points_at(X_WUpper0);
  double area = 0;
  for (const ContactPoint& p : points) area += p.area_m2;
  // A wedge presses on part of the faces' overlap only.
  EXPECT_LT(area, 0.8 * face_overlap_m2) << "the patch must be a wedge for this test";
  EXPECT_GT(area, 0.2 * face_overlap_m2);
  const test::Matrix6 K = test::PointStiffness(points, X_WUpper0.translation());
  const test::Matrix6 D = test::ElasticWrenchDerivative(X_WUpper0, points_at, 1e-8);
  double worst = 0;
  for (const int row : {0, 1, 5})
    for (const int column : {0, 1, 5})
      worst = std::max(worst, std::abs(D(row, column) - K(row, column)) / std::sqrt(K(row, row) * K(column, column)));
  std::printf("wedge patch of %zu points (budget %d): largest |D - K| %.3f of the diagonal\n", points.size(),
              max_patch_points, worst);
  return worst;
}

TEST(PairContactTest, AWedgePatchOfTheDefaultBoxRespondsWithTheStiffnessTheSolverUses) {
  const btBoxShape box(btVector3(0.1, 0.1, 0.1));
  EXPECT_LT(WedgeStiffnessMismatch(box, Vector3(0.1005, 0.1005, 0.2 - 7e-6), 0.0995 * 0.0995, 16), 0.06);
}

TEST(PairContactTest, AWedgePatchOfADefaultCylinderOrHullFaceRespondsWithTheStiffnessTheSolverUses) {
  // A 0.1 m wide cylinder standing on the corner's quarter face.
  const btCylinderShapeZ cylinder(btVector3(0.05, 0.05, 0.1));
  btConvexHullShape hull;
  for (int i = 0; i < 8; ++i) hull.addPoint(btVector3(i & 1 ? 0.1 : -0.1, i & 2 ? 0.1 : -0.1, i & 4 ? 0.1 : -0.1));
  for (const int budget : {0, 16}) {
    EXPECT_LT(WedgeStiffnessMismatch(cylinder, Vector3(0.0505, 0.0505, 0.2 - 7e-6), M_PI * 0.05 * 0.05, budget), 0.06)
        << budget;
    EXPECT_LT(WedgeStiffnessMismatch(hull, Vector3(0.1005, 0.1005, 0.2 - 7e-6), 0.0995 * 0.0995, budget), 0.06)
        << budget;
  }
}

}  // namespace
}  // namespace bullet
}  // namespace hydro
