// Repeatable runs: a block of compliant boxes dropped at 60 Hz, run twice in one process with the
// heap laid out differently the second time, ends bit for bit alike, and alike on one thread or two. Patches are
// ordered by the bodies' order in the world and every sum runs in that order, never by heap address.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "plugin/btHydroelasticThreads.h"
#include "test_world.h"

namespace hydro {
namespace {

using test::Compliant;
using test::ScopedHydroelastic;
using test::TestWorld;

std::vector<btTransform> DropBlock(int padding, double hint = 0) {
  std::vector<std::unique_ptr<char[]>> heap;  // moves later allocations elsewhere
  for (int i = 0; i < padding; ++i) heap.push_back(std::make_unique<char[]>(64 + 48 * i));
  btBoxShape box(btVector3(0.1, 0.1, 0.1));
  btBoxShape ground(btVector3(5, 5, 5));
  const ScopedHydroelastic tag(&box, Compliant(1e8, hint));
  TestWorld world;
  world.AddBody(&ground, 0, btVector3(0, 0, -5));
  const std::vector<btRigidBody*> bodies = world.AddBoxBlock(&box, 3, 0.3, 0.02);
  world.Step(60, 1.0 / 60);
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
  hydroSetContactThreads(saved);
  EXPECT_EQ(hydroGetContactThreads(), saved);
  ASSERT_EQ(one.size(), two.size());
  for (size_t i = 0; i < one.size(); ++i)
    EXPECT_EQ(std::memcmp(&one[i], &two[i], sizeof(btTransform)), 0) << "box " << i;
  EXPECT_LT(one.back().getOrigin().z(), 0.3 + 2 * 0.21) << "the block fell";
}

}  // namespace
}  // namespace hydro
