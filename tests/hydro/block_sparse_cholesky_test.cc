#include "hydro/block_sparse_cholesky.h"

#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/SparseCholesky>
#include <cstdio>
#include <random>
#include <vector>

#include "hydro/check.h"
#include "hydro/nested_dissection_ordering.h"
#include "tests/lattice_newton_matrix.h"

namespace hydro {
namespace {

using SparseMatrix = Eigen::SparseMatrix<double>;

// A Newton matrix's shape: I on the diagonal plus, for each coupled pair of blocks (a, b), a
// random positive semi-definite curvature C = Jᵀ·J added as [C, −C; −C, C] (a contact between
// two bodies), so H ⪰ I. `lower_only` keeps H's lower triangle alone.
SparseMatrix RandomBlockMatrix(const std::vector<int>& sizes, const std::vector<std::pair<int, int>>& pairs,
                               std::mt19937* random, bool lower_only = false) {
  std::vector<int> first(sizes.size() + 1, 0);
  for (size_t b = 0; b < sizes.size(); ++b) first[b + 1] = first[b] + sizes[b];
  Eigen::MatrixXd dense = Eigen::MatrixXd::Identity(first.back(), first.back());
  std::normal_distribution<double> normal;
  for (const auto& [a, b] : pairs) {
    Eigen::MatrixXd J(3, sizes[a] + sizes[b]);
    for (int i = 0; i < J.size(); ++i) J.data()[i] = normal(*random);
    J.rightCols(sizes[b]) *= -1;
    const Eigen::MatrixXd C = J.transpose() * J;
    const int s[2] = {a, b};
    const int o[2] = {0, sizes[a]};
    for (int p = 0; p < 2; ++p)
      for (int q = 0; q < 2; ++q)
        dense.block(first[s[p]], first[s[q]], sizes[s[p]], sizes[s[q]]) +=
            C.block(o[p], o[q], sizes[s[p]], sizes[s[q]]);
  }
  // The pattern: every entry of each touched block, even where it is 0.
  std::vector<Eigen::Triplet<double>> entries;
  auto add_block = [&](int a, int b) {
    for (int c = 0; c < sizes[b]; ++c)
      for (int r = 0; r < sizes[a]; ++r)
        if (!lower_only || first[a] + r >= first[b] + c)
          entries.emplace_back(first[a] + r, first[b] + c, dense(first[a] + r, first[b] + c));
  };
  for (size_t b = 0; b < sizes.size(); ++b) add_block(b, b);
  for (const auto& [a, b] : pairs) add_block(a, b), add_block(b, a);
  SparseMatrix H(first.back(), first.back());
  H.setFromTriplets(entries.begin(), entries.end(), [](double x, double) { return x; });
  H.makeCompressed();
  return H;
}

double RelativeResidual(const SparseMatrix& H, BlockSparseCholesky* cholesky, bool lower_only = false) {
  const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(H.rows(), -1.0, 2.0);
  Eigen::VectorXd x;
  cholesky->Solve(b, &x);
  const Eigen::VectorXd Hx =
      lower_only ? Eigen::VectorXd(H.selfadjointView<Eigen::Lower>() * x) : Eigen::VectorXd(H * x);
  return (Hx - b).norm() / b.norm();
}

// Blocks of mixed sizes (a rigid body's 6, a body with locked axes, a multibody's 12 and 18) on
// random contacts, refactorized with new values on the same pattern: each solve is exact to round-off.
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
  SparseMatrix H = RandomBlockMatrix(sizes, pairs, &random);
  cholesky.Analyze(H, sizes);
  for (int trial = 0; trial < 3; ++trial) {
    if (trial > 0) H = RandomBlockMatrix(sizes, pairs, &random);
    ASSERT_TRUE(cholesky.Factorize(H));
    EXPECT_LT(RelativeResidual(H, &cholesky), 1e-13) << "trial " << trial;
  }
}

// Only the lower triangle stored: the blocks above it are read transposed.
TEST(BlockSparseCholesky, ReadsALowerTriangle) {
  std::mt19937 random(3);
  const std::vector<int> sizes = {6, 3, 6, 6, 12, 6};
  const std::vector<std::pair<int, int>> pairs = {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 0}, {1, 4}};
  const SparseMatrix H = RandomBlockMatrix(sizes, pairs, &random, /*lower_only=*/true);
  BlockSparseCholesky cholesky;
  cholesky.Analyze(H, sizes);
  ASSERT_TRUE(cholesky.Factorize(H));
  EXPECT_LT(RelativeResidual(H, &cholesky, /*lower_only=*/true), 1e-13);
}

// Bodies that touch only the ground: no block couples two of them, nothing to order, no fill.
TEST(BlockSparseCholesky, FactorsUncoupledBlocks) {
  std::mt19937 random(5);
  const std::vector<int> sizes(12, 6);
  const SparseMatrix H = RandomBlockMatrix(sizes, {}, &random);
  BlockSparseCholesky cholesky;
  cholesky.Analyze(H, sizes);
  EXPECT_EQ(cholesky.off_diagonal_blocks(), 0);
  EXPECT_EQ(cholesky.block_updates(), 0);
  ASSERT_TRUE(cholesky.Factorize(H));
  EXPECT_LT(RelativeResidual(H, &cholesky), 1e-15);
}

// A pile's lattice of bodies (10 × 10 × 10, six unknowns each, neighbours coupled): exact, and
// ordered as well as the scalar factorization with the same nested dissection: L's stored entries
// were 1.16 of the scalar factor's non-zeros (the same fill, and whole diagonal blocks).
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
  std::printf("block factor: %ld stored entries, scalar factor: %.0f non-zeros, %ld block updates\n",
              cholesky.stored_entries(), scalar_non_zeros, cholesky.block_updates());
  EXPECT_LT(cholesky.stored_entries(), 1.25 * scalar_non_zeros);
}

// A matrix that is not positive definite is refused, not factored into NaN.
TEST(BlockSparseCholesky, RefusesAnIndefiniteMatrix) {
  std::mt19937 random(13);
  const std::vector<int> sizes = {6, 6, 6};
  SparseMatrix H = RandomBlockMatrix(sizes, {{0, 1}, {1, 2}}, &random);
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
  SparseMatrix H = RandomBlockMatrix(sizes, {{0, 1}}, &random);
  BlockSparseCholesky cholesky;
  EXPECT_THROW(cholesky.Analyze(H, {6, 5}), InternalError);
  EXPECT_THROW(cholesky.Analyze(H, {6, 0, 6}), InternalError);
  H.coeffRef(8, 1) = 0;  // keep the pattern, then drop one off-diagonal entry from it
  H.prune([](int row, int col, double) { return !(row == 8 && col == 1) && !(row == 1 && col == 8); });
  EXPECT_THROW(cholesky.Analyze(H, sizes), InternalError);
}

}  // namespace
}  // namespace hydro
