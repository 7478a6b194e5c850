#pragma once
// A rigid two-finger gripper on a btMultiBody — a lift on a prismatic joint along z carrying two
// fingers on prismatic joints along x, each joint driven by Bullet's btMultiBodyJointMotor — and a
// soft box on the floor, stepped by btDeformableBodies: close, lift, shake. Shared by the FEM
// tests and benchmarks.
#include <BulletCollision/BroadphaseCollision/btDbvtBroadphase.h>
#include <BulletCollision/CollisionDispatch/btCollisionDispatcher.h>
#include <BulletCollision/CollisionDispatch/btDefaultCollisionConfiguration.h>
#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btStaticPlaneShape.h>
#include <BulletDynamics/Featherstone/btMultiBody.h>
#include <BulletDynamics/Featherstone/btMultiBodyConstraintSolver.h>
#include <BulletDynamics/Featherstone/btMultiBodyDynamicsWorld.h>
#include <BulletDynamics/Featherstone/btMultiBodyJointMotor.h>
#include <BulletDynamics/Featherstone/btMultiBodyLinkCollider.h>

#include <memory>
#include <vector>

#include "fem/btDeformableBodies.h"

namespace hydro {
namespace fem {
namespace scenes {

class GripperScene {
 public:
  // A soft cube of side `size` cut into cells³ cubes of six tets.
  GripperScene(double size, int cells, double youngs_modulus_Pa, double friction);
  ~GripperScene();

  // Sets the motor targets for time t (close 0–0.5 s, lift 0.5–1.5 s by 0.1 m, shake at 2 Hz,
  // ±2 cm, from 1.5 s) and steps the world by dt.
  void Step(double dt);
  double time() const { return time_; }
  double lift_height() const { return gripper_->getJointPos(0); }
  // Height of the object's centre of mass above the fingers' centre line.
  double ObjectHeightInGrip() const;
  const FemBody& object() const { return *object_; }
  const btDeformableBodies& deformables() const { return *deformables_; }

 private:
  btDefaultCollisionConfiguration configuration_;
  btCollisionDispatcher dispatcher_{&configuration_};
  btDbvtBroadphase broadphase_;
  btMultiBodyConstraintSolver solver_;
  std::unique_ptr<btMultiBodyDynamicsWorld> world_;
  btStaticPlaneShape floor_shape_{btVector3(0, 0, 1), 0};
  std::unique_ptr<btRigidBody> floor_;
  btBoxShape finger_shape_, palm_shape_;
  std::unique_ptr<btMultiBody> gripper_;
  std::vector<std::unique_ptr<btMultiBodyLinkCollider>> colliders_;
  std::vector<std::unique_ptr<btMultiBodyJointMotor>> motors_;
  std::unique_ptr<FemBody> object_;
  std::unique_ptr<btDeformableBodies> deformables_;
  double size_, finger_gap_, time_{0};
};

}  // namespace scenes
}  // namespace fem
}  // namespace hydro
