#pragma once
// A small Bullet world for plugin tests: owns everything it creates.
#include <btBulletDynamicsCommon.h>

#include <memory>
#include <vector>

#include "adapters/shape_registry.h"
#include "plugin/btHydroelasticCollisionConfiguration.h"
#include "plugin/btHydroelasticCollisionDispatcher.h"
#include "plugin/btHydroelasticConstraintSolver.h"
#include "plugin/btHydroelasticSolverSettings.h"

namespace hydro {
namespace test {

// Tags a shape for the scope's lifetime, so a failing test leaves no stale tag behind.
class ScopedHydroelastic {
 public:
  ScopedHydroelastic(const btCollisionShape* shape, const btHydroelasticProperties& properties) : shape_(shape) {
    hydroSetHydroelastic(shape, properties);
  }
  ~ScopedHydroelastic() { hydroRemoveShape(shape_); }
  ScopedHydroelastic(const ScopedHydroelastic&) = delete;
  ScopedHydroelastic& operator=(const ScopedHydroelastic&) = delete;

 private:
  const btCollisionShape* shape_;
};

inline btHydroelasticProperties Compliant(double modulus, double hint = 0, double dissipation = 0) {
  btHydroelasticProperties p;
  p.m_hydroelasticModulus = modulus;
  p.m_resolutionHint = hint;
  p.m_huntCrossleyDissipation = dissipation;
  return p;
}

// An irregular convex hull of 8 points, 0.18 × 0.16 × 0.22 m, none of its faces parallel to
// another: a shape whose bounding box, once turned, reaches centimetres past it.
inline void AddIrregularHullPoints(btConvexHullShape* hull) {
  const double points[][3] = {{0.1, 0, 0},        {-0.08, 0.06, 0},   {-0.05, -0.09, 0.02},  {0, 0, 0.12},
                              {0.02, 0.03, -0.1}, {0.07, 0.07, 0.05}, {-0.06, -0.02, -0.08}, {0.03, -0.08, 0.07}};
  for (const auto& p : points) hull->addPoint(btVector3(p[0], p[1], p[2]));
}

class TestWorld {
 public:
  // hydroelastic: btHydroelasticCollisionConfiguration and btHydroelasticConstraintSolver (else
  // Bullet's default configuration and solver); configure_solver: apply hydroConfigureSolverInfo
  // (defaults to `hydroelastic`); pair_threads: btHydroelasticCollisionDispatcher (pairs' contact
  // computed side by side) instead of btCollisionDispatcher.
  explicit TestWorld(bool hydroelastic = true, int configure_solver = -1, bool pair_threads = false) {
    if (hydroelastic) {
      auto configuration = std::make_unique<btHydroelasticCollisionConfiguration>();
      state_ = &configuration->getHydroelasticState();
      configuration_ = std::move(configuration);
    } else {
      configuration_ = std::make_unique<btDefaultCollisionConfiguration>();
    }
    if (pair_threads)
      dispatcher_ = std::make_unique<btHydroelasticCollisionDispatcher>(configuration_.get());
    else
      dispatcher_ = std::make_unique<btCollisionDispatcher>(configuration_.get());
    broadphase_ = std::make_unique<btDbvtBroadphase>();
    if (hydroelastic)
      solver_ = std::make_unique<btHydroelasticConstraintSolver>();
    else
      solver_ = std::make_unique<btSequentialImpulseConstraintSolver>();
    world_ = std::make_unique<btDiscreteDynamicsWorld>(dispatcher_.get(), broadphase_.get(), solver_.get(),
                                                       configuration_.get());
    world_->setGravity(btVector3(0, 0, -9.81));
    if (configure_solver < 0 ? hydroelastic : configure_solver != 0) hydroConfigureSolverInfo(world_->getSolverInfo());
  }
  ~TestWorld() {
    for (int i = world_->getNumCollisionObjects() - 1; i >= 0; --i) {
      btCollisionObject* object = world_->getCollisionObjectArray()[i];
      world_->removeCollisionObject(object);
    }
  }

  // Adds a body; mass 0 makes it static. Shapes are owned by the caller (they carry the tags).
  btRigidBody* AddBody(btCollisionShape* shape, btScalar mass, const btVector3& position,
                       const btQuaternion& orientation = btQuaternion::getIdentity()) {
    btVector3 inertia(0, 0, 0);
    if (mass > 0) shape->calculateLocalInertia(mass, inertia);
    btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, shape, inertia);
    info.m_startWorldTransform = btTransform(orientation, position);
    bodies_.push_back(std::make_unique<btRigidBody>(info));
    btRigidBody* body = bodies_.back().get();
    body->setActivationState(DISABLE_DEACTIVATION);
    world_->addRigidBody(body);
    return body;
  }

  // The ground of Bullet's demos: a static, untagged (so rigid) box of 100 m, its top face at z = 0.
  // The world owns its shape.
  btRigidBody* AddGroundBox() {
    ground_shapes_.push_back(std::make_unique<btBoxShape>(btVector3(50, 50, 50)));
    return AddBody(ground_shapes_.back().get(), 0, btVector3(0, 0, -50));
  }

