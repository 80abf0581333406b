// ResizeBilinear on the CPU: resize NHWC images to [out_height, out_width] by bilinear
// interpolation; the output is float whatever the input dtype.
//
// Algorithm (TensorFlow's, to match it bit for bit): per output row y and column x, the
// source coordinate in = scale(y) (legacy: y * s; half-pixel centres: (y + 0.5) * s - 0.5)
// gives lower = max(floor(in), 0), upper = min(ceil(in), size - 1) and lerp = in - floor(in),
// all in float. These weights are computed once per dim; then each output value is
//   top = tl + (tr - tl) * x_lerp;  bottom = bl + (br - bl) * x_lerp;
//   out = top + (bottom - top) * y_lerp
// on the inputs cast to float. A resize to the same size is a plain cast (as in TensorFlow,
// which keeps infinities that the interpolation would turn into NaN). Output rows are split
// over the intra-op pool.
#include <algorithm>
#include <cmath>
#include <cstdint>

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

// The weights of each of out_size output coordinates (offsets already multiplied by the dim's
// stride), in `weights` from ctx's allocator.
absl::Status ComputeWeights(OpKernelContext* ctx, const ImageResizerState& st, int64_t out_size,
                            int64_t in_size, float scale, int64_t stride,
                            ScratchArray<BilinearWeight>* weights) {
  RETURN_IF_ERROR(weights->Allocate(ctx, out_size));
  for (int64_t i = 0; i < out_size; ++i) {
    BilinearWeight w = BilinearWeightOf(st, i, in_size, scale);
    w.lower *= stride;
    w.upper *= stride;
    (*weights)[i] = w;
  }
  return absl::OkStatus();
}

inline float Lerp(float a, float b, float t) { return a + (b - a) * t; }

// RESOURCE_EXHAUSTED when the allocator refuses the interpolation weights.
template <typename T>
absl::Status ResizeBilinear(OpKernelContext* ctx, const ImageResizerState& st, const T* in,
                            float* out) {
  const int64_t channels = st.channels;
  const int64_t out_width = st.out_width;
  const int64_t in_row = st.in_width * channels;
  const int64_t in_image = st.in_height * in_row;
  if (st.out_height == st.in_height && st.out_width == st.in_width) {
    const int64_t n = st.batch_size * in_image;
    ParallelFor(ctx, n, n, Eigen::TensorOpCost(sizeof(T), sizeof(float), 1),
                [&](int64_t first, int64_t last) {
                  for (int64_t i = first; i < last; ++i) out[i] = static_cast<float>(in[i]);
                });
    return absl::OkStatus();
  }
  ScratchArray<BilinearWeight> ys, xs;
  RETURN_IF_ERROR(
      ComputeWeights(ctx, st, st.out_height, st.in_height, st.height_scale, in_row, &ys));
  RETURN_IF_ERROR(
      ComputeWeights(ctx, st, st.out_width, st.in_width, st.width_scale, channels, &xs));
  const int64_t rows = st.batch_size * st.out_height;
  const int64_t row_size = out_width * channels;
  const Eigen::TensorOpCost cost(4 * row_size * sizeof(T), row_size * sizeof(float), 6 * row_size);
  ParallelFor(ctx, rows, rows * row_size, cost, [&](int64_t first, int64_t last) {
    for (int64_t row = first; row < last; ++row) {
      const BilinearWeight& y = ys[row % st.out_height];
      const T* image = in + (row / st.out_height) * in_image;
      const T* top = image + y.lower;
      const T* bottom = image + y.upper;
      float* dst = out + row * row_size;
      for (int64_t x = 0; x < out_width; ++x) {
        const BilinearWeight& xw = xs[x];
        for (int64_t c = 0; c < channels; ++c) {
          const float top_value = Lerp(static_cast<float>(top[xw.lower + c]),
                                       static_cast<float>(top[xw.upper + c]), xw.lerp);
          const float bottom_value = Lerp(static_cast<float>(bottom[xw.lower + c]),
                                          static_cast<float>(bottom[xw.upper + c]), xw.lerp);
          dst[x * channels + c] = Lerp(top_value, bottom_value, y.lerp);
        }
      }
    }
  });
  return absl::OkStatus();
}

template <typename T>
class ResizeBilinearOp : public OpKernel {
 public:
  explicit ResizeBilinearOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    ReadResizeAttrs(ctx, &align_corners_, &half_pixel_centers_);
  }

  void Compute(OpKernelContext* ctx) override {
    ImageResizerState st(align_corners_, half_pixel_centers_);
    if (!st.Validate(ctx)) return;
    if (st.output->NumElements() == 0) return;
    OP_REQUIRES_OK(ctx,
                   ResizeBilinear<T>(ctx, st, ctx->input(0).base<T>(), st.output->base<float>()));
  }

 private:
  bool align_corners_ = false;
  bool half_pixel_centers_ = false;
};

// The dtypes of the op's T attr (TensorFlow's CPU kernels cover each).
#define REGISTER_RESIZE_BILINEAR(T)                                                        \
  REGISTER_KERNEL_BUILDER(                                                                 \
      Name("ResizeBilinear").Device(DEVICE_CPU).TypeConstraint<T>("T").HostMemory("size"), \
      ResizeBilinearOp<T>);
SLUICE_CALL_int8(REGISTER_RESIZE_BILINEAR) SLUICE_CALL_uint8(REGISTER_RESIZE_BILINEAR)
    SLUICE_CALL_int16(REGISTER_RESIZE_BILINEAR) SLUICE_CALL_uint16(REGISTER_RESIZE_BILINEAR)
        SLUICE_CALL_int32(REGISTER_RESIZE_BILINEAR) SLUICE_CALL_int64(REGISTER_RESIZE_BILINEAR)
            SLUICE_CALL_FLOAT_TYPES(REGISTER_RESIZE_BILINEAR)
#undef REGISTER_RESIZE_BILINEAR

}  // namespace
}  // namespace sluice
