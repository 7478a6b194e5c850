// With no tagged shape the plugin must be invisible: bit-identical trajectories with and without
// it, whether switched on by configuration or installed on an existing dispatcher.
#include <gtest/gtest.h>

#include <cstring>

#include "adapters/shape_registry.h"
#include "plugin/btHydroelasticContactQuery.h"
#include "test_world.h"

namespace hydro {
namespace {

using test::TestWorld;

struct Shapes {
  btBoxShape ground{btVector3(5, 5, 0.5)};
  btBoxShape box{btVector3(0.1, 0.15, 0.05)};
  btSphereShape sphere{0.07};
  btCapsuleShapeZ capsule{0.04, 0.12};
  btCylinderShape cylinder{btVector3(0.06, 0.1, 0.06)};
};

// A pile of mixed bodies dropped on a static box; returns every body's transform after `steps`.
std::vector<btTransform> RunPile(TestWorld* world, Shapes* shapes, int steps) {
  world->AddBody(&shapes->ground, 0, btVector3(0, 0, -0.5));
  std::vector<btRigidBody*> bodies;
  btCollisionShape* kinds[] = {&shapes->box, &shapes->sphere, &shapes->capsule, &shapes->cylinder};
  for (int i = 0; i < 16; ++i) {
    const btVector3 at(0.05 * (i % 3) - 0.05, 0.04 * (i % 2), 0.2 + 0.22 * i);
    bodies.push_back(world->AddBody(kinds[i % 4], 1.0 + 0.1 * i, at, btQuaternion(btVector3(1, 2, 3), 0.3 * i)));
  }
  world->Step(steps, 1.0 / 240);
  std::vector<btTransform> result;
  for (btRigidBody* body : bodies) result.push_back(body->getWorldTransform());
  return result;
}

bool BitIdentical(const std::vector<btTransform>& a, const std::vector<btTransform>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    btScalar ma[16], mb[16];
    a[i].getOpenGLMatrix(ma);
    b[i].getOpenGLMatrix(mb);
    if (std::memcmp(ma, mb, sizeof(ma)) != 0) return false;
  }
  return true;
}

TEST(StockBehaviorTest, UntaggedWorldIsBitIdentical) {
  Shapes shapes;
  ASSERT_FALSE(bullet::ShapeRegistry::Instance().HasTaggedShapes()) << "an earlier test left a shape tagged";
  TestWorld stock(false, 0), configured(true, 0), installed(false, 0);
  btHydroelasticDispatcherInstaller installer(installed.dispatcher(), installed.world()->getPairCache());
  const auto a = RunPile(&stock, &shapes, 600);
  const auto b = RunPile(&configured, &shapes, 600);
  const auto c = RunPile(&installed, &shapes, 600);
  // The pile did move (the comparison is not vacuous).
  EXPECT_LT(a[15].getOrigin().z(), 1.0);
  EXPECT_TRUE(BitIdentical(a, b));
  EXPECT_TRUE(BitIdentical(a, c));
}

TEST(StockBehaviorTest, InstallingAfterBodiesOverlapTakesEffectOnRefresh) {
  btSphereShape ball(0.05);
  btStaticPlaneShape ground(btVector3(0, 0, 1), 0);
  TestWorld world(false);
  world.AddBody(&ground, 0, btVector3(0, 0, 0));
  world.AddBody(&ball, 1.0, btVector3(0, 0, 0.049));
  world.Step(50);  // resting on Bullet's point contact: the pair's algorithm exists
  const test::ScopedHydroelastic tag(&ball, test::Compliant(1e5));
  {
    // Installed without refreshing: the existing pair keeps Bullet's algorithm.
    btHydroelasticDispatcherInstaller installer(world.dispatcher());
    world.Step(1);
    EXPECT_TRUE(hydroGetContactPatches(world.dispatcher(), 1e-3).empty());
    installer.refreshPairs(world.world()->getPairCache());
    world.Step(1);
    EXPECT_EQ(hydroGetContactPatches(world.dispatcher(), 1e-3).size(), 1u);
    // Uninstalled before the world goes; drop the plugin's algorithms while it can still free them.
    for (int i = 0; i < world.world()->getPairCache()->getNumOverlappingPairs(); ++i)
      world.world()->getPairCache()->cleanOverlappingPair(world.world()->getPairCache()->getOverlappingPairArray()[i],
                                                          world.dispatcher());
  }
}

}  // namespace
}  // namespace hydro
