#pragma once
// The sparse LDLᵀ factorization of a symmetric matrix H whose pattern stays fixed while its
// values change from one factorization to the next (Newton's matrix of the contact problem,
// fem/contact_problem_newton.h), refactored and solved without allocating.
//
// Eigen's SimplicialLDLT with its fill-reducing ordering P factors P·H·Pᵀ = L·D·Lᵀ, but copies
// P·H·Pᵀ into a fresh matrix in every factorize() and permutes with a fresh mask in every solve.
// Here the ordering (Eigen's AMD, the one SimplicialLDLT uses) is computed once with the pattern;
// P·H·Pᵀ's upper triangle is kept between factorizations, its values scattered from H's through
// a map of slots; and it is factored in natural order, read in place. What Eigen still takes
// is three n-long scratch arrays per factorization, from the stack while they fit in
// EIGEN_STACK_ALLOCATION_LIMIT (128 KiB: n ≤ 16,384) and from the heap beyond.
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>

#include <vector>

namespace hydro {
namespace fem {

class ReorderedLdlt {
 public:
  // Records the pattern of H (compressed; its lower triangle is read), chooses the ordering, and
  // analyses P·H·Pᵀ symbolically. Later Factor() calls must pass the same pattern.
  void Analyze(const Eigen::SparseMatrix<double>& H);
  bool analyzed() const { return num_rows_ >= 0; }

  // Factors H (the analysed pattern, new values). False if H is too near singular to factor.
  bool Factor(const Eigen::SparseMatrix<double>& H);

  // x = H⁻¹·b with the last factorization; x is resized to b's size.
  void Solve(const Eigen::VectorXd& b, Eigen::VectorXd* x);

  // Row of P·H·Pᵀ that row i of H becomes (for tests).
  int ordered_row(int i) const { return ordered_row_[i]; }

 private:
  // SimplicialLDLT's numeric factorization of a matrix already in the column-major upper form it
  // factors, without the copy its public factorize() makes.
  class InPlaceLdlt
      : public Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>, Eigen::Upper, Eigen::NaturalOrdering<int>> {
   public:
    void FactorInPlace(const Eigen::SparseMatrix<double>& upper) { factorize_preordered<true>(upper); }
  };

  int num_rows_{-1};
  std::vector<int> ordered_row_;  // i ↦ the row of P·H·Pᵀ that H's row i becomes
  std::vector<int> slot_;         // H's k-th stored value ↦ its slot in ordered_upper_; −1 above the diagonal
  Eigen::SparseMatrix<double> ordered_upper_;  // P·H·Pᵀ, upper triangle
  InPlaceLdlt ldlt_;
  Eigen::VectorXd ordered_b_, ordered_x_;  // P·b and P·x
};

}  // namespace fem
}  // namespace hydro
