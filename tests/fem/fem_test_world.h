#pragma once
// The Bullet world that the FEM tests and benchmarks step their deformables in (btDeformableBodies,
// btHydroelasticDeformables): stock Bullet — the default collision configuration and dispatcher, a
// btDbvtBroadphase and the sequential-impulse solver — with gravity −9.81 m/s² along z and, if asked,
// a static plane z = 0 for ground. It owns the rigid bodies it adds and takes every collision object
// out of the world before it goes. Deformables made on world() after it are destroyed before it.
// (tests/plugin/test_world.h is the plugin tests' world: it installs the hydroelastic collision
// configuration and solver, which the FEM tests do not use.)
#include <BulletCollision/BroadphaseCollision/btDbvtBroadphase.h>
#include <BulletCollision/CollisionDispatch/btCollisionDispatcher.h>
#include <BulletCollision/CollisionDispatch/btDefaultCollisionConfiguration.h>
#include <BulletCollision/CollisionShapes/btStaticPlaneShape.h>
#include <BulletDynamics/ConstraintSolver/btSequentialImpulseConstraintSolver.h>
#include <BulletDynamics/Dynamics/btDiscreteDynamicsWorld.h>
#include <BulletDynamics/Dynamics/btRigidBody.h>

#include <memory>
#include <vector>

namespace hydro {
namespace test {

class FemTestWorld {
 public:
  enum class Ground {
    kNone,
    kPlane,  // a static btStaticPlaneShape z = 0 (normal +z), Bullet's default friction 0.5
  };

  explicit FemTestWorld(Ground ground = Ground::kNone) {
    world_.setGravity(btVector3(0, 0, -9.81));
    if (ground == Ground::kPlane) {
      // Added as Bullet adds a static body: no DISABLE_DEACTIVATION, so the world puts it to sleep.
      bodies_.push_back(std::make_unique<btRigidBody>(0, nullptr, &ground_shape_, btVector3(0, 0, 0)));
      ground_ = bodies_.back().get();
      world_.addRigidBody(ground_);
    }
  }
  ~FemTestWorld() {
    for (int i = world_.getNumCollisionObjects() - 1; i >= 0; --i)
      world_.removeCollisionObject(world_.getCollisionObjectArray()[i]);
  }
  FemTestWorld(const FemTestWorld&) = delete;
  FemTestWorld& operator=(const FemTestWorld&) = delete;

  // A body at p_WB (unrotated), never deactivated; mass 0 makes it static. The shape is the caller's.
  btRigidBody* AddBody(btCollisionShape* shape, btScalar mass, const btVector3& p_WB) {
    btVector3 inertia(0, 0, 0);
    if (mass > 0) shape->calculateLocalInertia(mass, inertia);
    btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, shape, inertia);
    info.m_startWorldTransform.setOrigin(p_WB);
    bodies_.push_back(std::make_unique<btRigidBody>(info));
    btRigidBody* body = bodies_.back().get();
    body->setActivationState(DISABLE_DEACTIVATION);
    world_.addRigidBody(body);
    return body;
  }

  // A kinematic body that Bullet moves to the pose of `motion_state` every step (the caller's, as is
  // the shape). Made kinematic before it joins the world, so the world reads its motion state.
  btRigidBody* AddKinematicBody(btCollisionShape* shape, btMotionState* motion_state) {
    bodies_.push_back(std::make_unique<btRigidBody>(btRigidBody::btRigidBodyConstructionInfo(0, motion_state, shape)));
    btRigidBody* body = bodies_.back().get();
    body->setCollisionFlags((body->getCollisionFlags() & ~btCollisionObject::CF_STATIC_OBJECT) |
                            btCollisionObject::CF_KINEMATIC_OBJECT);
    body->setActivationState(DISABLE_DEACTIVATION);
    world_.addRigidBody(body);
    return body;
  }

  // `steps` fixed steps of dt, one internal step each.
  void Step(int steps, btScalar dt) {
    for (int i = 0; i < steps; ++i) world_.stepSimulation(dt, 0, dt);
  }

  btDiscreteDynamicsWorld* world() { return &world_; }
  // The ground plane's body (nullptr for Ground::kNone), e.g. to set its friction.
  btRigidBody* ground() { return ground_; }

 private:
  btStaticPlaneShape ground_shape_{btVector3(0, 0, 1), 0};  // first: outlives the bodies
  btDefaultCollisionConfiguration configuration_;
  btCollisionDispatcher dispatcher_{&configuration_};
  btDbvtBroadphase broadphase_;
  btSequentialImpulseConstraintSolver solver_;
  btDiscreteDynamicsWorld world_{&dispatcher_, &broadphase_, &solver_, &configuration_};
  std::vector<std::unique_ptr<btRigidBody>> bodies_;
  btRigidBody* ground_{nullptr};
};

}  // namespace test
}  // namespace hydro
