// How TensorFlow's Eigen splits a float tensor between its vector and scalar forms, for the
// numerics/ functions whose two forms differ (rsqrt.h, reciprocal.h): an element at a flat
// index below total - total % packet takes the vector form, the tensor's last total % packet
// the scalar one. Internal to numerics/.
#ifndef SLUICE_NUMERICS_PACKET_TAIL_H_
#define SLUICE_NUMERICS_PACKET_TAIL_H_

#include <algorithm>
#include <cstdint>

#if defined(__SSE__)
#include <xmmintrin.h>
#endif

namespace sluice {
namespace numerics {

#if defined(__SSE__)
// y[i] = f(x[i]) for the n elements at flat indices [flat, flat + n) of a tensor of `total`:
// `vector4` (__m128 -> __m128, each lane computed on its own) below the tensor's scalar tail,
// `scalar` (float -> float) in it. y may be x itself; otherwise the two do not overlap.
template <typename Vector4, typename Scalar>
inline void ApplyPacketsThenTail(const float* x, float* y, int64_t n, int64_t flat, int64_t total,
                                 int64_t packet, Vector4 vector4, Scalar scalar) {
  const int64_t vector_end = total - total % packet;
  const int64_t vector_count = std::clamp<int64_t>(vector_end - flat, 0, n);
  int64_t i = 0;
  for (; i + 4 <= vector_count; i += 4) _mm_storeu_ps(y + i, vector4(_mm_loadu_ps(x + i)));
  for (; i < vector_count; ++i) _mm_store_ss(y + i, vector4(_mm_load_ss(x + i)));
  for (; i < n; ++i) y[i] = scalar(x[i]);
}

// `y0` where `y` is NaN, else `y`: the estimate's own answer for the inputs a Newton step
// cannot refine (zeros, infinities, NaN).
inline __m128 EstimateWhereNaN(__m128 y, __m128 y0) {
  const __m128 is_nan = _mm_cmpunord_ps(y, y);
  return _mm_or_ps(_mm_and_ps(is_nan, y0), _mm_andnot_ps(is_nan, y));
}
#endif

}  // namespace numerics
}  // namespace sluice

#endif  // SLUICE_NUMERICS_PACKET_TAIL_H_
