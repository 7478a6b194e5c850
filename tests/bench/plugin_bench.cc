// Per-step time of patch contact against stock Bullet on the same scenes, in the same run
// (Google Benchmark). Run: build/release/tests/bench/plugin_bench
//   BM_Step<scene>/0 is stock Bullet (default configuration, no tags), /1 patch contact, /2 patch
//   contact reduced to at most 4 points per patch (m_maxPatchPoints = 4); /3 and /4 repeat /1 and
//   /2 with the plugin's timers on (setStatsTiming, setSolveTiming), only to report the surface share.
//   Where a scene says so, a mode runs btHydroelasticCollisionDispatcher (pairs' contact computed
//   side by side on the contact threads) in place of btCollisionDispatcher.
// Counters: points = solver points per step; patches = pairs with patch contact; points_per_patch;
// newton_iterations and factorizations (of Newton's matrix) per step;
// surface_share = the share of the step spent computing contact surfaces and points; solver_share
// = the share in the constraint solver (patches and Bullet's rows); the rest is Bullet's broad
// phase, Bullet's own narrow phase and integration.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "../plugin/test_world.h"
#include "adapters/convex_hull.h"
#include "hydro/contact_surface.h"
#include "hydro/parallel_for.h"
#include "plugin/btHydroelasticContactQuery.h"
#include "plugin/btHydroelasticThreads.h"
#include "plugin/btHydroelasticWorldState.h"

