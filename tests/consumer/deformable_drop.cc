// A Bullet program built against the installed package: a soft FEM block (0.1 m cube meshed at
// 2.5 cm, 1 kg, E = 100 kPa, corotational) dropped from 5 cm onto a rigid ground box in a Bullet
// world, and stepped 1.5 s at 1/100 s by stepSimulation alone. Exits 0 if no position is NaN, the
// block never goes through the ground (no vertex 5 mm below it), and it comes to rest on it: its
// lowest vertex within 0.5 mm of the ground's top, its centre of mass within 1 mm of half its
// height, every vertex slower than 1 mm/s. Also checks that a bad input is reported, not thrown or crashed on.
#include <btBulletDynamicsCommon.h>
#include <hydrobullet/btHydroelastic.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

int main() {
  btHydroelasticCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher(&configuration);
  btDbvtBroadphase broadphase;
  btHydroelasticConstraintSolver solver;
  btDiscreteDynamicsWorld world(&dispatcher, &broadphase, &solver, &configuration);
  world.setGravity(btVector3(0, -10, 0));  // Y up, as BasicDemo

  // The ground: a static rigid box whose top face is y = 0.
  btBoxShape ground_shape(btVector3(1, 0.5, 1));
  btDefaultMotionState ground_state(btTransform(btQuaternion::getIdentity(), btVector3(0, -0.5, 0)));
  btRigidBody ground(0, &ground_state, &ground_shape, btVector3(0, 0, 0));
  world.addRigidBody(&ground);

  btHydroelasticDeformables deformables(&world);
  btHydroelasticDeformableMaterial rubber;
  rubber.m_youngsModulus = 1e5;  // Pa
  rubber.m_poissonRatio = 0.3;
  rubber.m_density = 1000;     // kg/m³: 1 kg
  rubber.m_massDamping = 2;    // 1/s
  const btScalar half = 0.05;  // m
  const int block =
      deformables.addBox("block", btVector3(half, half, half),
                         btTransform(btQuaternion::getIdentity(), btVector3(0, half + 0.05, 0)), 0.025, rubber);
  if (block < 0) {
    std::fprintf(stderr, "deformable_drop: addBox failed: %s", deformables.getErrors());
    return 1;
  }
  // A bad input is reported through getErrors.
  if (deformables.addBox("flat", btVector3(half, -1, half), btTransform::getIdentity(), 0.025, rubber) != -1 ||
      std::strstr(deformables.getErrors(), "half extent") == nullptr) {
    std::fprintf(stderr, "deformable_drop: a negative half extent was not reported (errors: '%s')\n",
                 deformables.getErrors());
    return 1;
  }
  deformables.clearErrors();

  const btScalar dt = 0.01;
  const int n = deformables.getNumVertices(block);
  double lowest_ever = 1e9;
  for (int step = 0; step < 150; ++step) {
    world.stepSimulation(dt, 1, dt);
    for (int i = 0; i < n; ++i) {
      const btVector3 p = deformables.getVertexPosition(block, i);
      if (!std::isfinite(p.x()) || !std::isfinite(p.y()) || !std::isfinite(p.z())) {
        std::fprintf(stderr, "deformable_drop: vertex %d is not finite at step %d\n", i, step);
        return 1;
      }
      lowest_ever = std::min(lowest_ever, static_cast<double>(p.y()));
    }
  }
  double lowest = 1e9, fastest = 0;
  for (int i = 0; i < n; ++i) {
    lowest = std::min(lowest, static_cast<double>(deformables.getVertexPosition(block, i).y()));
    fastest = std::max(fastest, static_cast<double>(deformables.getVertexVelocity(block, i).length()));
  }
  const double com = deformables.getCenterOfMass(block).y();
  std::printf(
      "deformable_drop (%s): %d vertices, %d tets, %.3f kg, %d contacts; after 1.5 s: lowest vertex %.2e m "
      "(lowest ever %.2e m), centre of mass %.4f m, fastest vertex %.2e m/s\n",
      sizeof(btScalar) == sizeof(double) ? "double" : "float", n, deformables.getNumTets(block),
      static_cast<double>(deformables.getMass(block)), deformables.getLastNumContacts(), lowest, lowest_ever, com,
      fastest);
  world.removeRigidBody(&ground);

  bool ok = true;
  if (lowest_ever < -5e-3) {
    std::fprintf(stderr, "deformable_drop: the block went through the ground (a vertex reached y = %.3f m)\n",
                 lowest_ever);
    ok = false;
  }
  if (std::fabs(lowest) > 5e-4 || std::fabs(com - half) > 1e-3) {
    std::fprintf(stderr,
                 "deformable_drop: not resting on the ground (lowest vertex %.2e m, centre %.4f m, want 0 ± 5e-4 and "
                 "%.3f ± 1e-3)\n",
                 lowest, com, static_cast<double>(half));
    ok = false;
  }
  if (fastest > 1e-3) {
    std::fprintf(stderr, "deformable_drop: still moving (%.2e m/s)\n", fastest);
    ok = false;
  }
  if (*deformables.getErrors()) {
    std::fprintf(stderr, "deformable_drop: errors: %s", deformables.getErrors());
    ok = false;
  }
  return ok ? 0 : 1;
}
