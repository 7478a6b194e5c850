// What a build made, and how a program reads and drives it: link poses and velocities, names,
// joint damping and motors. It removes what it added from the world when destroyed.
#include <BulletCollision/CollisionShapes/btStridingMeshInterface.h>
#include <BulletDynamics/Featherstone/btMultiBody.h>
#include <BulletDynamics/Featherstone/btMultiBodyJointMotor.h>
#include <BulletDynamics/Featherstone/btMultiBodyLinkCollider.h>
#include <BulletWorldImporter/btMultiBodyWorldImporter.h>

#include "adapters/bullet_conversions.h"
#include "adapters/shape_registry.h"
#include "urdf/bullet_builder.h"

namespace hydro {
namespace urdf {

using bullet::ToBullet;
using bullet::ToEigen;

BuiltScene::~BuiltScene() {
  if (!world_) return;
  for (auto& c : multibody_constraints_) world_->removeMultiBodyConstraint(c.get());
  for (auto& c : constraints_) world_->removeConstraint(c.get());
  for (auto& c : colliders_) world_->removeCollisionObject(c.get());
  for (auto& m : multibodies_) world_->removeMultiBody(m.get());
  for (auto& b : rigid_bodies_) world_->removeRigidBody(b.get());
  for (const btCollisionShape* shape : tagged_) hydroRemoveShape(shape);
  if (importer_) importer_->deleteAllData();  // removes what it added from the world, then frees it
}

RigidTransform BuiltScene::LinkPose(const BuiltBody& body) const {
  btTransform X_WB;
  if (body.rigid_body)
    X_WB = body.rigid_body->getWorldTransform();
  else if (body.collider)
    X_WB = body.collider->getWorldTransform();
  else if (body.link_index == -1)
    X_WB = body.multibody->getBaseWorldTransform();
  else {
    const btMultiBody* mb = body.multibody;
    X_WB.setOrigin(mb->localPosToWorld(body.link_index, btVector3(0, 0, 0)));
    X_WB.setBasis(mb->localFrameToWorld(body.link_index, btMatrix3x3::getIdentity()));
  }
  return bullet::ToRigidTransform(X_WB) * body.X_LB.inverse();
}

void BuiltScene::LinkVelocity(const BuiltBody& body, Vector3* v_W, Vector3* w_W) const {
  const Vector3 p_WL = LinkPose(body).translation();
  Vector3 p_WB, v_WB, w;
  if (body.rigid_body) {
    p_WB = ToEigen(body.rigid_body->getCenterOfMassPosition());
    v_WB = ToEigen(body.rigid_body->getLinearVelocity());
    w = ToEigen(body.rigid_body->getAngularVelocity());
  } else {
    // Featherstone velocities of every link's inertia frame, in that frame (index 0: the base).
    const btMultiBody* mb = body.multibody;
    std::vector<btVector3> omega(mb->getNumLinks() + 1), vel(mb->getNumLinks() + 1);
    mb->compTreeLinkVelocities(omega.data(), vel.data());
    const btMatrix3x3 R_WB = mb->localFrameToWorld(body.link_index, btMatrix3x3::getIdentity());
    p_WB = ToEigen(mb->localPosToWorld(body.link_index, btVector3(0, 0, 0)));
    v_WB = ToEigen(R_WB * vel[body.link_index + 1]);
    w = ToEigen(R_WB * omega[body.link_index + 1]);
  }
  *w_W = w;
  *v_W = v_WB + w.cross(p_WL - p_WB);
}

const BuiltBody* BuiltScene::Find(const std::string& name) const {
  for (const BuiltBody& body : bodies_)
    if (body.name == name) return &body;
  return nullptr;
}

const BuiltBody* BuiltScene::FindByCollider(const btCollisionObject* object) const {
  for (const BuiltBody& body : bodies_)
    if (body.collider == object) return &body;
  return nullptr;
}

void BuiltScene::ApplyJointDamping() const {
  for (const Damping& d : dampings_)
    for (int k = 0; k < d.dofs; ++k)
      d.multibody->addJointTorqueMultiDof(d.link, k, -d.damping * d.multibody->getJointVelMultiDof(d.link)[k]);
}

void BuiltScene::ApplyJointMotors(double t_s, double dt_s) const {
  for (const Motor& m : motors_) {
    m.motor->setMaxAppliedImpulse(m.spec.max_force * dt_s);
    m.motor->setPositionTarget(m.spec.PositionAt(t_s), m.spec.kp);
    m.motor->setVelocityTarget(m.spec.VelocityAt(t_s), m.spec.kd);
  }
}

}  // namespace urdf
}  // namespace hydro
