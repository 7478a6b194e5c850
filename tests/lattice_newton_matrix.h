#pragma once
// A test matrix for the patch problem's factorization (hydro/patch_problem.h), shared by the
// ordering's and the factorization's tests and benchmark.
#include <Eigen/SparseCore>

#include <vector>

namespace hydro {

// The Newton matrix of a pile's shape: an n × n × n lattice of bodies, six unknowns each, every
// body coupled to its lattice neighbours by a dense 6 × 6 block (a contact's curvature) on the
// identity (the mass metric). Diagonally dominant, so symmetric positive definite.
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

}  // namespace hydro
