// No heap allocation in a step of a rigid world with patches, once the first steps have grown the
// buffers, counted by this binary's replaced allocation functions (tests/alloc/counting_allocator.h).
#include <gtest/gtest.h>

#include <BulletCollision/CollisionShapes/btTriangleMesh.h>

#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

#include "../plugin/test_world.h"
#include "hydro/parallel_for.h"
#include "tests/alloc/counting_allocator.h"

namespace hydro {
namespace {

using test::Compliant;
using test::ScopedHydroelastic;
using test::TestWorld;

long AllocationsOver(TestWorld* world, int steps, double dt) {
  test::StartCountingAllocations();
  world->Step(steps, dt);
  return test::StopCountingAllocations();
}

// Allocations over `steps` steps counted one step at a time: in all, and how many steps made any.
struct StepAllocations {
  long total{0};
  int allocating_steps{0};
};
StepAllocations AllocationsStepByStep(TestWorld* world, int steps, double dt) {
  StepAllocations counted;
  for (int k = 0; k < steps; ++k) {
    const long in_step = AllocationsOver(world, 1, dt);
    counted.total += in_step;
    counted.allocating_steps += in_step > 0;
  }
  return counted;
}

// Every kind of pair a rigid world's step meets, each pair moving so that its surface is computed
// anew every step (surface reuse off) or carried (on): compliant box and ball on a rigid box,
// compliant box on a rigid triangle mesh, compliant on compliant, a rigid hull on a compliant slab,
// a sliding and a spinning box, and whole patches or reduced ones.
class StepAllocationTest : public ::testing::TestWithParam<std::tuple<bool, int>> {};

TEST_P(StepAllocationTest, AStepAllocatesOnlyToGrowItsBuffers) {
  // Surfaces of 512+ BVH nodes (the boxes here on the ground box) are clipped in pieces on two
  // threads (hydro/parallel_for.h), into parts kept across steps.
  const hydro::ScopedContactThreads threads(2);
  const auto [reuse, max_points] = GetParam();
  TestWorld world;
  world.state().setSurfaceReuse(reuse);
  world.SetMaxPatchPoints(max_points);
  btBoxShape ground(btVector3(2, 2, 0.5));
  btBoxShape box(btVector3(0.1, 0.1, 0.1));
  btBoxShape soft_slab(btVector3(0.3, 0.3, 0.05));
  btSphereShape ball(0.1);
  btConvexHullShape hull;
  for (int c = 0; c < 8; ++c) hull.addPoint(btVector3(c & 1 ? 0.1 : -0.1, c & 2 ? 0.08 : -0.08, c & 4 ? 0.05 : -0.05));
  btTriangleMesh triangles;
  triangles.addTriangle(btVector3(-3, -1, 0), btVector3(-1, -1, 0), btVector3(-1, 1, 0));
  triangles.addTriangle(btVector3(-3, -1, 0), btVector3(-1, 1, 0), btVector3(-3, 1, 0));
  btBvhTriangleMeshShape mesh(&triangles, true);
  ScopedHydroelastic soft_box(&box, Compliant(1e7, 0.05, 1));
  ScopedHydroelastic soft_ball(&ball, Compliant(1e7, 0.05, 1));
  ScopedHydroelastic slab(&soft_slab, Compliant(1e7, 0.05, 1));
  world.AddBody(&ground, 0, btVector3(0, 0, -0.5));
  world.AddBody(&mesh, 0, btVector3(0, 0, 0));
  btRigidBody* sliding = world.AddBody(&box, 1, btVector3(0, 0, 0.099));
  sliding->setLinearVelocity(btVector3(0.3, 0, 0));
  btRigidBody* spinning = world.AddBody(&box, 1, btVector3(0, -0.6, 0.099));
  spinning->setAngularVelocity(btVector3(0, 0, 2));
  world.AddBody(&box, 1, btVector3(0.5, 0.5, 0.099));  // a stack of two compliant boxes
  world.AddBody(&box, 1, btVector3(0.5, 0.5, 0.298));
  world.AddBody(&ball, 1, btVector3(-0.5, 0, 0.099));
  world.AddBody(&box, 1, btVector3(-2, 0, 0.099));  // on the triangle mesh
  world.AddBody(&soft_slab, 1, btVector3(1.2, -1, 0.049));
  world.AddBody(&hull, 1, btVector3(1.2, -1, 0.148));  // rigid, on the compliant slab
  world.Step(30, 1.0 / 60);
  const btHydroelasticStats before = world.state().getStats();
  // While the boxes slide and turn, a patch may hold more polygons than it ever has, and its
  // buffers grow, geometrically: a few times in a pair's life. Measured in these 60 steps with
  // surfaces computed anew, for whole patches, 4 and 16 points: 9, 3 and 0 in the double build, 10,
  // 0 and 7 in the float one (none with surfaces carried), where 55 a step were made before the
  // buffers were kept. A buffer grown with std::vector::assign (to the size asked, not
  // geometrically) made it 15 in the float build; surface pieces' parts made as needed and a
  // surface appended to the size asked (ContactSurface::Append) made it 14.
  // 3.5 s in, reduced to 4 points with surfaces carried, the two-box stack's top box still moves
  // at 1–5 cm/s, and its patch grows now and then: 6 growths in 30 steps (2 in float), none in the
  // other settings. BasicDemosPileAtRestAllocatesNothing checks a pile at rest exactly.
  // With boxes in closed form (hydro/compliant_box.h) the double build measured 0, 3 and 10. A
  // surface's count of pieces can also regroup islands: Bullet hands small islands to the solver
  // in batches of at least m_minimumSolverBatchSize manifolds, and a patch's manifolds follow its
  // points. With box pairs only in closed form, a batch once first held four islands with patches
  // here, and the solver set up a fourth component's problem: 24 allocations in one step. That is
  // growth, once; so the steps that allocate are counted too, of which a few may, where a step
  // that allocated every time would make 60.
  const StepAllocations early = AllocationsStepByStep(&world, 60, 1.0 / 60);
  std::printf("allocations in 60 steps: %ld, in %d of them\n", early.total, early.allocating_steps);
  EXPECT_LE(early.total, 30) << "in 60 steps at 1/60 s while bodies slide, after 30";
  EXPECT_LE(early.allocating_steps, 6) << "of 60 steps at 1/60 s while bodies slide, after 30";
  // The steps counted did make patches, and (reuse off) computed their surfaces.
  const btHydroelasticStats after = world.state().getStats();
  EXPECT_GE(after.m_patches - before.m_patches, 60 * 9);
  if (!reuse) {
    EXPECT_GE(after.m_surfacesComputed - before.m_surfacesComputed, 60 * 9);
  }
  world.Step(120, 1.0 / 60);
  const StepAllocations late = AllocationsStepByStep(&world, 30, 1.0 / 60);
  // Growth, once, as above: with whole patches and surfaces computed anew, 13 allocations in one
  // step (a solver component's problem grew: AddPatch, BuildPattern) once the point law's
  // curvature was summed from its parts and the trajectory changed in its last digits.
  std::printf("allocations in 30 steps 3.5 s after the start: %ld, in %d of them\n", late.total, late.allocating_steps);
  EXPECT_LE(late.total, 30) << "in 30 steps, 3.5 s after the start";
  EXPECT_LE(late.allocating_steps, 2) << "of 30 steps, 3.5 s after the start";
  // The counter counts: a step of a world that has just gained a body grows buffers.
  btSphereShape newcomer(0.05);
  ScopedHydroelastic soft_newcomer(&newcomer, Compliant(1e7));
  world.AddBody(&newcomer, 1, btVector3(0.8, 0.8, 0.049));
  EXPECT_GT(AllocationsOver(&world, 1, 1.0 / 60), 0);
}

// Bullet's BasicDemo (plugin_bench's BM_StepBasicDemo): 125 compliant boxes at 1e8 Pa dropped on a
// rigid ground box at 60 Hz. At rest (after 4 s) a step allocates nothing, surfaces carried or not.
// (With four mesh cells across a box, Bullet's float build still grew a buffer at 3–3.5 s, while
// the pile settled; from 3.5 s to 6 s it allocated nothing.)
// The same with btHydroelasticCollisionDispatcher on two threads: the pairs computed ahead and the
// pool's task list are kept too.
TEST(StepAllocationTest, BasicDemosPileAtRestAllocatesNothing) {
  const hydro::ScopedContactThreads threads(2);
  for (const bool reuse : {true, false})
    for (const bool pair_threads : {false, true}) {
      TestWorld world(true, -1, pair_threads);
      world.state().setSurfaceReuse(reuse);
      btBoxShape box(btVector3(0.1, 0.1, 0.1));
      ScopedHydroelastic soft_box(&box, Compliant(1e8));
      world.AddGroundBox();
      world.AddBoxBlock(&box, 5, 2.1);
      world.Step(240, 1.0 / 60);
      const btHydroelasticStats before = world.state().getStats();
      EXPECT_EQ(AllocationsOver(&world, 30, 1.0 / 60), 0)
          << (reuse ? "surfaces carried" : "surfaces computed anew") << (pair_threads ? ", pairs side by side" : "");
      EXPECT_GE(world.state().getStats().m_patches - before.m_patches, 30 * 125);
      if (pair_threads) {
        EXPECT_GT(static_cast<const btHydroelasticCollisionDispatcher*>(world.dispatcher())->getNumPairsComputedAhead(),
                  1000);
      }
    }
}

// A column of twelve compliant 0.2 m boxes at 1e8 Pa at rest on the ground box at 60 Hz: one
// component of 72 unknowns, solved by CG preconditioned with a kept factorization
// (PatchProblemOptions::reuse_factorization_from). Eigen's own solve with that factorization
// allocated at every call; the float build's BasicDemo pile found it, where its columns leaned
// together into one component: 129 allocations in 30 steps at rest.
TEST(StepAllocationTest, AColumnAtRestSolvedWithAKeptFactorizationAllocatesNothing) {
  TestWorld world;
  btBoxShape box(btVector3(0.1, 0.1, 0.1));
  ScopedHydroelastic soft_box(&box, Compliant(1e8));
  world.AddGroundBox();
  for (int k = 0; k < 12; ++k) world.AddBody(&box, 1, btVector3(0, 0, 0.1 + 0.2 * k - 1e-5 * k));
  world.Step(120, 1.0 / 60);
  EXPECT_EQ(AllocationsOver(&world, 30, 1.0 / 60), 0);
  // It did solve by Newton's steps with the kept factorization, and the column stands.
  auto* solver = static_cast<btHydroelasticConstraintSolver*>(world.solver());
  world.Step(1, 1.0 / 60);
  EXPECT_GT(solver->lastNewtonIterations(), 0);
  EXPECT_EQ(solver->lastFactorizations(), 0);
}

// 000 §V-A's coin, rigid, sliding and spinning on a 1 GPa slab (a tagged plane) at 1 ms steps,
// reduced to 64 points: its surface is kept while it slides and turns, and each step the fine set
// made from its 676 points is reduced anew (plugin/surface_reuse.h), to at most 64 points (a cell
// of the grid may hold none). After the first steps that path allocates nothing.
TEST(StepAllocationTest, ACoinSlidingAndSpinningOnAPlaneAllocatesNothing) {
  test::CoinOnPlane scene(/*patch=*/true, /*compliant_coin=*/false, 1e9, 8, 64);
  TestWorld& world = scene.world;
  btRigidBody* body = scene.body;
  world.Step(10);
  scene.KeepMoving();
  world.Step(10);
  const btHydroelasticStats before = world.state().getStats();
  EXPECT_EQ(AllocationsOver(&world, 100, 1e-3), 0);
  const btHydroelasticStats after = world.state().getStats();
  EXPECT_EQ(after.m_surfacesReused - before.m_surfacesReused, 100);  // kept while it slid
  EXPECT_LE(after.m_points - before.m_points, 100 * 64);             // and reduced each step
  EXPECT_GT(after.m_points - before.m_points, 100 * 48);
  EXPECT_GT(body->getLinearVelocity().length(), 0.1);  // still sliding
}

INSTANTIATE_TEST_SUITE_P(ReuseAndPointBudget, StepAllocationTest,
                         ::testing::Combine(::testing::Bool(), ::testing::Values(0, 4, 16)),
                         [](const ::testing::TestParamInfo<std::tuple<bool, int>>& info) {
                           return std::string(std::get<0>(info.param) ? "Reuse" : "NoReuse") + "Points" +
                                  std::to_string(std::get<1>(info.param));
                         });

}  // namespace
}  // namespace hydro
