#include "numerics/rsqrt.h"

#include <cmath>

#include "numerics/packet_tail.h"

namespace sluice {
namespace numerics {

void RsqrtFloat(const float* x, float* y, int64_t n, int64_t flat, int64_t total) {
  const auto scalar = [](float v) { return 1.0f / std::sqrt(v); };
#if defined(__SSE__)
  // SSE's rsqrtps is in every x86-64 processor and gives each lane the estimate AVX's vrsqrtps
  // gives TensorFlow; each lane is computed on its own, so four lanes at a time give the bits
  // of eight.
  const auto refined = [](__m128 v) {
    const __m128 y0 = _mm_rsqrt_ps(v);
    const __m128 h = _mm_add_ps(_mm_mul_ps(_mm_mul_ps(v, y0), y0), _mm_set1_ps(-1.0f));
    const __m128 r = _mm_add_ps(_mm_mul_ps(_mm_mul_ps(y0, _mm_set1_ps(-0.5f)), h), y0);
    return EstimateWhereNaN(r, y0);
  };
  ApplyPacketsThenTail(x, y, n, flat, total, kRsqrtFloatPacket, refined, scalar);
#else
  (void)flat;
  (void)total;
  for (int64_t i = 0; i < n; ++i) y[i] = scalar(x[i]);
#endif
}

}  // namespace numerics
}  // namespace sluice
