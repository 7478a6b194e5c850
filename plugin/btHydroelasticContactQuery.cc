#include "plugin/btHydroelasticContactQuery.h"

#include "adapters/bullet_conversions.h"
#include "hydro/contact_surface.h"
#include "plugin/patch_registry.h"

using hydro::bullet::ToBullet;

std::vector<btHydroelasticContactPatch> hydroGetContactPatches(const btDispatcher* dispatcher, btScalar timeStep) {
  std::vector<btHydroelasticContactPatch> patches;
  for (const hydro::bullet::PatchState* state : hydro::bullet::PatchRegistry::Instance().StatesOf(dispatcher)) {
    const hydro::ContactSurface& surface = state->Surface();
    if (surface.empty()) continue;
    btHydroelasticContactPatch patch;
    patch.m_body0 = state->body0;
    patch.m_body1 = state->body1;
    patch.m_childIndex0 = state->child0;
    patch.m_childIndex1 = state->child1;
    patch.m_surface = &surface;
    patch.m_numSolverPoints = state->num_points_emitted;
    patch.m_elasticForceOnBody0 = ToBullet(surface.CalcElasticForceOnA());
    patch.m_area = surface.CalcTotalArea();
    patch.m_numPolygons = surface.num_polygons();
    patch.m_maxPressure = surface.CalcMaxPressure();
    btScalar normal_total = 0;
    btVector3 weighted_point(0, 0, 0);
    for (const btPersistentManifold* manifold : state->manifolds) {
      for (int i = 0; i < manifold->getNumContacts(); ++i) {
        const btManifoldPoint& cp = manifold->getContactPoint(i);
        const btVector3 impulse = cp.m_normalWorldOnB * cp.m_appliedImpulse +
                                  cp.m_lateralFrictionDir1 * cp.m_appliedImpulseLateral1 +
                                  cp.m_lateralFrictionDir2 * cp.m_appliedImpulseLateral2;
        const btVector3 force = impulse / timeStep;
        patch.m_forceOnBody0 += force;
        patch.m_torqueOnBody0 += cp.m_positionWorldOnB.cross(force);
        normal_total += cp.m_appliedImpulse;
        weighted_point += cp.m_appliedImpulse * cp.m_positionWorldOnB;
      }
    }
    if (normal_total > 0) patch.m_centerOfPressure = weighted_point / normal_total;
    patches.push_back(patch);
  }
  return patches;
}

bool hydroGetPatchPolygon(const btHydroelasticContactPatch& patch, int index, btAlignedObjectArray<btVector3>* vertices,
                          btAlignedObjectArray<btScalar>* pressures, btVector3* normal) {
  if (!patch.m_surface || index < 0 || index >= patch.m_surface->num_polygons()) return false;
  const hydro::ContactSurface& surface = *patch.m_surface;
  const hydro::ContactPolygon& polygon = surface.polygon(index);
  vertices->resize(polygon.num_vertices);
  pressures->resize(polygon.num_vertices);
  for (int i = 0; i < polygon.num_vertices; ++i) {
    (*vertices)[i] = ToBullet(surface.vertex(polygon, i));
    (*pressures)[i] = static_cast<btScalar>(surface.pressure(polygon, i));
  }
  *normal = ToBullet(polygon.nhat_BA_W);
  return true;
}
