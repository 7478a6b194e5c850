// A Featherstone multibody with patch contact, built against the installed package: a 1 kg arm of
// 0.5 m on a revolute joint, horizontal, its tip resting on a compliant pad. After 1 s of 1 ms
// steps the patch must hold the arm's moment about the joint: F·x_cp = m·g·(L/2) within 2 %.
#include <BulletDynamics/Featherstone/btMultiBody.h>
#include <BulletDynamics/Featherstone/btMultiBodyDynamicsWorld.h>
#include <BulletDynamics/Featherstone/btMultiBodyLinkCollider.h>
#include <btBulletDynamicsCommon.h>
#include <hydrobullet/btHydroelastic.h>

#include <cmath>
#include <cstdio>

int main() {
  btHydroelasticCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher(&configuration);
  btDbvtBroadphase broadphase;
  btHydroelasticMultiBodyConstraintSolver solver;
  btMultiBodyDynamicsWorld world(&dispatcher, &broadphase, &solver, &configuration);
  world.setGravity(btVector3(0, 0, -9.81));

  const btScalar height = 0.3, mass = 1, half_length = 0.25;
  btBoxShape link_shape(btVector3(half_length, 0.02, 0.02)), pad_shape(btVector3(0.03, 0.03, 0.03));
  btHydroelasticProperties soft;
  soft.m_hydroelasticModulus = 1e6;
  soft.m_resolutionHint = 0.01;
  hydroSetHydroelastic(&pad_shape, soft);
  btRigidBody pad(0, nullptr, &pad_shape);
  pad.setWorldTransform(btTransform(btQuaternion::getIdentity(), btVector3(0.45, 0, height - 0.02 - 0.03)));
  world.addRigidBody(&pad);

  btVector3 inertia;
  link_shape.calculateLocalInertia(mass, inertia);
  btMultiBody arm(1, 0, btVector3(0, 0, 0), /*fixedBase=*/true, /*canSleep=*/false);
  arm.setBasePos(btVector3(0, 0, height));
  arm.setupRevolute(0, mass, inertia, -1, btQuaternion::getIdentity(), btVector3(0, 1, 0), btVector3(0, 0, 0),
                    btVector3(half_length, 0, 0), true);
  arm.finalizeMultiDof();
  world.addMultiBody(&arm);
  btMultiBodyLinkCollider collider(&arm, 0);
  collider.setCollisionShape(&link_shape);
  arm.getLink(0).m_collider = &collider;
  btAlignedObjectArray<btQuaternion> scratch_q;
  btAlignedObjectArray<btVector3> scratch_m;
  arm.forwardKinematics(scratch_q, scratch_m);
  arm.updateCollisionObjectWorldTransforms(scratch_q, scratch_m);
  world.addCollisionObject(&collider, btBroadphaseProxy::DefaultFilter, btBroadphaseProxy::AllFilter);

  const btScalar dt = btScalar(1e-3);
  for (int i = 0; i < 1000; ++i) world.stepSimulation(dt, 1, dt);
  const std::vector<btHydroelasticContactPatch> patches = hydroGetContactPatches(&dispatcher, dt);
  bool ok = patches.size() == 1;
  if (ok) {
    const btHydroelasticContactPatch& patch = patches[0];
    const btScalar up = patch.m_body0 == &collider ? patch.m_forceOnBody0.z() : -patch.m_forceOnBody0.z();
    const btScalar moment = up * patch.m_centerOfPressure.x(), expected = mass * btScalar(9.81) * half_length;
    std::printf(
        "multibody_arm (%s): tip force %.4f N at x = %.4f m, moment %.4f N·m (m·g·L/2 = %.4f), joint at %.2e rad\n",
        sizeof(btScalar) == sizeof(double) ? "double" : "float", up, patch.m_centerOfPressure.x(), moment, expected,
        arm.getJointPos(0));
    ok = std::abs(moment - expected) < 0.02 * expected && std::abs(arm.getJointPos(0)) < 0.05;
  }
  world.removeCollisionObject(&collider);
  world.removeMultiBody(&arm);
  world.removeRigidBody(&pad);
  hydroRemoveShape(&pad_shape);
  return ok ? 0 : 1;
}
