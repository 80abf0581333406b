// The vector forms of TensorFlow 2.21's float exp and log (exp_float.h, log_float.h), four
// lanes at a time, each lane computed on its own: what numerics/' Exp, Expm1, Log and Log1p
// compute below a tensor's scalar tail. Internal to numerics/.
#ifndef SLUICE_NUMERICS_EXP_LOG_PACKETS_H_
#define SLUICE_NUMERICS_EXP_LOG_PACKETS_H_

#include "numerics/exp_float.h"
#include "numerics/log_float.h"

#if defined(__SSE2__)
#include <emmintrin.h>

namespace sluice {
namespace numerics {

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

// exp_float.h's vector form.
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

// log_float.h's vector form.
inline __m128 VectorLog(__m128 a) {
  // m and e from the bits; wrong for zeros, subnormals (zeros in the kernels' mode),
  // infinities and NaN, whose results the masks below replace.
  const __m128i bits = _mm_castps_si128(a);
  __m128 x = _mm_castsi128_ps(
      _mm_or_si128(_mm_and_si128(bits, _mm_set1_epi32(static_cast<int32_t>(0x807fffffu))),
                   _mm_set1_epi32(0x3f000000)));
  __m128 e = _mm_cvtepi32_ps(_mm_sub_epi32(
      _mm_and_si128(_mm_srli_epi32(bits, 23), _mm_set1_epi32(0xff)), _mm_set1_epi32(126)));
  const __m128 below = _mm_cmplt_ps(x, Set(kLogFloatSqrtHalf));
  const __m128 m = _mm_and_ps(x, below);
  x = _mm_sub_ps(x, Set(1.0f));
  e = _mm_sub_ps(e, _mm_and_ps(Set(1.0f), below));
  x = _mm_add_ps(x, m);
  __m128 p = _mm_add_ps(_mm_mul_ps(x, Set(kLogFloatP3)), Set(kLogFloatP2));
  p = _mm_add_ps(_mm_mul_ps(x, p), Set(kLogFloatP1));
  p = _mm_mul_ps(x, p);
  __m128 q = _mm_add_ps(_mm_mul_ps(x, Set(kLogFloatQ3)), Set(kLogFloatQ2));
  q = _mm_add_ps(_mm_mul_ps(x, q), Set(kLogFloatQ1));
  q = _mm_add_ps(_mm_mul_ps(x, q), Set(1.0f));
  const __m128 r = _mm_add_ps(_mm_mul_ps(e, Set(kLogFloatLn2)), _mm_div_ps(p, q));
  const __m128 zero = _mm_setzero_ps();
  const __m128 invalid = _mm_cmpnge_ps(a, zero);  // below zero or NaN
  const __m128 is_zero = _mm_cmpeq_ps(a, zero);
  const __m128 inf = Set(__builtin_inff());
  const __m128 is_inf = _mm_cmpeq_ps(a, inf);
  const __m128 finite = _mm_or_ps(_mm_and_ps(is_inf, inf), _mm_andnot_ps(is_inf, r));
  const __m128 filtered = _mm_or_ps(finite, invalid);
  return _mm_or_ps(_mm_and_ps(is_zero, Set(-__builtin_inff())), _mm_andnot_ps(is_zero, filtered));
}

}  // namespace numerics
}  // namespace sluice

#endif  // defined(__SSE2__)
#endif  // SLUICE_NUMERICS_EXP_LOG_PACKETS_H_
