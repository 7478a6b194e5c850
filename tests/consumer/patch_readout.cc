// Reading a patch from an installed package with Bullet's types only: a 1 kg compliant ball on a
// rigid plane, at rest after 2 s of 1 ms steps. Exits 0 if the patch carries the ball's weight,
// its polygons read back through hydroGetPatchPolygon with positive pressures, and the largest
// pressure is the patch's; and the world's statistics, reset half way, counted one patch a step.
// Its dispatcher is btHydroelasticCollisionDispatcher (pairs side by side), read the same way.
#include <btBulletDynamicsCommon.h>
#include <hydrobullet/btHydroelastic.h>

#include <cmath>
#include <cstdio>

int main() {
  btHydroelasticCollisionConfiguration configuration;
  btHydroelasticCollisionDispatcher dispatcher(&configuration);  // the installed header's dispatcher
  btDbvtBroadphase broadphase;
  btHydroelasticConstraintSolver solver;
  btDiscreteDynamicsWorld world(&dispatcher, &broadphase, &solver, &configuration);
  world.setGravity(btVector3(0, 0, -9.81));

  btStaticPlaneShape plane(btVector3(0, 0, 1), 0);
  btSphereShape ball_shape(0.05);
  btHydroelasticProperties soft;
  soft.m_hydroelasticModulus = 1e6;
  soft.m_resolutionHint = 0.01;
  hydroSetHydroelastic(&ball_shape, soft);
  btRigidBody ground(0, nullptr, &plane);
  world.addRigidBody(&ground);
  btVector3 inertia;
  ball_shape.calculateLocalInertia(1, inertia);
  btRigidBody ball(1, nullptr, &ball_shape, inertia);
  ball.setWorldTransform(btTransform(btQuaternion::getIdentity(), btVector3(0, 0, 0.05)));
  world.addRigidBody(&ball);
  const btScalar dt = btScalar(1e-3);
  for (int i = 0; i < 1000; ++i) world.stepSimulation(dt, 1, dt);
  configuration.getHydroelasticState().resetStats();
  for (int i = 0; i < 1000; ++i) world.stepSimulation(dt, 1, dt);
  const btHydroelasticStats stats = configuration.getHydroelasticState().getStats();

  bool ok = true;
  const std::vector<btHydroelasticContactPatch> patches = hydroGetContactPatches(&dispatcher, dt);
  ok = ok && patches.size() == 1;
  if (ok) {
    const btHydroelasticContactPatch& patch = patches[0];
    const btScalar weight = 9.81;
    const btScalar up = patch.m_body0 == &ball ? patch.m_forceOnBody0.z() : -patch.m_forceOnBody0.z();
    btAlignedObjectArray<btVector3> vertices;
    btAlignedObjectArray<btScalar> pressures;
    btVector3 normal;
    btScalar largest = 0;
    int read = 0;
    for (int i = 0; i < patch.m_numPolygons; ++i) {
      if (!hydroGetPatchPolygon(patch, i, &vertices, &pressures, &normal)) break;
      ++read;
      ok = ok && vertices.size() >= 3 && std::abs(std::abs(normal.z()) - 1) < 1e-3;
      for (int k = 0; k < pressures.size(); ++k) {
        ok = ok && pressures[k] >= 0;
        largest = std::max(largest, pressures[k]);
      }
    }
    ok = ok && !hydroGetPatchPolygon(patch, patch.m_numPolygons, &vertices, &pressures, &normal);
    std::printf(
        "patch_readout (%s): force %.4f N up (weight %.4f N), %d polygons read, max pressure %.1f Pa (patch says "
        "%.1f), "
        "%lld patch-steps in the last 1000 steps\n",
        sizeof(btScalar) == sizeof(double) ? "double" : "float", up, weight, read, largest, patch.m_maxPressure,
        stats.m_patches);
    ok = ok && std::abs(up - weight) < 0.02 * weight && read == patch.m_numPolygons && read > 10 &&
         std::abs(largest - patch.m_maxPressure) <= 1e-3 * patch.m_maxPressure && stats.m_patches == 1000;
  }
  world.removeRigidBody(&ball);
  world.removeRigidBody(&ground);
  hydroRemoveShape(&ball_shape);
  return ok ? 0 : 1;
}
