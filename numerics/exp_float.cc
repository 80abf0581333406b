#include "numerics/exp_float.h"

#include <cmath>

#include "numerics/packet_tail.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace sluice {
namespace numerics {
namespace {

#if defined(__SSE2__)
// Eigen's pmin(a, b) and pmax(a, b): b where b is less (greater), else a, so a NaN in either
// gives a.
inline __m128 Min(__m128 a, __m128 b) { return _mm_min_ps(b, a); }
inline __m128 Max(__m128 a, __m128 b) { return _mm_max_ps(b, a); }
inline __m128 Set(float v) { return _mm_set1_ps(v); }

// floor(t), exact for every float: below 2^23 in magnitude by truncation, one less where that
// rounded up; from 2^23 (integers already), infinities and NaN, t itself.
inline __m128 Floor(__m128 t) {
  const __m128 truncated = _mm_cvtepi32_ps(_mm_cvttps_epi32(t));
  const __m128 above = _mm_and_ps(_mm_cmpgt_ps(truncated, t), Set(1.0f));
  const __m128 floor = _mm_sub_ps(truncated, above);
  const __m128 small = _mm_cmplt_ps(_mm_andnot_ps(Set(-0.0f), t), Set(0x1p23f));
  return _mm_or_ps(_mm_and_ps(small, floor), _mm_andnot_ps(small, t));
}

// 2^e for integer lanes e in [-126, 127].
inline __m128 PowerOfTwo(__m128i e) {
  return _mm_castsi128_ps(_mm_slli_epi32(_mm_add_epi32(e, _mm_set1_epi32(127)), 23));
}

// y * 2^m for integral m (NaN only where y is NaN).
inline __m128 ScaleByPowerOfTwo(__m128 y, __m128 m) {
  const __m128 e = Max(Min(m, Set(kExpFloatLargestExponent)), Set(-kExpFloatLargestExponent));
  // A NaN lane converts to an arbitrary integer; its y is NaN, which any factor keeps.
  const __m128i e_int = _mm_cvttps_epi32(e);
  const __m128i b = _mm_srai_epi32(e_int, 2);
  const __m128 c = PowerOfTwo(b);
  const __m128 out = _mm_mul_ps(_mm_mul_ps(_mm_mul_ps(y, c), c), c);
  const __m128i rest = _mm_sub_epi32(_mm_sub_epi32(_mm_sub_epi32(e_int, b), b), b);
  return _mm_mul_ps(out, PowerOfTwo(rest));
}

inline __m128 VectorExp(__m128 a) {
  const __m128 zero = _mm_cmplt_ps(a, Set(kExpFloatZeroBelow));
  const __m128 x = Min(a, Set(kExpFloatHigh));
  const __m128 m = Floor(_mm_add_ps(_mm_mul_ps(x, Set(kExpFloatLog2e)), Set(0.5f)));
  __m128 r = _mm_add_ps(_mm_mul_ps(m, Set(kExpFloatMinusLn2High)), x);
  r = _mm_add_ps(_mm_mul_ps(m, Set(kExpFloatLn2Low)), r);
  const __m128 r2 = _mm_mul_ps(r, r);
  __m128 even = _mm_add_ps(_mm_mul_ps(r2, Set(kExpFloatP6)), Set(kExpFloatP4));
  const __m128 odd = _mm_add_ps(_mm_mul_ps(r2, Set(kExpFloatP5)), Set(kExpFloatP3));
  even = _mm_add_ps(_mm_mul_ps(r2, even), Set(kExpFloatP2));
  const __m128 low = _mm_add_ps(r, Set(1.0f));
  __m128 y = _mm_add_ps(_mm_mul_ps(r, odd), even);
  y = _mm_add_ps(_mm_mul_ps(r2, y), low);
  return _mm_andnot_ps(zero, Max(ScaleByPowerOfTwo(y, m), a));
}
#endif

}  // namespace

void ExpFloat(const float* x, float* y, int64_t n, int64_t flat, int64_t total) {
  const auto scalar = [](float v) { return std::exp(v); };
#if defined(__SSE2__)
  ApplyPacketsThenTail(x, y, n, flat, total, kExpFloatPacket, VectorExp, scalar);
#else
  (void)flat;
  (void)total;
  for (int64_t i = 0; i < n; ++i) y[i] = scalar(x[i]);
#endif
}

}  // namespace numerics
}  // namespace sluice
