// Bullet shapes → hydroelastic geometry: every supported shape, scaling, axes, errors, caching.
#include <gtest/gtest.h>

#include <BulletCollision/CollisionShapes/btConvexTriangleMeshShape.h>
#include <BulletCollision/CollisionShapes/btTriangleMesh.h>
#include <btBulletCollisionCommon.h>

#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <new>
#include <random>
#include <string>
#include <utility>

#include "adapters/convex_hull.h"
#include "adapters/shape_geometry.h"
#include "adapters/shape_registry.h"
#include "hydro/make_meshes.h"
#include "plugin/btHydroelasticWorldState.h"

#include "tests/bullet_precision.h"

namespace hydro {
namespace bullet {
namespace {

using Kind = ShapeGeometry::Kind;

btHydroelasticProperties Soft(double hint = 0) {
  btHydroelasticProperties p;
  p.m_hydroelasticModulus = 1e5;
  p.m_resolutionHint = hint;
  return p;
}

// The tetrahedron on the origin and the three unit points, its faces wound outward (volume 1/6).
void AddUnitTetrahedron(btTriangleMesh* triangles) {
  const btVector3 a(0, 0, 0), b(1, 0, 0), c(0, 1, 0), d(0, 0, 1);
  triangles->addTriangle(a, c, b);
  triangles->addTriangle(a, b, d);
  triangles->addTriangle(a, d, c);
  triangles->addTriangle(b, c, d);
}

double MeshVolume(const ShapeGeometry& g) {
  if (g.kind == Kind::kCompliantMesh) return g.compliant_mesh->mesh().CalcTotalVolume();
  if (g.kind == Kind::kRigidMesh) return g.rigid_mesh->mesh().CalcEnclosedVolume();
  return 0;
}

TEST(ShapeGeometryTest, PrimitivesKeepTheirVolumeCompliantAndRigid) {
  btSphereShape sphere(0.1);
  btBoxShape box(btVector3(0.1, 0.2, 0.3));
  btCylinderShape cylinder_y(btVector3(0.05, 0.2, 0.05));
  btCylinderShapeX cylinder_x(btVector3(0.2, 0.05, 0.05));
  btCapsuleShape capsule(0.05, 0.2);
  btConeShapeZ cone(0.1, 0.3);
  struct Case {
    btCollisionShape* shape;
    double volume;
    double tolerance;
  } cases[] = {
      {&sphere, 4.0 / 3.0 * M_PI * 1e-3, 1e-9},
      {&box, 0.2 * 0.4 * 0.6, 1e-12},
      {&cylinder_y, M_PI * 0.05 * 0.05 * 0.4, 1e-9},
      {&cylinder_x, M_PI * 0.05 * 0.05 * 0.4, 1e-9},
      {&capsule, M_PI * 0.05 * 0.05 * 0.2 + 4.0 / 3.0 * M_PI * 0.05 * 0.05 * 0.05, 0.02},
      {&cone, M_PI * 0.01 * 0.3 / 3, 0.05},
  };
  for (const Case& c : cases) {
    const std::string name = ShapeTypeName(c.shape->getShapeType());
    const btHydroelasticProperties soft = Soft();
    const ShapeGeometry compliant = MakeShapeGeometry(*c.shape, &soft);
    ASSERT_EQ(compliant.kind, Kind::kCompliantMesh) << name;
    EXPECT_NEAR(MeshVolume(compliant), c.volume, test::BulletRelative(c.tolerance) * c.volume) << name;
    EXPECT_EQ(compliant.modulus_Pa, 1e5);
    const ShapeGeometry rigid = MakeShapeGeometry(*c.shape, nullptr);
    ASSERT_EQ(rigid.kind, Kind::kRigidMesh) << name;
    EXPECT_NEAR(MeshVolume(rigid), c.volume, test::BulletRelative(c.tolerance) * c.volume) << name;
    EXPECT_TRUE(std::isinf(rigid.modulus_Pa));
  }
}

// Every mesh that is not a box carries its convex hull's support (none for a box, whose bounding
// box is exact), and its extents bound every mesh vertex along 2,000 random directions, within the
// widening of at most 2.1 grid steps of Bullet's hull per axis (1/10216 of the extent). Compliant
// and rigid: sphere, capsule, cylinder and cone (their up axes along x), a scaled hull; at their
// default resolution. Also how much of the widening the vertices needed, and whether the hull
// could be climbed (a fold beyond round-off makes every query visit all its vertices).
TEST(ShapeGeometryTest, AMeshsSupportBoundsEveryVertexWithinItsWidening) {
  btSphereShape sphere(0.1);
  btCapsuleShapeX capsule(0.06, 0.16);
  btCylinderShapeX cylinder(btVector3(0.08, 0.1, 0.1));
  btConeShapeX cone(0.1, 0.2);
  btConvexHullShape hull;
  for (const btVector3& p : {btVector3(0.1, 0, 0), btVector3(-0.08, 0.06, 0), btVector3(-0.05, -0.09, 0.02),
                             btVector3(0, 0, 0.12), btVector3(0.02, 0.03, -0.1), btVector3(0.07, 0.07, 0.05)})
    hull.addPoint(p);
  hull.setLocalScaling(btVector3(1.5, 0.7, 1.1));
  btBoxShape box(btVector3(0.1, 0.2, 0.3));
  const btHydroelasticProperties soft = Soft();
  EXPECT_FALSE(MakeShapeGeometry(box, &soft).support);
  EXPECT_FALSE(MakeShapeGeometry(box, nullptr).support);
  std::mt19937 rng(17);
  std::normal_distribution<double> normal;
  for (const btCollisionShape* shape :
       std::initializer_list<const btCollisionShape*>{&sphere, &capsule, &cylinder, &cone, &hull})
    for (const btHydroelasticProperties* properties : {&soft, static_cast<const btHydroelasticProperties*>(nullptr)}) {
      const ShapeGeometry g = MakeShapeGeometry(*shape, properties);
      const std::string name = ShapeTypeName(shape->getShapeType()) + (properties ? " compliant" : " rigid");
      ASSERT_TRUE(g.support) << name;
      const std::vector<Vector3>& points =
          properties ? g.compliant_mesh->mesh().vertices() : g.rigid_mesh->mesh().vertices();
      Vector3 lo = points[0], hi = lo;
      for (const Vector3& p : points) lo = lo.cwiseMin(p), hi = hi.cwiseMax(p);
      const Vector3 widening = 2.1 / 10216 * (hi - lo);
      double needed = 0;  // the most a vertex lay past the unwidened hull, in grid steps
      for (int i = 0; i < 2000; ++i) {
        const Vector3 n = Vector3(normal(rng), normal(rng), normal(rng)).normalized();
        double brute_lo = n.dot(points[0]), brute_hi = brute_lo;
        for (const Vector3& p : points)
          brute_lo = std::min(brute_lo, n.dot(p)), brute_hi = std::max(brute_hi, n.dot(p));
        const auto [low, high] = g.support->ExtentAlong(n);
        const double widened = n.cwiseAbs().dot(widening);
        ASSERT_LE(low, brute_lo + 1e-12) << name;  // a bound
        ASSERT_GE(high, brute_hi - 1e-12) << name;
        ASSERT_GE(low, brute_lo - widened - 1e-12) << name;  // no looser than the widening
        ASSERT_LE(high, brute_hi + widened + 1e-12) << name;
        const double step = n.cwiseAbs().dot((hi - lo) / 10216);
        needed = std::max({needed, (brute_hi - (high - widened)) / step, ((low + widened) - brute_lo) / step});
      }
      std::printf("%s: %d hull vertices, climbed: %s, vertices past the hull by up to %.2f grid steps\n", name.c_str(),
                  g.support->num_vertices(), g.support->climbs() ? "yes" : "no", needed);
    }
}

TEST(ShapeGeometryTest, AxesFollowBulletsUpAxis) {
  // A Y-up cylinder of half-height 0.2: its mesh, posed by X_SG, spans y ∈ [−0.2, 0.2].
  btCylinderShape cylinder(btVector3(0.05, 0.2, 0.05));
  const btHydroelasticProperties soft = Soft(0.02);
  const ShapeGeometry g = MakeShapeGeometry(cylinder, &soft);
  Vector3 lo = Vector3::Constant(1e9), hi = -lo;
  for (const Vector3& p : g.compliant_mesh->mesh().vertices()) {
    const Vector3 p_S = g.X_SG * p;
    lo = lo.cwiseMin(p_S);
    hi = hi.cwiseMax(p_S);
  }
  EXPECT_NEAR(hi.y(), 0.2, test::BulletAbsolute(1e-12, 0.2));
  EXPECT_NEAR(lo.y(), -0.2, test::BulletAbsolute(1e-12, 0.2));
  EXPECT_NEAR(hi.x(), 0.05, 0.002);
  // A plane with normal n and constant c: the half-space frame's z axis is n, origin c·n.
  btStaticPlaneShape plane(btVector3(0, 1, 1).normalized(), 0.5);
  const ShapeGeometry half = MakeShapeGeometry(plane, nullptr);
  EXPECT_EQ(half.kind, Kind::kRigidHalfSpace);
  EXPECT_TRUE(half.X_SG.linear().col(2).isApprox(Vector3(0, 1, 1).normalized(), 1e-12));
  EXPECT_TRUE(half.X_SG.translation().isApprox(0.5 * Vector3(0, 1, 1).normalized(), 1e-12));
}

TEST(ShapeGeometryTest, ScalingHullsMeshesAndPlanes) {
  btBoxShape box(btVector3(0.1, 0.1, 0.1));
  box.setLocalScaling(btVector3(2, 1, 1));
  EXPECT_NEAR(MeshVolume(MakeShapeGeometry(box, nullptr)), 0.4 * 0.2 * 0.2, test::BulletAbsolute(1e-12, 0.016));
  btConvexHullShape hull;
  for (int i = 0; i < 8; ++i) hull.addPoint(btVector3(i & 1 ? 0.1 : -0.1, i & 2 ? 0.1 : -0.1, i & 4 ? 0.1 : -0.1));
  hull.setLocalScaling(btVector3(1, 1, 3));
  const btHydroelasticProperties soft = Soft(0.05);
  EXPECT_NEAR(MeshVolume(MakeShapeGeometry(hull, &soft)), 0.2 * 0.2 * 0.6, test::BulletAbsolute(1e-12, 0.024));
  // A BVH triangle mesh (a tetrahedron) is rigid; compliant only with a user tet mesh.
  btTriangleMesh triangles;
  AddUnitTetrahedron(&triangles);
  btBvhTriangleMeshShape mesh(&triangles, true);
  EXPECT_NEAR(MeshVolume(MakeShapeGeometry(mesh, nullptr)), 1.0 / 6.0, 1e-12);
  btScaledBvhTriangleMeshShape scaled(&mesh, btVector3(2, 2, 2));
  EXPECT_NEAR(MeshVolume(MakeShapeGeometry(scaled, nullptr)), 8.0 / 6.0, 1e-12);
  btConvexTriangleMeshShape convex_mesh(&triangles);
  EXPECT_NEAR(MeshVolume(MakeShapeGeometry(convex_mesh, &soft)), 1.0 / 6.0, 1e-12);
  EXPECT_THROW(MakeShapeGeometry(mesh, &soft), InvalidInput);  // no tet mesh given
  btHydroelasticProperties with_tets = soft;
  with_tets.m_volumeMesh = std::make_shared<VolumeMeshWithExtent>(MakeConvexVolumeMesh(
      MakeConvexHull({Vector3(0, 0, 0), Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)}), 0.5));
  EXPECT_EQ(MakeShapeGeometry(mesh, &with_tets).kind, Kind::kCompliantMesh);
  // A compliant plane needs its slab thickness.
  btStaticPlaneShape plane(btVector3(0, 0, 1), 0);
  EXPECT_THROW(MakeShapeGeometry(plane, &soft), InvalidInput);
  btHydroelasticProperties slab = soft;
  slab.m_slabThickness = 0.1;
  const ShapeGeometry g = MakeShapeGeometry(plane, &slab);
  EXPECT_EQ(g.kind, Kind::kCompliantHalfSpace);
  EXPECT_NEAR(g.compliant_half_space->gradient_magnitude(), 1e6, test::BulletAbsolute(1e-9, 1e6));
}

// Bullet's contact reaches beyond the geometry by the margin of the shapes it grows by it (hull,
// cone, meshes) and not for those whose margin lies within (sphere, box, cylinder, capsule) or is
// unused (plane). For each convex shape, checked against Bullet: its support point along −z (its
// surface grown by the margin) lies that margin below the geometry's lowest vertex (0.03 m, or 0).
TEST(ShapeGeometryTest, TheMarginOutsideIsWhereBulletGrowsTheShape) {
  constexpr double kMargin = 0.03;  // not Bullet's default
  btSphereShape sphere(0.1);
  btBoxShape box(btVector3(0.1, 0.2, 0.3));
  btCylinderShapeZ cylinder(btVector3(0.05, 0.05, 0.2));
  btCapsuleShapeZ capsule(0.05, 0.2);
  btConeShapeZ cone(0.1, 0.3);
  btConvexHullShape hull;
  for (int i = 0; i < 8; ++i) hull.addPoint(btVector3(i & 1 ? 0.1 : -0.1, i & 2 ? 0.1 : -0.1, i & 4 ? 0.1 : -0.1));
  btTriangleMesh triangles;
  AddUnitTetrahedron(&triangles);
  btConvexTriangleMeshShape convex_mesh(&triangles);
  const struct {
    btConvexShape* shape;
    bool outside;
  } cases[] = {{&sphere, false}, {&box, false}, {&cylinder, false},  {&capsule, false},
               {&cone, true},    {&hull, true}, {&convex_mesh, true}};
  for (const auto& c : cases) {
    const std::string name = ShapeTypeName(c.shape->getShapeType());
    c.shape->setMargin(kMargin);  // the sphere and capsule keep their radius as their margin
    EXPECT_NEAR(MarginOutsideGeometry(*c.shape), c.outside ? kMargin : 0.0, test::BulletAbsolute(0, kMargin)) << name;
    const ShapeGeometry g = MakeShapeGeometry(*c.shape, nullptr);
    ASSERT_EQ(g.kind, Kind::kRigidMesh) << name;
    double lowest = 1e300;
    for (const Vector3& p : g.rigid_mesh->mesh().vertices()) lowest = std::min(lowest, (g.X_SG * p).z());
    const double bullet_lowest = c.shape->localGetSupportingVertex(btVector3(0, 0, -1)).z();
    // Curved meshes reach 1 mm past the sphere's and the capsule's pole (measured 1.03 and 1.00 mm).
    EXPECT_NEAR(lowest - bullet_lowest, MarginOutsideGeometry(*c.shape), 2e-3) << name;
  }
  btBvhTriangleMeshShape mesh(&triangles, true);
  mesh.setMargin(kMargin);  // btConvexConcaveCollisionAlgorithm gives each triangle this margin
  EXPECT_NEAR(MarginOutsideGeometry(mesh), kMargin, test::BulletAbsolute(0, kMargin));
  btScaledBvhTriangleMeshShape scaled(&mesh, btVector3(2, 2, 2));
  EXPECT_EQ(MarginOutsideGeometry(scaled), 0.0);  // its own margin, 0 unless set
  btStaticPlaneShape plane(btVector3(0, 0, 1), 0);
  plane.setMargin(kMargin);
  EXPECT_EQ(MarginOutsideGeometry(plane), 0.0);
}

// A rigid hull's triangles are split to the resolution hint (k² each, k = ⌈longest edge/hint⌉),
// so that against a compliant slab a face gives points spread over it, as a rigid box's grid
// does: the 0.2 m cube's 12 triangles (longest edge 0.283 m) at the default hint of 0.025 m
// become 12·12² = 1728, at a hint of 0.1 m 12·3² = 108; the surface is the same.
TEST(ShapeGeometryTest, RigidHullFacesAreSplitToTheHint) {
  btConvexHullShape hull;
  for (int i = 0; i < 8; ++i) hull.addPoint(btVector3(i & 1 ? 0.1 : -0.1, i & 2 ? 0.1 : -0.1, i & 4 ? 0.1 : -0.1));
  btHydroelasticProperties rigid;
  rigid.m_kind = btHydroelasticProperties::RIGID;
  for (const auto& [hint, triangles] : {std::pair{0.0, 1728}, std::pair{0.1, 108}}) {
    rigid.m_resolutionHint = hint;
    const ShapeGeometry g = MakeShapeGeometry(hull, hint > 0 ? &rigid : nullptr);
    ASSERT_EQ(g.kind, Kind::kRigidMesh);
    const TriangleSurfaceMesh& mesh = g.rigid_mesh->mesh();
    EXPECT_EQ(mesh.num_triangles(), triangles) << hint;
    EXPECT_NEAR(mesh.CalcTotalArea(), 6 * 0.04, test::BulletAbsolute(1e-12, 0.24));
    EXPECT_NEAR(mesh.CalcEnclosedVolume(), 0.008, test::BulletAbsolute(1e-12, 0.008));
    const double max_edge = hint > 0 ? hint : 0.025;
    for (int f = 0; f < mesh.num_triangles(); ++f) {
      const Triangle& t = mesh.triangle(f);
      for (int e = 0; e < 3; ++e) EXPECT_LE((mesh.vertex(t[(e + 1) % 3]) - mesh.vertex(t[e])).norm(), max_edge + 1e-12);
      // Outward, on a face of the cube: the normal is an axis and the centroid lies on that face.
      const Vector3 n = mesh.face_normal(f);
      const Vector3 centroid = (mesh.vertex(t[0]) + mesh.vertex(t[1]) + mesh.vertex(t[2])) / 3;
      EXPECT_NEAR(n.cwiseAbs().maxCoeff(), 1.0, 1e-12);
      EXPECT_NEAR(n.dot(centroid), 0.1, test::BulletAbsolute(1e-12, 0.1));
    }
  }
}

TEST(ShapeGeometryTest, UnsupportedShapesAndBadPropertiesSayWhat) {
  btVector3 positions[] = {btVector3(0, 0, 0), btVector3(0.1, 0, 0)};
  btScalar radii[] = {0.05, 0.05};
  btMultiSphereShape multi(positions, radii, 2);
  const ShapeGeometry g = MakeShapeGeometry(multi, nullptr);
  EXPECT_EQ(g.kind, Kind::kUnsupported);
  EXPECT_NE(g.error.find("btMultiSphereShape"), std::string::npos) << g.error;
  btSphereShape sphere(0.1);
  btHydroelasticProperties bad = Soft();
  bad.m_hydroelasticModulus = -1;
  // Bullet-style: no exception, false, and the message through the error callback.
  static std::vector<std::string> messages;
  hydroSetErrorCallback([](const char* message) { messages.emplace_back(message); });
  EXPECT_FALSE(hydroSetHydroelastic(&sphere, bad));
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_NE(messages[0].find("btSphereShape: hydroelastic modulus"), std::string::npos) << messages[0];
  bad = Soft();
  bad.m_stiffening = 1.0;
  EXPECT_FALSE(hydroSetHydroelastic(&sphere, bad));
  bad = Soft();
  bad.m_huntCrossleyDissipation = std::nan("");
  EXPECT_FALSE(hydroSetHydroelastic(&sphere, bad));
  btHydroelasticWorldState world_state;
  EXPECT_FALSE(world_state.setDefaultMaxPatchPoints(-1));
  EXPECT_EQ(world_state.getDefaultMaxPatchPoints(), 16);
  EXPECT_EQ(messages.size(), 4u);
  EXPECT_FALSE(ShapeRegistry::Instance().IsHydroelastic(&sphere));
  hydroSetErrorCallback(nullptr);
  const btHydroelasticProperties good = Soft();
  EXPECT_TRUE(hydroSetHydroelastic(&sphere, good));
  EXPECT_TRUE(ShapeRegistry::Instance().IsHydroelastic(&sphere));
  hydroRemoveShape(&sphere);
  btSphereShape zero(0.0);
  const btHydroelasticProperties soft = Soft();
  EXPECT_THROW(MakeShapeGeometry(zero, &soft), InvalidInput);
}

TEST(ShapeGeometryTest, CachedGeometryFollowsTheShapeAtAnAddress) {
  // A box at some address, then a different box built at the same address: the registry must
  // not hand out the first box's geometry for the second.
  alignas(btBoxShape) unsigned char storage[sizeof(btBoxShape)];
  auto* first = new (storage) btBoxShape(btVector3(0.1, 0.1, 0.1));
  const auto g1 = ShapeRegistry::Instance().Geometry(first);
  EXPECT_NEAR(MeshVolume(*g1), 0.008, test::BulletAbsolute(1e-12, 0.008));
  first->~btBoxShape();
  auto* second = new (storage) btBoxShape(btVector3(0.2, 0.1, 0.1));
  const auto g2 = ShapeRegistry::Instance().Geometry(second);
  EXPECT_NEAR(MeshVolume(*g2), 0.016, test::BulletAbsolute(1e-12, 0.016));
  // The same shape again: built once, shared.
  EXPECT_EQ(ShapeRegistry::Instance().Geometry(second), g2);
  hydroRemoveShape(second);
  second->~btBoxShape();
}

TEST(ShapeGeometryTest, ShapesOfEqualTypeSizeAndPropertiesShareOneGeometry) {
  // Bullet scenes make a shape per body (1,496 ragdoll capsules in a handful of sizes): equal
  // shapes with equal properties must share one mesh, and anything that differs must not.
  ShapeRegistry& registry = ShapeRegistry::Instance();
  btCapsuleShape a(0.05, 0.3), b(0.05, 0.3), longer(0.05, 0.4);
  btConvexHullShape hull_a, hull_b, hull_c;
  for (const btVector3& p : {btVector3(0, 0, 0), btVector3(0.1, 0, 0), btVector3(0, 0.1, 0), btVector3(0, 0, 0.1)}) {
    hull_a.addPoint(p);
    hull_b.addPoint(p);
    hull_c.addPoint(2 * p);
  }
  btCapsuleShape stiffer(0.05, 0.3);
  for (btCollisionShape* shape : std::initializer_list<btCollisionShape*>{&a, &b, &longer, &hull_a, &hull_b, &hull_c})
    hydroSetHydroelastic(shape, Soft());
  btHydroelasticProperties stiff = Soft();
  stiff.m_hydroelasticModulus = 1e7;
  hydroSetHydroelastic(&stiffer, stiff);
  EXPECT_EQ(registry.Geometry(&a), registry.Geometry(&b));
  EXPECT_EQ(registry.Geometry(&hull_a), registry.Geometry(&hull_b));
  EXPECT_NE(registry.Geometry(&a), registry.Geometry(&longer));
  EXPECT_NE(registry.Geometry(&hull_a), registry.Geometry(&hull_c));
  EXPECT_NE(registry.Geometry(&a), registry.Geometry(&stiffer));
  EXPECT_EQ(registry.Geometry(&stiffer)->modulus_Pa, 1e7);
  // Rigid and compliant use of the same size are different geometries too.
  btCapsuleShape rigid(0.05, 0.3);
  EXPECT_EQ(registry.Geometry(&rigid)->kind, Kind::kRigidMesh);
  EXPECT_EQ(registry.Geometry(&a)->kind, Kind::kCompliantMesh);
  // A shared geometry outlives the shape that built it, for the others that use it.
  const auto shared = registry.Geometry(&b);
  hydroRemoveShape(&a);
  EXPECT_EQ(registry.Geometry(&b), shared);
  for (btCollisionShape* shape :
       std::initializer_list<btCollisionShape*>{&b, &longer, &hull_a, &hull_b, &hull_c, &stiffer, &rigid})
    hydroRemoveShape(shape);
}

TEST(ShapeGeometryTest, DefaultResolutionIsBoundedForEveryShape) {
  // Without a resolution hint every primitive gets a mesh of bounded size, however thin or long
  // it is (a 1:100 plate or rod), so that a scene of many bodies stays within memory. With a hint
  // the user decides.
  btBoxShape cube(btVector3(0.1, 0.1, 0.1)), plate(btVector3(1, 1, 0.01)), rod(btVector3(1, 0.01, 0.01));
  btSphereShape ball(0.1);
  btCapsuleShape capsule(0.01, 2.0), short_capsule(0.1, 0.05);
  btCylinderShapeZ disk(btVector3(0.5, 0.5, 0.005)), pole(btVector3(0.01, 0.01, 1.0));
  btConeShapeZ cone(0.5, 0.01);
  for (btCollisionShape* shape : std::initializer_list<btCollisionShape*>{&cube, &plate, &rod, &ball, &capsule,
                                                                          &short_capsule, &disk, &pole, &cone}) {
    const btHydroelasticProperties soft = Soft();
    const ShapeGeometry g = MakeShapeGeometry(*shape, &soft);
    ASSERT_EQ(g.kind, Kind::kCompliantMesh) << ShapeTypeName(shape->getShapeType());
    const int tets = g.compliant_mesh->mesh().num_tets();
    EXPECT_LE(tets, kMaxDefaultTets) << ShapeTypeName(shape->getShapeType());
    EXPECT_GE(tets, 12) << ShapeTypeName(shape->getShapeType());
    std::printf("%s default mesh: %d tets\n", ShapeTypeName(shape->getShapeType()).c_str(), tets);
  }
}

}  // namespace
}  // namespace bullet
}  // namespace hydro