  // A square pyramid of `layers` layers of the cube `cube` (edge `edge`, 1 kg each), its cubes
  // `gap` apart within a layer, each layer on the one below, the lowest on z = 0; the cubes, base
  // first.
  std::vector<btRigidBody*> AddCubePyramid(btCollisionShape* cube, double edge, int layers, double gap = 0.001) {
    std::vector<btRigidBody*> cubes;
    const double pitch = edge + gap;
    for (int layer = 0; layer < layers; ++layer) {
      const int n = layers - layer;
      const double offset = -0.5 * (n - 1) * pitch;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          cubes.push_back(
              AddBody(cube, 1.0, btVector3(offset + pitch * i, offset + pitch * j, 0.5 * edge + edge * layer)));
    }
    return cubes;
  }

  // Bullet's BasicDemo block: side³ boxes (shape `box`, 1 kg; made for 0.2 m cubes) 0.21 m apart,
  // layer k's centres at z = lowest_centre_z + 0.21·k and shifted by k·shift_per_layer along x;
  // added layer by layer, each along x, then y.
  std::vector<btRigidBody*> AddBoxBlock(btCollisionShape* box, int side, double lowest_centre_z,
                                        double shift_per_layer = 0) {
    std::vector<btRigidBody*> boxes;
    for (int k = 0; k < side; ++k)
      for (int i = 0; i < side; ++i)
        for (int j = 0; j < side; ++j)
          boxes.push_back(
              AddBody(box, 1.0, btVector3(0.21 * i + shift_per_layer * k, 0.21 * j, lowest_centre_z + 0.21 * k)));
    return boxes;
  }

  void Step(int steps, btScalar dt = 1e-3) {
    for (int i = 0; i < steps; ++i) world_->stepSimulation(dt, 0, dt);
  }

  // The world's patch-contact settings and statistics (a hydroelastic world's only).
  btHydroelasticWorldState& state() { return *state_; }
  // Whole patches (0: every solver point of the patch) or at most max_points a patch, where a test
  // checks what only those give (the coin's spin–slide coupling, the count of solver points); no
  // effect on a stock world.
  void SetMaxPatchPoints(int max_points) {
    if (state_) state_->setDefaultMaxPatchPoints(max_points);
  }

  btDiscreteDynamicsWorld* world() { return world_.get(); }
  btCollisionDispatcher* dispatcher() { return dispatcher_.get(); }
  btConstraintSolver* solver() { return solver_.get(); }

 private:
  std::vector<std::unique_ptr<btBoxShape>> ground_shapes_;  // first: outlives the bodies that use them
  std::unique_ptr<btCollisionConfiguration> configuration_;
  btHydroelasticWorldState* state_{nullptr};
  std::unique_ptr<btCollisionDispatcher> dispatcher_;
  std::unique_ptr<btBroadphaseInterface> broadphase_;
  std::unique_ptr<btConstraintSolver> solver_;
  std::unique_ptr<btDiscreteDynamicsWorld> world_;
  std::vector<std::unique_ptr<btRigidBody>> bodies_;
};

// Seed 000 §V-A's coin (R = 12.13 mm, 1.75 mm thick, 5.67 g) lying on a plane, μ = 0.2 by
// Bullet's product rule with the floor's 1.0. With patch contact, either a rigid coin (mesh hint
// R/hint_divisor) on a compliant slab 1 cm thick, or a compliant coin on a rigid plane, both at
// `modulus` with Hunt–Crossley dissipation 1 s/m; without, stock Bullet. max_patch_points < 0
// keeps the world's default.
struct CoinOnPlane {
  static constexpr double kRadius = 0.01213, kHalfThickness = 0.000875, kMass = 0.00567;
  CoinOnPlane(bool patch, bool compliant_coin, double modulus, double hint_divisor, int max_patch_points = -1)
      : floor_tag(patch && !compliant_coin ? std::make_unique<ScopedHydroelastic>(&floor, Slab(modulus)) : nullptr),
        coin_tag(patch ? std::make_unique<ScopedHydroelastic>(&coin, Coin(compliant_coin, modulus, hint_divisor))
                       : nullptr),
        world(patch) {
    if (patch && max_patch_points >= 0) world.SetMaxPatchPoints(max_patch_points);
    world.AddBody(&floor, 0, btVector3(0, 0, 0))->setFriction(1.0);
    body = world.AddBody(&coin, kMass, btVector3(0, 0, kHalfThickness));
    body->setFriction(0.2);
  }
  // Sets it sliding at 0.3 m/s and spinning at 30 rad/s when it has slowed below 5 cm/s.
  void KeepMoving() {
    if (body->getLinearVelocity().length() >= 0.05) return;
    body->setLinearVelocity(btVector3(0.3, 0, 0));
    body->setAngularVelocity(btVector3(0, 0, 30));
  }
  static btHydroelasticProperties Slab(double modulus) {
    btHydroelasticProperties slab = Compliant(modulus, 0, 1.0);
    slab.m_slabThickness = 0.01;
    return slab;
  }
  static btHydroelasticProperties Coin(bool compliant, double modulus, double hint_divisor) {
    btHydroelasticProperties properties = Compliant(modulus, kRadius / hint_divisor, 1.0);
    if (!compliant) properties.m_kind = btHydroelasticProperties::RIGID;
    return properties;
  }
  btCylinderShapeZ coin{btVector3(kRadius, kRadius, kHalfThickness)};
  btStaticPlaneShape floor{btVector3(0, 0, 1), 0};
  std::unique_ptr<ScopedHydroelastic> floor_tag, coin_tag;  // before the world, as a program tags
  TestWorld world;                                          // after the shapes and tags: goes first
  btRigidBody* body{nullptr};
};

}  // namespace test
}  // namespace hydro