namespace hydro {
namespace {

using test::Compliant;
using test::ScopedHydroelastic;
using test::TestWorld;

// Runs the scene's steps under the benchmark loop and reports points and the surface share.
void RunSteps(benchmark::State& state, TestWorld* world, double dt, bool timed) {
  auto* patch_solver = dynamic_cast<btHydroelasticConstraintSolver*>(world->solver());
  btHydroelasticWorldState unused;  // a stock world's statistics stay zero
  btHydroelasticWorldState& hydro_state = patch_solver ? world->state() : unused;
  hydro_state.resetStats();
  hydro_state.setStatsTiming(timed);
  if (patch_solver) {
    patch_solver->resetSolveSeconds();
    patch_solver->setSolveTiming(timed);
  }
  const auto start = std::chrono::steady_clock::now();
  long long newton_iterations = 0, factorizations = 0;
  for (auto _ : state) {
    world->Step(1, dt);
    if (patch_solver) {
      newton_iterations += patch_solver->lastNewtonIterations();
      factorizations += patch_solver->lastFactorizations();
    }
  }
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const btHydroelasticStats stats = hydro_state.getStats();
  const double steps = static_cast<double>(state.iterations());
  state.counters["points"] = stats.m_points / steps;
  state.counters["patches"] = stats.m_patches / steps;
  state.counters["points_per_patch"] = stats.m_patches > 0 ? static_cast<double>(stats.m_points) / stats.m_patches : 0;
  state.counters["newton_iterations"] = newton_iterations / steps;
  state.counters["factorizations"] = factorizations / steps;
  state.counters["surfaces_computed"] = stats.m_surfacesComputed / steps;
  state.counters["surfaces_reused"] = stats.m_surfacesReused / steps;
  state.counters["broadphase_pairs"] = world->world()->getPairCache()->getNumOverlappingPairs();
  if (timed) {
    state.counters["surface_share"] = total > 0 ? stats.m_surfaceSeconds / total : 0;
    state.counters["solver_share"] = total > 0 && patch_solver ? patch_solver->solveSeconds() / total : 0;
  }
  hydro_state.setStatsTiming(false);
  if (patch_solver) patch_solver->setSolveTiming(false);
}

void BM_StepBallOnPlane(benchmark::State& state) {
  const bool patch = state.range(0) != 0;
  btSphereShape ball(0.05);
  btStaticPlaneShape ground(btVector3(0, 0, 1), 0);
  std::unique_ptr<ScopedHydroelastic> tag;
  if (patch) tag = std::make_unique<ScopedHydroelastic>(&ball, Compliant(1e5, 0.05 / 8, 5.0));
  TestWorld world(patch);
  world.AddBody(&ground, 0, btVector3(0, 0, 0));
  world.AddBody(&ball, 1.0, btVector3(0, 0, 0.0495));
  world.Step(200);
  RunSteps(state, &world, 1e-3, false);
}
BENCHMARK(BM_StepBallOnPlane)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

void BM_StepCoin(benchmark::State& state) {
  const bool patch = state.range(0) != 0;
  const double R = 0.01213;
  btCylinderShapeZ coin(btVector3(R, R, 0.000875));
  btStaticPlaneShape floor(btVector3(0, 0, 1), 0);
  std::unique_ptr<ScopedHydroelastic> floor_tag, coin_tag;
  if (patch) {
    btHydroelasticProperties slab = Compliant(1e8, 0, 1.0);
    slab.m_slabThickness = 0.01;
    floor_tag = std::make_unique<ScopedHydroelastic>(&floor, slab);
    btHydroelasticProperties rigid;
    rigid.m_kind = btHydroelasticProperties::RIGID;
    rigid.m_resolutionHint = R / 8;
    coin_tag = std::make_unique<ScopedHydroelastic>(&coin, rigid);
  }
  TestWorld world(patch);
  world.AddBody(&floor, 0, btVector3(0, 0, 0))->setFriction(1.0);  // μ = 0.2 by Bullet's product rule
  btRigidBody* body = world.AddBody(&coin, 0.00567, btVector3(0, 0, 0.000875));
  body->setFriction(0.2);
  world.Step(10);
  // Keep it sliding and spinning for as long as the benchmark runs.
  for (auto _ : state) {
    state.PauseTiming();
    if (body->getLinearVelocity().length() < 0.05) {
      body->setLinearVelocity(btVector3(0.3, 0, 0));
      body->setAngularVelocity(btVector3(0, 0, 30));
    }
    state.ResumeTiming();
    world.Step(1);
  }
  const btHydroelasticStats stats = patch ? world.state().getStats() : btHydroelasticStats();
  state.counters["points"] = patch ? stats.m_points / static_cast<double>(stats.m_steps > 0 ? stats.m_steps : 1) : 0;
}
BENCHMARK(BM_StepCoin)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

// Seed 000 §V-A's coin as coin_test checks it at 1 GPa: 1 ms steps, hint R/range(1); range(0): 0 a
// rigid coin on a 1 cm compliant slab, 1 a compliant coin on a rigid plane; range(2): the most
// points a patch keeps (0: whole patches, all their points; 64 keeps the coin's ε within 3 %,
// coin_test; −1: the world's defaults, which give the turning coin 64). Real-time factor = 1 ms / the step's
// time. The coin keeps its surface while it slides and spins (plugin/surface_reuse.h): what is timed
// is the solve, and with 64 points the reduction of each step's carried points.
void BM_StepGigapascalCoin(benchmark::State& state) {
  test::CoinOnPlane scene(/*patch=*/true, /*compliant_coin=*/state.range(0) != 0, 1e9,
                          static_cast<double>(state.range(1)), static_cast<int>(state.range(2)));
  TestWorld& world = scene.world;
  world.Step(10);
  world.state().resetStats();
  auto* patch_solver = dynamic_cast<btHydroelasticConstraintSolver*>(world.solver());
  long long newton_iterations = 0;
  for (auto _ : state) {
    state.PauseTiming();
    scene.KeepMoving();
    state.ResumeTiming();
    world.Step(1);
    if (patch_solver) newton_iterations += patch_solver->lastNewtonIterations();
  }
  const btHydroelasticStats stats = world.state().getStats();
  const double steps = static_cast<double>(state.iterations());
  state.counters["points"] = stats.m_points / steps;
  state.counters["newton_iterations"] = newton_iterations / steps;
  state.counters["surfaces_computed"] = stats.m_surfacesComputed / steps;
}
BENCHMARK(BM_StepGigapascalCoin)
    ->Args({0, 8, 0})
    ->Args({1, 8, 0})
    ->Args({0, 12, 0})
    ->Args({1, 12, 0})
    ->Args({0, 8, 64})
    ->Args({1, 8, 64})
    ->Args({0, 8, -1})
    ->Args({1, 8, -1})
    ->Unit(benchmark::kMicrosecond);

// n compliant 10 cm boxes (hint 10 cm) dropped on the ground in columns of ten, settled for 0.5 s
// at 240 Hz; then the pile is stepped.
// range(0): modes as above; 5 is 3 with btHydroelasticCollisionDispatcher.
void BM_StepBoxPile(benchmark::State& state) {
  const int mode = static_cast<int>(state.range(0));
  const bool patch = mode != 0, timed = mode >= 3;
  const int n = static_cast<int>(state.range(1));
  btBoxShape box(btVector3(0.05, 0.05, 0.05));
  btStaticPlaneShape ground(btVector3(0, 0, 1), 0);
  std::unique_ptr<ScopedHydroelastic> tag;
  // The box field is exact at any resolution (its mesh follows the medial axis), so the coarsest
  // mesh (hint = the box size) gives the exact net force with the fewest polygons. Its price: a
  // face is two triangles, so a flat face contact has two main points and little tilt stiffness
  // (a tall box on a slope rocks with it); for such scenes use hint ≤ size/4.
  btHydroelasticProperties soft = Compliant(1e6, 0.1, 5.0);
  if (mode == 2 || mode == 4) soft.m_maxPatchPoints = 4;
  if (patch) tag = std::make_unique<ScopedHydroelastic>(&box, soft);
  TestWorld world(patch, -1, mode == 5);
  world.AddBody(&ground, 0, btVector3(0, 0, 0));
  const int columns = n / 10;
  const int side = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(columns))));
  for (int i = 0; i < n; ++i) {
    const int column = i % columns, level = i / columns;
    const btVector3 at(0.13 * (column % side) + 0.02 * (level % 2), 0.13 * (column / side), 0.06 + 0.11 * level);
    world.AddBody(&box, 1.0, at, btQuaternion(btVector3(0, 0, 1), 0.1 * level));
  }
  world.Step(120, 1.0 / 240);
  RunSteps(state, &world, 1.0 / 240, timed);
}
BENCHMARK(BM_StepBoxPile)
    ->Args({0, 100})
    ->Args({1, 100})
    ->Args({2, 100})
    ->Args({3, 100})
    ->Args({4, 100})
    ->Args({5, 100})
    ->Args({0, 1000})
    ->Args({1, 1000})
    ->Args({2, 1000})
    ->Args({3, 1000})
    ->Args({4, 1000})
    ->Args({5, 1000})
    ->Unit(benchmark::kMillisecond);

