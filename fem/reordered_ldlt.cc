#include "fem/reordered_ldlt.h"

#include <Eigen/OrderingMethods>

#include <algorithm>
#include <string>

#include "hydro/check.h"

namespace hydro {
namespace fem {

void ReorderedLdlt::Analyze(const Eigen::SparseMatrix<double>& H) {
  HYDRO_DEMAND(H.isCompressed() && H.rows() == H.cols(), "Newton's matrix must be square and compressed");
  num_rows_ = static_cast<int>(H.rows());
  // The ordering SimplicialLDLT would choose: AMD on the whole symmetric pattern.
  Eigen::SparseMatrix<double> symmetric;
  symmetric = H.selfadjointView<Eigen::Lower>();
  Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> inverse_ordering;
  Eigen::AMDOrdering<int>()(symmetric, inverse_ordering);
  const Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> ordering = inverse_ordering.inverse();
  ordered_row_.assign(ordering.indices().data(), ordering.indices().data() + num_rows_);

  // Entry (r, c), r ≥ c, of H is entry (min, max) of (P·r, P·c) in P·H·Pᵀ's upper triangle.
  std::vector<Eigen::Triplet<double>> upper;
  upper.reserve(H.nonZeros());
  for (int c = 0; c < num_rows_; ++c)
    for (Eigen::SparseMatrix<double>::InnerIterator it(H, c); it; ++it)
      if (it.row() >= c) {
        const int a = ordered_row_[it.row()], b = ordered_row_[c];
        upper.emplace_back(std::min(a, b), std::max(a, b), it.value());
      }
  ordered_upper_.resize(num_rows_, num_rows_);
  ordered_upper_.setFromTriplets(upper.begin(), upper.end());
  ordered_upper_.makeCompressed();
  slot_.assign(H.nonZeros(), -1);
  for (int c = 0; c < num_rows_; ++c)
    for (int k = H.outerIndexPtr()[c]; k < H.outerIndexPtr()[c + 1]; ++k) {
      const int r = H.innerIndexPtr()[k];
      if (r < c) continue;
      const int a = ordered_row_[r], b = ordered_row_[c];
      const int row = std::min(a, b), col = std::max(a, b);
      const int* begin = ordered_upper_.innerIndexPtr() + ordered_upper_.outerIndexPtr()[col];
      const int* end = ordered_upper_.innerIndexPtr() + ordered_upper_.outerIndexPtr()[col + 1];
      slot_[k] = static_cast<int>(std::lower_bound(begin, end, row) - ordered_upper_.innerIndexPtr());
    }
  ldlt_.analyzePattern(ordered_upper_);
  ordered_b_.resize(num_rows_), ordered_x_.resize(num_rows_);
}

bool ReorderedLdlt::Factor(const Eigen::SparseMatrix<double>& H) {
  HYDRO_DEMAND(analyzed() && H.rows() == num_rows_ && static_cast<size_t>(H.nonZeros()) == slot_.size(),
               "a matrix of " + std::to_string(H.nonZeros()) + " entries factored with the pattern of " +
                   std::to_string(slot_.size()));
  double* values = ordered_upper_.valuePtr();
  for (size_t k = 0; k < slot_.size(); ++k)
    if (slot_[k] >= 0) values[slot_[k]] = H.valuePtr()[k];
  ldlt_.FactorInPlace(ordered_upper_);
  return ldlt_.info() == Eigen::Success;
}

void ReorderedLdlt::Solve(const Eigen::VectorXd& b, Eigen::VectorXd* x) {
  HYDRO_DEMAND(b.size() == num_rows_, "a right-hand side of " + std::to_string(b.size()) + " rows for a matrix of " +
                                          std::to_string(num_rows_));
  // P·H·Pᵀ·(P·x) = P·b.
  for (int i = 0; i < num_rows_; ++i) ordered_b_[ordered_row_[i]] = b[i];
  ordered_x_ = ldlt_.solve(ordered_b_);
  x->resize(num_rows_);
  for (int i = 0; i < num_rows_; ++i) (*x)[i] = ordered_x_[ordered_row_[i]];
}

}  // namespace fem
}  // namespace hydro
