#include "plugin/btHydroelasticDebugDraw.h"

#include <algorithm>
#include <vector>

#include "plugin/btHydroelasticContactQuery.h"

btVector3 hydroPressureColor(btScalar pressure, btScalar maxPressure) {
  const btScalar t = maxPressure > 0 ? std::clamp(pressure / maxPressure, btScalar(0), btScalar(1)) : btScalar(0);
  // Blue → green over the lower half, green → red over the upper half.
  if (t < btScalar(0.5)) return btVector3(0, 2 * t, 1 - 2 * t);
  return btVector3(2 * t - 1, 2 - 2 * t, 0);
}

void hydroDebugDrawPatches(const btDispatcher* dispatcher, btScalar timeStep, btIDebugDraw* drawer,
                           btScalar forceScale) {
  if (!drawer || timeStep <= 0) return;
  hydroDebugDrawPatches(hydroGetContactPatches(dispatcher, timeStep), drawer, forceScale);
}

void hydroDebugDrawPatches(const std::vector<btHydroelasticContactPatch>& patches, btIDebugDraw* drawer,
                           btScalar forceScale) {
  if (!drawer) return;
  btScalar largest = 0;
  for (const btHydroelasticContactPatch& patch : patches) largest = std::max(largest, patch.m_maxPressure);
  btAlignedObjectArray<btVector3> vertices;
  btAlignedObjectArray<btScalar> pressures;
  btVector3 normal;
  // Outlines grey; the force magenta, apart from Bullet's yellow contact points.
  const btVector3 outline(0.2, 0.2, 0.2), force_color(1, 0, 1);
  for (const btHydroelasticContactPatch& patch : patches) {
    for (int i = 0; i < patch.m_numPolygons; ++i) {
      if (!hydroGetPatchPolygon(patch, i, &vertices, &pressures, &normal)) break;
      btScalar mean = 0;
      for (int k = 0; k < pressures.size(); ++k) mean += pressures[k];
      mean /= btScalar(pressures.size());
      const btVector3 color = hydroPressureColor(mean, largest);
      for (int k = 1; k + 1 < vertices.size(); ++k)
        drawer->drawTriangle(vertices[0], vertices[k], vertices[k + 1], color, 1);
      for (int k = 0; k < vertices.size(); ++k)
        drawer->drawLine(vertices[k], vertices[(k + 1) % vertices.size()], outline);
    }
    const btVector3 at = patch.m_centerOfPressure;
    drawer->drawContactPoint(at, patch.m_forceOnBody0.length() > 0 ? patch.m_forceOnBody0.normalized() : normal, 0, 0,
                             force_color);
    // The force as an arrow from the centre of pressure: a shaft, and a head of four strokes a
    // fifth of its length back from the tip, spread across it.
    const btVector3 shaft = forceScale * patch.m_forceOnBody0, tip = at + shaft;
    drawer->drawLine(at, tip, force_color);
    const btScalar length = shaft.length();
    if (length > 0) {
      btVector3 u, v;
      btPlaneSpace1(shaft / length, u, v);
      const btVector3 back = tip - btScalar(0.2) * shaft;
      for (const btVector3& side : {u, -u, v, -v})
        drawer->drawLine(tip, back + btScalar(0.1) * length * side, force_color);
    }
  }
}

void btHydroelasticDebugDrawer::debugDraw(btIDebugDraw* drawer) {
  if (!drawer || !(drawer->getDebugMode() & btIDebugDraw::DBG_DrawContactPoints)) return;
  hydroDebugDrawPatches(m_dispatcher, m_timeStep, drawer, m_forceScale);
}
