// A patch's points reach Bullet through manifolds the pair holds; the pair gives back the ones it
// stops using, so Bullet's island manager and solver see only what the live patches need.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "plugin/btHydroelasticContactQuery.h"
#include "plugin/manifold_emitter.h"
#include "plugin/patch_registry.h"
#include "plugin/patch_state.h"
#include "test_world.h"
#include "tests/bullet_precision.h"

namespace hydro {
namespace {

using test::TestWorld;

// A compliant 10 cm box (fine mesh: a face patch has many points) on a rigid floor.
class BoxOnFloor {
 public:
  explicit BoxOnFloor(double height) {
    // The floor's top face is two triangles split along x = y; off centre, so that the box's
    // vertices on its own x = y diagonal do not lie on the split, where 1e-14 m of drift changes
    // which polygons it cuts (and the number of points, 600 to 762 at the same height).
    world_.AddBody(&floor_, 0, btVector3(0.3, 0.1, -1));
    body_ = world_.AddBody(&box_, 1.0, btVector3(0, 0, height));
  }
  TestWorld& world() { return world_; }
  btRigidBody* body() { return body_; }

 private:
  btBoxShape box_{btVector3(0.05, 0.05, 0.05)};
  btBoxShape floor_{btVector3(1, 1, 1)};
  const test::ScopedHydroelastic tag_{&box_, test::Compliant(1e6, 0.01)};
  TestWorld world_;
  btRigidBody* body_{nullptr};
};

int PatchManifolds(btDispatcher* dispatcher) {
  int count = 0;
  for (int m = 0; m < dispatcher->getNumManifolds(); ++m)
    count += bullet::PatchRegistry::Instance().StateOfManifold(dispatcher->getManifoldByIndexInternal(m)) != nullptr;
  return count;
}

// A polygon's fan points (hydro/point_approximation.h) share its two elements; each carries its own
// impulse to the next step under its own key. With the key of the elements alone, a point whose
// predecessor slot changed (a fan triangle appearing) found the first of its polygon's entries.
// Keys for fans of up to eight triangles, against a tet, a triangle and a half-space (−1), and for
// neighbouring elements, are all distinct.
TEST(ManifoldEmitterTest, EveryPointOfAPolygonsFanHasItsOwnWarmStartKey) {
  std::set<std::uint64_t> keys;
  int made = 0;
  for (const int element_A : {0, 1, 12345, 1 << 28})
    for (const int element_B : {-1, 0, 1, 777})
      for (int fan_triangle = 0; fan_triangle < 8; ++fan_triangle, ++made)
        keys.insert(bullet::ElementPairKey(element_A, element_B, fan_triangle));
  EXPECT_EQ(static_cast<int>(keys.size()), made);
  EXPECT_EQ(bullet::ElementPairKey(3, 4), bullet::ElementPairKey(3, 4, 0));  // one point a polygon: as before
}

TEST(ManifoldEmitterTest, PairReleasesManifoldsItNoLongerNeedsAfterAWindow) {
  // Whole patches: the box's face patch has many points, in many manifolds.
  BoxOnFloor scene(0.05);
  TestWorld& world = scene.world();
  world.SetMaxPatchPoints(0);
  btRigidBody* body = scene.body();
  world.Step(100);
  const int resting = PatchManifolds(world.dispatcher());
  ASSERT_GT(resting, 4);
  EXPECT_NEAR(body->getCenterOfMassPosition().z(), 0.05, 1e-3);

  // Held 1 mm above the floor (no gravity, no speed): the pair stays in the broadphase, the patch
  // is empty. The manifolds are kept for a window, then released, all of them.
  body->setGravity(btVector3(0, 0, 0));
  body->setLinearVelocity(btVector3(0, 0, 0));
  body->setAngularVelocity(btVector3(0, 0, 0));
  body->setWorldTransform(btTransform(btQuaternion::getIdentity(), btVector3(0, 0, 0.051)));
  world.Step(hydro::bullet::kManifoldReleaseSteps - 1);
  EXPECT_EQ(PatchManifolds(world.dispatcher()), resting) << "released within the window";
  world.Step(1);
  // What is left is the one manifold of Bullet's own algorithm for the pair, empty.
  EXPECT_EQ(PatchManifolds(world.dispatcher()), 0);
  ASSERT_EQ(world.dispatcher()->getNumManifolds(), 1);
  EXPECT_EQ(world.dispatcher()->getManifoldByIndexInternal(0)->getNumContacts(), 0);
  EXPECT_NEAR(body->getCenterOfMassPosition().z(), 0.051, 1e-9);

  // Let down again: new manifolds carry the patch, and the box rests as before.
  body->setGravity(world.world()->getGravity());
  world.Step(200);
  // As many as the patch's points need, four a manifold. Their number depends on the exact rest
  // pose: in Bullet's float build, whose poses round to 6e-9 m here, the same box rests on the
  // points of 221 manifolds before and of 187 after (155 both times in double).
  const bullet::PatchState* state = nullptr;
  for (int m = 0; m < world.dispatcher()->getNumManifolds() && !state; ++m)
    state = bullet::PatchRegistry::Instance().StateOfManifold(world.dispatcher()->getManifoldByIndexInternal(m));
  ASSERT_NE(state, nullptr);
  EXPECT_EQ(PatchManifolds(world.dispatcher()), (static_cast<int>(state->points.size()) + 3) / 4);
  EXPECT_NEAR(PatchManifolds(world.dispatcher()), resting, test::BulletOr(0.05, 0.25) * resting);
  EXPECT_NEAR(body->getCenterOfMassPosition().z(), 0.05, 1e-3);
  EXPECT_LT(body->getLinearVelocity().length(), 1e-3);
}

TEST(ManifoldEmitterTest, ManifoldsFollowTheLargestPatchOfTheWindow) {
  // A patch that shrinks for good (whole face to the default 16-point reduction) ends with the
  // manifolds the smaller patch needs: at most 16 points, in at most 4 manifolds.
  BoxOnFloor scene(0.05);
  TestWorld& world = scene.world();
  const int default_max_points = world.state().getDefaultMaxPatchPoints();
  world.SetMaxPatchPoints(0);
  world.Step(20);
  world.SetMaxPatchPoints(default_max_points);
  ASSERT_GT(PatchManifolds(world.dispatcher()), 4);
  // Within two windows: the window running when the patch shrank may have started while the whole
  // patch flickered, and then releases down to the whole patch's need first.
  world.Step(2 * hydro::bullet::kManifoldReleaseSteps);
  EXPECT_LE(PatchManifolds(world.dispatcher()), (default_max_points + 3) / 4);
  EXPECT_GE(PatchManifolds(world.dispatcher()), 1);
}

TEST(ManifoldEmitterTest, APatchIsMergedFromItsFirstStep) {
  // The world's default point budget holds from a pair's first step
  // (a 1,000-brick wall built at rest spent minutes on its first step's whole patches).
  BoxOnFloor scene(0.0499);
  TestWorld& world = scene.world();
  world.Step(1);
  const auto patches = hydroGetContactPatches(world.dispatcher(), 1e-3);
  ASSERT_EQ(patches.size(), 1u);
  const int default_max_points = world.state().getDefaultMaxPatchPoints();
  EXPECT_EQ(default_max_points, 16);
  EXPECT_LE(patches[0].m_numSolverPoints, default_max_points);
  EXPECT_GE(patches[0].m_numSolverPoints, 4);
  EXPECT_LE(PatchManifolds(world.dispatcher()), (default_max_points + 3) / 4);
}

// A pair's patch state, its two bodies and a dispatcher for its manifolds, with no world: what
// EmitPoints and HarvestWarmStart take.
struct EmittingPair {
  EmittingPair() {
    body0.setCollisionShape(&shape);
    body1.setCollisionShape(&shape);
    state.dispatcher = &dispatcher;
    state.body0 = &body0;
    state.body1 = &body1;
  }
  // Gives the manifolds back, and unmaps them, however the test ends.
  ~EmittingPair() { bullet::ReleaseManifolds(&state); }
  btDefaultCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher{&configuration};
  btSphereShape shape{0.1};  // the dispatcher reads the bodies' shapes for a new manifold
  btCollisionObject body0, body1;
  bullet::PatchState state;
};

// Each point starts from what its own element pair carried out of the last solve, whatever order
// the points come in: the same order (a kept surface), reversed, or with new pairs among them.
TEST(ManifoldEmitterTest, EachPointStartsFromItsOwnElementPairsImpulse) {
  EmittingPair pair;
  bullet::PatchState& state = pair.state;
  auto point = [](int element_A, int element_B) {
    ContactPoint p;
    p.p_WC = Vector3(0.01 * element_A, 0.02 * element_B, 0);
    p.stiffness_N_per_m = 1e5;
    p.element_A = element_A;
    p.element_B = element_B;
    return p;
  };
  // The impulse the last solve gave element pair (a, b), as the solver would leave it (exact in
  // float as in double).
  auto impulse_of = [](int element_A, int element_B) { return btScalar(1 + element_A + element_B / 8.0); };
  for (int a = 0; a < 10; ++a) state.points.push_back(point(a, 9 - a));
  bullet::EmitPoints(&state);
  auto solve = [&] {
    for (int k = 0; k < static_cast<int>(state.points.size()); ++k)
      state.manifolds[k / 4]->getContactPoint(k % 4).m_appliedImpulse =
          impulse_of(state.points[k].element_A, state.points[k].element_B);
  };
  auto expect_warm_started = [&](const char* what) {
    for (int k = 0; k < static_cast<int>(state.points.size()); ++k) {
      const ContactPoint& p = state.points[k];
      const bool carried = p.element_A < 10;  // the pairs of the first emission
      EXPECT_EQ(state.manifolds[k / 4]->getContactPoint(k % 4).m_appliedImpulse,
                carried ? impulse_of(p.element_A, p.element_B) : btScalar(0))
          << what << ", point " << k;
    }
  };
  solve();
  bullet::HarvestWarmStart(&state);
  bullet::EmitPoints(&state);
  expect_warm_started("same order");
  solve();
  bullet::HarvestWarmStart(&state);
  std::reverse(state.points.begin(), state.points.end());
  bullet::EmitPoints(&state);
  expect_warm_started("reversed");
  solve();
  bullet::HarvestWarmStart(&state);
  state.points.insert(state.points.begin() + 3, point(20, 1));
  state.points.push_back(point(21, 2));
  bullet::EmitPoints(&state);
  expect_warm_started("two new pairs");
}

// Two points may name the same element pair (a reduced point takes its strongest polygon's pair,
// and two cells' pieces may name the same elements). Emitted again in the same order (a kept
// surface), each starts from its own impulse, though their keys agree; in another order, each
// starts from one of the impulses its key carried, and the others from their own.
TEST(ManifoldEmitterTest, PointsThatShareAnElementPairStartFromThatPairsImpulses) {
  EmittingPair pair;
  bullet::PatchState& state = pair.state;
  const int pairs[6][2] = {{0, 0}, {1, 1}, {3, 6}, {3, 6}, {5, 5}, {3, 6}};
  for (int k = 0; k < 6; ++k) {
    ContactPoint p;
    p.p_WC = Vector3(0.01 * k, 0, 0);
    p.stiffness_N_per_m = 1e5;
    p.element_A = pairs[k][0];
    p.element_B = pairs[k][1];
    state.points.push_back(p);
  }
  bullet::EmitPoints(&state);
  auto impulse_at = [](int k) { return btScalar(1 + k); };  // by place: the shared pair's three differ
  auto solve = [&] {
    for (int k = 0; k < 6; ++k) state.manifolds[k / 4]->getContactPoint(k % 4).m_appliedImpulse = impulse_at(k);
  };
  auto started_from = [&](int k) { return state.manifolds[k / 4]->getContactPoint(k % 4).m_appliedImpulse; };
  solve();
  bullet::HarvestWarmStart(&state);
  bullet::EmitPoints(&state);
  for (int k = 0; k < 6; ++k) EXPECT_EQ(started_from(k), impulse_at(k)) << "same order, point " << k;
  solve();
  bullet::HarvestWarmStart(&state);
  std::reverse(state.points.begin(), state.points.end());  // was point 5 - k
  bullet::EmitPoints(&state);
  for (int k = 0; k < 6; ++k) {
    const int was = 5 - k;
    if (pairs[was][0] == 3) {
      EXPECT_TRUE(started_from(k) == impulse_at(2) || started_from(k) == impulse_at(3) ||
                  started_from(k) == impulse_at(5))
          << "reversed, point " << k << " of the shared pair: " << started_from(k);
    } else {
      EXPECT_EQ(started_from(k), impulse_at(was)) << "reversed, point " << k;
    }
  }
}

}  // namespace
}  // namespace hydro
