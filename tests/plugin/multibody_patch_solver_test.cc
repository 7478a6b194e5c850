// btHydroelasticMultiBodyConstraintSolver: Featherstone links get the rigid bodies' patch block
// (articulated mobility, near-rigid softening, speculative contact) at Bullet's 60 Hz step.
// Under btMultiBodyConstraintSolver a patch's points are Bullet rows solved one at a time: a
// Featherstone box resting on a rigid floor kept jittering at 3 cm/s (1e6–1e8 Pa) and 19 cm/s
// (1e10 Pa) after landing 1.3 cm deep.
#include <gtest/gtest.h>

#include <BulletDynamics/Featherstone/btMultiBody.h>
#include <BulletDynamics/Featherstone/btMultiBodyDynamicsWorld.h>
#include <BulletDynamics/Featherstone/btMultiBodyLinkCollider.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include "plugin/btHydroelasticContactQuery.h"
#include "plugin/btHydroelasticMultiBodyConstraintSolver.h"
#include "test_world.h"

namespace hydro {
namespace {

constexpr double kStep = 1.0 / 60;
constexpr double kGravity = 9.81;

// A multibody world with patch contact, a rigid ground box (top face at z = 0), and multibodies
// whose every link is a box collider.
class FeatherstoneWorld {
 public:
  FeatherstoneWorld() : dispatcher_(&configuration_), world_(&dispatcher_, &broadphase_, &solver_, &configuration_) {
    world_.setGravity(btVector3(0, 0, -kGravity));
    hydroConfigureSolverInfo(world_.getSolverInfo());
    btRigidBody::btRigidBodyConstructionInfo info(0, nullptr, &ground_shape_);
    info.m_startWorldTransform.setOrigin(btVector3(0, 0, -0.5));
    ground_ = std::make_unique<btRigidBody>(info);
    world_.addRigidBody(ground_.get());
  }
  ~FeatherstoneWorld() {
    for (auto& collider : colliders_) world_.removeCollisionObject(collider.get());
    for (auto& body : multibodies_) world_.removeMultiBody(body.get());
    world_.removeRigidBody(ground_.get());
  }

  // A chain of `links` + 1 boxes of half extents h and mass m each, side by side along x, joined by
  // revolute joints about y at their touching edges' midpoints, its base at p (floating).
  btMultiBody* AddChain(btBoxShape* box, double mass, int links, const btVector3& p) {
    const btVector3 h = box->getHalfExtentsWithMargin();
    btVector3 inertia;
    box->calculateLocalInertia(mass, inertia);
    multibodies_.push_back(std::make_unique<btMultiBody>(links, mass, inertia, false, false));
    btMultiBody* body = multibodies_.back().get();
    body->setBasePos(p);
    const btVector3 half_step(h.x(), 0, 0);
    for (int i = 0; i < links; ++i)
      body->setupRevolute(i, mass, inertia, i - 1, btQuaternion::getIdentity(), btVector3(0, 1, 0), half_step,
                          half_step, true);
    body->finalizeMultiDof();
    body->setCanSleep(false);
    body->setHasSelfCollision(false);
    world_.addMultiBody(body);
    btAlignedObjectArray<btQuaternion> scratch_q;
    btAlignedObjectArray<btVector3> scratch_m;
    body->forwardKinematics(scratch_q, scratch_m);
    for (int link = -1; link < links; ++link) {
      colliders_.push_back(std::make_unique<btMultiBodyLinkCollider>(body, link));
      btMultiBodyLinkCollider* collider = colliders_.back().get();
      collider->setCollisionShape(box);
      if (link < 0)
        body->setBaseCollider(collider);
      else
        body->getLink(link).m_collider = collider;
    }
    body->updateCollisionObjectWorldTransforms(scratch_q, scratch_m);
    for (int link = -1; link < links; ++link)
      world_.addCollisionObject(link < 0 ? body->getBaseCollider() : body->getLink(link).m_collider,
                                btBroadphaseProxy::DefaultFilter, btBroadphaseProxy::AllFilter);
    return body;
  }

