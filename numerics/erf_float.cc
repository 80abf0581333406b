#include "numerics/erf_float.h"

#if defined(__SSE__)
#include <xmmintrin.h>
#endif

namespace sluice {
namespace numerics {
namespace {

#if defined(__SSE__)
inline __m128 Set(float v) { return _mm_set1_ps(v); }

inline __m128 VectorErf(__m128 x) {
  // Eigen's pmin(a, b) and pmax(a, b): b where b is less (greater), else a.
  const __m128 x2 = _mm_min_ps(_mm_mul_ps(x, x), Set(kErfFloatLargestSquare));
  __m128 p = Set(kErfFloatNumerator[0]);
  __m128 q = Set(kErfFloatDenominator[0]);
  for (int i = 1; i < kErfFloatTerms; ++i) {
    p = _mm_add_ps(_mm_mul_ps(p, x2), Set(kErfFloatNumerator[i]));
    q = _mm_add_ps(_mm_mul_ps(q, x2), Set(kErfFloatDenominator[i]));
  }
  const __m128 r = _mm_div_ps(_mm_mul_ps(x, p), q);
  return _mm_max_ps(Set(-1.0f), _mm_min_ps(Set(1.0f), r));
}
#endif

}  // namespace

void ErfFloat(const float* x, float* y, int64_t n) {
  int64_t i = 0;
#if defined(__SSE__)
  for (; i + 4 <= n; i += 4) _mm_storeu_ps(y + i, VectorErf(_mm_loadu_ps(x + i)));
  for (; i < n; ++i) _mm_store_ss(y + i, VectorErf(_mm_load_ss(x + i)));
#else
  for (; i < n; ++i) {
    const float v = x[i];
    const float square = v * v;
    const float x2 = square < kErfFloatLargestSquare ? square : kErfFloatLargestSquare;
    float p = kErfFloatNumerator[0];
    float q = kErfFloatDenominator[0];
    for (int k = 1; k < kErfFloatTerms; ++k) {
      p = p * x2 + kErfFloatNumerator[k];
      q = q * x2 + kErfFloatDenominator[k];
    }
    const float r = (v * p) / q;
    y[i] = r > 1.0f ? 1.0f : (r < -1.0f ? -1.0f : r);
  }
#endif
}

}  // namespace numerics
}  // namespace sluice
