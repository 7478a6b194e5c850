// Bodies resting on patch contact settle where the patch force equals their weight and stay still.
#include <gtest/gtest.h>

#include <cstdio>

#include "adapters/shape_registry.h"
#include "hydro/contact_surface_calculator.h"
#include "hydro/make_meshes.h"
#include "plugin/btHydroelasticContactQuery.h"
#include "test_world.h"

namespace hydro {
namespace {

using test::TestWorld;

constexpr double kGravity = 9.81;

// Depth at which the closed-form compliant-sphere force (π/3)·E·d²·(3 − 2d/R) equals `weight`.
double ClosedFormRestDepth(double E, double R, double weight) {
  double lo = 0, hi = R;
  for (int i = 0; i < 200; ++i) {
    const double d = 0.5 * (lo + hi);
    (M_PI / 3 * E * d * d * (3 - 2 * d / R) < weight ? lo : hi) = d;
  }
  return 0.5 * (lo + hi);
}

TEST(RestingContactTest, CompliantBallRestsWherePatchForceEqualsWeight) {
  const double R = 0.05, E = 1e5, mass = 1.0;
  btSphereShape ball(R);
  const test::ScopedHydroelastic tag(&ball, test::Compliant(E, R / 8, 5.0));
  btStaticPlaneShape ground(btVector3(0, 0, 1), 0);
  TestWorld world;
  world.SetMaxPatchPoints(0);  // the point count below is that of whole patches
  world.AddBody(&ground, 0, btVector3(0, 0, 0));
  btRigidBody* body = world.AddBody(&ball, mass, btVector3(0, 0, R));
  world.Step(3000);
  const double depth = R - body->getWorldTransform().getOrigin().z();
  const double expected = ClosedFormRestDepth(E, R, mass * kGravity);
  std::printf("ball rest depth %.6f mm, closed form %.6f mm (%+.2f%%), speed %.2e m/s\n", 1e3 * depth, 1e3 * expected,
              100 * (depth / expected - 1), body->getLinearVelocity().length());
  // The R/8 mesh is within 2.3 % of the closed-form force at this depth (d/R ≈ 0.11): ≈ 1.2 % in depth.
  EXPECT_NEAR(depth / expected, 1.0, 0.02);
  EXPECT_LT(body->getLinearVelocity().length(), 1e-4);
  // The patch carries the weight: the solver's force and the surface's own elastic force.
  const auto patches = hydroGetContactPatches(world.dispatcher(), 1e-3);
  ASSERT_EQ(patches.size(), 1u);
  const btHydroelasticContactPatch& patch = patches[0];
  const double sign = patch.m_body0 == body ? 1 : -1;
  EXPECT_NEAR(sign * patch.m_forceOnBody0.z(), mass * kGravity, 0.01 * mass * kGravity);
  EXPECT_NEAR(sign * patch.m_elasticForceOnBody0.z(), mass * kGravity, 0.02 * mass * kGravity);
  EXPECT_GT(patch.m_numSolverPoints, 50);
  EXPECT_NEAR(patch.m_centerOfPressure.x(), 0, 1e-6);
}

}  // namespace
}  // namespace hydro

