#include "hydro/block_product_kernel.h"

#include <Eigen/Core>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HYDRO_HAVE_FUSED_KERNELS 1
#endif

namespace hydro {
namespace internal {

namespace {
using Matrix6 = Eigen::Matrix<double, 6, 6>;
using Vector6 = Eigen::Matrix<double, 6, 1>;

void SubtractProductTransposed(double* C, const double* A, const double* B) {
  Eigen::Map<Matrix6>(C).noalias() -= Eigen::Map<const Matrix6>(A) * Eigen::Map<const Matrix6>(B).transpose();
}
void SubtractProduct(double* y, const double* L, int column_stride, const double* x) {
  Eigen::Map<Vector6>(y).noalias() -=
      Eigen::Map<const Matrix6, 0, Eigen::OuterStride<>>(L, Eigen::OuterStride<>(column_stride)) *
      Eigen::Map<const Vector6>(x);
}
void SubtractTransposedProduct(double* y, const double* L, const double* x) {
  Eigen::Map<Vector6>(y).noalias() -= Eigen::Map<const Matrix6>(L).transpose() * Eigen::Map<const Vector6>(x);
}

#ifdef HYDRO_HAVE_FUSED_KERNELS
// A column of 6 as rows 0–3 (a 256-bit register) and 4–5 (a 128-bit one, multiplied by the lower
// half of the same broadcast).
#define HYDRO_FUSED __attribute__((target("avx2,fma")))

// Column c of C: C_c −= Σ_p A_p·B(c, p).
HYDRO_FUSED void FusedSubtractProductTransposed(double* C, const double* A, const double* B) {
  __m256d a_top[6];
  __m128d a_bottom[6];
  for (int p = 0; p < 6; ++p) {
    a_top[p] = _mm256_loadu_pd(A + 6 * p);
    a_bottom[p] = _mm_loadu_pd(A + 6 * p + 4);
  }
  for (int c = 0; c < 6; ++c) {
    __m256d top = _mm256_loadu_pd(C + 6 * c);
    __m128d bottom = _mm_loadu_pd(C + 6 * c + 4);
    for (int p = 0; p < 6; ++p) {
      const __m256d b = _mm256_broadcast_sd(B + c + 6 * p);
      top = _mm256_fnmadd_pd(a_top[p], b, top);
      bottom = _mm_fnmadd_pd(a_bottom[p], _mm256_castpd256_pd128(b), bottom);
    }
    _mm256_storeu_pd(C + 6 * c, top);
    _mm_storeu_pd(C + 6 * c + 4, bottom);
  }
}

// y −= Σ_p L_p·x_p.
HYDRO_FUSED void FusedSubtractProduct(double* y, const double* L, int column_stride, const double* x) {
  __m256d top = _mm256_loadu_pd(y);
  __m128d bottom = _mm_loadu_pd(y + 4);
  for (int p = 0; p < 6; ++p) {
    const __m256d b = _mm256_broadcast_sd(x + p);
    const double* column = L + static_cast<long>(column_stride) * p;
    top = _mm256_fnmadd_pd(_mm256_loadu_pd(column), b, top);
    bottom = _mm_fnmadd_pd(_mm_loadu_pd(column + 4), _mm256_castpd256_pd128(b), bottom);
  }
  _mm256_storeu_pd(y, top);
  _mm_storeu_pd(y + 4, bottom);
}

// y_c −= L_c · x, two columns at a time: their products summed to pairs, then across the pair.
HYDRO_FUSED void FusedSubtractTransposedProduct(double* y, const double* L, const double* x) {
  const __m256d x_top = _mm256_loadu_pd(x);
  const __m128d x_bottom = _mm_loadu_pd(x + 4);
  for (int c = 0; c < 6; c += 2) {
    __m256d t0 = _mm256_mul_pd(_mm256_loadu_pd(L + 6 * c), x_top);
    __m256d t1 = _mm256_mul_pd(_mm256_loadu_pd(L + 6 * c + 6), x_top);
    __m128d s0 = _mm_add_pd(_mm256_castpd256_pd128(t0), _mm256_extractf128_pd(t0, 1));
    __m128d s1 = _mm_add_pd(_mm256_castpd256_pd128(t1), _mm256_extractf128_pd(t1, 1));
    s0 = _mm_fmadd_pd(_mm_loadu_pd(L + 6 * c + 4), x_bottom, s0);
    s1 = _mm_fmadd_pd(_mm_loadu_pd(L + 6 * c + 10), x_bottom, s1);
    _mm_storeu_pd(y + c, _mm_sub_pd(_mm_loadu_pd(y + c), _mm_hadd_pd(s0, s1)));
  }
}
#undef HYDRO_FUSED
#endif
}  // namespace

const BlockKernels& BaselineBlockKernels() {
  static const BlockKernels kernels{&SubtractProductTransposed, &SubtractProduct, &SubtractTransposedProduct};
  return kernels;
}

const BlockKernels* FusedBlockKernels() {
#ifdef HYDRO_HAVE_FUSED_KERNELS
  static const BlockKernels kernels{&FusedSubtractProductTransposed, &FusedSubtractProduct,
                                    &FusedSubtractTransposedProduct};
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return &kernels;
#endif
  return nullptr;
}

const BlockKernels& ChosenBlockKernels() {
  static const BlockKernels& chosen = FusedBlockKernels() != nullptr ? *FusedBlockKernels() : BaselineBlockKernels();
  return chosen;
}

}  // namespace internal
}  // namespace hydro
