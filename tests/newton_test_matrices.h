#pragma once
// Test matrices for the patch problem's factorization (hydro/patch_problem.h), shared by the
// ordering's and the factorization's tests, the allocation tests and the benchmark.
#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <random>
#include <utility>
#include <vector>

namespace hydro {

// The Newton matrix of a pile's shape: an n × n × n lattice of bodies, six unknowns each, every
// body coupled to its lattice neighbours by a dense 6 × 6 block (a contact's curvature) on the
// identity (the mass metric): I + Σ [C, −C; −C, C] with C = I + 0.1·11ᵀ ≻ 0, so
// symmetric positive definite.
inline Eigen::SparseMatrix<double> LatticeNewtonMatrix(int n) {
  constexpr int kDofs = 6;
  auto body = [n](int i, int j, int k) { return (i * n + j) * n + k; };
  std::vector<Eigen::Triplet<double>> entries;
  auto add_block = [&](int a, int b, double diagonal, double off_diagonal) {
    for (int r = 0; r < kDofs; ++r)
      for (int c = 0; c < kDofs; ++c)
        entries.emplace_back(kDofs * a + r, kDofs * b + c, r == c ? diagonal : off_diagonal);
  };
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) {
        const int a = body(i, j, k);
        add_block(a, a, 1.0, 0.0);
        const int neighbours[3][3] = {{i + 1, j, k}, {i, j + 1, k}, {i, j, k + 1}};
        for (const auto& m : neighbours) {
          if (m[0] >= n || m[1] >= n || m[2] >= n) continue;
          const int b = body(m[0], m[1], m[2]);
          // A contact's curvature c·(I + 0.1·11ᵀ) added to both bodies, −that between them.
          add_block(a, a, 1.1, 0.1);
          add_block(b, b, 1.1, 0.1);
          add_block(a, b, -1.1, -0.1);
          add_block(b, a, -1.1, -0.1);
        }
      }
  Eigen::SparseMatrix<double> H(kDofs * n * n * n, kDofs * n * n * n);
  H.setFromTriplets(entries.begin(), entries.end());
  return H;
}

enum class Stored { kBoth, kLower, kUpper };

// A Newton matrix's shape: the identity, plus a random contact curvature Jᵀ·J for each coupled
// pair of blocks (a, b), J = [J_a, −J_b] of 3 × (d_a + d_b), on their rows and columns, plus one
// Jᵀ·J for each block alone (its contact with the ground). So H ⪰ I.
inline Eigen::SparseMatrix<double> RandomBlockNewtonMatrix(const std::vector<int>& sizes,
                                                           const std::vector<std::pair<int, int>>& pairs,
                                                           std::mt19937* random, Stored stored = Stored::kBoth) {
  std::vector<int> first(sizes.size() + 1, 0);
  for (size_t b = 0; b < sizes.size(); ++b) first[b + 1] = first[b] + sizes[b];
  Eigen::MatrixXd dense = Eigen::MatrixXd::Identity(first.back(), first.back());
  std::normal_distribution<double> normal;
  auto random_jacobian = [&](int columns) {
    Eigen::MatrixXd J(3, columns);
    for (int i = 0; i < J.size(); ++i) J.data()[i] = normal(*random);
    return J;
  };
  for (size_t b = 0; b < sizes.size(); ++b) {
    const Eigen::MatrixXd J = random_jacobian(sizes[b]);
    dense.block(first[b], first[b], sizes[b], sizes[b]) += J.transpose() * J;
  }
  for (const auto& [a, b] : pairs) {
    Eigen::MatrixXd J = random_jacobian(sizes[a] + sizes[b]);
    J.rightCols(sizes[b]) *= -1;
    const Eigen::MatrixXd C = J.transpose() * J;
    const int block[2] = {a, b};
    const int offset[2] = {0, sizes[a]};
    for (int p = 0; p < 2; ++p)
      for (int q = 0; q < 2; ++q)
        dense.block(first[block[p]], first[block[q]], sizes[block[p]], sizes[block[q]]) +=
            C.block(offset[p], offset[q], sizes[block[p]], sizes[block[q]]);
  }
  // The pattern: every entry of each touched block (of the triangle stored), even where it is 0.
  std::vector<Eigen::Triplet<double>> entries;
  auto add_block = [&](int a, int b) {
    for (int c = 0; c < sizes[b]; ++c)
      for (int r = 0; r < sizes[a]; ++r) {
        const int row = first[a] + r, column = first[b] + c;
        if ((stored == Stored::kLower && row < column) || (stored == Stored::kUpper && row > column)) continue;
        entries.emplace_back(row, column, dense(row, column));
      }
  };
  for (size_t b = 0; b < sizes.size(); ++b) add_block(b, b);
  for (const auto& [a, b] : pairs) {
    add_block(a, b);
    add_block(b, a);
  }
  Eigen::SparseMatrix<double> H(first.back(), first.back());
  H.setFromTriplets(entries.begin(), entries.end(), [](double x, double) { return x; });
  H.makeCompressed();
  return H;
}

}  // namespace hydro
