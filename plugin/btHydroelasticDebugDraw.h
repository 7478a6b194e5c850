#pragma once
// Drawing the patches through Bullet's btIDebugDraw, so that any Bullet viewer shows them: each
// polygon filled in a colour for its pressure (blue at zero through green to red at the largest
// pressure among the patches drawn), the polygon's outline in grey, and per patch its net force as
// a magenta arrow from its centre of pressure (drawContactPoint at the centre, drawLine for the
// shaft along the force and four for the head).
//
//   btHydroelasticDebugDrawer patchDrawer(&dispatcher);
//   world.addAction(&patchDrawer);
//   drawer.setDebugMode(btIDebugDraw::DBG_DrawWireframe | btIDebugDraw::DBG_DrawContactPoints);
//   world.debugDrawWorld();          // draws the patches
//
// (btDiscreteDynamicsWorld::debugDrawWorld draws actions only when the mode has DBG_DrawWireframe,
// DBG_DrawAabb or DBG_DrawNormals; the patches are drawn when it also has DBG_DrawContactPoints.)
#include <BulletDynamics/Dynamics/btActionInterface.h>
#include <LinearMath/btIDebugDraw.h>

#include <vector>

#include "plugin/btHydroelasticContactQuery.h"

class btDispatcher;

// Draws the patches of `dispatcher`'s last collision pass; `timeStep` as hydroGetContactPatches
// takes it. `forceScale` (m/N) is the length drawn per newton of force.
void hydroDebugDrawPatches(const btDispatcher* dispatcher, btScalar timeStep, btIDebugDraw* drawer,
                           btScalar forceScale = btScalar(0.01));
// The same for patches already read with hydroGetContactPatches (a viewer that also shows their
// numbers reads them once a frame).
void hydroDebugDrawPatches(const std::vector<btHydroelasticContactPatch>& patches, btIDebugDraw* drawer,
                           btScalar forceScale = btScalar(0.01));

// The colour for pressure p against the largest pressure drawn: blue (0), green, red (maxPressure).
btVector3 hydroPressureColor(btScalar pressure, btScalar maxPressure);

// An action that draws the patches whenever the world draws its debug view (see above).
class btHydroelasticDebugDrawer : public btActionInterface {
 public:
  explicit btHydroelasticDebugDrawer(const btDispatcher* dispatcher, btScalar forceScale = btScalar(0.01))
      : m_dispatcher(dispatcher), m_forceScale(forceScale) {}
  void updateAction(btCollisionWorld*, btScalar deltaTimeStep) override { m_timeStep = deltaTimeStep; }
  void debugDraw(btIDebugDraw* drawer) override;

 private:
  const btDispatcher* m_dispatcher;
  btScalar m_forceScale;
  btScalar m_timeStep{0};
};
