// No heap allocation when the patch problem's block factorization (hydro/block_sparse_cholesky.h)
// factorizes and solves, once its pattern is analysed: blocks of a rigid body's 6 (the fixed-size
// products) and of other sizes (a multibody's groups: the loops). Counted by this binary's
// replaced allocation functions (tests/alloc/counting_allocator.h).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "hydro/block_sparse_cholesky.h"
#include "tests/alloc/counting_allocator.h"
#include "tests/newton_test_matrices.h"

namespace hydro {
namespace {

TEST(BlockCholeskyAllocationTest, FactorizeAndSolveAllocateNothing) {
  std::mt19937 random(23);
  const std::vector<int> sizes = {6, 6, 3, 12, 6, 1, 6, 18, 6, 6, 2, 6};
  const std::vector<std::pair<int, int>> pairs = {{0, 1}, {1, 2},  {2, 3},   {3, 4},  {4, 5}, {5, 6}, {6, 7}, {7, 8},
                                                  {8, 9}, {9, 10}, {10, 11}, {11, 0}, {0, 6}, {3, 9}, {1, 7}};
  struct Case {
    Eigen::SparseMatrix<double> H;
    std::vector<int> blocks;
  };
  const Case cases[] = {{RandomBlockNewtonMatrix(sizes, pairs, &random), sizes},
                        {LatticeNewtonMatrix(4), std::vector<int>(64, 6)}};
  for (const auto& [H, blocks] : cases) {
    BlockSparseCholesky cholesky;
    cholesky.Analyze(H, blocks);
    const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(H.rows(), -1.0, 2.0);
    Eigen::VectorXd x(H.rows());
    test::StartCountingAllocations();
    bool factorized = true;
    for (int repeat = 0; repeat < 3; ++repeat) {
      factorized = factorized && cholesky.Factorize(H);
      cholesky.Solve(b, &x);
    }
    const long allocations = test::StopCountingAllocations();
    ASSERT_TRUE(factorized);
    EXPECT_EQ(allocations, 0) << H.rows() << " unknowns";
    EXPECT_LT((H * x - b).norm(), 1e-12 * b.norm());
  }
}

}  // namespace
}  // namespace hydro
