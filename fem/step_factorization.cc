#include "fem/step_factorization.h"

#include <algorithm>
#include <cmath>

namespace hydro {
namespace fem {

std::shared_ptr<const StepFactorization> ReusedFactorization::Factor(const Eigen::SparseMatrix<double>& A) {
  const int n = static_cast<int>(A.outerSize());
  const bool same_pattern = solver_ != nullptr && static_cast<int>(outer_.size()) == n + 1 &&
                            std::equal(outer_.begin(), outer_.end(), A.outerIndexPtr()) &&
                            static_cast<int>(inner_.size()) == A.nonZeros() &&
                            std::equal(inner_.begin(), inner_.end(), A.innerIndexPtr());
  // Still in someone's hands (an earlier step's result): leave it be.
  if (solver_ != nullptr && solver_.use_count() > 1) solver_.reset();
  if (solver_ == nullptr || !same_pattern) {
    if (solver_ == nullptr) solver_ = std::make_shared<StepFactorization>();
    solver_->analyzePattern(A);
    outer_.assign(A.outerIndexPtr(), A.outerIndexPtr() + n + 1);
    inner_.assign(A.innerIndexPtr(), A.innerIndexPtr() + A.nonZeros());
    ++num_analyses_;
  }
  solver_->factorize(A);
  // LDLᵀ goes through an indefinite matrix too; a step matrix must be positive definite.
  if (solver_->info() != Eigen::Success || !(solver_->vectorD().array() > 0).all()) {
    solver_.reset();
    return nullptr;
  }
  return solver_;
}

Eigen::MatrixXd InverseSubmatrix(const StepFactorization& factorization, const std::vector<int>& dofs) {
  // P·A·Pᵀ = L·D·Lᵀ with L's strict lower triangle stored by columns, rows ascending (the
  // diagonal, all ones, is not stored).
  const Eigen::SparseMatrix<double>& L = factorization.matrixL().nestedExpression();
  const Eigen::VectorXd& D = factorization.vectorD();
  const int n = static_cast<int>(L.cols());
  const int p = static_cast<int>(dofs.size());
  // The elimination tree: column k's parent is its first row below the diagonal.
  std::vector<int> parent(n, -1);
  for (int k = 0; k < n; ++k)
    for (Eigen::SparseMatrix<double>::InnerIterator it(L, k); it; ++it)
      if (it.row() > k) {
        parent[k] = static_cast<int>(it.row());
        break;
      }
  // Where each eⱼ lands under P, and the union R of the paths from there to the root.
  std::vector<int> start(p), position_in_R(n, -1), R;
  for (int j = 0; j < p; ++j) {
    start[j] = factorization.permutationP().indices()[dofs[j]];
    for (int k = start[j]; k >= 0 && position_in_R[k] < 0; k = parent[k]) {
      position_in_R[k] = static_cast<int>(R.size());
      R.push_back(k);
    }
  }
  // Y = D^(-1/2)·L⁻¹·P·E_P over the rows R, one forward solve per column along its path (every
  // row a column of L touches is an ancestor of that column, so the work vector is nonzero only
  // on the path and is cleared as the path is walked).
  Eigen::MatrixXd Y = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(R.size()), p);
  Eigen::VectorXd x = Eigen::VectorXd::Zero(n);
  for (int j = 0; j < p; ++j) {
    x[start[j]] = 1;
    for (int k = start[j]; k >= 0; k = parent[k]) {
      const double xk = x[k];
      x[k] = 0;
      if (xk == 0) continue;
      for (Eigen::SparseMatrix<double>::InnerIterator it(L, k); it; ++it)
        if (it.row() > k) x[it.row()] -= it.value() * xk;
      Y(position_in_R[k], j) = xk / std::sqrt(D[k]);
    }
  }
  // (A⁻¹)_PP = Yᵀ·Y.
  Eigen::MatrixXd W = Eigen::MatrixXd::Zero(p, p);
  W.selfadjointView<Eigen::Lower>().rankUpdate(Y.transpose());
  W.triangularView<Eigen::StrictlyUpper>() = W.transpose();
  return W;
}

}  // namespace fem
}  // namespace hydro
