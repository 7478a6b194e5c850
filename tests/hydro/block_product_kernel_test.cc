#include "hydro/block_product_kernel.h"

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace hydro {
namespace internal {
namespace {

using Matrix6 = Eigen::Matrix<double, 6, 6>;
using Vector6 = Eigen::Matrix<double, 6, 1>;

// Round-off allowed an entry: y − Σ of 6 products has the error bound γ₇·Σ|terms|, γ₇ ≈ 7u
// (Higham, Accuracy and Stability of Numerical Algorithms, §3.1), u = 2⁻⁵³; allowed 4 times that,
// since the bound is on an order of summation and the kernels choose their own.
constexpr double kRelative = 4 * 7 * std::numeric_limits<double>::epsilon() / 2;

// Random entries of mixed scales, as a factor's blocks span orders of magnitude.
template <typename Matrix>
void Randomize(std::mt19937* random, Matrix* M) {
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-6, 6);
  for (int k = 0; k < M->size(); ++k) M->data()[k] = uniform(*random) * std::pow(10.0, exponent(*random));
}

// Each kernel against the same sums in long double: C − A·Bᵀ, y − L·x and y − Lᵀ·x.
void ExpectKernelsMeetTheirSums(const BlockKernels& kernels) {
  std::mt19937 random(5);
  for (int trial = 0; trial < 200; ++trial) {
    Matrix6 A, B, C;
    Vector6 x, y;
    Randomize(&random, &A), Randomize(&random, &B), Randomize(&random, &C);
    Randomize(&random, &x), Randomize(&random, &y);
    Matrix6 product = C;
    kernels.subtract_product_transposed(product.data(), A.data(), B.data());
    Vector6 times = y, times_transposed = y;
    kernels.subtract_product(times.data(), A.data(), 6, x.data());
    // The same block as rows 3–8 of a matrix whose columns are 13 tall (a Newton matrix's block
    // column), the rows around it NaN: only the block is read, to the same result.
    std::vector<double> tall(13 * 6, NAN);
    for (int c = 0; c < 6; ++c)
      for (int r = 0; r < 6; ++r) tall[3 + r + 13 * c] = A(r, c);
    Vector6 times_in_tall = y;
    kernels.subtract_product(times_in_tall.data(), tall.data() + 3, 13, x.data());
    ASSERT_EQ(times_in_tall, times) << trial;
    kernels.subtract_transposed_product(times_transposed.data(), A.data(), x.data());
    for (int r = 0; r < 6; ++r) {
      long double by_column = y(r), by_row = y(r);
      double by_column_size = std::abs(y(r)), by_row_size = std::abs(y(r));
      for (int p = 0; p < 6; ++p) {
        by_column -= static_cast<long double>(A(r, p)) * x(p);
        by_column_size += std::abs(A(r, p) * x(p));
        by_row -= static_cast<long double>(A(p, r)) * x(p);
        by_row_size += std::abs(A(p, r) * x(p));
      }
      ASSERT_LE(std::abs(times(r) - static_cast<double>(by_column)), kRelative * by_column_size) << trial << ", " << r;
      ASSERT_LE(std::abs(times_transposed(r) - static_cast<double>(by_row)), kRelative * by_row_size)
          << trial << ", " << r;
      for (int c = 0; c < 6; ++c) {
        long double sum = C(r, c);
        double size = std::abs(C(r, c));
        for (int p = 0; p < 6; ++p) {
          sum -= static_cast<long double>(A(r, p)) * B(c, p);
          size += std::abs(A(r, p) * B(c, p));
        }
        ASSERT_LE(std::abs(product(r, c) - static_cast<double>(sum)), kRelative * size)
            << trial << ", entry (" << r << ", " << c << ")";
      }
    }
  }
}

TEST(BlockProductKernel, BaselineKernelsMeetTheirSums) { ExpectKernelsMeetTheirSums(BaselineBlockKernels()); }

TEST(BlockProductKernel, FusedKernelsMeetTheirSums) {
  const BlockKernels* fused = FusedBlockKernels();
  if (fused == nullptr) GTEST_SKIP() << "this processor has no AVX2 and FMA";
  ExpectKernelsMeetTheirSums(*fused);
}

// The factorization and its solves take the fused kernels wherever the processor has them.
TEST(BlockProductKernel, ChoosesTheFusedKernelsWhereThereAreSome) {
  const BlockKernels* fused = FusedBlockKernels();
  EXPECT_EQ(&ChosenBlockKernels(), fused != nullptr ? fused : &BaselineBlockKernels());
}

}  // namespace
}  // namespace internal
}  // namespace hydro
