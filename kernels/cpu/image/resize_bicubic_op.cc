// ResizeBicubic on the CPU: resize NHWC images to [out_height, out_width] by bicubic
// convolution; the output is float whatever the input dtype.
//
// Algorithm (TensorFlow's, to match it bit for bit): the cubic kernel's weights come from a
// table of 1025 samples per unit of the two kernel pieces, computed in double and stored as
// float, with a = -0.75 for the legacy coordinates and Keys's a = -0.5 with
// half_pixel_centers. Per output coordinate the source coordinate in = scale(x) (legacy:
// x * s; half-pixel centres: (x + 0.5) * s - 0.5), in float; with i = floor(in) and the
// table offset t = lrintf((in - i) * 1024), the four taps i-1 .. i+2 (clamped to the image)
// weigh table[t].outer, table[t].inner, table[1024 - t].inner, table[1024 - t].outer. With
// half_pixel_centers a tap outside the image weighs 0 and the four are renormalised to sum
// to 1. Each output value is the x-weighted sum of four y-weighted column sums, in float,
// in that order (as TensorFlow's cached interpolation computes it).
//
// Checked by ImageResizerState, as TensorFlow does. Output rows are split over the intra-op
// pool.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "absl/status/status.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/image/image_resizer_state.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/scratch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

constexpr int64_t kTableSize = 1 << 10;

// table[2 * i] is the inner piece at i / kTableSize, table[2 * i + 1] the outer piece at
// 1 + i / kTableSize.
std::vector<float> MakeCoefficientsTable(double a) {
  std::vector<float> table((kTableSize + 1) * 2);  // heap-ok: a constant 2050 floats, built once
  for (int64_t i = 0; i <= kTableSize; ++i) {
    float x = static_cast<float>(static_cast<double>(i) * 1.0 / kTableSize);
    table[i * 2] = static_cast<float>(((a + 2) * x - (a + 3)) * x * x + 1);
    x += 1.0;
    table[i * 2 + 1] = static_cast<float>(((a * x - 5 * a) * x + 8 * a) * x - 4 * a);
  }
  return table;
}

const std::vector<float>& CoefficientsTable(bool keys_cubic) {
  // TensorFlow passes the float constants -0.5f and -0.75f (both exact in double).
  // heap-ok: a constant table of (kTableSize + 1) * 2 floats, made once
  static const std::vector<float>* const keys = new std::vector<float>(MakeCoefficientsTable(-0.5));
  // heap-ok: a constant table of (kTableSize + 1) * 2 floats, made once
  static const std::vector<float>* const legacy =
      new std::vector<float>(MakeCoefficientsTable(-0.75));
  return keys_cubic ? *keys : *legacy;
}

inline int64_t Bound(int64_t value, int64_t limit) {
  return std::min(limit - 1, std::max(int64_t{0}, value));
}

struct Taps {
  float weight[4];
  int64_t index[4];  // element offsets (already multiplied by the dim's stride)
};

