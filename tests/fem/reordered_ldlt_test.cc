// The reordered LDLᵀ (fem/reordered_ldlt.h): the solutions of Eigen's own SimplicialLDLT, to
// round-off, over refactorizations with new values; the fill-reducing ordering it claims; and
// a clear refusal of a matrix whose pattern is not the analysed one.
#include "fem/reordered_ldlt.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "hydro/check.h"

namespace hydro {
namespace fem {
namespace {

// The lower triangle of a random sparse symmetric positive definite n×n matrix: a random
// pattern (each off-diagonal entry present with probability `density`), diagonally dominant.
Eigen::SparseMatrix<double> RandomLower(int n, double density, std::mt19937* rng) {
  std::uniform_real_distribution<double> value(-1, 1), coin(0, 1);
  std::vector<Eigen::Triplet<double>> entries;
  std::vector<double> row_sum(n, 0.0);
  for (int c = 0; c < n; ++c)
    for (int r = c + 1; r < n; ++r)
      if (coin(*rng) < density) {
        const double v = value(*rng);
        entries.emplace_back(r, c, v);
        row_sum[r] += std::abs(v), row_sum[c] += std::abs(v);
      }
  for (int i = 0; i < n; ++i) entries.emplace_back(i, i, row_sum[i] + 0.5 + coin(*rng));
  Eigen::SparseMatrix<double> H(n, n);
  H.setFromTriplets(entries.begin(), entries.end());
  H.makeCompressed();
  return H;
}

// New values on the same pattern: every off-diagonal value scaled by its own factor in
// [0.5, 1.5], and the diagonal made dominant again.
void Revalue(Eigen::SparseMatrix<double>* H, std::mt19937* rng) {
  std::uniform_real_distribution<double> scale(0.5, 1.5);
  const int n = static_cast<int>(H->cols());
  std::vector<double> row_sum(n, 0.0);
  for (int c = 0; c < n; ++c)
    for (Eigen::SparseMatrix<double>::InnerIterator it(*H, c); it; ++it)
      if (it.row() != c) {
        it.valueRef() *= scale(*rng);
        row_sum[it.row()] += std::abs(it.value()), row_sum[c] += std::abs(it.value());
      }
  for (int i = 0; i < n; ++i) H->coeffRef(i, i) = row_sum[i] + 0.5 * scale(*rng);
}

TEST(ReorderedLdltTest, SolvesAsEigensOwnLdltOverRefactorizations) {
  std::mt19937 rng(11);
  for (int n : {1, 2, 7, 40, 300}) {
    Eigen::SparseMatrix<double> H = RandomLower(n, 0.05, &rng);
    ReorderedLdlt ours;
    ASSERT_FALSE(ours.analyzed());
    ours.Analyze(H);
    ASSERT_TRUE(ours.analyzed());
    Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> eigens;
    eigens.analyzePattern(H);
    for (int round = 0; round < 3; ++round) {
      ASSERT_TRUE(ours.Factor(H)) << n;
      eigens.factorize(H);
      ASSERT_EQ(eigens.info(), Eigen::Success);
      Eigen::VectorXd b = Eigen::VectorXd::Random(n), x;
      ours.Solve(b, &x);
      const Eigen::VectorXd expected = eigens.solve(b);
      // The same factorization up to the order of sums within a column (Eigen's permuted copy
      // keeps its entries in the order it visits them, ours sorted).
      EXPECT_LT((x - expected).norm(), 1e-13 * expected.norm()) << "n " << n << ", round " << round;
      const Eigen::MatrixXd dense = Eigen::MatrixXd(H).selfadjointView<Eigen::Lower>();
      EXPECT_LT((dense * x - b).norm(), 1e-12 * dense.norm() * x.norm()) << n;
      Revalue(&H, &rng);
    }
  }
}

TEST(ReorderedLdltTest, OrdersAnArrowMatrixsHubLast) {
  // An arrow: row 0 couples to every other row. Eliminated first, it fills the whole matrix;
  // a fill-reducing ordering puts it last.
  const int n = 20;
  std::vector<Eigen::Triplet<double>> entries;
  for (int i = 0; i < n; ++i) entries.emplace_back(i, i, i == 0 ? n : 2.0);
  for (int i = 1; i < n; ++i) entries.emplace_back(i, 0, 0.5);
  Eigen::SparseMatrix<double> H(n, n);
  H.setFromTriplets(entries.begin(), entries.end());
  H.makeCompressed();
  ReorderedLdlt ldlt;
  ldlt.Analyze(H);
  EXPECT_EQ(ldlt.ordered_row(0), n - 1);
  ASSERT_TRUE(ldlt.Factor(H));
  Eigen::VectorXd b = Eigen::VectorXd::Ones(n), x;
  ldlt.Solve(b, &x);
  const Eigen::MatrixXd dense = Eigen::MatrixXd(H).selfadjointView<Eigen::Lower>();
  EXPECT_LT((dense * x - b).norm(), 1e-13 * b.norm());
}

TEST(ReorderedLdltTest, SaysSoWhenTheMatrixIsSingular) {
  Eigen::SparseMatrix<double> H(2, 2);
  H.insert(0, 0) = 1, H.insert(1, 0) = 1, H.insert(1, 1) = 1;  // [[1, 1], [1, 1]]
  H.makeCompressed();
  ReorderedLdlt ldlt;
  ldlt.Analyze(H);
  EXPECT_FALSE(ldlt.Factor(H));
}

TEST(ReorderedLdltTest, RefusesAMatrixOfAnotherPattern) {
  std::mt19937 rng(5);
  const Eigen::SparseMatrix<double> H = RandomLower(10, 0.3, &rng);
  ReorderedLdlt ldlt;
  EXPECT_THROW(ldlt.Factor(H), InternalError);  // not analysed yet
  ldlt.Analyze(H);
  const Eigen::SparseMatrix<double> other = RandomLower(12, 0.3, &rng);
  EXPECT_THROW(ldlt.Factor(other), InternalError);
  Eigen::VectorXd x;
  EXPECT_THROW(ldlt.Solve(Eigen::VectorXd::Ones(3), &x), InternalError);
}

}  // namespace
}  // namespace fem
}  // namespace hydro
