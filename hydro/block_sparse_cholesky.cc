#include "hydro/block_sparse_cholesky.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "hydro/check.h"
#include "hydro/nested_dissection_ordering.h"

namespace hydro {

namespace {

using Matrix6 = Eigen::Matrix<double, 6, 6>;
using Vector6 = Eigen::Matrix<double, 6, 1>;
using MatrixMap = Eigen::Map<Eigen::MatrixXd>;
using ConstMatrixMap = Eigen::Map<const Eigen::MatrixXd>;

// A (d × d, column-major) = its lower Cholesky factor, in its lower triangle; false when A is not
// numerically positive definite.
bool FactorDiagonalBlock(double* a, int d) {
  for (int j = 0; j < d; ++j) {
    double s = a[j + j * d];
    for (int p = 0; p < j; ++p) s -= a[j + p * d] * a[j + p * d];
    if (!(s > 0) || !std::isfinite(s)) return false;
    const double l = std::sqrt(s);
    a[j + j * d] = l;
    for (int i = j + 1; i < d; ++i) {
      double t = a[i + j * d];
      for (int p = 0; p < j; ++p) t -= a[i + p * d] * a[j + p * d];
      a[i + j * d] = t / l;
    }
  }
  return true;
}

// X (rows × d) = X·L⁻ᵀ, L the d × d lower factor: column j of X·Lᵀ = Σ_p≤j L_jp·x_p.
void SolveRightTransposed(const double* L, int d, double* X, int rows) {
  for (int j = 0; j < d; ++j) {
    double* x_j = X + j * rows;
    for (int p = 0; p < j; ++p) {
      const double l = L[j + p * d];
      const double* x_p = X + p * rows;
      for (int r = 0; r < rows; ++r) x_j[r] -= l * x_p[r];
    }
    const double inverse = 1.0 / L[j + j * d];
    for (int r = 0; r < rows; ++r) x_j[r] *= inverse;
  }
}

// y = L⁻¹·y and y = L⁻ᵀ·y for the d × d lower factor L.
void ForwardSubstitute(const double* L, int d, double* y) {
  for (int j = 0; j < d; ++j) {
    y[j] /= L[j + j * d];
    for (int i = j + 1; i < d; ++i) y[i] -= L[i + j * d] * y[j];
  }
}
void BackSubstitute(const double* L, int d, double* y) {
  for (int j = d - 1; j >= 0; --j) {
    double t = y[j];
    for (int i = j + 1; i < d; ++i) t -= L[i + j * d] * y[i];
    y[j] = t / L[j + j * d];
  }
}

// Where H's column `column` holds row `row`, or −1.
int FindEntry(const Eigen::SparseMatrix<double>& H, int column, int row) {
  const int* begin = H.innerIndexPtr() + H.outerIndexPtr()[column];
  const int* end = H.innerIndexPtr() + (H.isCompressed() ? H.outerIndexPtr()[column + 1]
                                                         : H.outerIndexPtr()[column] + H.innerNonZeroPtr()[column]);
  const int* found = std::lower_bound(begin, end, row);
  return found != end && *found == row ? static_cast<int>(found - H.innerIndexPtr()) : -1;
}

}  // namespace

void BlockSparseCholesky::Analyze(const Eigen::SparseMatrix<double>& H, const std::vector<int>& block_sizes) {
  const int n = static_cast<int>(block_sizes.size());
  std::vector<int> block_of_row, first_row(n + 1, 0);
  for (int b = 0; b < n; ++b) {
    HYDRO_DEMAND(block_sizes[b] > 0, "a block of size " + std::to_string(block_sizes[b]));
    first_row[b + 1] = first_row[b] + block_sizes[b];
    block_of_row.insert(block_of_row.end(), block_sizes[b], b);
  }
  HYDRO_DEMAND(H.rows() == first_row[n] && H.cols() == first_row[n], "the blocks do not tile the matrix");

  // The blocks' graph (both triangles, and the diagonal, which the ordering ignores).
  std::vector<std::vector<int>> adjacent(n);
  for (int b = 0; b < n; ++b) {
    for (int c = first_row[b]; c < first_row[b + 1]; ++c)
      for (Eigen::SparseMatrix<double>::InnerIterator it(H, c); it; ++it) {
        const int a = block_of_row[it.row()];
        adjacent[a].push_back(b);
        adjacent[b].push_back(a);
      }
  }
  long edges = 0;
  for (int b = 0; b < n; ++b) {
    std::vector<int>& v = adjacent[b];
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    edges += static_cast<long>(v.size()) - std::binary_search(v.begin(), v.end(), b);
  }

  // order[k]: the block eliminated k-th. METIS needs a graph with edges; without any, every
  // order is free of fill.
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  if (edges > 0 && n > 2) {
    Eigen::SparseMatrix<double> graph(n, n);
    std::vector<Eigen::Triplet<double>> entries;
    for (int b = 0; b < n; ++b)
      for (int a : adjacent[b]) entries.emplace_back(a, b, 1.0);
    graph.setFromTriplets(entries.begin(), entries.end());
    Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> permutation;
    NestedDissectionOrdering()(graph, permutation);
    if (permutation.size() == n) order.assign(permutation.indices().data(), permutation.indices().data() + n);
  }
  std::vector<int> position(n);
  for (int k = 0; k < n; ++k) position[order[k]] = k;
  size_.resize(n);
  offset_.resize(n + 1);
  original_offset_.resize(n);
  offset_[0] = 0;
  for (int k = 0; k < n; ++k) {
    size_[k] = block_sizes[order[k]];
    original_offset_[k] = first_row[order[k]];
    offset_[k + 1] = offset_[k] + size_[k];
  }

  // L's blocks, column by column: H's below the diagonal, and each child's in the elimination tree
  // below this column (its rows are the child's fill, 1981 §5.1).
  std::vector<std::vector<int>> rows(n), children(n);
  std::vector<int> mark(n, -1);
  for (int k = 0; k < n; ++k) {
    std::vector<int>& r = rows[k];
    mark[k] = k;
    auto add = [&](int i) {
      if (i > k && mark[i] != k) mark[i] = k, r.push_back(i);
    };
    for (int a : adjacent[order[k]]) add(position[a]);
    for (int c : children[k])
      for (int i : rows[c]) add(i);
    std::sort(r.begin(), r.end());
    if (!r.empty()) children[r.front()].push_back(k);
  }
  column_start_.assign(n + 1, 0);
  block_row_.clear();
  block_value_.clear();
  int value_count = 0;
  for (int k = 0; k < n; ++k) {
    column_start_[k] = static_cast<int>(block_row_.size());
    block_row_.push_back(k);
    block_value_.push_back(value_count);
    value_count += size_[k] * size_[k];
    for (int i : rows[k]) {
      block_row_.push_back(i);
      block_value_.push_back(value_count);
      value_count += size_[i] * size_[k];
    }
  }
  column_start_[n] = static_cast<int>(block_row_.size());
  values_.assign(value_count, 0.0);

  // Where each of H's entries lands: block (i, k), i ≥ k, reads H's rows of block order[i] in the
  // columns of order[k], or the transposed block where H holds only the other triangle.
  gather_from_.clear();
  gather_to_.clear();
  for (int k = 0; k < n; ++k)
    for (int s = column_start_[k]; s < column_start_[k + 1]; ++s) {
      const int i = block_row_[s];
      if (i != k && !std::binary_search(adjacent[order[k]].begin(), adjacent[order[k]].end(), order[i])) continue;
      for (int c = 0; c < size_[k]; ++c)
        for (int r = 0; r < size_[i]; ++r) {
          int from = FindEntry(H, original_offset_[k] + c, original_offset_[i] + r);
          if (from < 0) from = FindEntry(H, original_offset_[i] + r, original_offset_[k] + c);
          HYDRO_DEMAND(from >= 0 || i == k, "a block of the matrix is not dense");
          if (from < 0) continue;  // a diagonal block's missing entry is 0
          gather_from_.push_back(from);
          gather_to_.push_back(block_value_[s] + r + c * size_[i]);
        }
    }

  // The updates each column makes once factorized: every pair of its blocks (a at or below b).
  updates_.clear();
  update_start_.assign(n + 1, 0);
  for (int k = 0; k < n; ++k) {
    update_start_[k] = static_cast<int>(updates_.size());
    for (int sb = column_start_[k] + 1; sb < column_start_[k + 1]; ++sb) {
      const int j = block_row_[sb];
      const int* column_rows = block_row_.data() + column_start_[j];
      const int* column_end = block_row_.data() + column_start_[j + 1];
      for (int sa = sb; sa < column_start_[k + 1]; ++sa) {
        const int i = block_row_[sa];
        const int* at = std::lower_bound(column_rows, column_end, i);
        HYDRO_DEMAND(at != column_end && *at == i, "a fill block is missing from the symbolic factorization");
        const int target = column_start_[j] + static_cast<int>(at - column_rows);
        updates_.push_back({block_value_[target], block_value_[sa], block_value_[sb], size_[i], size_[j], size_[k]});
      }
    }
  }
  update_start_[n] = static_cast<int>(updates_.size());
  permuted_.resize(offset_[n]);
}

bool BlockSparseCholesky::Factorize(const Eigen::SparseMatrix<double>& H) {
  std::fill(values_.begin(), values_.end(), 0.0);
  const double* h = H.valuePtr();
  for (size_t e = 0; e < gather_from_.size(); ++e) values_[gather_to_[e]] = h[gather_from_[e]];
  double* v = values_.data();
  const int n = num_blocks();
  for (int k = 0; k < n; ++k) {
    const int d = size_[k];
    double* L_kk = v + block_value_[column_start_[k]];
    if (!FactorDiagonalBlock(L_kk, d)) return false;
    for (int s = column_start_[k] + 1; s < column_start_[k + 1]; ++s)
      SolveRightTransposed(L_kk, d, v + block_value_[s], size_[block_row_[s]]);
    for (int u = update_start_[k]; u < update_start_[k + 1]; ++u) {
      const Update& up = updates_[u];
      if (up.rows == 6 && up.cols == 6 && up.inner == 6) {
        Eigen::Map<Matrix6>(v + up.target).noalias() -=
            Eigen::Map<const Matrix6>(v + up.left) * Eigen::Map<const Matrix6>(v + up.right).transpose();
      } else {
        // Eigen's general product may allocate its blocking workspace; these blocks are small.
        for (int c = 0; c < up.cols; ++c)
          for (int p = 0; p < up.inner; ++p) {
            const double r_cp = v[up.right + c + p * up.cols];
            const double* l_p = v + up.left + p * up.rows;
            double* t_c = v + up.target + c * up.rows;
            for (int r = 0; r < up.rows; ++r) t_c[r] -= l_p[r] * r_cp;
          }
      }
    }
  }
  return true;
}

void BlockSparseCholesky::Solve(const Eigen::VectorXd& b, Eigen::VectorXd* x) {
  const int n = num_blocks();
  double* y = permuted_.data();
  for (int k = 0; k < n; ++k) std::copy_n(b.data() + original_offset_[k], size_[k], y + offset_[k]);
  const double* v = values_.data();
  // L·w = P·b, block column by block column.
  for (int k = 0; k < n; ++k) {
    const int d = size_[k];
    double* y_k = y + offset_[k];
    ForwardSubstitute(v + block_value_[column_start_[k]], d, y_k);
    for (int s = column_start_[k] + 1; s < column_start_[k + 1]; ++s) {
      const int i = block_row_[s];
      if (d == 6 && size_[i] == 6) {
        Eigen::Map<Vector6>(y + offset_[i]).noalias() -=
            Eigen::Map<const Matrix6>(v + block_value_[s]) * Eigen::Map<const Vector6>(y_k);
      } else {
        ConstMatrixMap L_ik(v + block_value_[s], size_[i], d);
        for (int c = 0; c < d; ++c) Eigen::Map<Eigen::VectorXd>(y + offset_[i], size_[i]) -= L_ik.col(c) * y_k[c];
      }
    }
  }
  // Lᵀ·P·x = w, backwards.
  for (int k = n - 1; k >= 0; --k) {
    const int d = size_[k];
    double* y_k = y + offset_[k];
    for (int s = column_start_[k] + 1; s < column_start_[k + 1]; ++s) {
      const int i = block_row_[s];
      if (d == 6 && size_[i] == 6) {
        Eigen::Map<Vector6>(y_k).noalias() -=
            Eigen::Map<const Matrix6>(v + block_value_[s]).transpose() * Eigen::Map<const Vector6>(y + offset_[i]);
      } else {
        ConstMatrixMap L_ik(v + block_value_[s], size_[i], d);
        for (int c = 0; c < d; ++c)
          y_k[c] -= L_ik.col(c).dot(Eigen::Map<const Eigen::VectorXd>(y + offset_[i], size_[i]));
      }
    }
    BackSubstitute(v + block_value_[column_start_[k]], d, y_k);
  }
  x->resize(offset_[n]);
  for (int k = 0; k < n; ++k) std::copy_n(y + offset_[k], size_[k], x->data() + original_offset_[k]);
}

}  // namespace hydro
