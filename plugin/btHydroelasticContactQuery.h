#pragma once
// Reading the patches after a step — simulated tactile data (DESIGN §3 "Reading results").
//
//   for (const btHydroelasticContactPatch& patch : hydroGetContactPatches(world->getDispatcher(), dt)) …
#include <BulletCollision/BroadphaseCollision/btDispatcher.h>
#include <BulletCollision/CollisionDispatch/btCollisionObject.h>

#include <vector>

#include "hydro/contact_surface.h"

struct btHydroelasticContactPatch {
  const btCollisionObject* m_body0{nullptr};
  const btCollisionObject* m_body1{nullptr};
  // Polygons, vertex pressures (Pa), areas, normals, in world; normals point out of body1 into
  // body0. Valid until the next step.
  const hydro::ContactSurface* m_surface{nullptr};
  int m_numSolverPoints{0};
  // From the solver's impulses of the last step divided by the step: the force on body0 and its
  // moment about the world origin (normal and friction together).
  btVector3 m_forceOnBody0{0, 0, 0};
  btVector3 m_torqueOnBody0{0, 0, 0};
  // Where the normal impulses act on average (their impulse-weighted mean point).
  btVector3 m_centerOfPressure{0, 0, 0};
  // ∫ p0 n dA on body0 from the surface itself (no dissipation or friction).
  btVector3 m_elasticForceOnBody0{0, 0, 0};
  btScalar m_area{0};
};

// Every pair of `dispatcher` that had patch contact in the last collision pass. `timeStep` is the
// fixed substep the world was stepped with (impulse → force).
std::vector<btHydroelasticContactPatch> hydroGetContactPatches(const btDispatcher* dispatcher, btScalar timeStep);
