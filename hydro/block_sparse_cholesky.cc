#include "hydro/block_sparse_cholesky.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "hydro/block_product_kernel.h"
#include "hydro/check.h"
#include "hydro/nested_dissection_ordering.h"

namespace hydro {

namespace {

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
  analysed_ = false;  // until the end: an analysis that throws halfway leaves nothing to factorize
  const int n = static_cast<int>(block_sizes.size());
  std::vector<int> block_of_row, first_row(n + 1, 0);
  for (int b = 0; b < n; ++b) {
    HYDRO_DEMAND(block_sizes[b] > 0, "a block of size " + std::to_string(block_sizes[b]));
    first_row[b + 1] = first_row[b] + block_sizes[b];
    block_of_row.insert(block_of_row.end(), block_sizes[b], b);
  }
  HYDRO_DEMAND(H.rows() == first_row[n] && H.cols() == first_row[n], "the blocks do not tile the matrix");

  // The blocks' graph (both triangles, and the diagonal, which the ordering ignores): each block
  // column's row blocks, read from its first column; its other columns must hold the same (H
  // holds whole blocks, and each column's rows sorted: a block's rows are one run).
  std::vector<std::vector<int>> adjacent(n);
  std::vector<int> column_blocks;
  for (int b = 0; b < n; ++b) {
    column_blocks.clear();
    for (int c = first_row[b]; c < first_row[b + 1]; ++c) {
      size_t seen = 0;
      int last = -1;
      for (Eigen::SparseMatrix<double>::InnerIterator it(H, c); it; ++it) {
        const int a = block_of_row[it.row()];
        if (a == last) continue;
        last = a;
        if (c == first_row[b]) {
          column_blocks.push_back(a);
        } else {
          HYDRO_DEMAND(seen < column_blocks.size() && column_blocks[seen] == a, "a block of the matrix is not dense");
        }
        ++seen;
      }
      HYDRO_DEMAND(seen == column_blocks.size(), "a block of the matrix is not dense");
    }
    for (int a : column_blocks) {
      adjacent[b].push_back(a);
      if (a != b) adjacent[a].push_back(b);
    }
  }
  bool coupled = false;  // some block couples two of them
  for (int b = 0; b < n; ++b) {
    std::vector<int>& neighbours = adjacent[b];
    std::sort(neighbours.begin(), neighbours.end());
    neighbours.erase(std::unique(neighbours.begin(), neighbours.end()), neighbours.end());
    coupled = coupled || neighbours.size() > (std::binary_search(neighbours.begin(), neighbours.end(), b) ? 1u : 0u);
  }

