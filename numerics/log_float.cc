#include "numerics/log_float.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "numerics/exp_log_packets.h"
#include "numerics/packet_tail.h"

namespace sluice {
namespace numerics {
namespace {

// From the bits: in the kernels' mode a subnormal compares equal to zero.
bool IsSubnormal(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, sizeof(bits));
  const uint32_t magnitude = bits & 0x7fffffffu;
  return magnitude != 0 && magnitude < 0x00800000u;
}

}  // namespace

void LogFloat(const float* x, float* y, int64_t n, int64_t flat, int64_t total) {
  const auto scalar = [](float v) {
    return IsSubnormal(v) ? -std::numeric_limits<float>::infinity() : std::log(v);
  };
#if defined(__SSE2__)
  ApplyPacketsThenTail(x, y, n, flat, total, kLogFloatPacket, VectorLog, scalar);
#else
  (void)flat;
  (void)total;
  for (int64_t i = 0; i < n; ++i) y[i] = scalar(x[i]);
#endif
}

void Log1pFloat(const float* x, float* y, int64_t n, int64_t flat, int64_t total) {
  const auto scalar = [](float v) {
    return IsSubnormal(v) ? std::copysign(0.0f, v) : std::log1p(v);
  };
#if defined(__SSE2__)
  // x + 1, its log, and x * (log / ((x + 1) - 1)); x where x + 1 is 1 or +inf (then equal to
  // its log). A subnormal x is a zero of its sign, as TensorFlow's vector form gives it.
  const auto vector = [](__m128 v) {
    const __m128 one = Set(1.0f);
    const __m128 v_plus_one = _mm_add_ps(v, one);
    const __m128 log = VectorLog(v_plus_one);
    __m128 large = _mm_mul_ps(v, _mm_div_ps(log, _mm_sub_ps(v_plus_one, one)));
    // A NaN x: x quieted, as the product gives it when x is its first operand (the compiler
    // may swap a product's operands, and the quotient is a NaN too).
    const __m128 is_nan = _mm_cmpunord_ps(v, v);
    large = _mm_or_ps(_mm_and_ps(is_nan, _mm_add_ps(v, v)), _mm_andnot_ps(is_nan, large));
    const __m128 keep = _mm_or_ps(_mm_cmpeq_ps(v_plus_one, one), _mm_cmpeq_ps(v_plus_one, log));
    const __m128 zero_like = _mm_and_ps(v, Set(-0.0f));
    const __m128 subnormal_or_zero = _mm_cmpeq_ps(v, _mm_setzero_ps());
    const __m128 kept =
        _mm_or_ps(_mm_and_ps(subnormal_or_zero, zero_like), _mm_andnot_ps(subnormal_or_zero, v));
    return _mm_or_ps(_mm_and_ps(keep, kept), _mm_andnot_ps(keep, large));
  };
  ApplyPacketsThenTail(x, y, n, flat, total, kLogFloatPacket, vector, scalar);
#else
  (void)flat;
  (void)total;
  for (int64_t i = 0; i < n; ++i) y[i] = scalar(x[i]);
#endif
}

}  // namespace numerics
}  // namespace sluice
