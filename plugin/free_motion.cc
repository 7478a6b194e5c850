#include "plugin/free_motion.h"

#include <BulletDynamics/Dynamics/btRigidBody.h>
#include <LinearMath/btTransformUtil.h>

namespace hydro {
namespace bullet {
namespace {

// The body's free twist over the step, or false when it does not move.
bool FreeTwist(const btCollisionObject* object, btScalar dt, btVector3* v, btVector3* w) {
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

}  // namespace

btVector3 FreePointVelocity(const btCollisionObject* object, const btVector3& p_W, btScalar dt) {
  btVector3 v, w;
  if (!FreeTwist(object, dt, &v, &w)) return btVector3(0, 0, 0);
  const btRigidBody* body = btRigidBody::upcast(object);
  return v + w.cross(p_W - body->getCenterOfMassPosition());
}

btTransform FreeMotionPose(const btCollisionObject* object, const btTransform& X_WS, btScalar dt) {
  btVector3 v, w;
  if (!FreeTwist(object, dt, &v, &w)) return X_WS;
  // Bullet's rigid-body pose is its centre-of-mass frame; the shape rides on it.
  const btTransform& X_WB = object->getWorldTransform();
  btTransform X_WB_end;
  btTransformUtil::integrateTransform(X_WB, v, w, dt, X_WB_end);
  return X_WB_end * (X_WB.inverse() * X_WS);
}

}  // namespace bullet
}  // namespace hydro
