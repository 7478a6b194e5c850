#pragma once
// Small blocks for the contact problem's unit tests (fem/contact_problem_*.h): a chain of DoFs
// whose weight is a tridiagonal positive definite matrix, optionally with its factorization.
#include <Eigen/SparseCore>

#include <vector>

#include "fem/contact_problem.h"

namespace hydro {
namespace fem {
namespace test {

// n DoFs weighted by A = tridiag(−1, 4 + i/n, −1) (kg), free motion u*ᵢ = 0.1·(i + 1)·(−1)ⁱ m/s;
// with the factorization of A when `factored`, so that the block may be reduced.
inline ContactProblemBlock MakeChainBlock(int n, bool factored) {
  std::vector<Eigen::Triplet<double>> entries;
  for (int i = 0; i < n; ++i) {
    entries.emplace_back(i, i, 4.0 + static_cast<double>(i) / n);
    if (i + 1 < n) entries.emplace_back(i + 1, i, -1.0), entries.emplace_back(i, i + 1, -1.0);
  }
  ContactProblemBlock block;
  block.A.resize(n, n);
  block.A.setFromTriplets(entries.begin(), entries.end());
  block.A.makeCompressed();
  block.u_star.resize(n);
  for (int i = 0; i < n; ++i) block.u_star[i] = 0.1 * (i + 1) * (i % 2 == 0 ? 1 : -1);
  if (factored) {
    auto factorization = std::make_shared<StepFactorization>(block.A);
    block.factorization = factorization;
  }
  return block;
}

// A term naming DoFs first … first + 2 of `block` with the 3×3 matrix J.
inline VelocityTerm MakeTerm(int block, int first_dof, const Matrix3& J = Matrix3::Identity()) {
  return VelocityTerm{block, first_dof, J};
}

}  // namespace test
}  // namespace fem
}  // namespace hydro
