// Patch contact with Featherstone multibodies: a two-link arm on a fixed base (a revolute joint at
// the base, the second link welded to the first) rests its tip sphere on a compliant pad. The
// static contact force balances the arm's weight about the base joint, and equals that of the same
// arm built from a rigid body on a hinge.
#include <gtest/gtest.h>

#include <BulletDynamics/Featherstone/btMultiBody.h>
#include <BulletDynamics/Featherstone/btMultiBodyConstraintSolver.h>
#include <BulletDynamics/Featherstone/btMultiBodyDynamicsWorld.h>
#include <BulletDynamics/Featherstone/btMultiBodyLinkCollider.h>

#include <cstdio>
#include <memory>

#include "plugin/btHydroelasticContactQuery.h"
#include "plugin/btHydroelasticMultiBodyConstraintSolver.h"
#include "test_world.h"

#include "tests/bullet_precision.h"

namespace hydro {
namespace {

constexpr double kLink = 0.2, kLinkMass = 0.5, kTipRadius = 0.02, kHeight = 0.1;
// Moment balance about the base joint: F·2L = m·g·L/2 + m·g·3L/2.
const double kExpectedForce = 9.81 * (kLinkMass * kLink / 2 + kLinkMass * 3 * kLink / 2) / (2 * kLink);

struct Pad {
  btBoxShape shape{btVector3(0.1, 0.1, 0.02)};
  test::ScopedHydroelastic tag{&shape, test::Compliant(1e5, 0.02, 20.0)};
  // Top face at z = kHeight − kTipRadius, under the tip at x = 2L.
  btTransform pose{btQuaternion::getIdentity(), btVector3(2 * kLink, 0, kHeight - kTipRadius - 0.02)};
};

double ContactForceOn(const btDispatcher* dispatcher) {
  double fz = 0;
  for (const btHydroelasticContactPatch& patch : hydroGetContactPatches(dispatcher, 1e-3))
    fz += std::abs(patch.m_forceOnBody0.z());
  return fz;
}

TEST(MultibodyTest, ArmPressingAPadMatchesTheRigidBodyArm) {
  Pad pad;
  btSphereShape tip(kTipRadius);
  btBoxShape link_box(btVector3(kLink / 2, 0.01, 0.01));  // thin: only the tip reaches the pad
  btCompoundShape link2_shape;                            // the second link and the tip sphere at its end
  link2_shape.addChildShape(btTransform::getIdentity(), &link_box);
  link2_shape.addChildShape(btTransform(btQuaternion::getIdentity(), btVector3(kLink / 2, 0, 0)), &tip);

  // The multibody arm, under Bullet's Featherstone solver (the patch's points as Bullet rows) and
  // under btHydroelasticMultiBodyConstraintSolver (the patch as one block, the link's articulated
  // mobility).
  double multibody_force[2];
  for (int patch_solver = 0; patch_solver < 2; ++patch_solver) {
    btHydroelasticCollisionConfiguration configuration;
    btCollisionDispatcher dispatcher(&configuration);
    btDbvtBroadphase broadphase;
    std::unique_ptr<btMultiBodyConstraintSolver> solver;
    if (patch_solver)
      solver = std::make_unique<btHydroelasticMultiBodyConstraintSolver>();
    else
      solver = std::make_unique<btMultiBodyConstraintSolver>();
    btMultiBodyDynamicsWorld world(&dispatcher, &broadphase, solver.get(), &configuration);
    world.setGravity(btVector3(0, 0, -9.81));
    hydroConfigureSolverInfo(world.getSolverInfo());
    btRigidBody::btRigidBodyConstructionInfo pad_info(0, nullptr, &pad.shape);
    pad_info.m_startWorldTransform = pad.pose;
    btRigidBody pad_body(pad_info);
    world.addRigidBody(&pad_body);

    btVector3 inertia;
    link_box.calculateLocalInertia(kLinkMass, inertia);
    btMultiBody arm(2, 0, btVector3(0, 0, 0), true, false);
    arm.setBasePos(btVector3(0, 0, kHeight));
    arm.setupRevolute(0, kLinkMass, inertia, -1, btQuaternion::getIdentity(), btVector3(0, 1, 0), btVector3(0, 0, 0),
                      btVector3(kLink / 2, 0, 0), true);
    arm.setupFixed(1, kLinkMass, inertia, 0, btQuaternion::getIdentity(), btVector3(kLink / 2, 0, 0),
                   btVector3(kLink / 2, 0, 0), true);
    arm.finalizeMultiDof();
    arm.setHasSelfCollision(false);
    world.addMultiBody(&arm);
    btMultiBodyLinkCollider collider1(&arm, 0), collider2(&arm, 1);
    collider1.setCollisionShape(&link_box);
    collider2.setCollisionShape(&link2_shape);
    arm.getLink(0).m_collider = &collider1;
    arm.getLink(1).m_collider = &collider2;
    btAlignedObjectArray<btQuaternion> scratch_q;
    btAlignedObjectArray<btVector3> scratch_m;
    arm.forwardKinematics(scratch_q, scratch_m);
    btAlignedObjectArray<btQuaternion> world_to_local;
    btAlignedObjectArray<btVector3> local_origin;
    arm.updateCollisionObjectWorldTransforms(world_to_local, local_origin);
    world.addCollisionObject(&collider1, btBroadphaseProxy::DefaultFilter, btBroadphaseProxy::AllFilter);
    world.addCollisionObject(&collider2, btBroadphaseProxy::DefaultFilter, btBroadphaseProxy::AllFilter);
    for (int i = 0; i < 1000; ++i) world.stepSimulation(1e-3, 0, 1e-3);
    multibody_force[patch_solver] = ContactForceOn(&dispatcher);
    std::printf("multibody arm (%s): tip force %.5f N (moment balance %.5f N), joint angle %.3e rad\n",
                patch_solver ? "btHydroelasticMultiBodyConstraintSolver" : "btMultiBodyConstraintSolver",
                multibody_force[patch_solver], kExpectedForce, arm.getJointPos(0));
    world.removeCollisionObject(&collider2);
    world.removeCollisionObject(&collider1);
    world.removeMultiBody(&arm);
    world.removeRigidBody(&pad_body);
  }

  // The same arm as one rigid body on a hinge (a 2L bar of mass 2m, COM at L, the same tip).
  double rigid_force;
  {
    btBoxShape bar(btVector3(kLink, 0.01, 0.01));
    btCompoundShape arm_shape;
    arm_shape.addChildShape(btTransform::getIdentity(), &bar);
    arm_shape.addChildShape(btTransform(btQuaternion::getIdentity(), btVector3(kLink, 0, 0)), &tip);
    test::TestWorld world;
    world.AddBody(&pad.shape, 0, pad.pose.getOrigin());
    btRigidBody* arm = world.AddBody(&arm_shape, 2 * kLinkMass, btVector3(kLink, 0, kHeight));
    btHingeConstraint hinge(*arm, btVector3(-kLink, 0, 0), btVector3(0, 1, 0));
    world.world()->addConstraint(&hinge, true);
    world.Step(1000);
    rigid_force = ContactForceOn(world.dispatcher());
    std::printf("rigid-body arm: tip force %.5f N\n", rigid_force);
    world.world()->removeConstraint(&hinge);
  }
  // The rigid-body arm hangs on Bullet's own btHingeConstraint, whose float solve leaves the tip
  // force 1.15 % low (4.849 N; 4.891 N in double): in float it is held to 2 %.
  const double rigid_tolerance = test::BulletOr(0.01, 0.02);
  for (double force : multibody_force) {
    EXPECT_NEAR(force / kExpectedForce, 1.0, 0.01);
    EXPECT_NEAR(force / rigid_force, 1.0, rigid_tolerance);
  }
  EXPECT_NEAR(rigid_force / kExpectedForce, 1.0, rigid_tolerance);
}

}  // namespace
}  // namespace hydro
