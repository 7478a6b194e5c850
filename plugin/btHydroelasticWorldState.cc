#include "plugin/btHydroelasticWorldState.h"

#include <BulletCollision/CollisionDispatch/btManifoldResult.h>

#include <string>

#include "adapters/shape_registry.h"
#include "hydro/contact_material.h"
#include "plugin/compute_scratch.h"

btHydroelasticWorldState::btHydroelasticWorldState()
    : m_computeScratch(std::make_shared<hydro::bullet::ComputeScratchPool>()) {}

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

namespace {

// A relaxed load and store, not a locked add: the counters are written by the thread that runs the
// world's collision detection, one pair after another (Bullet's dispatcher), and read by anyone.
// Four locked adds per pair and step were 2.4 % of BasicDemo's step at rest (perf), for 1,600
// pairs most of which only confirm that they are still apart.
void Count(std::atomic<long long>& counter, long long amount) {
  counter.store(counter.load(std::memory_order_relaxed) + amount, std::memory_order_relaxed);
}

}  // namespace

void btHydroelasticWorldState::recordPairStep(double seconds, int points, bool patch) {
  if (seconds > 0) Count(m_nanoseconds, static_cast<long long>(seconds * 1e9));
  if (points > 0) Count(m_points, points);
  if (patch) Count(m_patches, 1);
  Count(m_steps, 1);
}

void btHydroelasticWorldState::recordSurfaces(int computed, int reused) {
  if (computed > 0) Count(m_surfacesComputed, computed);
  if (reused > 0) Count(m_surfacesReused, reused);
}

void btHydroelasticWorldState::recordTurningPatch() { Count(m_turningPatches, 1); }
