// The patch block's points, as the solver's laws see them: Hunt–Crossley dissipation (000 §IV-A,
// f = k·x·(1 + d·ẋ) at the end of the step, x = −φ) enters as the time scale τd = d·x of a linear
// damper (MakePatchPoints), which the implicit point law (hydro/compliant_point_law.h) must turn
// into the Hunt–Crossley force to first order in the normal speed: the same force at rest and the
// same damping, ∂f/∂vn = −k·(δt + d·x). Checked by finite differences through the real path
// (MakePatchPoints, then MakeCompliantPointLaw with the regime off, then CalcPointImpulse).
#include <gtest/gtest.h>

#include <BulletCollision/CollisionDispatch/btCollisionObject.h>

#include <cmath>
#include <vector>

#include "hydro/compliant_point_law.h"
#include "hydro/patch_problem.h"
#include "plugin/patch_block.h"
#include "plugin/patch_state.h"

namespace hydro {
namespace bullet {
namespace {

TEST(PatchBlockTest, HuntCrossleyDissipationIsLinearizedAtThePointsDepth) {
  const double dt = 1e-3;
  const Vector3 n = Vector3(0.2, -0.3, 1).normalized();
  for (const double d : {0.0, 5.0, 50.0})        // s/m
    for (const double x : {1e-5, 1e-3, 2e-2}) {  // depth at the start of the step (m)
      for (const double k : {1e3, 1e6, 1e9}) {   // N/m
        PatchState state;
        state.combined_dissipation_s_per_m = d;
        ContactPoint point;
        point.nhat_BA_W = n;
        point.stiffness_N_per_m = k;
        point.phi0_m = -x;
        state.points = {point};
        std::vector<PatchPoint> points;
        MakePatchPoints(state, &points);
        ASSERT_EQ(points.size(), 1u);
        const PatchPoint& p = points[0];
        ASSERT_DOUBLE_EQ(p.dissipation_time_s, d * x);
        const CompliantPointLaw law = MakeCompliantPointLaw(p.nhat_BA_W, p.stiffness_N_per_m, p.phi0_m, dt,
                                                            p.dissipation_time_s, 1.0, 1.0, /*beta=*/0, 1e-3);
        // The normal force over the step, γn/δt, at normal speed vn (positive: separating).
        auto force = [&](double vn) {
          double gamma_n = 0;
          CalcPointImpulse(law, vn * n, &gamma_n);
          return gamma_n / dt;
        };
        // Hunt–Crossley at the end of the step: x_end = x − δt·vn, ẋ = −vn.
        auto hunt_crossley = [&](double vn) { return k * (x - dt * vn) * (1 - d * vn); };
        EXPECT_NEAR(force(0), hunt_crossley(0), 1e-12 * k * x) << d << " s/m, " << x << " m, " << k << " N/m";
        // Central differences at a speed small enough that the contact stays closed both ways.
        const double h = 1e-3 * x / (dt + d * x);
        const double slope = (force(h) - force(-h)) / (2 * h);
        const double expected = -k * (dt + d * x);
        EXPECT_NEAR(slope, expected, 1e-6 * std::abs(expected)) << d << " s/m, " << x << " m, " << k << " N/m";
        // And the difference from Hunt–Crossley is second order: k·d·δt·vn².
        const double v = 0.1 * x / (dt + d * x);
        EXPECT_NEAR(force(v) - hunt_crossley(v), -k * d * dt * v * v, 1e-9 * k * x) << d << " s/m";
      }
    }
}

// One compound's child pairs share both bodies; they are solved in the order of the children
// they are, whatever order Bullet lists their manifolds in, so that the order repeats.
TEST(PatchBlockTest, PatchesOfOneCompoundAreSolvedInTheOrderOfItsChildren) {
  btCollisionObject compound, ground;
  compound.setWorldArrayIndex(1);
  ground.setWorldArrayIndex(0);
  PatchState first_child, second_child;
  for (PatchState* state : {&first_child, &second_child}) {
    state->body0 = &compound;
    state->body1 = &ground;
  }
  first_child.child0 = 0;
  second_child.child0 = 1;
  // Listed second, solved first; and the order is strict.
  EXPECT_TRUE(SolvedBefore(first_child, 1, second_child, 0));
  EXPECT_FALSE(SolvedBefore(second_child, 0, first_child, 1));
  EXPECT_FALSE(SolvedBefore(first_child, 1, first_child, 1));
  // Bodies come first: a pair with a body earlier in the world goes before any child pair.
  btCollisionObject earlier;
  earlier.setWorldArrayIndex(0);
  PatchState other;
  other.body0 = &earlier;
  other.body1 = &ground;
  other.child0 = 5;
  EXPECT_TRUE(SolvedBefore(other, 2, first_child, 0));
}

}  // namespace
}  // namespace bullet
}  // namespace hydro