namespace hydro {
namespace {

using test::TestWorld;

// Runs `settle` steps, then records the largest deviation of position and orientation from the
// pose at that moment over `watch` more steps (of `dt`).
void MeasureStillness(TestWorld* world, btRigidBody* body, int settle, int watch, double* max_dp, double* max_da,
                      double dt = 1e-3) {
  world->Step(settle, dt);
  const btTransform start = body->getWorldTransform();
  *max_dp = *max_da = 0;
  for (int i = 0; i < watch; ++i) {
    world->Step(1, dt);
    const btTransform now = body->getWorldTransform();
    *max_dp = std::max<double>(*max_dp, (now.getOrigin() - start.getOrigin()).length());
    *max_da = std::max<double>(*max_da, now.getRotation().angleShortestPath(start.getRotation()));
  }
}

// MeasureStillness, printed under `what`: the body moves less than 1 µm and turns less than
// 10 µrad over the `watch` steps.
void ExpectStaysStill(TestWorld* world, btRigidBody* body, int settle, int watch, const char* what, double dt = 1e-3) {
  SCOPED_TRACE(what);
  double dp, da;
  MeasureStillness(world, body, settle, watch, &dp, &da, dt);
  std::printf("%s: |Δp| ≤ %.3e m, |Δθ| ≤ %.3e rad\n", what, dp, da);
  EXPECT_LT(dp, 1e-6);
  EXPECT_LT(da, 1e-5);
}

TEST(RestingContactTest, CompliantBoxOnRigidPlaneStaysStill) {
  btBoxShape box(btVector3(0.05, 0.05, 0.05));
  const test::ScopedHydroelastic tag(&box, test::Compliant(1e6, 0.025, 5.0));
  btStaticPlaneShape ground(btVector3(0, 0, 1), 0);
  TestWorld world;
  world.AddBody(&ground, 0, btVector3(0, 0, 0));
  btRigidBody* body = world.AddBody(&box, 1.0, btVector3(0, 0, 0.05));
  ExpectStaysStill(&world, body, 1000, 10000, "compliant box on rigid plane, 10 s after settling");
  // It rests flat: the bottom face is level.
  EXPECT_LT(body->getWorldTransform().getRotation().angleShortestPath(btQuaternion::getIdentity()), 1e-5);
}

TEST(RestingContactTest, RigidBoxOnCompliantSlabStaysStill) {
  btBoxShape box(btVector3(0.05, 0.05, 0.05));
  btStaticPlaneShape ground(btVector3(0, 0, 1), 0);
  btHydroelasticProperties slab = test::Compliant(1e6, 0, 5.0);
  slab.m_slabThickness = 0.05;
  const test::ScopedHydroelastic tag(&ground, slab);
  TestWorld world;
  world.AddBody(&ground, 0, btVector3(0, 0, 0));
  btRigidBody* body = world.AddBody(&box, 1.0, btVector3(0, 0, 0.05));
  ExpectStaysStill(&world, body, 1000, 10000, "rigid box on compliant slab, 10 s after settling");
  // Rest depth: (E/H)·A·depth = m·g  →  depth = m·g·H/(E·A).
  const double depth = 0.05 - body->getWorldTransform().getOrigin().z();
  EXPECT_NEAR(depth, 9.81 * 0.05 / (1e6 * 0.01), 1e-3 * 9.81 * 0.05 / (1e6 * 0.01));
}

// A rigid hull's faces are split to the resolution hint, as a rigid box's are: against a compliant
// slab each rigid triangle is one solver point, and a cube's hull has two triangles a face, whose
// points lie on its diagonal. A 2 kg hull crate, 0.2 m across, on a slab (E = 1e7 Pa, H = 0.1 m)
// at 60 Hz rocked about that diagonal, growing 30-fold every 0.5 s until it tumbled after 4 s.
TEST(RestingContactTest, RigidHullOnCompliantSlabStaysStillAt60Hz) {
  btConvexHullShape hull;
  for (int i = 0; i < 8; ++i)
    hull.addPoint(btVector3(i & 1 ? 0.1 : -0.1, i & 2 ? 0.1 : -0.1, i & 4 ? 0.1 : -0.1), false);
  hull.setMargin(0.001);
  hull.recalcLocalAabb();
  btStaticPlaneShape ground(btVector3(0, 0, 1), 0);
  btHydroelasticProperties slab = test::Compliant(1e7);
  slab.m_slabThickness = 0.1;
  const test::ScopedHydroelastic tag(&ground, slab);
  TestWorld world;
  world.AddBody(&ground, 0, btVector3(0, 0, 0));
  btRigidBody* body = world.AddBody(&hull, 2.0, btVector3(0, 0, 0.1));
  ExpectStaysStill(&world, body, 60, 600, "rigid hull on compliant slab at 60 Hz, 10 s after settling", 1.0 / 60);
  const double depth = 0.1 - body->getWorldTransform().getOrigin().z();
  const double closed_form = 2 * 9.81 * 0.1 / (1e7 * 0.04);  // m·g·H/(E·A) = 4.905 µm
  EXPECT_NEAR(depth, closed_form, 0.01 * closed_form);
}

}  // namespace
}  // namespace hydro

namespace hydro {
namespace {

TEST(RestingContactTest, ReducedPatchesKeepTheRestDepthAndStayFlat) {
  // The same ball with its patches reduced to 4 points rests at the same depth (net force and
  // stiffness are kept), and a compliant box on 4 points stays flat and still.
  const double R = 0.05, E = 1e5;
  btSphereShape ball(R);
  btHydroelasticProperties soft = test::Compliant(E, R / 8, 5.0);
  soft.m_maxPatchPoints = 4;
  const test::ScopedHydroelastic tag(&ball, soft);
  btStaticPlaneShape ground(btVector3(0, 0, 1), 0);
  test::TestWorld world;
  world.AddBody(&ground, 0, btVector3(0, 0, 0));
  btRigidBody* body = world.AddBody(&ball, 1.0, btVector3(0, 0, R));
  world.Step(3000);
  const double depth = R - body->getWorldTransform().getOrigin().z();
  const double expected = ClosedFormRestDepth(E, R, 9.81);
  const auto patches = hydroGetContactPatches(world.dispatcher(), 1e-3);
  ASSERT_EQ(patches.size(), 1u);
  EXPECT_LE(patches[0].m_numSolverPoints, 4);
  std::printf("ball on 4 points: rest depth %.6f mm (closed form %.6f mm)\n", 1e3 * depth, 1e3 * expected);
  EXPECT_NEAR(depth / expected, 1.0, 0.02);

  btBoxShape box(btVector3(0.05, 0.05, 0.05));
  btHydroelasticProperties box_soft = test::Compliant(1e6, 0.025, 5.0);
  box_soft.m_maxPatchPoints = 4;
  const test::ScopedHydroelastic box_tag(&box, box_soft);
  test::TestWorld box_world;
  box_world.AddBody(&ground, 0, btVector3(0, 0, 0));
  btRigidBody* cube = box_world.AddBody(&box, 1.0, btVector3(0, 0, 0.05));
  ExpectStaysStill(&box_world, cube, 1000, 5000, "compliant box on 4 points, 5 s after settling");
}

}  // namespace
}  // namespace hydro
