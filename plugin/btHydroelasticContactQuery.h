#pragma once
// Reading the patches after a step — simulated tactile data (DESIGN §3 "Reading results").
//
//   for (const btHydroelasticContactPatch& patch : hydroGetContactPatches(world->getDispatcher(), dt)) …
#include <BulletCollision/BroadphaseCollision/btDispatcher.h>
#include <BulletCollision/CollisionDispatch/btCollisionObject.h>
#include <LinearMath/btAlignedObjectArray.h>

#include <vector>

namespace hydro {
class ContactSurface;  // hydro/contact_surface.h; read it through the hydroPatch… calls below
}

struct btHydroelasticContactPatch {
  const btCollisionObject* m_body0{nullptr};
  const btCollisionObject* m_body1{nullptr};
  // Which child shape of a compound each body touches with (its index in the btCompoundShape),
  // -1 where the body's shape is not a compound: a compound gripper's fingers tell their patches
  // apart by it.
  int m_childIndex0{-1};
  int m_childIndex1{-1};
  // Polygons, vertex pressures (Pa), areas, normals, in world; normals point out of body1 into
  // body0. Valid until the next step. This is the patch the solver was given: taken at the
  // bodies' free-motion poses at the end of the step (free_motion.h), so its pressures are those
  // of that speculative overlap, not of the solved one. At 1/60 s they can be far above the true
  // ones: a 2 kg crate resting on a rigid box (E = 1e7 Pa) shows a 273 kPa peak (its fall under
  // gravity over one step, g·dt² = 2.7 mm, pressed into it) where 1 ms steps show 1.5 kPa; the
  // mean pressure that carries its weight is 490 Pa. The solved force is m_forceOnBody0.
  const hydro::ContactSurface* m_surface{nullptr};
  int m_numPolygons{0};
  btScalar m_maxPressure{0};  // Pa, over the polygons' vertices
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

// Polygon `index` (0 ≤ index < m_numPolygons) of a patch in Bullet's types: its vertices (world,
// counter-clockwise about its normal), the pressure (Pa) at each, and its unit normal (out of
// body1 into body0). Returns false, writing nothing, for an index out of range.
bool hydroGetPatchPolygon(const btHydroelasticContactPatch& patch, int index, btAlignedObjectArray<btVector3>* vertices,
                          btAlignedObjectArray<btScalar>* pressures, btVector3* normal);
