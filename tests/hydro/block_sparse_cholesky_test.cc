#include "hydro/block_sparse_cholesky.h"

#include <gtest/gtest.h>

#include <Eigen/SparseCholesky>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "hydro/check.h"
#include "hydro/nested_dissection_ordering.h"
#include "tests/newton_test_matrices.h"

namespace hydro {
namespace {

using SparseMatrix = Eigen::SparseMatrix<double>;

double RelativeResidual(const SparseMatrix& H, BlockSparseCholesky* cholesky, Stored stored = Stored::kBoth) {
  const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(H.rows(), -1.0, 2.0);
  Eigen::VectorXd x;
  cholesky->Solve(b, &x);
  const Eigen::VectorXd Hx = stored == Stored::kLower   ? Eigen::VectorXd(H.selfadjointView<Eigen::Lower>() * x)
                             : stored == Stored::kUpper ? Eigen::VectorXd(H.selfadjointView<Eigen::Upper>() * x)
                                                        : Eigen::VectorXd(H * x);
  return (Hx - b).norm() / b.norm();
}

// Blocks of mixed sizes (a rigid body's 6; a multibody's groups, of any size) on random contacts,
// refactorized with new values on the same pattern: each solve is exact to round-off. The same
// pattern stored uncompressed (Eigen's format with room left in each column) solves the same.
TEST(BlockSparseCholesky, SolvesMixedBlocksToRoundOff) {
  std::mt19937 random(7);
  const std::vector<int> sizes = {6, 6, 3, 12, 6, 1, 6, 18, 6, 6, 2, 6, 6, 6, 6, 6, 4, 6, 6, 6};
  const int n = static_cast<int>(sizes.size());
  std::vector<std::pair<int, int>> pairs;
  std::uniform_int_distribution<int> pick(0, n - 1);
  while (pairs.size() < 35) {
    const int a = pick(random), b = pick(random);
    if (a != b) pairs.emplace_back(a, b);  // repeated pairs: two patches between one pair of bodies
  }
  BlockSparseCholesky cholesky;
  SparseMatrix H = RandomBlockNewtonMatrix(sizes, pairs, &random);
  cholesky.Analyze(H, sizes);
  for (int trial = 0; trial < 3; ++trial) {
    if (trial > 0) H = RandomBlockNewtonMatrix(sizes, pairs, &random);
    ASSERT_TRUE(cholesky.Factorize(H));
    EXPECT_LT(RelativeResidual(H, &cholesky), 1e-13) << "trial " << trial;
  }
  H.uncompress();
  cholesky.Analyze(H, sizes);
  ASSERT_TRUE(cholesky.Factorize(H));
  EXPECT_LT(RelativeResidual(H, &cholesky), 1e-13);
}

// Only one triangle stored: the blocks of the other are read transposed (which ones depends on
// the ordering, so both triangles are tried; in either, every diagonal block is half missing).
TEST(BlockSparseCholesky, ReadsEitherTriangle) {
  const std::vector<int> sizes = {6, 3, 6, 6, 12, 6};
  const std::vector<std::pair<int, int>> pairs = {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 0}, {1, 4}};
  for (Stored stored : {Stored::kLower, Stored::kUpper}) {
    std::mt19937 random(3);
    const SparseMatrix H = RandomBlockNewtonMatrix(sizes, pairs, &random, stored);
    BlockSparseCholesky cholesky;
    cholesky.Analyze(H, sizes);
    ASSERT_TRUE(cholesky.Factorize(H));
    EXPECT_LT(RelativeResidual(H, &cholesky, stored), 1e-13);
  }
}

// Islands the ordering leaves as they are: two coupled blocks (too few to order), and bodies that
// touch only the ground (no block couples two of them: no fill).
TEST(BlockSparseCholesky, FactorsIslandsWithNothingToOrder) {
  struct Case {
    std::vector<int> sizes;
    std::vector<std::pair<int, int>> pairs;
    long off_diagonal_blocks;
  };
  std::mt19937 random(19);
  for (const Case& c : {Case{{6, 6}, {{0, 1}}, 1}, Case{std::vector<int>(12, 6), {}, 0}}) {
    const SparseMatrix H = RandomBlockNewtonMatrix(c.sizes, c.pairs, &random);
    BlockSparseCholesky cholesky;
    cholesky.Analyze(H, c.sizes);
    EXPECT_EQ(cholesky.off_diagonal_blocks(), c.off_diagonal_blocks);
    ASSERT_TRUE(cholesky.Factorize(H));
    EXPECT_LT(RelativeResidual(H, &cholesky), 1e-14) << c.sizes.size() << " blocks";
  }
}

// A pile's lattice of bodies (10 × 10 × 10, six unknowns each, neighbours coupled): exact, and
// ordered nearly as well as the scalar factorization with nested dissection of the scalar graph:
// L's stored entries were 1.16 of the scalar factor's non-zeros (whole diagonal blocks add 1.5 %;
// the rest is the block graph's ordering).
TEST(BlockSparseCholesky, OrdersALatticeByNestedDissection) {
  const SparseMatrix H = LatticeNewtonMatrix(10);
  const std::vector<int> sizes(1000, 6);
  BlockSparseCholesky cholesky;
  cholesky.Analyze(H, sizes);
  ASSERT_TRUE(cholesky.Factorize(H));
  EXPECT_LT(RelativeResidual(H, &cholesky), 1e-12);
  Eigen::SimplicialLLT<SparseMatrix, Eigen::Lower, NestedDissectionOrdering> scalar(H);
  ASSERT_EQ(scalar.info(), Eigen::Success);
  const double scalar_non_zeros = static_cast<double>(scalar.matrixL().nestedExpression().nonZeros());
  std::printf("block factor: %ld stored entries, %ld blocks below the diagonal; scalar factor: %.0f non-zeros\n",
              cholesky.stored_entries(), cholesky.off_diagonal_blocks(), scalar_non_zeros);
  EXPECT_LT(cholesky.stored_entries(), 1.25 * scalar_non_zeros);
}

// A matrix that is not positive definite is refused, not factored into NaN.
TEST(BlockSparseCholesky, RefusesAnIndefiniteMatrix) {
  std::mt19937 random(13);
  const std::vector<int> sizes = {6, 6, 6};
  SparseMatrix H = RandomBlockNewtonMatrix(sizes, {{0, 1}, {1, 2}}, &random);
  BlockSparseCholesky cholesky;
  cholesky.Analyze(H, sizes);
  ASSERT_TRUE(cholesky.Factorize(H));
  H.coeffRef(14, 14) = -1.0;
  EXPECT_FALSE(cholesky.Factorize(H));
  H.coeffRef(14, 14) = NAN;
  EXPECT_FALSE(cholesky.Factorize(H));
}

// Misuse is a bug of the caller's: blocks that do not tile H, or a block H holds only in part.
TEST(BlockSparseCholesky, DemandsDenseBlocksThatTileTheMatrix) {
  std::mt19937 random(17);
  const std::vector<int> sizes = {6, 6};
  SparseMatrix H = RandomBlockNewtonMatrix(sizes, {{0, 1}}, &random);
  BlockSparseCholesky cholesky;
  EXPECT_THROW(cholesky.Analyze(H, {6, 5}), InternalError);
  EXPECT_THROW(cholesky.Analyze(H, {6, 0, 6}), InternalError);
  // Drop one off-diagonal entry (and its mirror) from the pattern.
  H.prune([](int row, int col, double) { return !(row == 8 && col == 1) && !(row == 1 && col == 8); });
  EXPECT_THROW(cholesky.Analyze(H, sizes), InternalError);
  // A block that one of its columns lacks wholly, with one triangle stored: no mirror holds it.
  SparseMatrix lower = RandomBlockNewtonMatrix(sizes, {{0, 1}}, &random, Stored::kLower);
  lower.prune([](int row, int col, double) { return !(row >= 6 && col == 0); });
  EXPECT_THROW(cholesky.Analyze(lower, sizes), InternalError);
}

}  // namespace
}  // namespace hydro
