// The patch problem's factorization of Newton's matrix (hydro/block_sparse_cholesky.h) against
// Eigen's scalar SimplicialLDLT with the same nested dissection (what PatchProblem used before), on
// a pile's lattice of bodies: factorization, and one solve with the factor (a preconditioned CG
// iteration's main cost).
#include <benchmark/benchmark.h>

#include <Eigen/SparseCholesky>
#include <vector>

#include "hydro/block_sparse_cholesky.h"
#include "hydro/nested_dissection_ordering.h"
#include "tests/newton_test_matrices.h"

namespace hydro {
namespace {

using ScalarLDLT = Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>, Eigen::Lower, NestedDissectionOrdering>;

// Args: {0 scalar | 1 block, lattice side}.
void BM_FactorizeLattice(benchmark::State& state) {
  const int n = static_cast<int>(state.range(1));
  const Eigen::SparseMatrix<double> H = LatticeNewtonMatrix(n);
  ScalarLDLT scalar;
  BlockSparseCholesky block;
  if (state.range(0) == 0)
    scalar.analyzePattern(H);
  else
    block.Analyze(H, std::vector<int>(n * n * n, 6));
  for (auto _ : state) {
    if (state.range(0) == 0) {
      scalar.factorize(H);
      benchmark::DoNotOptimize(scalar.info());
    } else {
      benchmark::DoNotOptimize(block.Factorize(H));
    }
  }
}
BENCHMARK(BM_FactorizeLattice)->Args({0, 6})->Args({1, 6})->Args({0, 10})->Args({1, 10})->Unit(benchmark::kMillisecond);

void BM_SolveLattice(benchmark::State& state) {
  const int n = static_cast<int>(state.range(1));
  const Eigen::SparseMatrix<double> H = LatticeNewtonMatrix(n);
  const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(H.rows(), -1.0, 2.0);
  Eigen::VectorXd x(H.rows());
  ScalarLDLT scalar;
  BlockSparseCholesky block;
  if (state.range(0) == 0) {
    scalar.compute(H);
  } else {
    block.Analyze(H, std::vector<int>(n * n * n, 6));
    block.Factorize(H);
  }
  for (auto _ : state) {
    if (state.range(0) == 0)
      x = scalar.solve(b);
    else
      block.Solve(b, &x);
    benchmark::DoNotOptimize(x.data());
  }
}
BENCHMARK(BM_SolveLattice)->Args({0, 6})->Args({1, 6})->Args({0, 10})->Args({1, 10})->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace hydro
