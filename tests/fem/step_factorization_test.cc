// The step matrix's factorization (fem/step_factorization.h): (A⁻¹)_PP from sparse forward
// solves equals the dense inverse's block, and a reused factorization analyses once, refactors
// with new values, re-analyses on a new pattern and never overwrites one still held.
#include <gtest/gtest.h>

#include <Eigen/Dense>

#include "fem/fem_body.h"
#include "fem/step_factorization.h"

namespace hydro {
namespace fem {
namespace {

// The step matrix of a soft block with its base fixed (a 3D mesh: real fill, a deep elimination tree).
Eigen::SparseMatrix<double> BlockStepMatrix(double youngs_modulus_Pa) {
  std::vector<Vector3> vertices;
  std::vector<Tet> tets;
  MakeTetGrid(Vector3(0.2, 0.1, 0.1), 6, 3, 3, &vertices, &tets);
  Material material;
  material.youngs_modulus_Pa = youngs_modulus_Pa;
  FemBody body("block", vertices, tets, material);
  for (int v = 0; v < body.num_vertices(); ++v)
    if (body.rest_positions()[v].z() == 0) body.FixVertex(v);
  return body.StepMatrix(0.01);
}

TEST(StepFactorizationTest, InverseSubmatrixMatchesTheDenseInverse) {
  const Eigen::SparseMatrix<double> A = BlockStepMatrix(1e5);
  const int n = static_cast<int>(A.rows());
  StepFactorization factorization(A);
  ASSERT_EQ(factorization.info(), Eigen::Success);
  const Eigen::MatrixXd A_inverse = Eigen::MatrixXd(A).ldlt().solve(Eigen::MatrixXd::Identity(n, n));
  // Scattered DoFs in no particular order, a repeated path (neighbours), the first and last.
  const std::vector<int> dofs = {n - 1, 7, 0, 8, n / 2, 3 * (n / 6) + 2, 1};
  const Eigen::MatrixXd W = InverseSubmatrix(factorization, dofs);
  ASSERT_EQ(W.rows(), static_cast<Eigen::Index>(dofs.size()));
  double largest = 0, error = 0;
  for (size_t i = 0; i < dofs.size(); ++i)
    for (size_t j = 0; j < dofs.size(); ++j) {
      largest = std::max(largest, std::abs(A_inverse(dofs[i], dofs[j])));
      error = std::max(error, std::abs(W(i, j) - A_inverse(dofs[i], dofs[j])));
    }
  EXPECT_LT(error, 1e-10 * largest) << "largest entry " << largest;
  EXPECT_GT(largest, 0);
}

TEST(StepFactorizationTest, ReusesTheAnalysisAndNeverOverwritesAHeldFactorization) {
  const Eigen::SparseMatrix<double> soft = BlockStepMatrix(1e5), stiff = BlockStepMatrix(1e7);
  const int n = static_cast<int>(soft.rows());
  const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(n, -1, 2);
  ReusedFactorization reused;
  {
    auto first = reused.Factor(soft);
    ASSERT_NE(first, nullptr);
    EXPECT_LT((soft * first->solve(b) - b).norm(), 1e-9 * b.norm());
  }
  auto second = reused.Factor(stiff);  // same pattern, new values: no new analysis
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(reused.num_analyses(), 1);
  EXPECT_LT((stiff * second->solve(b) - b).norm(), 1e-9 * b.norm());
  // `second` is still held: factoring the soft matrix must not change what it solves.
  auto third = reused.Factor(soft);
  ASSERT_NE(third, nullptr);
  EXPECT_NE(third.get(), second.get());
  EXPECT_LT((stiff * second->solve(b) - b).norm(), 1e-9 * b.norm());
  EXPECT_LT((soft * third->solve(b) - b).norm(), 1e-9 * b.norm());
  // A new pattern is analysed afresh; a copy starts afresh too.
  second.reset(), third.reset();
  Eigen::SparseMatrix<double> identity(n, n);
  identity.setIdentity();
  auto diagonal = reused.Factor(identity);
  ASSERT_NE(diagonal, nullptr);
  EXPECT_LT((diagonal->solve(b) - b).norm(), 1e-12 * b.norm());
  const int analyses = reused.num_analyses();
  EXPECT_GE(analyses, 3);
  ReusedFactorization copy = reused;
  EXPECT_EQ(copy.num_analyses(), 0);
  // Not positive definite: refused, not garbage.
  Eigen::SparseMatrix<double> negative = -soft;
  EXPECT_EQ(reused.Factor(negative), nullptr);
}

}  // namespace
}  // namespace fem
}  // namespace hydro