// The scenes of Bullet's demos: equal boxes on a rigid ground box (its top at z = 0), every box
// compliant at 10^log10_modulus Pa for patch contact (mode ≠ 0), untagged for stock Bullet (mode 0).
// pair_threads: btHydroelasticCollisionDispatcher.
struct BoxScene {
  BoxScene(const btVector3& half_extents, int mode, int log10_modulus, bool pair_threads = false)
      : box(half_extents), world(mode != 0, -1, pair_threads) {
    if (mode != 0) tag = std::make_unique<ScopedHydroelastic>(&box, Compliant(std::pow(10.0, log10_modulus)));
    world.AddGroundBox();
  }
  btBoxShape box;
  std::unique_ptr<ScopedHydroelastic> tag;
  TestWorld world;  // last: goes before the tag and the shapes
};

// Bullet's BasicDemo at its 60 Hz step: 5 × 5 × 5 boxes of 0.2 m and 1 kg, 1 cm apart, dropped
// from 2 m onto a rigid ground box, every box compliant at 10^range(1) Pa (untagged for stock).
// The first 3 s (the fall, the landing, the settling) are stepped before timing; the timed steps
// are the pile at rest. range(0): 0 stock Bullet, 1 patch contact, 2 patch contact with timers,
// 3 patch contact computing every surface anew (setSurfaceReuse(false)), 4 patch contact with
// btHydroelasticCollisionDispatcher.
void BM_StepBasicDemo(benchmark::State& state) {
  const int mode = static_cast<int>(state.range(0));
  BoxScene scene(btVector3(0.1, 0.1, 0.1), mode, static_cast<int>(state.range(1)), mode == 4);
  TestWorld& world = scene.world;
  if (mode != 0) world.state().setSurfaceReuse(mode != 3);
  btBoxShape& box = scene.box;
  world.AddBoxBlock(&box, 5, 2.1);
  world.Step(180, 1.0 / 60);
  RunSteps(state, &world, 1.0 / 60, mode == 2);
}
BENCHMARK(BM_StepBasicDemo)
    ->Args({0, 8})
    ->Args({1, 6})
    ->Args({1, 8})
    ->Args({1, 10})
    ->Args({2, 8})
    ->Args({3, 8})
    ->Args({4, 8})
    ->Iterations(30)
    ->Unit(benchmark::kMillisecond);

