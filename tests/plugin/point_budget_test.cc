// The point budget of a patch: 16 points by default, the turning budget (64) while its bodies spin
// about its normal as fast as hydro/patch_slip.h asks, whole patches when asked for.
#include <gtest/gtest.h>

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
// the world's budgets first.
BudgetRun SlideAndSpin(double slide, double spin, void (*configure)(btHydroelasticWorldState*) = nullptr) {
  btBoxShape box(btVector3(0.1, 0.1, 0.1));
  const ScopedHydroelastic tag(&box, Compliant(1e8));
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
  const BudgetRun off =
      SlideAndSpin(0.2, 10.0, [](btHydroelasticWorldState* state) { EXPECT_TRUE(state->setTurningMaxPatchPoints(0)); });
  EXPECT_LE(off.points_per_patch, 16);
  const BudgetRun more = SlideAndSpin(
      0.2, 10.0, [](btHydroelasticWorldState* state) { EXPECT_TRUE(state->setTurningMaxPatchPoints(100)); });
  EXPECT_GT(more.points_per_patch, 64);
  // Whole patches stay whole: the turning budget never reduces a patch.
  const BudgetRun whole =
      SlideAndSpin(0.2, 10.0, [](btHydroelasticWorldState* state) { EXPECT_TRUE(state->setDefaultMaxPatchPoints(0)); });
  EXPECT_GT(whole.points_per_patch, 100);
}

TEST(PointBudgetTest, ANegativeTurningBudgetIsRefused) {
  btHydroelasticWorldState state;
  EXPECT_FALSE(state.setTurningMaxPatchPoints(-1));
  EXPECT_EQ(state.getTurningMaxPatchPoints(), 64);
}

}  // namespace
}  // namespace hydro
