#include "numerics/exp_float.h"

#include <cmath>

#include "numerics/exp_log_packets.h"
#include "numerics/packet_tail.h"

namespace sluice {
namespace numerics {

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

void Expm1Float(const float* x, float* y, int64_t n, int64_t flat, int64_t total) {
  const auto scalar = [](float v) { return std::expm1(v); };
#if defined(__SSE2__)
  // u = exp(x); x where u is 1, -1 where u - 1 is, u where u is +inf (log(u) = u), else
  // (u - 1) * (x / log(u)).
  const auto vector = [](__m128 v) {
    const __m128 u = VectorExp(v);
    const __m128 one = Set(1.0f);
    const __m128 u_minus_one = _mm_sub_ps(u, one);
    const __m128 log_u = VectorLog(u);
    __m128 r = _mm_mul_ps(u_minus_one, _mm_div_ps(v, log_u));
    const __m128 is_inf = _mm_cmpeq_ps(log_u, u);
    r = _mm_or_ps(_mm_and_ps(is_inf, u), _mm_andnot_ps(is_inf, r));
    const __m128 is_minus_one = _mm_cmpeq_ps(u_minus_one, Set(-1.0f));
    r = _mm_or_ps(_mm_and_ps(is_minus_one, Set(-1.0f)), _mm_andnot_ps(is_minus_one, r));
    const __m128 is_one = _mm_cmpeq_ps(u, one);
    return _mm_or_ps(_mm_and_ps(is_one, v), _mm_andnot_ps(is_one, r));
  };
  ApplyPacketsThenTail(x, y, n, flat, total, kExpFloatPacket, vector, scalar);
#else
  (void)flat;
  (void)total;
  for (int64_t i = 0; i < n; ++i) y[i] = scalar(x[i]);
#endif
}

}  // namespace numerics
}  // namespace sluice