// The same block's fall and landing: the first 90 steps (1.5 s) from the start, where BM_StepBasicDemo
// times the pile at rest after them. Its boxes land between steps 24 and 45, and every pair that
// touches then computes its surfaces. range(0): 0 stock Bullet, 1 patch contact, 2 with timers,
// 3 with timers and btHydroelasticCollisionDispatcher.
void BM_DropBasicDemo(benchmark::State& state) {
  const int mode = static_cast<int>(state.range(0));
  BoxScene scene(btVector3(0.1, 0.1, 0.1), mode, static_cast<int>(state.range(1)), mode == 3);
  scene.world.AddBoxBlock(&scene.box, 5, 2.1);
  RunSteps(state, &scene.world, 1.0 / 60, mode >= 2);
}
BENCHMARK(BM_DropBasicDemo)
    ->Args({0, 8})
    ->Args({1, 6})
    ->Args({1, 8})
    ->Args({1, 10})
    ->Args({2, 8})
    ->Args({3, 8})
    ->Iterations(90)
    ->Unit(benchmark::kMillisecond);

// A wall of 1,000 boxes of 0.2 × 0.1 × 0.1 m (40 long, 25 high, courses offset by half a brick)
// built at rest on a rigid ground box, as BenchmarkDemo's wall, at 60 Hz; timed from the start.
// One brick thick and 2.5 m tall, it topples in stock Bullet too (fastest brick 4.7 m/s after 1 s,
// measured with every body kept awake), so it times a large island, not a scene that should rest:
// BM_StepPyramid is the one that rests. range(0): 0 stock Bullet, 1 patch contact, 2 with timers,
// 3 with timers and contact surfaces on one thread (hydroSetContactThreads(1)), 4 with timers and
// btHydroelasticCollisionDispatcher.
void BM_StepWall(benchmark::State& state) {
  const int mode = static_cast<int>(state.range(0));
  const ScopedContactThreads threads(mode == 3 ? 1 : hydroGetContactThreads());
  BoxScene scene(btVector3(0.1, 0.05, 0.05), mode, static_cast<int>(state.range(1)), mode == 4);
  TestWorld& world = scene.world;
  btBoxShape& brick = scene.box;
  for (int course = 0; course < 25; ++course)
    for (int i = 0; i < 40; ++i)
      world.AddBody(&brick, 1.0, btVector3(0.2 * i + 0.1 * (course % 2), 0, 0.05 + 0.1 * course));
  RunSteps(state, &world, 1.0 / 60, mode >= 2);
}
BENCHMARK(BM_StepWall)
    ->Args({0, 8})
    ->Args({1, 8})
    ->Args({2, 8})
    ->Args({3, 8})
    ->Args({4, 8})
    ->Iterations(10)
    ->Unit(benchmark::kMillisecond);

// Mixed primitives, as BenchmarkDemo's scenes of spheres, capsules, cylinders and hulls: n × n × n
// bodies (n = range(2): 4, or 8 for 512) of 1 kg, 0.3 m apart and turned, dropped from 0.5 m and
// up onto a rigid ground box at 60 Hz, each in turn a sphere (r 0.1 m), a capsule (r 0.06 m,
// 0.28 m long overall), a cylinder (r 0.1 m, 0.16 m long), an irregular 8-point hull (0.22 m) and
// a box (0.2 × 0.14 × 0.1 m), every shape compliant at 10^range(1) Pa at its default resolution
// (untagged for stock). Timed from the start, 120 steps (2 s) for 4³: the fall, the landing and
// the settling. Unlike the boxes, the round
// shapes and the hull meet each other mesh to mesh (hydro/field_intersection.cc). range(0): 0
// stock Bullet, 1 patch contact, 2 with timers, 3 with timers and contact surfaces on one thread.
void BM_DropMixedPile(benchmark::State& state) {
  const int mode = static_cast<int>(state.range(0));
  const ScopedContactThreads threads(mode == 3 ? 1 : hydroGetContactThreads());
  btSphereShape sphere(0.1);
  btCapsuleShapeZ capsule(0.06, 0.16);
  btCylinderShapeZ cylinder(btVector3(0.1, 0.1, 0.08));
  btConvexHullShape hull;
  test::AddIrregularHullPoints(&hull);
  btBoxShape box(btVector3(0.1, 0.07, 0.05));
  btCollisionShape* shapes[] = {&sphere, &capsule, &cylinder, &hull, &box};
  std::vector<std::unique_ptr<ScopedHydroelastic>> tags;
  if (mode != 0)
    for (btCollisionShape* shape : shapes)
      tags.push_back(std::make_unique<ScopedHydroelastic>(shape, Compliant(std::pow(10.0, state.range(1)))));
  TestWorld world(mode != 0);
  world.AddGroundBox();
  const int side = static_cast<int>(state.range(2));
  int n = 0;
  for (int k = 0; k < side; ++k)
    for (int i = 0; i < side; ++i)
      for (int j = 0; j < side; ++j, ++n) {
        const btQuaternion turn(btVector3(0.3 * i + 0.1, 0.7 * j + 0.2, 0.5 * k + 0.3).normalized(), 0.4 * n);
        world.AddBody(shapes[n % 5], 1.0, btVector3(0.3 * i, 0.3 * j, 0.5 + 0.3 * k), turn);
      }
  RunSteps(state, &world, 1.0 / 60, mode >= 2);
}
BENCHMARK(BM_DropMixedPile)
    ->Args({0, 8, 4})
    ->Args({1, 8, 4})
    ->Args({2, 8, 4})
    ->Args({3, 8, 4})
    ->Iterations(120)
    ->Unit(benchmark::kMillisecond);
