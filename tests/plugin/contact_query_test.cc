// Reading patches after a step (plugin/btHydroelasticContactQuery.h) with Bullet's types only, in
// an order that repeats from run to run, and worlds that step on threads of their own.
#include <gtest/gtest.h>

#include <btBulletDynamicsCommon.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "hydro/contact_surface.h"
#include "plugin/btHydroelasticContactQuery.h"
#include "plugin/btHydroelasticDebugDraw.h"
#include "test_world.h"
#include "tests/bullet_precision.h"

namespace hydro {
namespace {

// A 1 kg compliant ball (1e6 Pa, 5 cm) set on a rigid plane, at 1 ms steps.
struct BallOnPlane {
  btSphereShape ball{0.05};
  btStaticPlaneShape plane{btVector3(0, 0, 1), 0};
  test::ScopedHydroelastic tag{&ball, test::Compliant(1e6, 0.01)};
  test::TestWorld world;
  btRigidBody* body;
  BallOnPlane() {
    world.AddBody(&plane, 0, btVector3(0, 0, 0));
    body = world.AddBody(&ball, 1, btVector3(0, 0, 0.05));
  }
};

// The ball at rest: its one patch read polygon by polygon through hydroGetPatchPolygon matches
// the core's surface, and carries the ball's weight.
TEST(ContactQueryTest, PatchPolygonsReadInBulletsTypesMatchTheSurface) {
  BallOnPlane scene;
  test::TestWorld& world = scene.world;
  btRigidBody* body = scene.body;
  world.Step(1000);
  const std::vector<btHydroelasticContactPatch> patches = hydroGetContactPatches(world.dispatcher(), 1e-3);
  ASSERT_EQ(patches.size(), 1u);
  const btHydroelasticContactPatch& patch = patches[0];
  const ContactSurface& surface = *patch.m_surface;
  ASSERT_EQ(patch.m_numPolygons, surface.num_polygons());
  ASSERT_GT(patch.m_numPolygons, 10);
  EXPECT_DOUBLE_EQ(patch.m_maxPressure, static_cast<btScalar>(surface.CalcMaxPressure()));
  // The weight, to the solver's tolerance (the ball is body0 or body1 of the pair).
  const double up = (patch.m_body0 == body ? 1 : -1) * patch.m_forceOnBody0.z();
  EXPECT_NEAR(up, 9.81, 0.01 * 9.81);
  btAlignedObjectArray<btVector3> vertices;
  btAlignedObjectArray<btScalar> pressures;
  btVector3 normal;
  double area = 0;
  for (int i = 0; i < patch.m_numPolygons; ++i) {
    ASSERT_TRUE(hydroGetPatchPolygon(patch, i, &vertices, &pressures, &normal));
    const ContactPolygon& polygon = surface.polygon(i);
    ASSERT_EQ(vertices.size(), polygon.num_vertices);
    for (int k = 0; k < vertices.size(); ++k) {
      EXPECT_NEAR((vertices[k] - btVector3(surface.vertex(polygon, k).x(), surface.vertex(polygon, k).y(),
                                           surface.vertex(polygon, k).z()))
                      .length(),
                  0, 1e-6);
      EXPECT_NEAR(pressures[k], surface.pressure(polygon, k), 1e-6 * patch.m_maxPressure);
    }
    EXPECT_NEAR(normal.dot(btVector3(polygon.nhat_BA_W.x(), polygon.nhat_BA_W.y(), polygon.nhat_BA_W.z())), 1, 1e-6);
    // The polygon's area from its vertices (a fan about the first).
    btVector3 twice(0, 0, 0);
    for (int k = 1; k + 1 < vertices.size(); ++k)
      twice += (vertices[k] - vertices[0]).cross(vertices[k + 1] - vertices[0]);
    area += 0.5 * twice.length();
  }
  EXPECT_NEAR(area, patch.m_area, 1e-6 * patch.m_area);
  EXPECT_FALSE(hydroGetPatchPolygon(patch, -1, &vertices, &pressures, &normal));
  EXPECT_FALSE(hydroGetPatchPolygon(patch, patch.m_numPolygons, &vertices, &pressures, &normal));
}

// Every pair the solver pressed apart at a step is listed with its patch, at every step of BasicDemo's
// block (27 compliant 0.2 m boxes at 1e8 Pa) dropped on a rigid box at 60 Hz. A pair that touched at
// the last step and presses in further takes the surface at its present poses beside the patch ahead
// (btHydroelasticCollisionAlgorithm::ComputeContact, SupportFallsShort); where that present surface
// is empty the patch ahead is the one solved, and the one read. (Such pairs had an empty surface and
// were left out of the list: 18 of this run's 1,189 pair steps with force.)
TEST(ContactQueryTest, EveryPairWithForceIsListedWithItsPatch) {
  btBoxShape box(btVector3(0.1, 0.1, 0.1));
  btBoxShape ground(btVector3(5, 5, 5));
  const test::ScopedHydroelastic tag(&box, test::Compliant(1e8));
  test::TestWorld world;
  world.AddBody(&ground, 0, btVector3(0, 0, -5));
  world.AddBoxBlock(&box, 3, 0.3, 0.02);
  const btScalar dt = 1.0 / 60;
  int pair_steps = 0, unlisted = 0;
  for (int step = 0; step < 60; ++step) {
    world.Step(1, dt);
    std::set<std::pair<const btCollisionObject*, const btCollisionObject*>> listed;
    for (const btHydroelasticContactPatch& patch : hydroGetContactPatches(world.dispatcher(), dt)) {
      EXPECT_GT(patch.m_numPolygons, 0);
      listed.emplace(patch.m_body0, patch.m_body1);
      listed.emplace(patch.m_body1, patch.m_body0);
    }
    std::set<std::pair<const btCollisionObject*, const btCollisionObject*>> pressed;
    btDispatcher* dispatcher = world.dispatcher();
    for (int m = 0; m < dispatcher->getNumManifolds(); ++m) {
      const btPersistentManifold* manifold = dispatcher->getManifoldByIndexInternal(m);
      btScalar impulse = 0;
      for (int i = 0; i < manifold->getNumContacts(); ++i) impulse += manifold->getContactPoint(i).m_appliedImpulse;
      if (impulse > 0) pressed.emplace(manifold->getBody0(), manifold->getBody1());
    }
    for (const auto& pair : pressed) {
      ++pair_steps;
      if (!listed.count(pair)) {
        ++unlisted;
        ADD_FAILURE() << "step " << step << ": a pair pressed apart is not listed";
      }
    }
  }
  std::printf("%d pair steps with force, %d of them unlisted\n", pair_steps, unlisted);
  EXPECT_GT(pair_steps, 500);
}

// A row of boxes on the ground, created in the reverse of the order they are added to the world
// (so their heap addresses run against it): the patches are listed by the order the bodies were
// added in.
TEST(ContactQueryTest, PatchesAreListedInTheOrderTheBodiesWereAdded) {
  btBoxShape box(btVector3(0.05, 0.05, 0.05)), ground(btVector3(2, 2, 0.1));
  test::ScopedHydroelastic tag(&box, test::Compliant(1e6));
  btDefaultCollisionConfiguration unused;  // keeps the allocator busy between the bodies
  test::TestWorld world;
  world.AddBody(&ground, 0, btVector3(0, 0, -0.1));
  constexpr int kBoxes = 6;
  std::vector<std::unique_ptr<btRigidBody>> boxes(kBoxes);
  btVector3 inertia;
  box.calculateLocalInertia(1, inertia);
  for (int i = kBoxes - 1; i >= 0; --i) boxes[i] = std::make_unique<btRigidBody>(1, nullptr, &box, inertia);
  for (int i = 0; i < kBoxes; ++i) {
    boxes[i]->setWorldTransform(btTransform(btQuaternion::getIdentity(), btVector3(0.2 * i, 0, 0.05)));
    world.world()->addRigidBody(boxes[i].get());
  }
  world.Step(20);
  const std::vector<btHydroelasticContactPatch> patches = hydroGetContactPatches(world.dispatcher(), 1e-3);
  ASSERT_EQ(patches.size(), static_cast<size_t>(kBoxes));
  for (int i = 0; i < kBoxes; ++i) {
    const btCollisionObject* other = patches[i].m_body0 == boxes[i].get() ? patches[i].m_body1 : patches[i].m_body0;
    EXPECT_TRUE(patches[i].m_body0 == boxes[i].get() || patches[i].m_body1 == boxes[i].get()) << i;
    EXPECT_EQ(other->getWorldArrayIndex(), 0) << i;  // each on the ground
  }
  for (auto& body : boxes) world.world()->removeRigidBody(body.get());
}

// One scene: a 2 × 2 × 2 block of compliant boxes dropped on the ground at 60 Hz, 60 steps, with
// the world's own point budget. The final poses, bit for bit, and the solver points the world's
// statistics counted.
struct BlockRun {
  std::vector<btTransform> poses;
  long long points{0};
};
BlockRun RunBlock(const btBoxShape& box_shape, int max_points) {
  btBoxShape ground(btVector3(2, 2, 0.1));
  test::TestWorld world;
  world.SetMaxPatchPoints(max_points);
  world.AddBody(&ground, 0, btVector3(0, 0, -0.1));
  std::vector<btRigidBody*> boxes;
  btBoxShape* box = const_cast<btBoxShape*>(&box_shape);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 2; ++k)
        boxes.push_back(world.AddBody(box, 1, btVector3(0.21 * i + 0.01 * k, 0.21 * j, 0.15 + 0.21 * k)));
  world.Step(60, 1.0 / 60);
  BlockRun run;
  for (btRigidBody* body : boxes) run.poses.push_back(body->getWorldTransform());
  run.points = world.state().getStats().m_points;
  return run;
}

bool Same(const std::vector<btTransform>& a, const std::vector<btTransform>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::memcmp(&a[i], &b[i], sizeof(btTransform)) != 0) return false;
  return true;
}

