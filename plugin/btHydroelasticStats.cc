#include "plugin/btHydroelasticStats.h"

#include <atomic>

namespace {
std::atomic<long long> g_nanoseconds{0}, g_solver_nanoseconds{0}, g_patches{0}, g_points{0}, g_steps{0},
    g_surfaces_computed{0}, g_surfaces_reused{0};
std::atomic<bool> g_timing{false};
}  // namespace

btHydroelasticStats hydroGetStats() {
  btHydroelasticStats stats;
  stats.m_surfaceSeconds = 1e-9 * static_cast<double>(g_nanoseconds.load());
  stats.m_solverSeconds = 1e-9 * static_cast<double>(g_solver_nanoseconds.load());
  stats.m_patches = g_patches.load();
  stats.m_points = g_points.load();
  stats.m_steps = g_steps.load();
  stats.m_surfacesComputed = g_surfaces_computed.load();
  stats.m_surfacesReused = g_surfaces_reused.load();
  return stats;
}

void hydroResetStats() {
  g_nanoseconds = 0;
  g_solver_nanoseconds = 0;
  g_patches = 0;
  g_points = 0;
  g_steps = 0;
  g_surfaces_computed = 0;
  g_surfaces_reused = 0;
}

void hydroSetStatsTiming(bool on) { g_timing = on; }
bool hydroStatsTiming() { return g_timing.load(std::memory_order_relaxed); }

namespace hydro {
namespace bullet {
void RecordPatch(double seconds, int points, bool patch) {
  g_nanoseconds += static_cast<long long>(seconds * 1e9);
  g_points += points;
  g_patches += patch ? 1 : 0;
  g_steps += 1;
}
void RecordSurface(bool reused) { (reused ? g_surfaces_reused : g_surfaces_computed) += 1; }
void RecordSolve(double seconds) { g_solver_nanoseconds += static_cast<long long>(seconds * 1e9); }
}  // namespace bullet
}  // namespace hydro