Taps ComputeTaps(float scale, int64_t out_loc, int64_t limit, bool half_pixel_centers,
                 int64_t stride) {
  const float in_loc_f =
      half_pixel_centers ? HalfPixelScale(out_loc, scale) : LegacyScale(out_loc, scale);
  const int64_t in_loc = static_cast<int64_t>(std::floor(in_loc_f));
  const float delta = in_loc_f - static_cast<float>(in_loc);
  const int64_t offset = lrintf(delta * kTableSize);
  const std::vector<float>& table = CoefficientsTable(half_pixel_centers);
  const float coefficients[4] = {table[offset * 2 + 1], table[offset * 2],
                                 table[(kTableSize - offset) * 2],
                                 table[(kTableSize - offset) * 2 + 1]};
  Taps taps;
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

// RESOURCE_EXHAUSTED when the allocator refuses the taps.
template <typename T>
absl::Status ResizeBicubic(OpKernelContext* ctx, const ImageResizerState& st, const T* in,
                           float* out) {
  const int64_t channels = st.channels;
  const int64_t in_row = st.in_width * channels;
  const int64_t in_image = st.in_height * in_row;
  ScratchArray<Taps> xs, ys;
  RETURN_IF_ERROR(xs.Allocate(ctx, st.out_width));
  RETURN_IF_ERROR(ys.Allocate(ctx, st.out_height));
  for (int64_t x = 0; x < st.out_width; ++x) {
    xs[x] = ComputeTaps(st.width_scale, x, st.in_width, st.half_pixel_centers, channels);
  }
  for (int64_t y = 0; y < st.out_height; ++y) {
    ys[y] = ComputeTaps(st.height_scale, y, st.in_height, st.half_pixel_centers, in_row);
  }
  const int64_t rows = st.batch_size * st.out_height;
  const int64_t row_size = st.out_width * channels;
  const Eigen::TensorOpCost cost(16 * row_size * sizeof(T), row_size * sizeof(float),
                                 40 * row_size);
  ParallelFor(ctx, rows, rows * row_size, cost, [&](int64_t first, int64_t last) {
    for (int64_t row = first; row < last; ++row) {
      const Taps& y = ys[row % st.out_height];
      const T* image = in + (row / st.out_height) * in_image;
      const T* r0 = image + y.index[0];
      const T* r1 = image + y.index[1];
      const T* r2 = image + y.index[2];
      const T* r3 = image + y.index[3];
      float* dst = out + row * row_size;
      for (int64_t x = 0; x < st.out_width; ++x) {
        const Taps& xt = xs[x];
        for (int64_t c = 0; c < channels; ++c) {
          float column[4];
          for (int k = 0; k < 4; ++k) {
            const int64_t i = xt.index[k] + c;
            column[k] =
                static_cast<float>(r0[i]) * y.weight[0] + static_cast<float>(r1[i]) * y.weight[1] +
                static_cast<float>(r2[i]) * y.weight[2] + static_cast<float>(r3[i]) * y.weight[3];
          }
          dst[x * channels + c] = column[0] * xt.weight[0] + column[1] * xt.weight[1] +
                                  column[2] * xt.weight[2] + column[3] * xt.weight[3];
        }
      }
    }
  });
  return absl::OkStatus();
}

template <typename T>
class ResizeBicubicOp : public OpKernel {
 public:
  explicit ResizeBicubicOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    ReadResizeAttrs(ctx, &align_corners_, &half_pixel_centers_);
  }

  void Compute(OpKernelContext* ctx) override {
    ImageResizerState st(align_corners_, half_pixel_centers_);
    if (!st.Validate(ctx)) return;
    if (st.output->NumElements() == 0) return;
    OP_REQUIRES_OK(ctx,
                   ResizeBicubic<T>(ctx, st, ctx->input(0).base<T>(), st.output->base<float>()));
  }

 private:
  bool align_corners_ = false;
  bool half_pixel_centers_ = false;
};

// The dtypes of the op's T attr (TensorFlow's CPU kernels cover each).
#define REGISTER_RESIZE_BICUBIC(T)                                                        \
  REGISTER_KERNEL_BUILDER(                                                                \
      Name("ResizeBicubic").Device(DEVICE_CPU).TypeConstraint<T>("T").HostMemory("size"), \
      ResizeBicubicOp<T>);
SLUICE_CALL_int8(REGISTER_RESIZE_BICUBIC) SLUICE_CALL_uint8(REGISTER_RESIZE_BICUBIC)
    SLUICE_CALL_int16(REGISTER_RESIZE_BICUBIC) SLUICE_CALL_uint16(REGISTER_RESIZE_BICUBIC)
        SLUICE_CALL_int32(REGISTER_RESIZE_BICUBIC) SLUICE_CALL_int64(REGISTER_RESIZE_BICUBIC)
            SLUICE_CALL_FLOAT_TYPES(REGISTER_RESIZE_BICUBIC)
#undef REGISTER_RESIZE_BICUBIC

}  // namespace
}  // namespace sluice
