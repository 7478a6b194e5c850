// Bullet's contact callbacks on patch contact (plugin/manifold_emitter.h): started and ended once
// per patch lifetime, added per point for objects that ask for it.
#include <gtest/gtest.h>

#include <BulletCollision/CollisionDispatch/btManifoldResult.h>
#include <btBulletDynamicsCommon.h>

#include <cstdio>
#include <memory>

#include "plugin/btHydroelasticWorldState.h"
#include "test_world.h"

namespace hydro {
namespace {

int g_started = 0, g_ended = 0, g_added = 0;

void CountStarted(btPersistentManifold* const&) { ++g_started; }
void CountEnded(btPersistentManifold* const&) { ++g_ended; }
bool CountAdded(btManifoldPoint&, const btCollisionObjectWrapper*, int, int, const btCollisionObjectWrapper*, int,
                int) {
  ++g_added;
  return false;
}

// Installs the counting callbacks for the test's life.
class ScopedCallbacks {
 public:
  ScopedCallbacks() {
    g_started = g_ended = g_added = 0;
    gContactStartedCallback = CountStarted;
    gContactEndedCallback = CountEnded;
    gContactAddedCallback = CountAdded;
  }
  ~ScopedCallbacks() {
    gContactStartedCallback = nullptr;
    gContactEndedCallback = nullptr;
    gContactAddedCallback = nullptr;
  }
};

// A compliant box set on the ground rests (its patch spans dozens of manifolds, refilled every
// step), is lifted clear, set down again, and the world goes while it rests: two contacts, each
// started and ended once.
TEST(ContactCallbacksTest, APatchStartsAndEndsOncePerContact) {
  ScopedCallbacks callbacks;
  btBoxShape box(btVector3(0.05, 0.05, 0.05)), ground(btVector3(1, 1, 1));
  test::ScopedHydroelastic tag(&box, test::Compliant(1e6, 0.01));
  {
    test::TestWorld world;
    world.SetMaxPatchPoints(0);  // hundreds of points: many manifolds
    world.AddBody(&ground, 0, btVector3(0.3, 0.1, -1));
    btRigidBody* body = world.AddBody(&box, 1, btVector3(0, 0, 0.05));
    world.Step(300);
    EXPECT_EQ(g_started, 1);
    EXPECT_EQ(g_ended, 0);
    EXPECT_EQ(g_added, 0);  // no object asked for it

    body->setGravity(btVector3(0, 0, 0));
    body->setLinearVelocity(btVector3(0, 0, 0));
    body->setAngularVelocity(btVector3(0, 0, 0));
    body->setWorldTransform(btTransform(btQuaternion::getIdentity(), btVector3(0, 0, 0.06)));
    world.Step(5);
    EXPECT_EQ(g_started, 1);
    EXPECT_EQ(g_ended, 1);

    // Set down touching (dropped, the undamped box would bounce: real ends and starts).
    body->setGravity(world.world()->getGravity());
    body->setWorldTransform(btTransform(btQuaternion::getIdentity(), btVector3(0, 0, 0.05)));
    world.Step(300);
    EXPECT_EQ(g_started, 2);
    EXPECT_EQ(g_ended, 1);
  }
  EXPECT_EQ(g_ended, 2);  // the world went while the box rested
}

// With CF_CUSTOM_MATERIAL_CALLBACK on one object, gContactAddedCallback sees every patch point
// written, as Bullet calls it for every point its own contact writes.
TEST(ContactCallbacksTest, AddedFiresForEveryPointOfObjectsThatAskForIt) {
  ScopedCallbacks callbacks;
  btBoxShape box(btVector3(0.05, 0.05, 0.05)), ground(btVector3(1, 1, 1));
  test::ScopedHydroelastic tag(&box, test::Compliant(1e6));
  test::TestWorld world;
  world.AddBody(&ground, 0, btVector3(0.3, 0.1, -1));
  btRigidBody* body = world.AddBody(&box, 1, btVector3(0, 0, 0.05));
  world.Step(100);
  EXPECT_EQ(g_added, 0);
  body->setCollisionFlags(body->getCollisionFlags() | btCollisionObject::CF_CUSTOM_MATERIAL_CALLBACK);
  world.state().resetStats();
  world.Step(10);
  EXPECT_GT(g_added, 0);
  EXPECT_EQ(g_added, world.state().getStats().m_points);
}

bool Frictionless(btManifoldPoint& point, const btCollisionObjectWrapper*, int, int, const btCollisionObjectWrapper*,
                  int, int) {
  point.m_combinedFriction = 0;
  return true;
}

// A program's gContactAddedCallback that sets a point's friction, as Bullet users make ice: the
// patch solver takes the points' friction. A box sliding at 1 m/s (μ = 0.5 by the product rule)
// stops in 0.2 s and rests; with its points made frictionless it keeps its speed.
TEST(ContactCallbacksTest, FrictionSetByTheAddedCallbackIsUsed) {
  btBoxShape box(btVector3(0.05, 0.05, 0.05)), ground(btVector3(1, 1, 1));
  test::ScopedHydroelastic tag(&box, test::Compliant(1e6));
  double speed[2];
  for (int ice = 0; ice < 2; ++ice) {
    gContactAddedCallback = ice ? Frictionless : nullptr;
    test::TestWorld world;
    world.AddBody(&ground, 0, btVector3(0.3, 0.1, -1))->setFriction(1.0);
    btRigidBody* body = world.AddBody(&box, 1, btVector3(0, 0, 0.0499));
    body->setFriction(0.5);
    body->setCollisionFlags(body->getCollisionFlags() | btCollisionObject::CF_CUSTOM_MATERIAL_CALLBACK);
    world.Step(100);
    body->setLinearVelocity(btVector3(1, 0, 0));
    world.Step(500);
    speed[ice] = body->getLinearVelocity().length();
  }
  gContactAddedCallback = nullptr;
  std::printf("box launched at 1 m/s: %.3e m/s after 0.5 s with friction, %.4f m/s on ice\n", speed[0], speed[1]);
  EXPECT_LT(speed[0], 1e-3);  // 1 m/s − μ·g·t < 0 from t = 0.2 s, then it rocks to rest
  EXPECT_NEAR(speed[1], 1.0, 1e-3);
}

}  // namespace
}  // namespace hydro
