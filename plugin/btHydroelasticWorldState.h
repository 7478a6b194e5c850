#pragma once
// What patch contact keeps per world: the world's defaults (point budget, surface reuse, friction
// rule) and its statistics. The collision configuration owns one (or the dispatcher installer,
// for a dispatcher set up elsewhere), and every pair its create functions make refers to it, so
// two worlds in one process share nothing but the shapes' tags:
//
//   btHydroelasticCollisionConfiguration configuration;
//   configuration.getHydroelasticState().setDefaultMaxPatchPoints(0);  // whole patches
//
// Settings apply from the next step of every pair. All calls are thread-safe.
#include <BulletCollision/CollisionDispatch/btCollisionObject.h>
#include <LinearMath/btScalar.h>

#include <atomic>
#include <memory>

namespace hydro {
namespace bullet {
class ComputeScratchPool;
}  // namespace bullet
}  // namespace hydro

// Counters for benchmarks and profiling: how much patch contact did in this world since the last
// reset. Cheap (a few relaxed atomic stores per pair and step); the surface time is measured only
// when timing is on, since reading the clock twice per pair costs ~3% of a box pile step. Exact
// when one thread at a time runs the world's collision detection, as Bullet's own dispatcher does;
// a multithreaded dispatcher (btCollisionDispatcherMt) may lose counts, never corrupt them.
struct btHydroelasticStats {
  double m_surfaceSeconds{0};       // computing contact surfaces, solver points and manifolds (timing on)
  long long m_patches{0};           // pair-steps with patch contact
  long long m_points{0};            // solver points written
  long long m_steps{0};             // pair-steps processed by the plugin (patch or not)
  long long m_surfacesComputed{0};  // contact surfaces computed by clipping elements
  long long m_surfacesReused{0};    // kept surfaces carried to new poses (plugin/surface_reuse.h)
  long long m_turningPatches{0};    // pair-steps whose patch turned (getTurningMaxPatchPoints)
};

// How a patch's friction coefficient comes from its two objects' btCollisionObject::getFriction().
enum btHydroelasticFrictionRule {
  // Bullet's rule: gCalculateCombinedFrictionCallback, whose default is the product μA·μB
  // (clamped to 10), or whatever the program installed in its place.
  HYDRO_FRICTION_BULLET,
  // Seed 003's harmonic mean 2·μA·μB/(μA + μB), as Drake combines friction.
  HYDRO_FRICTION_HARMONIC,
};

class btHydroelasticWorldState {
 public:
  btHydroelasticWorldState();
  // Solver points per patch unless a shape asks for fewer (btHydroelasticProperties::
  // m_maxPatchPoints): the merged points keep a patch's force, moment, stiffness and torsional
  // friction (hydro/point_reduction.h). 16 by default: averaging the slanted polygons between the
  // rim tets of two stacked boxes keeps a pile of stiff boxes at 60 Hz from pushing itself apart
  // (a 3×3×3 block of 0.2 m boxes at 1e8 Pa stays within free-fall speed with 16 points a patch,
  // and is thrown apart at 17 m/s with whole patches). A patch that spins about its normal as
  // fast as it slides gets the turning budget below instead. Negative values are refused (false,
  // through the error callback).
  bool setDefaultMaxPatchPoints(int maxPoints);
  int getDefaultMaxPatchPoints() const { return m_defaultMaxPatchPoints.load(std::memory_order_relaxed); }

  // Solver points of a patch whose friction turns across it: its bodies spin about its normal, at
  // its rim, at least a quarter as fast as they slide and at least 1 mm/s (hydro/patch_slip.h). Its
  // friction's direction then turns around a spin centre near the patch, and 16 points do not
  // resolve the coupled force and torsional moment: a sliding and spinning 1 GPa coin's ε was up to
  // 14 % off with 16 points, and is within 3 % with 64 (tests/plugin/coin_test.cc). 64 by default;
  // a patch whose own budget (above) is larger, or 0 (whole patches), keeps it. 0 here gives
  // turning patches the same budget as the others. Negative values are refused.
  bool setTurningMaxPatchPoints(int maxPoints);
  int getTurningMaxPatchPoints() const { return m_turningMaxPatchPoints.load(std::memory_order_relaxed); }
  // The budget of a patch whose budget is `maxPoints` otherwise, when its friction turns.
  int turningBudget(int maxPoints) const;

  // On by default: a pair whose bodies have moved less relative to each other than a tolerance
  // since its contact surface was computed keeps that surface, its points' depths updated to first
  // order (plugin/surface_reuse.h states the error bound). On a plane (btStaticPlaneShape) only the
  // motion along its normal counts: a body sliding and spinning on the ground keeps its surface.
  // Off computes every surface anew.
  void setSurfaceReuse(bool on) { m_surfaceReuse = on; }
  bool getSurfaceReuse() const { return m_surfaceReuse.load(std::memory_order_relaxed); }

  // HYDRO_FRICTION_BULLET by default.
  void setFrictionRule(btHydroelasticFrictionRule rule) { m_frictionRule = rule; }
  btHydroelasticFrictionRule getFrictionRule() const { return m_frictionRule.load(std::memory_order_relaxed); }
  // The friction coefficient of a patch between the two objects under this world's rule.
  btScalar combinedFriction(const btCollisionObject* body0, const btCollisionObject* body1) const;

  btHydroelasticStats getStats() const;
  void resetStats();
  // Off by default.
  void setStatsTiming(bool on) { m_timing = on; }
  bool getStatsTiming() const { return m_timing.load(std::memory_order_relaxed); }

  // Called by the collision algorithm on the stepping thread, once per pair-step: its time and
  // points, and how many surfaces it computed and how many it kept and reused (counted in the
  // pair's own state, wherever the pair was computed: these counters take one writer).
  void recordPairStep(double seconds, int points, bool patch);
  void recordSurfaces(int computed, int reused);
  void recordTurningPatch();
  // The buffers lent to each pair while its contact is computed (plugin/compute_scratch.h).
  hydro::bullet::ComputeScratchPool& computeScratch() { return *m_computeScratch; }

 private:
  std::shared_ptr<hydro::bullet::ComputeScratchPool> m_computeScratch;
  std::atomic<int> m_defaultMaxPatchPoints{16};
  std::atomic<int> m_turningMaxPatchPoints{64};
  std::atomic<bool> m_surfaceReuse{true};
  std::atomic<btHydroelasticFrictionRule> m_frictionRule{HYDRO_FRICTION_BULLET};
  std::atomic<bool> m_timing{false};
  std::atomic<long long> m_nanoseconds{0}, m_patches{0}, m_points{0}, m_steps{0}, m_surfacesComputed{0},
      m_surfacesReused{0}, m_turningPatches{0};
};