  void Step(int steps) {
    for (int i = 0; i < steps; ++i) world_.stepSimulation(kStep, 0, kStep);
  }
  // The lowest point of any collider below the ground's top (m, ≥ 0).
  double Deepest() const {
    double deepest = 0;
    for (const auto& collider : colliders_) {
      btVector3 lo, hi;
      collider->getCollisionShape()->getAabb(collider->getWorldTransform(), lo, hi);
      deepest = std::max(deepest, -static_cast<double>(lo.z()));
    }
    return deepest;
  }
  // The fastest point speed of any link's centre.
  double FastestLink() const {
    double fastest = 0;
    for (const auto& body : multibodies_) {
      fastest = std::max(fastest, static_cast<double>(body->getBaseVel().length()));
      for (int i = 0; i < body->getNumLinks(); ++i)
        fastest = std::max(fastest, std::abs(static_cast<double>(body->getJointVel(i))) * 0.2 +
                                        static_cast<double>(body->getBaseVel().length()));
    }
    return fastest;
  }
  double NormalForceOnGround() {
    double fz = 0;
    for (const btHydroelasticContactPatch& patch : hydroGetContactPatches(&dispatcher_, kStep))
      fz += std::abs(patch.m_forceOnBody0.z());
    return fz;
  }
  btHydroelasticMultiBodyConstraintSolver& solver() { return solver_; }

