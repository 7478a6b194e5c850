#include "plugin/btHydroelasticWorldState.h"

#include <BulletCollision/CollisionDispatch/btManifoldResult.h>

#include <string>

#include "adapters/shape_registry.h"
#include "hydro/contact_material.h"

bool btHydroelasticWorldState::setDefaultMaxPatchPoints(int maxPoints) {
  if (maxPoints < 0) {
    hydro::bullet::ReportError("setDefaultMaxPatchPoints: " + std::to_string(maxPoints) +
                               " points; must be 0 (all) or positive");
    return false;
  }
  m_defaultMaxPatchPoints = maxPoints;
  return true;
}

bool btHydroelasticWorldState::setTurningMaxPatchPoints(int maxPoints) {
  if (maxPoints < 0) {
    hydro::bullet::ReportError("setTurningMaxPatchPoints: " + std::to_string(maxPoints) +
                               " points; must be 0 (as other patches) or positive");
    return false;
  }
  m_turningMaxPatchPoints = maxPoints;
  return true;
}

int btHydroelasticWorldState::turningBudget(int maxPoints) const {
  const int turning = getTurningMaxPatchPoints();
  return maxPoints > 0 && turning > maxPoints ? turning : maxPoints;
}

btScalar btHydroelasticWorldState::combinedFriction(const btCollisionObject* body0,
                                                    const btCollisionObject* body1) const {
  if (getFrictionRule() == HYDRO_FRICTION_HARMONIC)
    return static_cast<btScalar>(hydro::CombineFriction(body0->getFriction(), body1->getFriction()));
  return gCalculateCombinedFrictionCallback(body0, body1);
}

btHydroelasticStats btHydroelasticWorldState::getStats() const {
  btHydroelasticStats stats;
  stats.m_surfaceSeconds = 1e-9 * static_cast<double>(m_nanoseconds.load());
  stats.m_patches = m_patches.load();
  stats.m_points = m_points.load();
  stats.m_steps = m_steps.load();
  stats.m_surfacesComputed = m_surfacesComputed.load();
  stats.m_surfacesReused = m_surfacesReused.load();
  stats.m_turningPatches = m_turningPatches.load();
  return stats;
}

void btHydroelasticWorldState::resetStats() {
  m_nanoseconds = 0;
  m_patches = 0;
  m_points = 0;
  m_steps = 0;
  m_surfacesComputed = 0;
  m_surfacesReused = 0;
  m_turningPatches = 0;
}

void btHydroelasticWorldState::recordPairStep(double seconds, int points, bool patch) {
  m_nanoseconds += static_cast<long long>(seconds * 1e9);
  m_points += points;
  m_patches += patch ? 1 : 0;
  m_steps += 1;
}

void btHydroelasticWorldState::recordSurface(bool reused) { (reused ? m_surfacesReused : m_surfacesComputed) += 1; }
