// ResizeBicubic on the CPU: resize NHWC images to [out_height, out_width] by bicubic
// convolution; the output is float whatever the input dtype.
//
// Algorithm (TensorFlow's, to match it bit for bit): each output coordinate reads four taps
// per dim (bicubic_taps.h). Each output value is the x-weighted sum of four y-weighted column sums,
// in float, in that order (as TensorFlow's cached interpolation computes it).
//
// Checked by ImageResizerState, as TensorFlow does. Output rows are split over the intra-op
// pool.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "absl/status/status.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/image/bicubic_taps.h"
#include "kernels/cpu/image/image_resizer_state.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/scratch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// RESOURCE_EXHAUSTED when the allocator refuses the taps.
template <typename T>
absl::Status ResizeBicubic(OpKernelContext* ctx, const ImageResizerState& st, const T* in,
                           float* out) {
  const int64_t channels = st.channels;
  const int64_t in_row = st.in_width * channels;
  const int64_t in_image = st.in_height * in_row;
  ScratchArray<BicubicTaps> xs, ys;
  RETURN_IF_ERROR(xs.Allocate(ctx, st.out_width));
  RETURN_IF_ERROR(ys.Allocate(ctx, st.out_height));
  for (int64_t x = 0; x < st.out_width; ++x) {
    xs[x] = ComputeBicubicTaps(st.width_scale, x, st.in_width, st.half_pixel_centers, channels);
  }
  for (int64_t y = 0; y < st.out_height; ++y) {
    ys[y] = ComputeBicubicTaps(st.height_scale, y, st.in_height, st.half_pixel_centers, in_row);
  }
  const int64_t rows = st.batch_size * st.out_height;
  const int64_t row_size = st.out_width * channels;
  const Eigen::TensorOpCost cost(16 * row_size * sizeof(T), row_size * sizeof(float),
                                 40 * row_size);
  ParallelFor(ctx, rows, rows * row_size, cost, [&](int64_t first, int64_t last) {
    for (int64_t row = first; row < last; ++row) {
      const BicubicTaps& y = ys[row % st.out_height];
      const T* image = in + (row / st.out_height) * in_image;
      const T* r0 = image + y.index[0];
      const T* r1 = image + y.index[1];
      const T* r2 = image + y.index[2];
      const T* r3 = image + y.index[3];
      float* dst = out + row * row_size;
      for (int64_t x = 0; x < st.out_width; ++x) {
        const BicubicTaps& xt = xs[x];
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
