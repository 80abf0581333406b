#include "numerics/sigmoid_tanh_float.h"

#include <cmath>

#include "numerics/exp_log_packets.h"
#include "numerics/packet_tail.h"

namespace sluice {
namespace numerics {
namespace {

#if defined(__SSE2__)
inline __m128 VectorTanh(__m128 a) {
  const __m128 x = Max(Min(a, Set(kTanhFloatClamp)), Set(-kTanhFloatClamp));
  const __m128 x2 = _mm_mul_ps(x, x);
  const __m128 x3 = _mm_mul_ps(x2, x);
  __m128 p = Set(kTanhFloatNumerator[0]);
  for (int i = 1; i < 4; ++i) p = _mm_add_ps(_mm_mul_ps(p, x2), Set(kTanhFloatNumerator[i]));
  __m128 q = Set(kTanhFloatDenominator[0]);
  for (int i = 1; i < 5; ++i) q = _mm_add_ps(_mm_mul_ps(q, x2), Set(kTanhFloatDenominator[i]));
  return _mm_div_ps(_mm_add_ps(_mm_mul_ps(x3, p), x), q);
}

inline __m128 VectorSigmoid(__m128 a) {
  const __m128 zero = _mm_cmplt_ps(a, Set(kSigmoidFloatZeroBelow));
  const __m128 x = _mm_mul_ps(Min(a, Set(kSigmoidFloatHigh)), Set(0.5f));
  const __m128 m = Floor(_mm_add_ps(_mm_mul_ps(x, Set(kExpFloatLog2e)), Set(0.5f)));
  __m128 r = _mm_add_ps(_mm_mul_ps(m, Set(kExpFloatMinusLn2High)), x);
  r = _mm_add_ps(_mm_mul_ps(m, Set(kExpFloatLn2Low)), r);
  const __m128 r2 = _mm_mul_ps(r, r);
  const __m128 even = _mm_add_ps(_mm_mul_ps(r2, Set(kSigmoidFloatP4)), Set(kSigmoidFloatP2));
  const __m128 odd = _mm_add_ps(_mm_mul_ps(r2, Set(kSigmoidFloatP5)), Set(kSigmoidFloatP3));
  const __m128 low = _mm_add_ps(r, Set(1.0f));
  __m128 p = _mm_add_ps(_mm_mul_ps(r, odd), even);
  p = _mm_add_ps(_mm_mul_ps(r2, p), low);
  // 2^m as one power of two: m + 127 clamped to the biased exponents [0, 255].
  const __m128 biased = Min(Max(_mm_add_ps(m, Set(127.0f)), Set(0.0f)), Set(255.0f));
  const __m128 scale = _mm_castsi128_ps(_mm_slli_epi32(_mm_cvttps_epi32(biased), 23));
  __m128 e = _mm_mul_ps(p, scale);
  e = _mm_mul_ps(e, e);
  return _mm_andnot_ps(zero, _mm_div_ps(e, _mm_add_ps(Set(1.0f), e)));
}
#endif

}  // namespace

void TanhFloat(const float* x, float* y, int64_t n) {
  int64_t i = 0;
#if defined(__SSE2__)
  for (; i + 4 <= n; i += 4) _mm_storeu_ps(y + i, VectorTanh(_mm_loadu_ps(x + i)));
  for (; i < n; ++i) _mm_store_ss(y + i, VectorTanh(_mm_load_ss(x + i)));
#else
  for (; i < n; ++i) y[i] = std::tanh(x[i]);
#endif
}

void SigmoidFloat(const float* x, float* y, int64_t n, int64_t flat, int64_t total) {
  const auto scalar = [](float v) {
    // Eigen's mini(v, high): high where it is less, so NaN stays.
    const float e = std::exp(kSigmoidFloatHigh < v ? kSigmoidFloatHigh : v);
    return e / (1.0f + e);
  };
#if defined(__SSE2__)
  ApplyPacketsThenTail(x, y, n, flat, total, kSigmoidFloatPacket, VectorSigmoid, scalar);
#else
  (void)flat;
  (void)total;
  for (int64_t i = 0; i < n; ++i) y[i] = scalar(x[i]);
#endif
}

}  // namespace numerics
}  // namespace sluice
