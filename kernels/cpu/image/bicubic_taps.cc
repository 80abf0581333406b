// ComputeBicubicTaps and its coefficient tables; see bicubic_taps.h.
#include "kernels/cpu/image/bicubic_taps.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "kernels/cpu/image/image_resizer_state.h"

namespace sluice {
namespace {

constexpr int64_t kTableSize = 1 << 10;

// table[2 * i] is the inner piece at i / kTableSize, table[2 * i + 1] the outer piece at
// 1 + i / kTableSize.
struct CoefficientsTable {
  explicit CoefficientsTable(double a) {
    for (int64_t i = 0; i <= kTableSize; ++i) {
      float x = static_cast<float>(static_cast<double>(i) * 1.0 / kTableSize);
      values[i * 2] = static_cast<float>(((a + 2) * x - (a + 3)) * x * x + 1);
      x += 1.0;
      values[i * 2 + 1] = static_cast<float>(((a * x - 5 * a) * x + 8 * a) * x - 4 * a);
    }
  }
  float values[(kTableSize + 1) * 2];
};

const float* Coefficients(bool keys_cubic) {
  // TensorFlow passes the float constants -0.5f and -0.75f (both exact in double).
  static const CoefficientsTable* const keys = new CoefficientsTable(-0.5);
  static const CoefficientsTable* const legacy = new CoefficientsTable(-0.75);
  return keys_cubic ? keys->values : legacy->values;
}

inline int64_t Bound(int64_t value, int64_t limit) {
  return std::min(limit - 1, std::max(int64_t{0}, value));
}

}  // namespace

BicubicTaps ComputeBicubicTaps(float scale, int64_t out_loc, int64_t limit, bool half_pixel_centers,
                               int64_t stride) {
  const float in_loc_f =
      half_pixel_centers ? HalfPixelScale(out_loc, scale) : LegacyScale(out_loc, scale);
  const int64_t in_loc = static_cast<int64_t>(std::floor(in_loc_f));
  const float delta = in_loc_f - static_cast<float>(in_loc);
  const int64_t offset = lrintf(delta * kTableSize);
  const float* table = Coefficients(half_pixel_centers);
  const float coefficients[4] = {table[offset * 2 + 1], table[offset * 2],
                                 table[(kTableSize - offset) * 2],
                                 table[(kTableSize - offset) * 2 + 1]};
  BicubicTaps taps;
  for (int k = 0; k < 4; ++k) {
    const int64_t want = in_loc - 1 + k;
    taps.index[k] = Bound(want, limit);
    taps.weight[k] = coefficients[k];
    if (half_pixel_centers && taps.index[k] != want) taps.weight[k] = 0.0f;
  }
  if (half_pixel_centers) {
    const float sum = taps.weight[0] + taps.weight[1] + taps.weight[2] + taps.weight[3];
    if (std::abs(sum) >= 1000.0f * std::numeric_limits<float>::min()) {
      const float inverse = 1.0f / sum;
      for (float& w : taps.weight) w *= inverse;
    }
  }
  for (int64_t& index : taps.index) index *= stride;
  return taps;
}

}  // namespace sluice
