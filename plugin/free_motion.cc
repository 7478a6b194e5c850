#include "plugin/free_motion.h"

#include <BulletDynamics/Dynamics/btRigidBody.h>
#include <BulletDynamics/Featherstone/btMultiBody.h>
#include <BulletDynamics/Featherstone/btMultiBodyLinkCollider.h>
#include <LinearMath/btTransformUtil.h>

namespace hydro {
namespace bullet {
namespace {

bool FreeLinkTwist(const btMultiBodyLinkCollider& collider, btScalar dt, btVector3* v, btVector3* w) {
  const btMultiBody* multibody = collider.m_multiBody;
  const int link = collider.m_link;
  if (!multibody || (link < 0 && multibody->hasFixedBase())) return false;
  const int links = multibody->getNumLinks();
  btAlignedObjectArray<btVector3> omega, velocity;  // in each link's frame; [0] is the base
  omega.resize(links + 1);
  velocity.resize(links + 1);
  multibody->compTreeLinkVelocities(&omega[0], &velocity[0]);
  *w = multibody->localDirToWorld(link, omega[link + 1]);
  *v = multibody->localDirToWorld(link, velocity[link + 1]);
  // A lone base moves as a rigid body under its applied force. A jointed link's free motion would
  // take the articulated dynamics; as if it were free, a link resting in its joint (an arm lying on
  // the ground) was predicted to fall through it every step, and its patch, taken that much
  // deeper, rested the arm's box 1.2 mm into a 1e10 Pa floor instead of 30 µm. Its velocity now
  // (a step's forces late) is used instead.
  if (links == 0 && multibody->getBaseMass() > 0) *v += multibody->getBaseForce() * (dt / multibody->getBaseMass());
  return true;
}

}  // namespace

bool FreeTwist(const btCollisionObject* object, btScalar dt, btVector3* v, btVector3* w) {
  if (const btMultiBodyLinkCollider* collider = btMultiBodyLinkCollider::upcast(object))
    return FreeLinkTwist(*collider, dt, v, w);
  const btRigidBody* body = btRigidBody::upcast(object);
  if (!body || object->isStaticObject()) return false;
  *v = body->getLinearVelocity();
  *w = body->getAngularVelocity();
  if (!body->isStaticOrKinematicObject()) {
    *v += body->getTotalForce() * body->getInvMass() * dt;
    *w += body->getInvInertiaTensorWorld() * body->getTotalTorque() * dt;
  }
  return true;
}

btVector3 CentreOfMass(const btCollisionObject* object) {
  const btRigidBody* body = btRigidBody::upcast(object);
  return body ? body->getCenterOfMassPosition() : object->getWorldTransform().getOrigin();
}

FreeMotion::FreeMotion(const btCollisionObject* object, btScalar dt) {
  m_moves = FreeTwist(object, dt, &m_v, &m_w);
  if (m_moves) m_centre = CentreOfMass(object);
}

btTransform FreeMotionPose(const btCollisionObject* object, const btTransform& X_WS, btScalar dt) {
  btVector3 v, w;
  if (!FreeTwist(object, dt, &v, &w)) return X_WS;
  // A rigid body's or link's pose is its centre-of-mass frame; the shape rides on it.
  const btTransform& X_WB = object->getWorldTransform();
  btTransform X_WB_end;
  btTransformUtil::integrateTransform(X_WB, v, w, dt, X_WB_end);
  return X_WB_end * (X_WB.inverse() * X_WS);
}

}  // namespace bullet
}  // namespace hydro
