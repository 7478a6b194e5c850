#pragma once
// The sparse Cholesky factorization of a step matrix A (002 eq. 11), what a step keeps of it
// between steps, and what the contact problem reads from it.
//
// Eigen's SimplicialLDLT factors P·A·Pᵀ = L·D·Lᵀ (P a fill-reducing permutation, L unit lower
// triangular). Both uses below follow from that form:
//  - The ordering and the elimination tree depend only on A's sparsity pattern, which a body
//    keeps from step to step (its mesh and fixed DoFs do not change): ReusedFactorization
//    analyses once and then only factors numerically.
//  - The Schur complement of 002 §VI-B needs (A⁻¹)_PP for the participating DoFs P. Since
//    (A⁻¹)_ij = yᵢᵀ·D⁻¹·yⱼ with yⱼ = L⁻¹·P·eⱼ, and the forward solve of a unit vector is nonzero
//    only on the elimination-tree path from its row to the root, (A⁻¹)_PP costs |P| short
//    sparse forward solves and one dense product over the union R of those paths — not |P| full
//    solves, forward and back, over all n DoFs (a 4,860-tet cylinder: 106 ms a step that way).
#include <Eigen/Core>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>

#include <memory>
#include <vector>

namespace hydro {
namespace fem {

using StepFactorization = Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>>;

// A factorization whose symbolic analysis is redone only when A's sparsity pattern changes.
// Copies start afresh (two bodies never share one), and a factorization still held by someone
// (the shared_ptr of an earlier step) is never overwritten: a new one is made instead.
class ReusedFactorization {
 public:
  ReusedFactorization() = default;
  ReusedFactorization(const ReusedFactorization&) {}
  ReusedFactorization& operator=(const ReusedFactorization&) {
    solver_.reset();
    return *this;
  }

  // The factorization of A (compressed, lower triangle read), or nullptr if A is not positive
  // definite enough to factor.
  std::shared_ptr<const StepFactorization> Factor(const Eigen::SparseMatrix<double>& A);

  // How many times the symbolic analysis ran (for tests).
  int num_analyses() const { return num_analyses_; }

 private:
  std::shared_ptr<StepFactorization> solver_;
  std::vector<int> outer_, inner_;  // the analysed pattern
  int num_analyses_{0};
};

// (A⁻¹)_PP, P = `dofs` (distinct indices), from A's factorization; symmetric, |P|×|P|.
Eigen::MatrixXd InverseSubmatrix(const StepFactorization& factorization, const std::vector<int>& dofs);

}  // namespace fem
}  // namespace hydro
