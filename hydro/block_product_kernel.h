#pragma once
// The block Cholesky factorization's inner kernels (hydro/block_sparse_cholesky.h) on 6 × 6
// column-major blocks, three rigid bodies' (most of a pile's factor): the factorization's update
// C −= A·Bᵀ (L_ij −= L_ik·L_jkᵀ), the solves' y −= L·x and y −= Lᵀ·x, and the former for a block
// of the Newton matrix itself (hydro/patch_problem.h, its conjugate gradients' products). The library is built for
// Debian's baseline x86-64 (SSE2); where the processor has AVX2 and FMA, kernels written for them
// are chosen at run time (GCC's __builtin_cpu_supports): a column of 6 is one 4-wide and one 2-wide
// fused multiply–add, against Eigen's 2-wide multiplies and adds. The two sets differ by round-off
// (a fused multiply–add rounds once).
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