// Two worlds stepped at once on two threads end bit for bit where each ends stepped alone: the
// worlds share the shapes' tags and nothing else that changes their results. Each has its own
// settings (one whole patches, one the default 16 points) and its own statistics.
TEST(ContactQueryTest, TwoWorldsOnTwoThreadsMatchEachAlone) {
  btBoxShape box(btVector3(0.1, 0.1, 0.1));
  test::ScopedHydroelastic tag(&box, test::Compliant(1e8));
  const BlockRun whole_alone = RunBlock(box, 0), merged_alone = RunBlock(box, 16);
  BlockRun whole, merged;
  std::thread a([&] { whole = RunBlock(box, 0); });
  std::thread b([&] { merged = RunBlock(box, 16); });
  a.join();
  b.join();
  EXPECT_TRUE(Same(whole.poses, whole_alone.poses));
  EXPECT_TRUE(Same(merged.poses, merged_alone.poses));
  EXPECT_EQ(whole.points, whole_alone.points);
  EXPECT_EQ(merged.points, merged_alone.points);
  // The settings took: whole patches write several times the points, and the worlds differ.
  EXPECT_GT(whole.points, 3 * merged.points);
  EXPECT_FALSE(Same(whole.poses, merged.poses));
  EXPECT_FALSE(Same(merged_alone.poses, {}));
}

