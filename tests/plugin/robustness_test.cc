// Point contact per seed 003, compound shapes, sleeping bodies, continuity of a dragged patch, and
// bad input (NaN poses, zero-size shapes, extreme penetration).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "hydro/contact_surface.h"
#include "hydro/contact_wrench.h"
#include "plugin/btHydroelasticConstraintSolver.h"
#include "plugin/btHydroelasticContactQuery.h"
#include "plugin/btHydroelasticMultiBodyConstraintSolver.h"
#include "plugin/patch_registry.h"
#include "test_world.h"

namespace hydro {
namespace {

using test::Compliant;
using test::ScopedHydroelastic;
using test::TestWorld;

struct ScopedPointMaterial {
  const btCollisionShape* shape;
  ScopedPointMaterial(const btCollisionShape* s, const btPointContactMaterial& m) : shape(s) {
    hydroSetPointContactMaterial(s, m);
  }
  ~ScopedPointMaterial() { hydroRemoveShape(shape); }
};

TEST(PointContactTest, BulletsPointsBecomeHuntCrossleySprings) {
  // 003: against an untagged (rigid) plane the ball's own E is the contact's, k = 2·E·R_c.
  btSphereShape ball(0.05);
  btPointContactMaterial material;
  material.m_youngsModulus = 1e6;
  material.m_dissipation = 2.0;
  material.m_characteristicRadius = 0.01;
  const ScopedPointMaterial tag(&ball, material);
  btStaticPlaneShape ground(btVector3(0, 0, 1), 0);
  TestWorld world;
  world.AddBody(&ground, 0, btVector3(0, 0, 0));
  btRigidBody* body = world.AddBody(&ball, 1.0, btVector3(0, 0, 0.05));
  world.Step(2000);
  const double stiffness = 2 * 1e6 * 0.01;
  const double depth = 0.05 - body->getWorldTransform().getOrigin().z();
  std::printf("point contact: rest depth %.6e m, m·g/k = %.6e m\n", depth, 9.81 / stiffness);
  EXPECT_NEAR(depth, 9.81 / stiffness, 0.01 * 9.81 / stiffness);
  EXPECT_TRUE(hydroGetContactPatches(world.dispatcher(), 1e-3).empty());  // no patch: Bullet's points
}

TEST(PointContactTest, BothSidesSquishByTheirShareAndThePointLiesWhereTheyMeet) {
  // 003: a ball of E = 1e6 Pa on a plane of E = 3e6 Pa. The ball takes sₘ = 3/4 of the
  // deformation, the plane sₙ = 1/4; the stiffness is 2·E·R_c with E = Eₘ·Eₙ/(Eₘ + Eₙ) = 7.5e5 Pa,
  // and the contact point C = sₙ·Mc + sₘ·Nc lies a quarter of the depth x below the plane's surface
  // (the ball's lowest point is at −x, the plane's surface at 0), where Bullet puts it on neither.
  btSphereShape ball(0.05);
  btStaticPlaneShape ground(btVector3(0, 0, 1), 0);
  btPointContactMaterial soft, stiff;
  soft.m_youngsModulus = 1e6;
  soft.m_characteristicRadius = 0.01;
  soft.m_dissipation = 2.0;
  stiff = soft;
  stiff.m_youngsModulus = 3e6;
  const ScopedPointMaterial ball_tag(&ball, soft), ground_tag(&ground, stiff);
  TestWorld world;
  world.AddBody(&ground, 0, btVector3(0, 0, 0));
  btRigidBody* body = world.AddBody(&ball, 1.0, btVector3(0, 0, 0.05));
  world.Step(2000);
  const double stiffness = 2 * 7.5e5 * 0.01;
  const double depth = 0.05 - body->getWorldTransform().getOrigin().z();
  EXPECT_NEAR(depth, 9.81 / stiffness, 0.01 * 9.81 / stiffness);
  int points = 0;
  for (int m = 0; m < world.dispatcher()->getNumManifolds(); ++m) {
    const btPersistentManifold* manifold = world.dispatcher()->getManifoldByIndexInternal(m);
    for (int i = 0; i < manifold->getNumContacts(); ++i, ++points) {
      const btManifoldPoint& cp = manifold->getContactPoint(i);
      std::printf("point contact: C at z = %.6e m, −x/4 = %.6e m\n", double(cp.m_positionWorldOnA.z()), -depth / 4);
      EXPECT_EQ(cp.m_positionWorldOnA, cp.m_positionWorldOnB);
      EXPECT_NEAR(cp.m_positionWorldOnA.z(), -depth / 4, 0.02 * depth);
      EXPECT_NEAR(cp.m_positionWorldOnA.x(), 0, 1e-9);
    }
  }
  EXPECT_GE(points, 1);
}

TEST(CompoundTest, EachTaggedChildMakesItsOwnPatch) {
  // A dumbbell: two compliant balls in a compound rest on the plane, each carrying half the weight.
  const double R = 0.05, E = 1e5;
  btSphereShape ball(R);
  const ScopedHydroelastic tag(&ball, Compliant(E, R / 6, 5.0));
  btCompoundShape dumbbell;
  dumbbell.addChildShape(btTransform(btQuaternion::getIdentity(), btVector3(-0.1, 0, 0)), &ball);
  dumbbell.addChildShape(btTransform(btQuaternion::getIdentity(), btVector3(0.1, 0, 0)), &ball);
  btStaticPlaneShape ground(btVector3(0, 0, 1), 0);
  TestWorld world;
  world.AddBody(&ground, 0, btVector3(0, 0, 0));
  btRigidBody* body = world.AddBody(&dumbbell, 2.0, btVector3(0, 0, R));
  world.Step(2000);
  const auto patches = hydroGetContactPatches(world.dispatcher(), 1e-3);
  ASSERT_EQ(patches.size(), 2u);
  for (const btHydroelasticContactPatch& patch : patches)
    EXPECT_NEAR(std::abs(patch.m_forceOnBody0.z()), 9.81, 0.02 * 9.81);
  EXPECT_LT(body->getWorldTransform().getRotation().angleShortestPath(btQuaternion::getIdentity()), 1e-6);
}

TEST(SleepingTest, ARestingBodyFallsAsleepAndWakesUp) {
  btSphereShape ball(0.05);
  const ScopedHydroelastic tag(&ball, Compliant(1e5, 0.05 / 6, 20.0));
  btStaticPlaneShape ground(btVector3(0, 0, 1), 0);
  TestWorld world;
  world.AddBody(&ground, 0, btVector3(0, 0, 0));
  btRigidBody* body = world.AddBody(&ball, 1.0, btVector3(0, 0, 0.0495));
  body->forceActivationState(ACTIVE_TAG);
  world.Step(4000);
  EXPECT_FALSE(body->isActive());
  const double z = body->getWorldTransform().getOrigin().z();
  world.Step(500);
  EXPECT_EQ(body->getWorldTransform().getOrigin().z(), z);  // asleep: exactly still
  body->activate();
  body->applyCentralImpulse(btVector3(0.5, 0, 0));
  world.Step(100);
  EXPECT_GT(body->getWorldTransform().getOrigin().x(), 0.01);
  EXPECT_NEAR(body->getWorldTransform().getOrigin().z(), z, 1e-3);  // rolled on, still supported
}

TEST(SleepingTest, IslandsSleepAndWakeOnTheirOwn) {
  // Two islands on the ground: a stack of three compliant boxes and, 1 m away, a compliant ball.
  // Both fall asleep with patch contact; waking the ball leaves the stack asleep and untouched, and
  // a push on the top box wakes the whole stack (one island through its patches) but not the ball.
  btBoxShape box(btVector3(0.05, 0.05, 0.05));
  const ScopedHydroelastic box_tag(&box, Compliant(1e6, 0.05, 20.0));
  btSphereShape ball(0.05);
  const ScopedHydroelastic ball_tag(&ball, Compliant(1e5, 0.05 / 6, 20.0));
  btStaticPlaneShape ground(btVector3(0, 0, 1), 0);
  TestWorld world;
  world.AddBody(&ground, 0, btVector3(0, 0, 0));
  std::vector<btRigidBody*> stack;
  for (int i = 0; i < 3; ++i) stack.push_back(world.AddBody(&box, 1.0, btVector3(0, 0, 0.0499 + 0.0998 * i)));
  btRigidBody* sphere = world.AddBody(&ball, 1.0, btVector3(1, 0, 0.0495));
  for (btRigidBody* body : stack) body->forceActivationState(ACTIVE_TAG);
  sphere->forceActivationState(ACTIVE_TAG);
  world.Step(3000);
  for (btRigidBody* body : stack) EXPECT_FALSE(body->isActive());
  EXPECT_FALSE(sphere->isActive());
  // Resting heights: each contact carries the weight above it, and each compliant side of it
  // sinks by F·H/(E·A) with H = 5 cm: the ground contact (3 m·g, one side) and the two box–box
  // contacts (2 m·g and m·g, two sides each) add up to (3 + 2·2 + 2·1)·m·g·H/(E·A).
  const double top_z = stack[2]->getWorldTransform().getOrigin().z();
  const double expected_top = 0.25 - (3 + 4 + 2) * 9.81 * 0.05 / (1e6 * 0.01);
  std::printf("stack of three: top box centre at %.6f m (springs in series: %.6f m)\n", top_z, expected_top);
  EXPECT_NEAR(top_z, expected_top, 0.05 * (0.25 - expected_top));

  sphere->activate();
  sphere->applyCentralImpulse(btVector3(0.5, 0, 0));
  world.Step(100);
  EXPECT_GT(sphere->getWorldTransform().getOrigin().x(), 1.01);
  for (btRigidBody* body : stack) EXPECT_FALSE(body->isActive());
  EXPECT_EQ(stack[2]->getWorldTransform().getOrigin().z(), top_z);

  stack[2]->activate();
  stack[2]->applyCentralImpulse(btVector3(0.3, 0, 0));
  world.Step(1);
  for (btRigidBody* body : stack) EXPECT_TRUE(body->isActive());
  world.Step(200);
  EXPECT_GT(stack[2]->getWorldTransform().getOrigin().x(), 1e-3);
  // Still stacked: slid a few millimetres along the middle box, centre height within 1 mm.
  EXPECT_NEAR(stack[2]->getWorldTransform().getOrigin().z(), top_z, 1e-3);
  EXPECT_LT(stack[2]->getWorldTransform().getOrigin().x() - stack[1]->getWorldTransform().getOrigin().x(), 0.03);
}

TEST(ContinuityTest, ADraggedBoxHasNoForceJumps) {
  // A rigid box moved kinematically across a coarse compliant block at 1 mm per step (and at 0.1 mm
  // per step), tilted so its faces cut the tets at changing places: the largest step change of the
  // patch's elastic wrench scales with the step (the force itself stays constant in the block's
  // linear field; its moment about the origin moves with the box).
  btBoxShape block(btVector3(0.3, 0.3, 0.1));
  const ScopedHydroelastic tag(&block, Compliant(1e6, 0.1, 0.0));
  btBoxShape box(btVector3(0.05, 0.04, 0.025));
  auto largest_change = [&](double step_m, int steps) {
    TestWorld world;
    world.AddBody(&block, 0, btVector3(0, 0, -0.1));
    // A kinematic body, in the default filter group so it meets the static block.
    btRigidBody::btRigidBodyConstructionInfo info(0, nullptr, &box);
    btRigidBody mover_body(info);
    btRigidBody* mover = &mover_body;
    mover->setCollisionFlags(mover->getCollisionFlags() | btCollisionObject::CF_KINEMATIC_OBJECT);
    mover->setActivationState(DISABLE_DEACTIVATION);
    world.world()->addRigidBody(mover, btBroadphaseProxy::DefaultFilter, btBroadphaseProxy::AllFilter);
    double largest = 0;
    btVector3 last(0, 0, 0);
    for (int i = 0; i <= steps; ++i) {
      btTransform pose(btQuaternion(btVector3(1, 2, 0), 0.05), btVector3(-0.1 + step_m * i, 0.3 * step_m * i, 0.015));
      mover->setWorldTransform(pose);
      world.Step(1);
      const auto patches = hydroGetContactPatches(world.dispatcher(), 1e-3);
      if (patches.size() != 1u) {
        world.world()->removeRigidBody(mover);
        return -1.0;
      }
      const ContactWrench w = CalcContactWrench(*patches[0].m_surface, {}, {}, {});
      const btVector3 f(w.f_A_W.x(), w.f_A_W.y(), w.f_A_W.z());
      const btVector3 tau(w.tau_A_W.x(), w.tau_A_W.y(), w.tau_A_W.z());
      const btVector3 wrench = f + tau / 0.1;  // torque in N at a 10 cm lever
      if (i > 0) largest = std::max<double>(largest, (wrench - last).length());
      last = wrench;
    }
    world.world()->removeRigidBody(mover);
    return largest;
  };
  const double coarse = largest_change(1e-3, 200), fine = largest_change(1e-4, 2000);
  std::printf("dragged box: largest step change of the wrench %.3e N (1 mm steps), %.3e N (0.1 mm steps)\n", coarse,
              fine);
  ASSERT_GT(coarse, 0);
  EXPECT_LT(fine, 0.2 * coarse + 1e-9);
}

TEST(BadInputTest, NanPosesZeroSizeShapesAndDeepPenetrationDoNotBreakTheWorld) {
  btSphereShape ball(0.05);
  const ScopedHydroelastic tag(&ball, Compliant(1e5, 0.05 / 4, 5.0));
  btSphereShape empty_ball(0.0);
  const ScopedHydroelastic empty_tag(&empty_ball, Compliant(1e5));
  btBoxShape big(btVector3(0.5, 0.5, 0.5));
  btStaticPlaneShape ground(btVector3(0, 0, 1), 0);
  TestWorld world;
  world.AddBody(&ground, 0, btVector3(0, 0, 0));
  btRigidBody* healthy = world.AddBody(&ball, 1.0, btVector3(2, 0, 0.0495));
  btRigidBody* degenerate = world.AddBody(&empty_ball, 1.0, btVector3(4, 0, 0.1));
  // Deep inside a static rigid box: the ball's centre 10 cm inside its top face.
  world.AddBody(&big, 0, btVector3(-2, 0, 0.5));
  btRigidBody* buried = world.AddBody(&ball, 1.0, btVector3(-2, 0, 0.9));
  world.Step(200);
  for (btRigidBody* body : {healthy, degenerate, buried}) {
    EXPECT_TRUE(std::isfinite(body->getWorldTransform().getOrigin().length()));
    EXPECT_TRUE(std::isfinite(body->getLinearVelocity().length()));
  }
  // A non-finite pose: the pair gives no contact instead of NaN forces, the rest goes on.
  btTransform nan_pose = healthy->getWorldTransform();
  nan_pose.setOrigin(btVector3(std::nan(""), 0, 0.05));
  buried->setWorldTransform(nan_pose);
  world.Step(5);
  for (const btHydroelasticContactPatch& patch : hydroGetContactPatches(world.dispatcher(), 1e-3))
    EXPECT_TRUE(std::isfinite(patch.m_forceOnBody0.length()));
  EXPECT_TRUE(std::isfinite(healthy->getWorldTransform().getOrigin().length()));
  // Still resting on its patch (about 5.7 mm deep for this E and weight).
  EXPECT_NEAR(healthy->getWorldTransform().getOrigin().z(), 0.0443, 1e-3);
}

// Expects `set` to throw InvalidInput whose message names `setter`.
template <typename Set>
void ExpectRefused(Set set, const std::string& setter, double value) {
  try {
    set();
    ADD_FAILURE() << setter << " accepted " << value;
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find(setter), std::string::npos) << e.what();
  }
}

// Either patch solver refuses every bad value, naming the setter, and keeps the settings it had.
template <class Solver>
void ExpectSettersRefuseBadValues(Solver* solver) {
  const double nan = std::nan(""), inf = std::numeric_limits<double>::infinity();
  const int sweeps = solver->minPatchSweeps();
  const btScalar beta = solver->nearRigidThreshold(), sigma = solver->stictionRegularization();
  for (const double bad : {-1.0, nan, inf})
    ExpectRefused([&] { solver->setNearRigidThreshold(bad); }, "setNearRigidThreshold", bad);
  for (const double bad : {0.0, -1e-3, nan, inf})
    ExpectRefused([&] { solver->setStictionRegularization(bad); }, "setStictionRegularization", bad);
  ExpectRefused([&] { solver->setMinPatchSweeps(-1); }, "setMinPatchSweeps", -1);
  EXPECT_EQ(solver->minPatchSweeps(), sweeps);
  EXPECT_EQ(solver->nearRigidThreshold(), beta);
  EXPECT_EQ(solver->stictionRegularization(), sigma);
}

TEST(BadInputTest, PatchSolverSettersRefuseBadValuesAndKeepTheirSetting) {
  btHydroelasticMultiBodyConstraintSolver multibody;
  ExpectSettersRefuseBadValues(&multibody);
  EXPECT_NO_THROW(multibody.setNearRigidThreshold(0));  // 0: the near-rigid regime off
  EXPECT_EQ(multibody.nearRigidThreshold(), 0);

  // The rigid solver in a world: refused values leave the solver as it was, and a box lands and
  // rests on its patch (before, the bad value was stored and the first solve threw).
  btBoxShape box(btVector3(0.05, 0.05, 0.05));
  const ScopedHydroelastic tag(&box, Compliant(1e6, 0.1, 5.0));
  btStaticPlaneShape ground(btVector3(0, 0, 1), 0);
  TestWorld world;
  auto* solver = dynamic_cast<btHydroelasticConstraintSolver*>(world.solver());
  ASSERT_NE(solver, nullptr);
  ExpectSettersRefuseBadValues(solver);
  world.AddBody(&ground, 0, btVector3(0, 0, 0));
  btRigidBody* body = world.AddBody(&box, 1.0, btVector3(0, 0, 0.1));
  EXPECT_NO_THROW(world.Step(120, 1.0 / 60));
  // At rest on its face: a 1 kg, 10 cm box at E = 1e6 Pa sinks well under a millimetre.
  EXPECT_NEAR(body->getWorldTransform().getOrigin().z(), 0.05, 1e-3);
  EXPECT_LT(body->getLinearVelocity().length(), 1e-2);
}

TEST(DeepOverlapTest, ABodyWhollyInsideARigidBoxIsPushedOutByBulletsContact) {
  // A compliant box pushed wholly inside the rigid ground in one step (6 m/s at 60 Hz moves 0.1 m)
  // meets no rigid surface: its patch is empty. Bullet's own contact takes over until the patch
  // exists again, as stock Bullet would push it out; without it the box falls forever.
  btBoxShape box(btVector3(0.1, 0.1, 0.1));
  const ScopedHydroelastic tag(&box, Compliant(1e8));
  btBoxShape ground(btVector3(5, 5, 5));
  TestWorld world;
  world.AddBody(&ground, 0, btVector3(0, 0, -5));
  btRigidBody* body = world.AddBody(&box, 1.0, btVector3(0, 0, -0.12));  // its top 2 cm below the floor's
  for (int i = 0; i < 120; ++i) {
    world.Step(1, 1.0 / 60);
    ASSERT_GT(body->getCenterOfMassPosition().z(), -0.2) << "lost through the floor at step " << i;
  }
  // Back on the floor at its static depth (µm at 1e8 Pa; 1 mm tolerance), at rest, and on its
  // patch alone: Bullet's points are gone once the patch carries the box.
  EXPECT_NEAR(body->getCenterOfMassPosition().z(), 0.1, 1e-3);
  EXPECT_LT(body->getLinearVelocity().length(), 0.01);
  const auto patches = hydroGetContactPatches(world.dispatcher(), 1.0 / 60);
  ASSERT_EQ(patches.size(), 1u);
  EXPECT_NEAR(std::abs(patches[0].m_forceOnBody0.z()), 9.81, 0.1);
  int bullet_points = 0;
  for (int m = 0; m < world.dispatcher()->getNumManifolds(); ++m) {
    const btPersistentManifold* manifold = world.dispatcher()->getManifoldByIndexInternal(m);
    if (!hydro::bullet::PatchRegistry::Instance().StateOfManifold(manifold))
      bullet_points += manifold->getNumContacts();
  }
  EXPECT_EQ(bullet_points, 0);
}

// Bullet collides a hull as its points' hull grown by its collision margin, and its distances
// count that margin; the patch is of the points' hull. A 2 kg hull crate 0.2 m across, dropped
// 5 cm onto a plane, 1 s at 1 ms: untagged on a compliant slab (E = 1e7 Pa, H = 0.1 m), and tagged
// compliant (E = 1e7 Pa) on a rigid plane, with PyBullet's 0.001 m margin and Bullet's default
// 0.04 m (which hulls read from .bullet files keep). Either way its face presses in by
// m·g·ℓ/(E·A) = 4.905 µm (slab: p = E·d/H; hull: its field grows as E·d/ℓ with ℓ = 0.1 m from the
// centroid to the face; both 0.1 m here) and rests on its patch, which carries its weight. Before
// Bullet's deep-overlap points discounted the margins, it rested on 4 of them, within the margin
// of the plane (bottom 1 mm or 4 cm up), and had no patch.
TEST(DeepOverlapTest, AHullWithinItsMarginOfThePlaneRestsOnItsPatch) {
  const double mass = 2, g = 9.81, side = 0.2, E = 1e7, H = 0.1;
  const double sink = mass * g * (side / 2) / (E * side * side);  // 4.905e-6 m (H = side/2)
  btHydroelasticProperties slab = Compliant(E);
  slab.m_slabThickness = H;
  for (const bool crate_compliant : {false, true}) {
    for (const double margin : {0.001, 0.04}) {
      SCOPED_TRACE(
          std::string(crate_compliant ? "compliant crate on a rigid plane" : "rigid crate on a compliant slab") +
          ", margin " + std::to_string(margin));
      btConvexHullShape hull;
      for (int i = 0; i < 8; ++i)
        hull.addPoint(btVector3(i & 1 ? 0.1 : -0.1, i & 2 ? 0.1 : -0.1, i & 4 ? 0.1 : -0.1), false);
      hull.setMargin(margin);
      hull.recalcLocalAabb();
      btStaticPlaneShape ground(btVector3(0, 0, 1), 0);
      const ScopedHydroelastic tag(crate_compliant ? static_cast<btCollisionShape*>(&hull) : &ground,
                                   crate_compliant ? Compliant(E) : slab);
      TestWorld world;
      world.AddBody(&ground, 0, btVector3(0, 0, 0));
      btRigidBody* crate = world.AddBody(&hull, mass, btVector3(0, 0, side / 2 + 0.05));
      const double dt = 1e-3;
      world.Step(1000, dt);
      const double bottom = crate->getCenterOfMassPosition().z() - side / 2;
      const auto patches = hydroGetContactPatches(world.dispatcher(), dt);
      int bullet_points = 0;
      for (int m = 0; m < world.dispatcher()->getNumManifolds(); ++m) {
        const btPersistentManifold* manifold = world.dispatcher()->getManifoldByIndexInternal(m);
        if (!bullet::PatchRegistry::Instance().StateOfManifold(manifold)) bullet_points += manifold->getNumContacts();
      }
      std::printf("%s, margin %.3f m: bottom %.6e m, %zu patch(es), %d Bullet points\n",
                  crate_compliant ? "compliant crate" : "rigid crate", margin, bottom, patches.size(), bullet_points);
      EXPECT_EQ(bullet_points, 0);
      EXPECT_LT(crate->getLinearVelocity().length(), 1e-3);
      EXPECT_NEAR(bottom, -sink, 0.01 * sink);  // was +margin
      EXPECT_EQ(patches.size(), 1u);
      if (patches.size() != 1) continue;
      std::printf("  patch: %d polygons, %.6f m², %.5f N\n", patches[0].m_surface->num_polygons(), patches[0].m_area,
                  std::abs(patches[0].m_forceOnBody0.z()));
      EXPECT_GT(patches[0].m_surface->num_polygons(), 4);
      EXPECT_NEAR(patches[0].m_area, side * side, 1e-3 * side * side);
      EXPECT_NEAR(std::abs(patches[0].m_forceOnBody0.z()), mass * g, 0.01 * mass * g);
    }
  }
}

}  // namespace
}  // namespace hydro
