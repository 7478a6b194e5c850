#include "tests/fem/gripper_scene.h"

#include <cmath>

#include "tests/fem/fem_scenes.h"

#include "adapters/shape_registry.h"

namespace hydro {
namespace fem {
namespace scenes {

namespace {
constexpr double kFingerHalfWidth = 0.01;
constexpr double kClearance = 0.003;  // between each finger and the object at the start
constexpr double kSqueeze = 0.005;    // each finger's travel past the object's face
constexpr double kPalmOffset = 0.07;  // palm centre above the object's mid-height
}  // namespace

GripperScene::GripperScene(double size, int cells, double youngs_modulus_Pa, double friction)
    : finger_shape_(btVector3(kFingerHalfWidth, 0.6 * size, 0.4 * size)),
      palm_shape_(btVector3(0.5 * size + 2 * kFingerHalfWidth + kClearance, 0.6 * size, 0.005)),
      size_(size) {
  world_ = std::make_unique<btMultiBodyDynamicsWorld>(&dispatcher_, &broadphase_, &solver_, &configuration_);
  world_->setGravity(btVector3(0, 0, -9.81));
  floor_ = std::make_unique<btRigidBody>(btRigidBody::btRigidBodyConstructionInfo(0, nullptr, &floor_shape_));
  floor_->setFriction(friction);
  world_->addRigidBody(floor_.get());

  btHydroelasticProperties rigid;
  rigid.m_kind = btHydroelasticProperties::RIGID;
  rigid.m_resolutionHint = 0.25 * size;
  hydroSetHydroelastic(&finger_shape_, rigid);
  hydroSetHydroelastic(&palm_shape_, rigid);
  // Link 0: the lift (the palm, above the object), prismatic along z from a fixed base. Links 1,
  // 2: fingers at −x and +x at the object's mid-height, prismatic along x on the lift. A link
  // collider sits at its link's centre of mass.
  const double finger_mass = 0.2;
  btVector3 finger_inertia;
  finger_shape_.calculateLocalInertia(finger_mass, finger_inertia);
  gripper_ = std::make_unique<btMultiBody>(3, 1.0, btVector3(1, 1, 1), /*fixedBase=*/true, /*canSleep=*/false);
  gripper_->setHasSelfCollision(false);
  gripper_->setupPrismatic(0, 1.0, btVector3(0.01, 0.01, 0.01), -1, btQuaternion::getIdentity(), btVector3(0, 0, 1),
                           btVector3(0, 0, 0.5 * size + kPalmOffset), btVector3(0, 0, 0), true);
  finger_gap_ = 0.5 * size + kFingerHalfWidth + kClearance;
  for (int side = 0; side < 2; ++side) {
    const double x = side == 0 ? -finger_gap_ : finger_gap_;
    gripper_->setupPrismatic(1 + side, finger_mass, finger_inertia, 0, btQuaternion::getIdentity(), btVector3(1, 0, 0),
                             btVector3(x, 0, -kPalmOffset), btVector3(0, 0, 0), true);
  }
  gripper_->finalizeMultiDof();
  world_->addMultiBody(gripper_.get());
  // The palm, above the object: the lift's own collider (Bullet solves a link's joint motor in the
  // island of the multibody's first collider, so every driven link gets one).
  colliders_.push_back(std::make_unique<btMultiBodyLinkCollider>(gripper_.get(), 0));
  colliders_.back()->setCollisionShape(&palm_shape_);
  btTransform X_palm;
  X_palm.setIdentity();
  X_palm.setOrigin(btVector3(0, 0, 0.5 * size + kPalmOffset));
  colliders_.back()->setWorldTransform(X_palm);
  world_->addCollisionObject(colliders_.back().get());
  gripper_->getLink(0).m_collider = colliders_.back().get();
  for (int link = 1; link <= 2; ++link) {
    colliders_.push_back(std::make_unique<btMultiBodyLinkCollider>(gripper_.get(), link));
    colliders_.back()->setCollisionShape(&finger_shape_);
    colliders_.back()->setFriction(friction);
    btTransform X;
    X.setIdentity();
    X.setOrigin(btVector3(link == 1 ? -finger_gap_ : finger_gap_, 0, 0.5 * size));
    colliders_.back()->setWorldTransform(X);
    colliders_.back()->setActivationState(DISABLE_DEACTIVATION);
    world_->addCollisionObject(colliders_.back().get());
    gripper_->getLink(link).m_collider = colliders_.back().get();
  }
  for (int link = 0; link < 3; ++link) {
    motors_.push_back(std::make_unique<btMultiBodyJointMotor>(gripper_.get(), link, 0, 0.0, link == 0 ? 20.0 : 2.0));
    motors_.back()->setPositionTarget(0, 1);
    world_->addMultiBodyConstraint(motors_.back().get());
  }

  const TetMesh cube = MakeSoftCube(size, cells);
  object_ = std::make_unique<FemBody>("soft cube", cube.vertices, cube.tets, SoftCubeMaterial(youngs_modulus_Pa));
  deformables_ = std::make_unique<btDeformableBodies>(world_.get());
  deformables_->addBody(object_.get(), friction);
}

GripperScene::~GripperScene() {
  deformables_.reset();
  for (auto& motor : motors_) world_->removeMultiBodyConstraint(motor.get());
  for (auto& collider : colliders_) world_->removeCollisionObject(collider.get());
  world_->removeMultiBody(gripper_.get());
  world_->removeRigidBody(floor_.get());
  hydroRemoveShape(&finger_shape_);
  hydroRemoveShape(&palm_shape_);
}

void GripperScene::Step(double dt) {
  time_ += dt;
  const double t = time_;
  const double close = kClearance + kSqueeze;
  const double grip = std::min(1.0, t / 0.5) * close;
  double lift = 0;
  if (t > 0.5) lift = 0.1 * std::min(1.0, (t - 0.5) / 1.0);
  if (t > 1.5) lift += 0.02 * std::sin(2 * M_PI * 2 * (t - 1.5));
  motors_[0]->setPositionTarget(lift, 1);
  motors_[1]->setPositionTarget(grip, 1);
  motors_[2]->setPositionTarget(-grip, 1);
  world_->stepSimulation(dt, 0, dt);
}

double GripperScene::ObjectHeightInGrip() const {
  return object_->CalcCenterOfMass().z() - (0.5 * size_ + gripper_->getJointPos(0));
}

}  // namespace scenes
}  // namespace fem
}  // namespace hydro
