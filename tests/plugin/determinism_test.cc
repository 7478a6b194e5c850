// Repeatable runs: a block of compliant boxes dropped at 60 Hz, run twice in one process with the
// heap laid out differently the second time, ends bit for bit alike, and alike on one thread or two. Patches are
// ordered by the bodies' order in the world and every sum runs in that order, never by heap address.
// Pairs computed side by side (btHydroelasticCollisionDispatcher) end as pairs computed one by one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "hydro/parallel_for.h"
#include "plugin/btHydroelasticCollisionDispatcher.h"
#include "plugin/btHydroelasticThreads.h"
#include "test_world.h"

namespace hydro {
namespace {

using test::Compliant;
using test::ScopedHydroelastic;
using test::TestWorld;

std::vector<btTransform> DropBlock(int padding, double hint = 0, bool pair_threads = false) {
  std::vector<std::unique_ptr<char[]>> heap;  // moves later allocations elsewhere
  for (int i = 0; i < padding; ++i) heap.push_back(std::make_unique<char[]>(64 + 48 * i));
  btBoxShape box(btVector3(0.1, 0.1, 0.1));
  btBoxShape ground(btVector3(5, 5, 5));
  const ScopedHydroelastic tag(&box, Compliant(1e8, hint));
  TestWorld world(true, -1, pair_threads);
  world.AddBody(&ground, 0, btVector3(0, 0, -5));
  const std::vector<btRigidBody*> bodies = world.AddBoxBlock(&box, 3, 0.3, 0.02);
  world.Step(60, 1.0 / 60);
  if (pair_threads) {  // many large pairs: computed ahead, whole, side by side
    EXPECT_GT(static_cast<const btHydroelasticCollisionDispatcher*>(world.dispatcher())->getNumPairsComputedAhead(),
              50);
  }
  std::vector<btTransform> poses;
  for (const btRigidBody* body : bodies) poses.push_back(body->getWorldTransform());
  return poses;
}

TEST(DeterminismTest, APatchSceneRepeatsBitForBitInOneProcess) {
  const std::vector<btTransform> first = DropBlock(0), second = DropBlock(131);
  ASSERT_EQ(first.size(), second.size());
  for (size_t i = 0; i < first.size(); ++i)
    EXPECT_EQ(std::memcmp(&first[i], &second[i], sizeof(btTransform)), 0) << "box " << i;
  EXPECT_LT(first.back().getOrigin().z(), 0.3 + 2 * 0.21) << "the block fell";
}

// Contact surfaces computed on several threads (btHydroelasticThreads.h) give the one-thread run
// bit for bit: boxes meshed finely enough (hint 2.5 cm) that their box-on-box surfaces are split.
TEST(DeterminismTest, APatchSceneOnTwoThreadsEndsAsOnOne) {
  const int saved = hydroGetContactThreads();
  hydroSetContactThreads(1);
  const std::vector<btTransform> one = DropBlock(0, 0.025);
  hydroSetContactThreads(2);
  const std::vector<btTransform> two = DropBlock(0, 0.025);
  const std::vector<btTransform> pairs_side_by_side = DropBlock(0, 0.025, /*pair_threads=*/true);
  hydroSetContactThreads(saved);
  EXPECT_EQ(hydroGetContactThreads(), saved);
  ASSERT_EQ(one.size(), two.size());
  for (size_t i = 0; i < one.size(); ++i)
    EXPECT_EQ(std::memcmp(&one[i], &two[i], sizeof(btTransform)), 0) << "box " << i;
  for (size_t i = 0; i < one.size(); ++i)
    EXPECT_EQ(std::memcmp(&one[i], &pairs_side_by_side[i], sizeof(btTransform)), 0) << "box " << i;
  EXPECT_LT(one.back().getOrigin().z(), 0.3 + 2 * 0.21) << "the block fell";
}

// A mixed scene — compliant boxes and spheres (some finely meshed, whose surfaces are split in
// pieces too) dropped on a rigid ground box and on each other at 60 Hz, with a compound — stepped
// with btCollisionDispatcher on one thread and with btHydroelasticCollisionDispatcher on two.
struct MixedScene {
  std::vector<btTransform> poses;
  std::vector<btVector3> velocities;
  int pairs_ahead{0};        // the most pairs computed ahead at a step
  int large_in_dispatch{0};  // the most large pairs left to Bullet's dispatch at a step
  long long surfaces{0}, reused{0}, points{0};
};

MixedScene DropMixed(bool pair_threads, int threads) {
  const ScopedContactThreads scoped(threads);
  btBoxShape box(btVector3(0.1, 0.1, 0.1)), fine_box(btVector3(0.1, 0.1, 0.1));
  btSphereShape sphere(0.1);
  btBoxShape ground(btVector3(5, 5, 5));
  btCompoundShape compound;
  btBoxShape part(btVector3(0.05, 0.05, 0.05));
  compound.addChildShape(btTransform(btQuaternion::getIdentity(), btVector3(0.06, 0, 0)), &part);
  compound.addChildShape(btTransform(btQuaternion::getIdentity(), btVector3(-0.06, 0, 0)), &part);
  const ScopedHydroelastic tag_box(&box, Compliant(1e8, 0.2)), tag_fine(&fine_box, Compliant(1e7, 0.025)),
      tag_sphere(&sphere, Compliant(1e6)), tag_part(&part, Compliant(1e8));
  TestWorld world(true, -1, pair_threads);
  world.AddBody(&ground, 0, btVector3(0, 0, -5));
  std::vector<btRigidBody*> bodies = world.AddBoxBlock(&box, 3, 0.3, 0.02);
  const btQuaternion tilted(btVector3(1, 1, 0).normalized(), 0.3);
  bodies.push_back(world.AddBody(&fine_box, 1, btVector3(0.05, 0.02, 1.2), tilted));
  bodies.push_back(world.AddBody(&fine_box, 1, btVector3(-0.03, 0.04, 1.45)));
  bodies.push_back(world.AddBody(&sphere, 1, btVector3(0.6, 0, 0.15)));
  bodies.push_back(world.AddBody(&sphere, 1, btVector3(0.62, 0.01, 0.4)));
  bodies.push_back(world.AddBody(&compound, 1, btVector3(-0.7, 0, 0.2), tilted));
  MixedScene scene;
  const auto* dispatcher = dynamic_cast<const btHydroelasticCollisionDispatcher*>(world.dispatcher());
  for (int step = 0; step < 60; ++step) {
    world.Step(1, 1.0 / 60);
    if (!dispatcher) continue;
    scene.pairs_ahead = std::max(scene.pairs_ahead, dispatcher->getNumPairsComputedAhead());
    scene.large_in_dispatch = std::max(scene.large_in_dispatch, dispatcher->getNumLargePairsInDispatch());
  }
  for (const btRigidBody* body : bodies) {
    scene.poses.push_back(body->getWorldTransform());
    scene.velocities.push_back(body->getLinearVelocity());
  }
  const btHydroelasticStats stats = world.state().getStats();
  scene.surfaces = stats.m_surfacesComputed;
  scene.reused = stats.m_surfacesReused;
  scene.points = stats.m_points;
  return scene;
}

TEST(DeterminismTest, PairsComputedSideBySideEndAsPairsComputedOneByOne) {
  const MixedScene serial = DropMixed(false, 1);
  const MixedScene ahead = DropMixed(true, 2);
  const MixedScene ahead_one_thread = DropMixed(true, 1);
  EXPECT_GT(ahead.pairs_ahead, 20);            // every box of the block with its neighbours and the ground
  EXPECT_EQ(ahead_one_thread.pairs_ahead, 0);  // one thread: Bullet's dispatch alone
  // The finely meshed boxes' few surfaces are split in pieces in the dispatch instead.
  EXPECT_GT(ahead.large_in_dispatch, 0);
  // Each pair computes once a step, whoever computes it (its statistics counted on one thread).
  EXPECT_EQ(serial.surfaces, ahead.surfaces);
  EXPECT_EQ(serial.reused, ahead.reused);
  EXPECT_EQ(serial.points, ahead.points);
  EXPECT_GT(serial.surfaces, 100);
  ASSERT_EQ(serial.poses.size(), ahead.poses.size());
  for (size_t i = 0; i < serial.poses.size(); ++i) {
    EXPECT_EQ(std::memcmp(&serial.poses[i], &ahead.poses[i], sizeof(btTransform)), 0) << "body " << i;
    EXPECT_EQ(std::memcmp(&serial.velocities[i], &ahead.velocities[i], sizeof(btVector3)), 0) << "body " << i;
    EXPECT_EQ(std::memcmp(&serial.poses[i], &ahead_one_thread.poses[i], sizeof(btTransform)), 0) << "body " << i;
  }
  EXPECT_LT(serial.poses[0].getOrigin().z(), 0.3) << "the block fell";
  EXPECT_LT(serial.poses[27].getOrigin().z(), 1.0) << "the fine box fell";
}

}  // namespace
}  // namespace hydro
