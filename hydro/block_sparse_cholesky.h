#pragma once
// The Cholesky factorization P·H·Pᵀ = L·Lᵀ of a symmetric positive definite matrix H made of dense
// blocks: the patch problem's Newton matrix (hydro/patch_problem.h), one block per group of
// unknowns (six for a rigid body) on the diagonal and one per touching pair of groups. L keeps H's
// blocks: P permutes whole blocks (nested dissection of the blocks' graph,
// hydro/nested_dissection_ordering.h), and L's fill is found block by block from the elimination
// tree: column j's rows are H's below the diagonal and those of every column whose parent is j
// (Liu, "The role of elimination trees in sparse factorization", SIAM J. Matrix Anal. Appl. 11,
// 1990). The factorization is left-looking over block columns: column j takes L_ij −= L_ik·L_jkᵀ
// from each column k with a block in row j (fixed-size 6 × 6 products where all three are rigid
// bodies), then the dense Cholesky factor of its diagonal block and the blocks below it solved by
// that factor. (Right-looking, with a kept list of every block update, factorized the lattice
// below in 54 ms against 58 in one run, but the list grows with the flops: s³/6 entries for a
// dense separator of s blocks.)
//
// A scalar sparse factorization spends its time on index work. Eigen's SimplicialLDLT, which the
// patch problem used before, was 32 % of a step of the 1,000-box wall, its solves 12 % more; block
// by block, 13 % and 8 % (perf, right-looking). On a 10³-body lattice this factorizes 2.7–3.2× and
// solves 1.9–2× as fast (hydro_bench --benchmark_filter=Lattice). Tried: supernodes (runs of
// columns of one structure as dense panels, Eigen's GEMM on them) factorized the lattice in 51 ms
// instead of 64, but in the same run the 1,000-box pile's steps took 311 ms instead of 216, its
// many small panels paying Eigen's dynamic-size overhead in every solve. The library is built for
// Debian's baseline instruction set (SSE2); built whole with -march=x86-64-v3 (AVX2), the
// lattice's factorization took 41 ms instead of 62. The 6 × 6 products, most of the work, are
// chosen at run time instead (hydro/block_product_kernel.h): with AVX2 and FMA, the 1,000-brick
// wall's first ten steps at 60 Hz took 15,955 M instructions instead of 19,711 M (callgrind).
//
// Analyze allocates; Factorize allocates nothing, nor does Solve once x has H's size.
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
  // Factorizes H, stored exactly as analysed (the same outer and inner index arrays: its values
  // are read by position); false when H is not numerically positive definite.
  bool Factorize(const Eigen::SparseMatrix<double>& H);
  // x = H⁻¹·b with the last factorization (no allocation once x has H's size).
  void Solve(const Eigen::VectorXd& b, Eigen::VectorXd* x);

  int num_blocks() const { return static_cast<int>(size_.size()); }
  // Entries L stores (its blocks, whole: each diagonal block counts d², though half is unused).
  long stored_entries() const { return static_cast<long>(values_.size()); }
  // Blocks of L below its diagonal blocks.
  long off_diagonal_blocks() const { return static_cast<long>(block_row_.size()) - num_blocks(); }

 private:
  // Per block in elimination order: its size, where it starts in the permuted vector, and where
  // in H's rows.
  std::vector<int> size_, offset_, original_offset_;
  // Column k's blocks are column_start_[k] .. column_start_[k + 1] − 1 of block_row_ and
  // block_value_, its diagonal block first, then those below it by increasing row.
  std::vector<int> column_start_, block_row_, block_value_;
  std::vector<double> values_;                // every block column-major
  std::vector<int> gather_from_, gather_to_;  // values_[gather_to_[e]] = H's value gather_from_[e]
  // Row j's blocks left of the diagonal: row_slot_[row_start_[j] ..] (slots of block_row_, in
  // columns row_column_[..], increasing).
  std::vector<int> row_start_, row_slot_, row_column_;
  std::vector<int> slot_of_row_;  // Factorize's map from a row block to its slot in the column at hand, else −1
  Eigen::VectorXd permuted_;
  // What Analyze saw of H, to check that Factorize is given H stored the same way.
  int analysed_rows_{0};
  long analysed_non_zeros_{0};
  bool analysed_compressed_{true};
  bool analysed_{false};  // false until an Analyze has finished
};

}  // namespace hydro