// 512 bodies, as BenchmarkDemo's scenes of hundreds: the first 60 steps (1 s: the fall and the
// landing of the lower layers).
BENCHMARK(BM_DropMixedPile)
    ->Args({0, 8, 8})
    ->Args({1, 8, 8})
    ->Args({2, 8, 8})
    ->Iterations(60)
    ->Unit(benchmark::kMillisecond);

// A square pyramid of 1,015 boxes of 0.2 m and 1 kg (14 layers, 1 mm apart in each layer) built at
// rest on a rigid ground box, at 60 Hz, every box compliant at 10^range(1) Pa; timed from the start.
// Stock Bullet holds it (fastest box ≤ 5 mm/s over 5 s). One island of 1,015 bodies. range(0) as
// for BM_StepWall.
void BM_StepPyramid(benchmark::State& state) {
  const int mode = static_cast<int>(state.range(0));
  const ScopedContactThreads threads(mode == 3 ? 1 : hydroGetContactThreads());
  BoxScene scene(btVector3(0.1, 0.1, 0.1), mode, static_cast<int>(state.range(1)), mode == 4);
  TestWorld& world = scene.world;
  world.AddCubePyramid(&scene.box, 0.2, 14);
  RunSteps(state, &world, 1.0 / 60, mode >= 2);
}
BENCHMARK(BM_StepPyramid)
    ->Args({0, 8})
    ->Args({2, 8})
    ->Args({3, 8})
    ->Args({4, 8})
    ->Iterations(3)
    ->Unit(benchmark::kMillisecond);

// The same pyramid at rest: stepped 1.5 s (90 steps) before timing, by when its patches reuse
// their surfaces and warm-start their solve (BM_StepPyramid times the first steps, where every
// surface is new and the solve starts cold). range(0): 0 stock Bullet, 2 patch contact with timers.
void BM_RestPyramid(benchmark::State& state) {
  const int mode = static_cast<int>(state.range(0));
  BoxScene scene(btVector3(0.1, 0.1, 0.1), mode, static_cast<int>(state.range(1)));
  scene.world.AddCubePyramid(&scene.box, 0.2, 14);
  scene.world.Step(90, 1.0 / 60);
  RunSteps(state, &scene.world, 1.0 / 60, mode >= 2);
}
BENCHMARK(BM_RestPyramid)->Args({0, 8})->Args({2, 8})->Iterations(20)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace hydro

// The hull of a mesh file's vertices, as a URDF <mesh> of a moving link becomes: N points on an
// ellipsoid's surface jittered by 1e-4 of its size (nearly coplanar neighbours), each listed
// three times as an STL lists them. Goal: 10,000 points in milliseconds.
void BM_ConvexHull(benchmark::State& state) {
  std::mt19937 rng(7);
  std::normal_distribution<double> gauss;
  std::vector<hydro::Vector3> points;
  for (int i = 0; i < state.range(0) / 3; ++i) {
    hydro::Vector3 p(gauss(rng), gauss(rng), gauss(rng));
    p = p.normalized().cwiseProduct(hydro::Vector3(0.3, 0.2, 0.1)) * (1 + 1e-4 * gauss(rng));
    for (int k = 0; k < 3; ++k) points.push_back(p);
  }
  for (auto _ : state) benchmark::DoNotOptimize(hydro::bullet::MakeConvexHull(points));
  state.counters["points"] = static_cast<double>(points.size());
}
BENCHMARK(BM_ConvexHull)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