 private:
  btHydroelasticCollisionConfiguration configuration_;
  btCollisionDispatcher dispatcher_;
  btDbvtBroadphase broadphase_;
  btHydroelasticMultiBodyConstraintSolver solver_;
  btMultiBodyDynamicsWorld world_;
  btBoxShape ground_shape_{btVector3(5, 5, 0.5)};
  std::unique_ptr<btRigidBody> ground_;
  std::vector<std::unique_ptr<btMultiBody>> multibodies_;
  std::vector<std::unique_ptr<btMultiBodyLinkCollider>> colliders_;
};

struct Record {
  double fastest{0};       // over the run
  double deepest{0};       // over the run
  double late_fastest{0};  // over its last second
};

// Steps for three seconds.
Record RunThreeSeconds(FeatherstoneWorld* world) {
  Record record;
  for (int s = 0; s < 180; ++s) {
    world->Step(1);
    record.fastest = std::max(record.fastest, world->FastestLink());
    record.deepest = std::max(record.deepest, world->Deepest());
    if (s >= 120) record.late_fastest = std::max(record.late_fastest, world->FastestLink());
  }
  return record;
}

// A lone Featherstone base (a 0.2 m, 1 kg compliant box) dropped from 0.4 m onto the rigid floor at
// 60 Hz: lands without sinking or rebounding, and rests still, at every stiffness; and rests at
// the height the same box reaches as a rigid body under btHydroelasticConstraintSolver (a lone
// base's articulated mobility is the rigid body's).
TEST(MultibodyPatchSolverTest, AFeatherstoneBoxLandsAndRestsAt60HzAtEveryStiffness) {
  for (double E : {1e6, 1e8, 1e10}) {
    btBoxShape box(btVector3(0.1, 0.1, 0.1));
    const test::ScopedHydroelastic tag(&box, test::Compliant(E));
    FeatherstoneWorld world;
    btMultiBody* body = world.AddChain(&box, 1.0, 0, btVector3(0, 0, 0.5));
    const double free_fall = std::sqrt(2 * kGravity * 0.4) + kGravity * kStep;
    const Record run = RunThreeSeconds(&world);
    const double fastest = run.fastest, deepest = run.deepest, late_fastest = run.late_fastest;
    const double rest_depth = 0.1 - body->getBasePos().z();
    const double force = world.NormalForceOnGround();

    btBoxShape rigid_box(btVector3(0.1, 0.1, 0.1));
    const test::ScopedHydroelastic rigid_tag(&rigid_box, test::Compliant(E));
    btBoxShape ground(btVector3(5, 5, 0.5));
    test::TestWorld rigid_world;
    rigid_world.AddBody(&ground, 0, btVector3(0, 0, -0.5));
    btRigidBody* rigid = rigid_world.AddBody(&rigid_box, 1.0, btVector3(0, 0, 0.5));
    rigid_world.Step(180, kStep);
    const double rigid_rest_depth = 0.1 - rigid->getWorldTransform().getOrigin().z();
    std::printf(
        "E = %.0e: fastest %.3f m/s (free fall %.3f), deepest %.2e m, rest depth %.2e m (rigid body %.2e m), "
        "speed in the last second %.2e m/s, floor force %.4f N (weight %.4f N)\n",
        E, fastest, free_fall, deepest, rest_depth, rigid_rest_depth, late_fastest, force, kGravity);
    EXPECT_LT(fastest, free_fall);
    EXPECT_LT(deepest, std::max(rest_depth, 0.0) + 1e-3);
    EXPECT_LT(late_fastest, 1e-3);
    EXPECT_NEAR(rest_depth, rigid_rest_depth, 1e-6);
    EXPECT_NEAR(force / kGravity, 1.0, 0.01);
  }
}

// A floating chain of three 0.2 m boxes joined by two hinges, dropped flat from 5 cm at 60 Hz:
// three patches on three links of one multibody (the block is then solved a few Newton steps a
// sweep, the sweeps coupling the links). It comes to rest lying flat, the floor carrying its weight.
TEST(MultibodyPatchSolverTest, AHingedChainOfStiffBoxesLandsFlatAndRests) {
  for (double E : {1e6, 1e8, 1e10}) {
    btBoxShape box(btVector3(0.1, 0.1, 0.1));
    const test::ScopedHydroelastic tag(&box, test::Compliant(E));
    FeatherstoneWorld world;
    btMultiBody* chain = world.AddChain(&box, 1.0, 2, btVector3(0, 0, 0.15));
    const Record run = RunThreeSeconds(&world);
    const double fastest = run.fastest, deepest = run.deepest, late_fastest = run.late_fastest;
    const double force = world.NormalForceOnGround();
    const double bend = std::max(std::abs(chain->getJointPos(0)), std::abs(chain->getJointPos(1)));
    std::printf(
        "E = %.0e: fastest %.3f m/s, deepest %.2e m, last-second speed %.2e m/s, hinge angles ≤ %.2e rad, "
        "floor force %.4f N (weight %.4f N), Newton iterations last step %d\n",
        E, fastest, deepest, late_fastest, bend, force, 3 * kGravity, world.solver().lastNewtonIterations());
    EXPECT_EQ(world.solver().lastLinkPatches(), 3);
    EXPECT_LT(fastest, std::sqrt(2 * kGravity * 0.05) + kGravity * kStep);
    EXPECT_LT(deepest, 1e-3);
    EXPECT_LT(late_fastest, 1e-3);
    EXPECT_LT(bend, 1e-3);
    EXPECT_NEAR(force / (3 * kGravity), 1.0, 0.01);
  }
}

// A square pyramid of 30 Featherstone bases (0.2 m, 1 kg compliant boxes, 4 layers, 1 mm apart in
// a layer) at rest at 1e8 Pa and 60 Hz: one island of 180 unknowns, at least reuse_factorization_from (60), so each
// step's Newton systems are preconditioned by the last factorization (as
// StiffScenesTest.APyramidAtRestReusesItsFactorization for rigid bodies). Tolerance: at most 2
// factorizations in the last 30 of 210 steps (measured 0, with 58 Newton iterations; 30 and 30
// when each base's mobility was factored by an eigenbasis that turned with round-off).
TEST(MultibodyPatchSolverTest, APyramidOfFeatherstoneBasesAtRestReusesItsFactorization) {
  btBoxShape box(btVector3(0.1, 0.1, 0.1));
  const test::ScopedHydroelastic tag(&box, test::Compliant(1e8));
  FeatherstoneWorld world;
  constexpr int kLayers = 4;
  constexpr double kPitch = 0.201;
  for (int layer = 0; layer < kLayers; ++layer) {
    const int n = kLayers - layer;
    const double offset = -0.5 * (n - 1) * kPitch;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        world.AddChain(&box, 1.0, 0, btVector3(offset + kPitch * i, offset + kPitch * j, 0.1 + 0.2 * layer));
  }
  const Record settle = RunThreeSeconds(&world);
  EXPECT_LT(settle.late_fastest, 1e-3);
  int factorizations = 0, iterations = 0;
  for (int s = 0; s < 30; ++s) {
    world.Step(1);
    factorizations += world.solver().lastFactorizations();
    iterations += world.solver().lastNewtonIterations();
  }
  std::printf(
      "Featherstone pyramid at rest: %d factorizations and %d Newton iterations in 30 steps, "
      "fastest %.2e m/s\n",
      factorizations, iterations, world.FastestLink());
  EXPECT_GT(iterations, 0);  // the solves did run
  EXPECT_LE(factorizations, 2);
  EXPECT_LT(world.FastestLink(), 1e-3);
}

}  // namespace
}  // namespace hydro
