// FEM step costs: Eigen's SimplicialLDLT against SuiteSparse CHOLMOD on the step matrix of
// 002 eq. 11, and whole corotational steps at 10 ms, for bodies the size of the scenes
// (~225 DoFs, ~1,200 and ~4,000 tets). Run: build/release/tests/bench/fem_bench
//   BM_Factor*/T: T = number of tets; BM_Step/T reports real_time_factor = δt / step time.
#include <benchmark/benchmark.h>

#include <Eigen/SparseCholesky>
#ifdef HYDRO_BENCH_CHOLMOD
#include <Eigen/CholmodSupport>
#endif

#include "fem/fem_body.h"

namespace hydro {
namespace fem {
namespace {

// A soft block of about `tets` tets (cells of 6 tets, 2:1:1 proportions), bottom face fixed.
FemBody Block(int tets) {
  int n = 1;
  while (6 * (2 * n) * n * n < tets) ++n;
  std::vector<Vector3> vertices;
  std::vector<Tet> elements;
  MakeTetGrid(Vector3(0.2, 0.1, 0.1), 2 * n, n, n, &vertices, &elements);
  Material material;
  material.youngs_modulus_Pa = 1e5;
  material.poisson_ratio = 0.4;
  FemBody body("block", vertices, elements, material);
  for (int v = 0; v < body.num_vertices(); ++v)
    if (body.rest_positions()[v].z() == 0) body.FixVertex(v);
  return body;
}

void Counters(benchmark::State& state, const FemBody& body) {
  state.counters["tets"] = body.num_tets();
  state.counters["dofs"] = 3 * body.num_vertices();
}

void BM_FactorSimplicialLDLT(benchmark::State& state) {
  const FemBody body = Block(static_cast<int>(state.range(0)));
  const Eigen::SparseMatrix<double> A = body.StepMatrix(0.01);
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> solver;
  solver.analyzePattern(A);
  for (auto _ : state) {
    solver.factorize(A);
    benchmark::DoNotOptimize(solver.info());
  }
  Counters(state, body);
}
BENCHMARK(BM_FactorSimplicialLDLT)->Arg(40)->Arg(1200)->Arg(4000)->Unit(benchmark::kMicrosecond);

#ifdef HYDRO_BENCH_CHOLMOD
void BM_FactorCholmod(benchmark::State& state) {
  const FemBody body = Block(static_cast<int>(state.range(0)));
  const Eigen::SparseMatrix<double> A = body.StepMatrix(0.01);
  Eigen::CholmodSupernodalLLT<Eigen::SparseMatrix<double>> solver;
  solver.analyzePattern(A);
  for (auto _ : state) {
    solver.factorize(A);
    benchmark::DoNotOptimize(solver.info());
  }
  Counters(state, body);
}
BENCHMARK(BM_FactorCholmod)->Arg(40)->Arg(1200)->Arg(4000)->Unit(benchmark::kMicrosecond);
#endif

void BM_Step(benchmark::State& state) {
  FemBody body = Block(static_cast<int>(state.range(0)));
  const double dt = 0.01;
  StepTimings total;
  for (auto _ : state) {
    body.Step(dt, Vector3(0, 0, -9.81));
    total.assembly_s += body.last_step_timings().assembly_s;
    total.factorization_s += body.last_step_timings().factorization_s;
    total.solve_s += body.last_step_timings().solve_s;
  }
  const double steps = static_cast<double>(state.iterations());
  state.counters["assembly_ms"] = 1e3 * total.assembly_s / steps;
  state.counters["factorization_ms"] = 1e3 * total.factorization_s / steps;
  state.counters["solve_ms"] = 1e3 * total.solve_s / steps;
  state.counters["real_time_factor"] =
      benchmark::Counter(dt * steps, benchmark::Counter::kIsRate);  // simulated seconds per wall second
  Counters(state, body);
}
BENCHMARK(BM_Step)->Arg(40)->Arg(1200)->Arg(4000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace fem
}  // namespace hydro

BENCHMARK_MAIN();