// A btIDebugDraw that counts what it is asked to draw.
class RecordingDrawer : public btIDebugDraw {
 public:
  void drawLine(const btVector3& from, const btVector3& to, const btVector3& color) override {
    if (color == btVector3(btScalar(0.2), btScalar(0.2), btScalar(0.2))) ++lines;
    if (color == btVector3(1, 0, 1)) force_lines.emplace_back(from, to);
  }
  void drawTriangle(const btVector3&, const btVector3&, const btVector3&, const btVector3& color, btScalar) override {
    ++triangles;
    colors.push_back(color);
  }
  void drawContactPoint(const btVector3& at, const btVector3&, btScalar, int, const btVector3& color) override {
    if (color == btVector3(1, 0, 1)) centres.push_back(at);
  }
  void reportErrorWarning(const char*) override {}
  void draw3dText(const btVector3&, const char*) override {}
  void setDebugMode(int mode) override { m_mode = mode; }
  int getDebugMode() const override { return m_mode; }

  int lines{0}, triangles{0};                                // outlines, fans
  std::vector<std::pair<btVector3, btVector3>> force_lines;  // the forces' arrows
  std::vector<btVector3> centres;                            // of pressure
  std::vector<btVector3> colors;

 private:
  int m_mode{0};
};

// With the world's debug drawer set to draw contact points, world.debugDrawWorld() draws each
// patch polygon as its fan of triangles coloured by pressure, its outline, and per patch the net
// force from its centre of pressure; with contact drawing off, nothing of the patches.
TEST(ContactQueryTest, TheWorldsDebugDrawerDrawsThePatches) {
  BallOnPlane scene;
  test::TestWorld& world = scene.world;
  btHydroelasticDebugDrawer patch_drawer(world.dispatcher());
  world.world()->addAction(&patch_drawer);
  RecordingDrawer drawer;
  world.world()->setDebugDrawer(&drawer);
  world.Step(500);
  const std::vector<btHydroelasticContactPatch> patches = hydroGetContactPatches(world.dispatcher(), 1e-3);
  ASSERT_EQ(patches.size(), 1u);
  int fan_triangles = 0, edges = 0;
  btAlignedObjectArray<btVector3> vertices;
  btAlignedObjectArray<btScalar> pressures;
  btVector3 normal;
  for (int i = 0; i < patches[0].m_numPolygons; ++i) {
    ASSERT_TRUE(hydroGetPatchPolygon(patches[0], i, &vertices, &pressures, &normal));
    fan_triangles += vertices.size() - 2;
    edges += vertices.size();
  }

  // (Bullet draws actions only with wireframe, AABBs or normals on; its AABBs are red lines.)
  drawer.setDebugMode(btIDebugDraw::DBG_DrawAabb | btIDebugDraw::DBG_DrawContactPoints);
  world.world()->debugDrawWorld();
  EXPECT_EQ(drawer.triangles, fan_triangles);
  EXPECT_EQ(drawer.lines, edges);
  // The force: an arrow from the centre of pressure, 0.01 m per newton by default, its head four
  // strokes back from the tip by a fifth of its length and across by a tenth.
  ASSERT_EQ(drawer.centres.size(), 1u);
  ASSERT_EQ(drawer.force_lines.size(), 5u);
  const btVector3 at = patches[0].m_centerOfPressure, shaft = btScalar(0.01) * patches[0].m_forceOnBody0;
  const double place = test::BulletAbsolute(1e-12, 0.1), stroke_length = test::BulletAbsolute(1e-9, 0.1);
  EXPECT_LT((drawer.centres[0] - at).length(), place);
  EXPECT_LT((drawer.force_lines[0].first - at).length(), place);
  EXPECT_LT((drawer.force_lines[0].second - (at + shaft)).length(), place);
  for (size_t k = 1; k < 5; ++k) {
    const btVector3 stroke = drawer.force_lines[k].second - drawer.force_lines[k].first;
    EXPECT_LT((drawer.force_lines[k].first - (at + shaft)).length(), place);
    EXPECT_NEAR(stroke.dot(shaft.normalized()), -0.2 * shaft.length(), stroke_length);
    EXPECT_NEAR((stroke - shaft.normalized() * stroke.dot(shaft.normalized())).length(), 0.1 * shaft.length(),
                stroke_length);
  }
  // Pressure colours: the ball's patch peaks at its centre (red end) and falls to zero at its rim
  // (blue end).
  double reddest = 0, bluest = 0;
  for (const btVector3& color : drawer.colors) {
    reddest = std::max(reddest, static_cast<double>(color.x()));
    bluest = std::max(bluest, static_cast<double>(color.z()));
  }
  EXPECT_GT(reddest, 0.5);
  EXPECT_GT(bluest, 0.5);

  RecordingDrawer quiet;
  quiet.setDebugMode(btIDebugDraw::DBG_DrawAabb);
  world.world()->setDebugDrawer(&quiet);
  world.world()->debugDrawWorld();
  EXPECT_EQ(quiet.triangles, 0);
  EXPECT_EQ(quiet.lines + quiet.force_lines.size() + quiet.centres.size(), 0u);
  world.world()->setDebugDrawer(nullptr);
  world.world()->removeAction(&patch_drawer);
}

TEST(ContactQueryTest, PressureColoursRunFromBlueThroughGreenToRed) {
  EXPECT_EQ(hydroPressureColor(0, 100), btVector3(0, 0, 1));
  EXPECT_EQ(hydroPressureColor(50, 100), btVector3(1 - 1, 1, 0));
  EXPECT_EQ(hydroPressureColor(100, 100), btVector3(1, 0, 0));
  EXPECT_EQ(hydroPressureColor(200, 100), btVector3(1, 0, 0));  // clamped
  EXPECT_EQ(hydroPressureColor(5, 0), btVector3(0, 0, 1));      // nothing to scale by
}

}  // namespace
}  // namespace hydro