  // order[k]: the block eliminated k-th. METIS needs a graph with edges; without any, every
  // order is free of fill.
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  if (coupled && n > 2) {
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
  // below this column (its rows are the child's fill: Liu 1990, the header's reference).
  std::vector<std::vector<int>> rows(n), children(n);
  std::vector<int> mark(n, -1);
  for (int k = 0; k < n; ++k) {
    std::vector<int>& r = rows[k];
    mark[k] = k;
    auto add = [&](int i) {
      if (i > k && mark[i] != k) {
        mark[i] = k;
        r.push_back(i);
      }
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
  long value_count = 0;  // offsets are int: at most 2³¹ − 1 stored entries (16 GB of factor)
  for (int k = 0; k < n; ++k) {
    column_start_[k] = static_cast<int>(block_row_.size());
    block_row_.push_back(k);
    block_value_.push_back(static_cast<int>(value_count));
    value_count += static_cast<long>(size_[k]) * size_[k];
    for (int i : rows[k]) {
      block_row_.push_back(i);
      block_value_.push_back(static_cast<int>(value_count));
      value_count += static_cast<long>(size_[i]) * size_[k];
    }
  }
  column_start_[n] = static_cast<int>(block_row_.size());
  HYDRO_DEMAND(value_count <= std::numeric_limits<int>::max(),
               "the factor would have " + std::to_string(value_count) + " entries, more than its int offsets reach");
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

  // Each column's row structure: the columns k < j with a block in row j, and where (left-looking:
  // column j takes its updates from them when its turn comes; a list of the updates themselves
  // would grow with the factorization's flops, s³/6 entries for a dense separator of s blocks).
  std::vector<int> row_count(n + 1, 0);
  for (int k = 0; k < n; ++k)
    for (int slot = column_start_[k] + 1; slot < column_start_[k + 1]; ++slot) ++row_count[block_row_[slot] + 1];
  row_start_.assign(n + 1, 0);
  for (int j = 0; j < n; ++j) row_start_[j + 1] = row_start_[j] + row_count[j + 1];
  row_slot_.assign(row_start_[n], 0);
  row_column_.assign(row_start_[n], 0);
  std::vector<int> filled(row_start_.begin(), row_start_.end() - 1);
  for (int k = 0; k < n; ++k)
    for (int slot = column_start_[k] + 1; slot < column_start_[k + 1]; ++slot) {
      const int e = filled[block_row_[slot]]++;  // by increasing k
      row_slot_[e] = slot;
      row_column_[e] = k;
    }
  slot_of_row_.assign(n, -1);
  permuted_.resize(offset_[n]);
  analysed_rows_ = static_cast<int>(H.rows());
  analysed_non_zeros_ = static_cast<long>(H.nonZeros());
  analysed_compressed_ = H.isCompressed();
  analysed_ = true;
}

bool BlockSparseCholesky::Factorize(const Eigen::SparseMatrix<double>& H) {
  HYDRO_DEMAND(analysed_, "factorizing a matrix whose pattern was not analysed");
  HYDRO_ASSERT(H.rows() == analysed_rows_ && H.nonZeros() == analysed_non_zeros_ &&
               H.isCompressed() == analysed_compressed_);
  std::fill(values_.begin(), values_.end(), 0.0);
  const double* h = H.valuePtr();
  for (size_t e = 0; e < gather_from_.size(); ++e) values_[gather_to_[e]] = h[gather_from_[e]];
  double* v = values_.data();
  const int n = num_blocks();
  const auto subtract_product_transposed = internal::ChosenBlockKernels().subtract_product_transposed;
  for (int j = 0; j < n; ++j) {
    const int size_j = size_[j];
    for (int slot = column_start_[j]; slot < column_start_[j + 1]; ++slot) slot_of_row_[block_row_[slot]] = slot;
    // L_ij −= L_ik·L_jkᵀ for every column k with a block in row j, over its rows i ≥ j (each of
    // which column j holds: the elimination tree's fill).
    for (int e = row_start_[j]; e < row_start_[j + 1]; ++e) {
      const int slot_jk = row_slot_[e];
      const int k = row_column_[e];
      const int size_k = size_[k];
      const double* L_jk = v + block_value_[slot_jk];
      for (int slot_ik = slot_jk; slot_ik < column_start_[k + 1]; ++slot_ik) {
        const int i = block_row_[slot_ik];
        const int target = slot_of_row_[i];
        HYDRO_ASSERT(target >= 0);
        const double* L_ik = v + block_value_[slot_ik];
        double* L_ij = v + block_value_[target];
        if (size_[i] == 6 && size_j == 6 && size_k == 6) {
          subtract_product_transposed(L_ij, L_ik, L_jk);
        } else {
          // Loops, not Eigen's general product, which may allocate its blocking workspace.
          const int rows = size_[i];
          for (int c = 0; c < size_j; ++c)
            for (int p = 0; p < size_k; ++p) {
              const double l_jk = L_jk[c + p * size_j];
              const double* l_ik = L_ik + p * rows;
              double* l_ij = L_ij + c * rows;
              for (int r = 0; r < rows; ++r) l_ij[r] -= l_ik[r] * l_jk;
            }
        }
      }
    }
    for (int slot = column_start_[j]; slot < column_start_[j + 1]; ++slot) slot_of_row_[block_row_[slot]] = -1;
    double* L_jj = v + block_value_[column_start_[j]];
    if (!FactorDiagonalBlock(L_jj, size_j)) return false;
    for (int slot = column_start_[j] + 1; slot < column_start_[j + 1]; ++slot)
      SolveRightTransposed(L_jj, size_j, v + block_value_[slot], size_[block_row_[slot]]);
  }
  return true;
}

void BlockSparseCholesky::Solve(const Eigen::VectorXd& b, Eigen::VectorXd* x) {
  HYDRO_ASSERT(analysed_ && b.size() == analysed_rows_);
  const int n = num_blocks();
  double* y = permuted_.data();
  for (int k = 0; k < n; ++k) std::copy_n(b.data() + original_offset_[k], size_[k], y + offset_[k]);
  const double* v = values_.data();
  const internal::BlockKernels& kernels = internal::ChosenBlockKernels();
  // L·w = P·b, block column by block column.
  for (int k = 0; k < n; ++k) {
    const int d = size_[k];
    double* y_k = y + offset_[k];
    ForwardSubstitute(v + block_value_[column_start_[k]], d, y_k);
    for (int s = column_start_[k] + 1; s < column_start_[k + 1]; ++s) {
      const int i = block_row_[s];
      if (d == 6 && size_[i] == 6) {
        kernels.subtract_product(y + offset_[i], v + block_value_[s], 6, y_k);
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
        kernels.subtract_transposed_product(y_k, v + block_value_[s], y + offset_[i]);
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
