#include "numerics/reciprocal.h"

#include "numerics/packet_tail.h"

namespace sluice {
namespace numerics {

void ReciprocalFloat(const float* x, float* y, int64_t n, int64_t flat, int64_t total) {
  const auto scalar = [](float v) { return 1.0f / v; };
#if defined(__SSE__)
  // SSE's rcpps gives each lane the estimate AVX's vrcpps gives TensorFlow (as rsqrt.cc's
  // rsqrtps does).
  const auto refined = [](__m128 v) {
    const __m128 r0 = _mm_rcp_ps(v);
    const __m128 t = _mm_sub_ps(_mm_set1_ps(1.0f), _mm_mul_ps(v, r0));
    return EstimateWhereNaN(_mm_add_ps(_mm_mul_ps(r0, t), r0), r0);
  };
  ApplyPacketsThenTail(x, y, n, flat, total, kReciprocalFloatPacket, refined, scalar);
#else
  (void)flat;
  (void)total;
  for (int64_t i = 0; i < n; ++i) y[i] = scalar(x[i]);
#endif
}

}  // namespace numerics
}  // namespace sluice
