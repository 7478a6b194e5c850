// The point budget of a patch: 16 points by default, the turning budget (64) while its bodies spin
// about its normal as fast as hydro/patch_slip.h asks, whole patches when asked for.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "test_world.h"

namespace hydro {
namespace {

using test::Compliant;
using test::ScopedHydroelastic;
using test::TestWorld;

struct BudgetRun {
  btHydroelasticStats stats;
  double points_per_patch{0};
};

// A compliant 0.2 m box at 1e8 Pa resting on the ground box, then set sliding at `slide` m/s along
// x and spinning at `spin` rad/s about the vertical, for 0.1 s at 1 ms steps. `configure` may change
// the world's budgets first; `hint` is the box's (0: the default, four cells across).
BudgetRun SlideAndSpin(double slide, double spin, void (*configure)(btHydroelasticWorldState*) = nullptr,
                       double hint = 0) {
  btBoxShape box(btVector3(0.1, 0.1, 0.1));
  const ScopedHydroelastic tag(&box, Compliant(1e8, hint));
  TestWorld world;
  if (configure) configure(&world.state());
  world.AddGroundBox();
  btRigidBody* body = world.AddBody(&box, 1.0, btVector3(0, 0, 0.1));
  body->setFriction(0.3);
  world.Step(100);  // settle
  body->setLinearVelocity(btVector3(slide, 0, 0));
  body->setAngularVelocity(btVector3(0, 0, spin));
  world.state().resetStats();
  world.Step(100);
  BudgetRun run;
  run.stats = world.state().getStats();
  run.points_per_patch = run.stats.m_patches > 0 ? double(run.stats.m_points) / run.stats.m_patches : 0;
  return run;
}

TEST(PointBudgetTest, ABoxSlidingWithoutSpinKeepsSixteenPoints) {
  const BudgetRun run = SlideAndSpin(1.0, 0.0);
  ASSERT_GT(run.stats.m_patches, 90);
  EXPECT_EQ(run.stats.m_turningPatches, 0);
  EXPECT_LE(run.points_per_patch, 16);
}

TEST(PointBudgetTest, ABoxAtRestKeepsSixteenPoints) {
  const BudgetRun run = SlideAndSpin(0.0, 0.0);
  ASSERT_GT(run.stats.m_patches, 90);
  EXPECT_EQ(run.stats.m_turningPatches, 0);
  EXPECT_LE(run.points_per_patch, 16);
}

TEST(PointBudgetTest, ASpinningBoxGetsTheTurningBudget) {
  // 10 rad/s at a 0.1 m patch radius: 1 m/s at the rim, against a slide of 0.2 m/s.
  const BudgetRun run = SlideAndSpin(0.2, 10.0);
  ASSERT_GT(run.stats.m_patches, 90);
  EXPECT_GT(run.stats.m_turningPatches, 90);
  EXPECT_GT(run.points_per_patch, 32);
  EXPECT_LE(run.points_per_patch, 64);
}

TEST(PointBudgetTest, TheTurningBudgetCanBeTurnedOffOrRaised) {
  // A box of 16 × 16 cells a face, so that its whole patch has more points than a raised budget:
  // its surface on the ground box is one piece per cell (hydro/compliant_box.h), 38 points a patch
  // on average at the default four cells across.
  const double hint = 0.0125;
  const BudgetRun off = SlideAndSpin(
      0.2, 10.0, [](btHydroelasticWorldState* state) { EXPECT_TRUE(state->setTurningMaxPatchPoints(0)); }, hint);
  EXPECT_LE(off.points_per_patch, 16);
  const BudgetRun more = SlideAndSpin(
      0.2, 10.0, [](btHydroelasticWorldState* state) { EXPECT_TRUE(state->setTurningMaxPatchPoints(100)); }, hint);
  EXPECT_GT(more.points_per_patch, 64);
  // Whole patches stay whole: the turning budget never reduces a patch.
  const BudgetRun whole = SlideAndSpin(
      0.2, 10.0, [](btHydroelasticWorldState* state) { EXPECT_TRUE(state->setDefaultMaxPatchPoints(0)); }, hint);
  EXPECT_GT(whole.points_per_patch, 100);
}

// Where users live: a 0.2 m box at 1 GPa spun at 20 rad/s on the ground at Bullet's 60 Hz spins
// down to rest. Its patch turns while it spins (64 points) and stops turning as the spin dies
// (16 points); the change of budget keeps the patch's force and moment, so the box does not jolt:
// its height changes by less than 1 µm and its vertical speed stays below 1 mm/s from the first
// switch on, and it ends at rest.
TEST(PointBudgetTest, ABoxSpinningDownAt60HzChangesItsBudgetWithoutAJolt) {
  btBoxShape box(btVector3(0.1, 0.1, 0.1));
  const ScopedHydroelastic tag(&box, Compliant(1e9));
  TestWorld world;
  world.AddGroundBox();
  btRigidBody* body = world.AddBody(&box, 1.0, btVector3(0, 0, 0.1));
  body->setFriction(0.5);
  body->setActivationState(DISABLE_DEACTIVATION);
  world.Step(30, 1.0 / 60);  // settle
  body->setAngularVelocity(btVector3(0, 0, 20));
  long long turning_before = world.state().getStats().m_turningPatches;
  int switches = 0, turning_steps = 0;
  bool was_turning = false;
  double worst_height_jump = 0, worst_vertical_speed = 0;
  for (int step = 0; step < 180; ++step) {
    const double z = body->getWorldTransform().getOrigin().z();
    world.Step(1, 1.0 / 60);
    const long long turning_now = world.state().getStats().m_turningPatches;
    const bool turning = turning_now > turning_before;
    turning_before = turning_now;
    turning_steps += turning;
    if (step > 0 && turning != was_turning) {
      ++switches;
      worst_height_jump = std::max(worst_height_jump, std::abs(body->getWorldTransform().getOrigin().z() - z));
    }
    was_turning = turning;
    if (switches > 0)
      worst_vertical_speed = std::max(worst_vertical_speed, std::abs(double(body->getLinearVelocity().z())));
  }
  std::printf(
      "spinning box at 60 Hz: turned %d of 180 steps, %d switches, height jump %.2e m, vertical speed %.2e m/s, "
      "final spin %.2e rad/s\n",
      turning_steps, switches, worst_height_jump, worst_vertical_speed, body->getAngularVelocity().length());
  EXPECT_GT(turning_steps, 3);
  EXPECT_GE(switches, 1);
  EXPECT_LT(worst_height_jump, 1e-6);
  EXPECT_LT(worst_vertical_speed, 1e-3);
  EXPECT_LT(body->getAngularVelocity().length(), 1e-2);
  EXPECT_LT(body->getLinearVelocity().length(), 1e-3);
}

TEST(PointBudgetTest, ANegativeTurningBudgetIsRefused) {
  btHydroelasticWorldState state;
  EXPECT_FALSE(state.setTurningMaxPatchPoints(-1));
  EXPECT_EQ(state.getTurningMaxPatchPoints(), 64);
}

}  // namespace
}  // namespace hydro
