#pragma once
// The 6 × 6 column-major block kernels of the block Cholesky factorization
// (hydro/block_sparse_cholesky.h) where three rigid bodies meet (most of a pile's factor): the
// factorization's update C −= A·Bᵀ (L_ij −= L_ik·L_jkᵀ), and the solves' y −= L·x (also taken on
// the blocks of Newton's matrix itself, for its conjugate gradients' products:
// hydro/patch_problem.h) and y −= Lᵀ·x. The library is built for Debian's baseline x86-64 (SSE2);
// where the processor has AVX2 and FMA, kernels written for them are chosen at run time (GCC's
// __builtin_cpu_supports): a column of 6 is one 4-wide and one 2-wide fused multiply–add, against
// Eigen's 2-wide multiplies and adds. The two sets differ by round-off (a fused multiply–add rounds
// once), so results differ by round-off between processors with and without them.
namespace hydro {
namespace internal {

struct BlockKernels {
  void (*subtract_product_transposed)(double* C, const double* A, const double* B);  // C −= A·Bᵀ
  // y −= L·x, L's columns `column_stride` apart (6 for a block of L; a Newton matrix's column
  // height for one of its blocks).
  void (*subtract_product)(double* y, const double* L, int column_stride, const double* x);
  void (*subtract_transposed_product)(double* y, const double* L, const double* x);  // y −= Lᵀ·x
};

// At the baseline instruction set.
const BlockKernels& BaselineBlockKernels();
// With AVX2 and FMA; null where the build or the processor has none.
const BlockKernels* FusedBlockKernels();
// The fused kernels where the processor has them, else the baseline ones.
const BlockKernels& ChosenBlockKernels();

}  // namespace internal
}  // namespace hydro
