#pragma once
// Counters for benchmarks and profiling: how much patch contact did, summed over all worlds since
// the last reset. Cheap (a few atomic adds per pair and step); the surface time is measured only
// when timing is switched on, since reading the clock twice per pair costs ~3% of a box pile step.
#include <LinearMath/btScalar.h>

struct btHydroelasticStats {
  double m_surfaceSeconds{0};  // computing contact surfaces, solver points and manifolds (timing on)
  double m_solverSeconds{0};   // in btHydroelasticConstraintSolver, Bullet's rows and patches (timing on)
  long long m_patches{0};      // pair-steps with patch contact
  long long m_points{0};       // solver points written
  long long m_steps{0};        // pair-steps processed by the plugin (patch or not)
  long long m_surfacesComputed{0};  // contact surfaces computed by clipping elements
  long long m_surfacesReused{0};    // kept surfaces carried to new poses (plugin/surface_reuse.h)
};

btHydroelasticStats hydroGetStats();
void hydroResetStats();
// Off by default.
void hydroSetStatsTiming(bool on);
bool hydroStatsTiming();

namespace hydro {
namespace bullet {
// Called by the collision algorithm.
void RecordPatch(double seconds, int points, bool patch);
// Called by btHydroelasticConstraintSolver for each island group it solves, when timing is on.
void RecordSolve(double seconds);
// Called by the collision algorithm for every surface it needs: computed, or kept and reused.
void RecordSurface(bool reused);
}  // namespace bullet
}  // namespace hydro
