#pragma once
// The Cholesky factorization P·H·Pᵀ = L·Lᵀ of a symmetric positive definite matrix H made of dense
// blocks: the patch problem's Newton matrix (hydro/patch_problem.h), one block per group of
// unknowns (six for a rigid body) on the diagonal and one per touching pair of groups. L keeps H's
// blocks: P permutes whole blocks (nested dissection of the blocks' graph,
// hydro/nested_dissection_ordering.h), L's fill is found block by block from the elimination tree
// (George & Liu, "Computer Solution of Large Sparse Positive Definite Systems", 1981, §5.1), and
// the factorization is right-looking over block columns: the diagonal block's dense Cholesky
// factor, the blocks below it solved by that factor, and each pair of them updating the block they
// meet at, L_ij −= L_ik·L_jkᵀ (fixed-size 6 × 6 products where all three are rigid bodies).
//
// A scalar sparse factorization spends its time on index work: Eigen's SimplicialLDLT, which the
// patch problem used before, was 32 % of a step of the 1,000-box wall, and this is 13 % (perf); on
// a 10³-body lattice this factorizes 3.2× and solves 2× as fast (hydro_bench
// --benchmark_filter=Lattice). Tried: supernodes (runs of columns of one structure as dense panels,
// Eigen's GEMM on them) factorized the lattice in 51 ms instead of 64, but made the 1,000-box
// pile's steps slower (216 → 311 ms), its many small panels paying Eigen's dynamic-size overhead in
// every solve. Both run at Debian's baseline instruction set (SSE2).
//
// Analyze allocates; Factorize and Solve allocate nothing.
#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <vector>

namespace hydro {

class BlockSparseCholesky {
 public:
  // Analyses H's pattern: the diagonal blocks have sizes block_sizes (they tile H's rows, in
  // order), and H holds every entry of each block it touches (H may hold either triangle or both;
  // the lower one, in P's order, is read).
  void Analyze(const Eigen::SparseMatrix<double>& H, const std::vector<int>& block_sizes);
  // Factorizes H, of the pattern analysed; false when H is not numerically positive definite.
  bool Factorize(const Eigen::SparseMatrix<double>& H);
  // x = H⁻¹·b with the last factorization.
  void Solve(const Eigen::VectorXd& b, Eigen::VectorXd* x);

  int num_blocks() const { return static_cast<int>(size_.size()); }
  // Entries L stores (its blocks, whole: each diagonal block counts d², though half is unused).
  long stored_entries() const { return static_cast<long>(values_.size()); }
  // Blocks of L below the diagonal, and the block updates L_ij −= L_ik·L_jkᵀ a factorization does.
  long off_diagonal_blocks() const { return static_cast<long>(block_row_.size()) - num_blocks(); }
  long block_updates() const { return static_cast<long>(updates_.size()); }

 private:
  struct Update {
    int target, left, right;  // values_ offsets: target −= left·rightᵀ
    int rows, cols, inner;    // target is rows × cols, left rows × inner, right cols × inner
  };
  // Per block in elimination order: its size, where it starts in the permuted vector, and where
  // in H's rows.
  std::vector<int> size_, offset_, original_offset_;
  // Column k's blocks are column_start_[k] .. column_start_[k + 1] − 1 of block_row_ and
  // block_value_, its diagonal block first, then those below it by increasing row.
  std::vector<int> column_start_, block_row_, block_value_;
  std::vector<double> values_;                // every block column-major
  std::vector<int> gather_from_, gather_to_;  // values_[gather_to_[e]] = H's value gather_from_[e]
  std::vector<Update> updates_;               // by source column
  std::vector<int> update_start_;             // column k's updates start here
  Eigen::VectorXd permuted_;
};

}  // namespace hydro
