#include "numerics/rsqrt.h"

#include <algorithm>
#include <cmath>

#if defined(__SSE__)
#include <xmmintrin.h>
#endif

namespace sluice {
namespace numerics {
namespace {

#if defined(__SSE__)
// Four lanes of the vector form. SSE's rsqrtps is in every x86-64 processor and gives each lane
// the estimate AVX's vrsqrtps gives TensorFlow; each lane is computed on its own, so four lanes
// at a time give the bits of eight.
inline __m128 RefinedRsqrt(__m128 x) {
  const __m128 y0 = _mm_rsqrt_ps(x);
  const __m128 h = _mm_add_ps(_mm_mul_ps(_mm_mul_ps(x, y0), y0), _mm_set1_ps(-1.0f));
  const __m128 y = _mm_add_ps(_mm_mul_ps(_mm_mul_ps(y0, _mm_set1_ps(-0.5f)), h), y0);
  const __m128 is_nan = _mm_cmpunord_ps(y, y);
  return _mm_or_ps(_mm_and_ps(is_nan, y0), _mm_andnot_ps(is_nan, y));
}
#endif

}  // namespace

void RsqrtFloat(const float* x, float* y, int64_t n, int64_t flat, int64_t total) {
  int64_t i = 0;
#if defined(__SSE__)
  const int64_t vector_end = total - total % kRsqrtFloatPacket;
  const int64_t vector_count = std::clamp<int64_t>(vector_end - flat, 0, n);
  for (; i + 4 <= vector_count; i += 4) {
    _mm_storeu_ps(y + i, RefinedRsqrt(_mm_loadu_ps(x + i)));
  }
  for (; i < vector_count; ++i) _mm_store_ss(y + i, RefinedRsqrt(_mm_load_ss(x + i)));
#else
  (void)flat;
  (void)total;
#endif
  for (; i < n; ++i) y[i] = 1.0f / std::sqrt(x[i]);
}

}  // namespace numerics
}  // namespace sluice
