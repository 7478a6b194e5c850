#pragma once
// A Bullet multibody world with the plugin installed, for building model files in tests.
#include <gtest/gtest.h>

#include <BulletCollision/BroadphaseCollision/btDbvtBroadphase.h>
#include <BulletDynamics/Featherstone/btMultiBodyConstraintSolver.h>

#include <memory>
#include <string>

#include "plugin/btHydroelasticCollisionConfiguration.h"
#include "plugin/btHydroelasticSolverSettings.h"
#include "test_files.h"
#include "urdf/bullet_builder.h"

namespace hydro {
namespace urdf {
namespace test {

// A multibody world with the plugin installed.
struct World {
  World() {
    world = std::make_unique<btMultiBodyDynamicsWorld>(&dispatcher, &broadphase, &solver, &configuration);
    hydroConfigureSolverInfo(world->getSolverInfo());
    // Bullet's own solver takes each solver point as a stiffness row; at 60 Hz merged points rest
    // worse there than whole patches (a hull crate on a compliant plane: 21 µm deep and moving at
    // 6 mm/s with 16 points, where whole patches give the 4.9 µm of m·g·ℓ/(E·A)).
    configuration.getHydroelasticState().setDefaultMaxPatchPoints(0);
  }
  ~World() { built.reset(); }
  void Build(const Scene& scene, const BuildOptions& options = {}) {
    Diagnostics d;
    built = BuildScene(scene, world.get(), options, &d);
    ASSERT_TRUE(built) << d.ToString();
  }
  // Builds as multibodies or as rigid bodies, with the default options otherwise.
  void Build(const Scene& scene, bool multibody) {
    BuildOptions options;
    options.multibody = multibody;
    Build(scene, options);
  }
  void Step(int steps, double dt) {
    for (int i = 0; i < steps; ++i) {
      built->ApplyJointDamping();
      world->stepSimulation(dt, 0, dt);
    }
  }
  btHydroelasticCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher{&configuration};
  btDbvtBroadphase broadphase;
  btMultiBodyConstraintSolver solver;
  std::unique_ptr<btMultiBodyDynamicsWorld> world;

  std::unique_ptr<BuiltScene> built;
};

inline Scene MustRead(const std::string& text, const std::string& name) {
  Diagnostics d;
  auto scene = Read(text, &d, name);
  EXPECT_TRUE(scene) << d.ToString();
  return scene ? *scene : Scene{};
}

}  // namespace test
}  // namespace urdf
}  // namespace hydro
