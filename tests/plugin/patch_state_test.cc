// A pair's buffers over its life (plugin/patch_state.h): kept while it touches, so that a step
// allocates nothing, and freed once it has gone a while without touching.
#include <gtest/gtest.h>

#include <vector>

#include "plugin/patch_registry.h"
#include "test_world.h"

namespace hydro {
namespace {

using test::Compliant;
using test::ScopedHydroelastic;
using test::TestWorld;

constexpr double kStep = 1.0 / 60;

const bullet::PatchState* OnlyState(TestWorld* world) {
  const std::vector<const bullet::PatchState*> states = bullet::PatchRegistry::Instance().StatesOf(world->dispatcher());
  return states.size() == 1 ? states.front() : nullptr;
}

TEST(PatchStateTest, APairApartForASecondFreesItsBuffersAndTouchesAgainAsBefore) {
  // A compliant ball (r = 0.1 m, 1e6 Pa) at rest on the ground box, then held 3 cm above it (its
  // bounding box still meets the ground's, so Bullet keeps the pair), then set back down.
  btSphereShape ball(0.1);
  const ScopedHydroelastic tag(&ball, Compliant(1e6));
  TestWorld world;
  world.AddGroundBox();
  btRigidBody* body = world.AddBody(&ball, 1.0, btVector3(0, 0, 0.1));
  world.Step(60, kStep);
  const bullet::PatchState* state = OnlyState(&world);
  ASSERT_NE(state, nullptr);
  ASSERT_FALSE(state->points.empty());
  const size_t resting_points = state->points.size();
  const btTransform resting = body->getWorldTransform();

  body->setGravity(btVector3(0, 0, 0));
  body->setLinearVelocity(btVector3(0, 0, 0));
  body->setAngularVelocity(btVector3(0, 0, 0));
  body->setWorldTransform(btTransform(resting.getBasis(), resting.getOrigin() + btVector3(0, 0, 0.03)));
  // Half a second apart: the buffers are kept (a contact that comes and goes allocates nothing).
  world.Step(30, kStep);
  ASSERT_EQ(OnlyState(&world), state) << "the pair must live on for the test to mean anything";
  EXPECT_TRUE(state->points.empty());
  EXPECT_GT(state->points.capacity(), 0u);
  // A second apart (kIdleSecondsBeforeRelease): freed.
  world.Step(31, kStep);
  ASSERT_EQ(OnlyState(&world), state);
  EXPECT_EQ(state->points.capacity(), 0u);
  EXPECT_EQ(state->points_on_B.capacity(), 0u);
  EXPECT_FALSE(state->kept_surface.has_surface());
  EXPECT_EQ(state->kept_surface.surface().vertices().capacity(), 0u);
  EXPECT_EQ(state->Surface().num_polygons(), 0);
  EXPECT_EQ(state->Surface().vertices().capacity(), 0u);

  // Set back down where it rested: the same patch, and it rests where it rested (within 1 µm).
  body->setGravity(btVector3(0, 0, -9.81));
  body->setWorldTransform(resting);
  world.Step(1, kStep);
  EXPECT_EQ(state->points.size(), resting_points);
  world.Step(59, kStep);
  EXPECT_NEAR(body->getWorldTransform().getOrigin().z(), resting.getOrigin().z(), 1e-6);
  EXPECT_LT(body->getLinearVelocity().length(), 1e-3);
}

}  // namespace
}  // namespace hydro
