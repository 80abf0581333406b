// The gradients of the resizes on the CPU (training graphs of UpSampling2D and Resizing):
// ResizeBilinearGrad, ResizeBicubicGrad and ResizeNearestNeighborGrad. Each spreads grads
// [batch, resized rows, resized cols, channels] back over the pixels of the original image
// that the forward op read, with the forward op's weights.
//
// TensorFlow's CPU kernels add every resized pixel's contributions into a zeroed output in
// one sequential pass (rows, then columns, then the taps: top-left, top-right, bottom-left,
// bottom-right for bilinear; 4 x 4 row by row for bicubic). Here each output row is gathered
// on its own (so rows split over the intra-op pool), visiting the resized pixels and taps
// that reach it in that same order, so every sum is made in TensorFlow's order and results
// match it bit for bit:
//  - bilinear: each term is float(grad * y_weight * x_weight), summed in the output type, or
//    in float then rounded once for half and bfloat16 (as TensorFlow);
//  - bicubic: each term is T(grad) * y_weight * x_weight in the output type (float, double);
//  - nearest neighbour: grads are summed in their own type (integers wrap) into the pixel each
//    resized pixel copied; TensorFlow allows align_corners with half_pixel_centers here (its
//    forward op does not), rounding (x + 0.5) * scale.
// Checks and messages are TensorFlow's (image_resizer_state.h for the interpolating ones).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "absl/status/status.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/image/bicubic_taps.h"
#include "kernels/cpu/image/image_resizer_state.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/scratch.h"
#include "kernels/cpu/wrapping_arithmetic.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// Up to four input coordinates a resized coordinate reads, with their weights.
struct Taps {
  int count;
  float weight[4];
  int64_t index[4];
};

Taps BilinearTaps(const ImageResizerGradientState& st, int64_t x, int64_t size, float scale) {
  // BilinearWeightOf reads only the two attrs, which the gradient state shares.
  const ImageResizerState forward(st.align_corners, st.half_pixel_centers);
  const BilinearWeight w = BilinearWeightOf(forward, x, size, scale);
  return {2, {1.0f - w.lerp, w.lerp, 0.0f, 0.0f}, {w.lower, w.upper, 0, 0}};
}

Taps CubicTaps(const ImageResizerGradientState& st, int64_t x, int64_t size, float scale) {
  const BicubicTaps t = ComputeBicubicTaps(scale, x, size, st.half_pixel_centers, /*stride=*/1);
  Taps taps{4, {}, {}};
  for (int k = 0; k < 4; ++k) {
    taps.weight[k] = t.weight[k];
    taps.index[k] = t.index[k];
  }
  return taps;
}

// out (the gradient, [batch, original rows, cols, channels] of Acc) from grads, each output row
// gathering the terms term(grad, y_weight, x_weight) of the resized pixels that reach it in
// TensorFlow's order. RESOURCE_EXHAUSTED when the taps' scratch is refused.
template <typename Acc, typename TapsFn, typename Term>
absl::Status GatherGradient(OpKernelContext* ctx, const ImageResizerGradientState& st,
                            TapsFn taps_of, Term term, const float* grads, Acc* out) {
  ScratchArray<Taps> ys, xs;
  RETURN_IF_ERROR(ys.Allocate(ctx, st.resized_height));
  RETURN_IF_ERROR(xs.Allocate(ctx, st.resized_width));
  for (int64_t y = 0; y < st.resized_height; ++y) {
    ys[y] = taps_of(st, y, st.original_height, st.height_scale);
  }
  for (int64_t x = 0; x < st.resized_width; ++x) {
    xs[x] = taps_of(st, x, st.original_width, st.width_scale);
  }
  const int64_t channels = st.channels;
  const int64_t grad_row = st.resized_width * channels;
  const int64_t out_row = st.original_width * channels;
  const int64_t rows = st.batch_size * st.original_height;
  const int64_t taps = ys[0].count * xs[0].count;
  // Each output row reads about resized_rows / original_rows grad rows.
  const double per_row =
      static_cast<double>(st.resized_height) * grad_row / static_cast<double>(st.original_height);
  const Eigen::TensorOpCost cost(per_row * sizeof(float), out_row * sizeof(Acc), per_row * taps);
  ParallelFor(ctx, rows, rows * out_row, cost, [&](int64_t first, int64_t last) {
    for (int64_t row = first; row < last; ++row) {
      const int64_t oy = row % st.original_height;
      const float* image = grads + (row / st.original_height) * st.resized_height * grad_row;
      Acc* dst = out + row * out_row;
      std::fill_n(dst, out_row, Acc(0));
      for (int64_t y = 0; y < st.resized_height; ++y) {
        const Taps& ty = ys[y];
        bool reaches = false;
        for (int ky = 0; ky < ty.count; ++ky) reaches |= ty.index[ky] == oy;
        if (!reaches) continue;
        const float* src = image + y * grad_row;
        for (int64_t x = 0; x < st.resized_width; ++x) {
          const Taps& tx = xs[x];
          const float* g = src + x * channels;
          for (int ky = 0; ky < ty.count; ++ky) {
            if (ty.index[ky] != oy) continue;
            for (int kx = 0; kx < tx.count; ++kx) {
              Acc* o = dst + tx.index[kx] * channels;
              for (int64_t c = 0; c < channels; ++c) {
                o[c] += term(g[c], ty.weight[ky], tx.weight[kx]);
              }
            }
          }
        }
      }
    }
  });
  return absl::OkStatus();
}

template <typename T>
class ResizeBilinearGradOp : public OpKernel {
 public:
  explicit ResizeBilinearGradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    ReadResizeAttrs(ctx, &align_corners_, &half_pixel_centers_);
  }

  void Compute(OpKernelContext* ctx) override {
    ImageResizerGradientState st(align_corners_, half_pixel_centers_);
    if (!st.Validate(ctx)) return;
    if (st.output->NumElements() == 0) return;
    const float* grads = ctx->input(0).base<float>();
    const auto term = [](float g, float wy, float wx) { return g * wy * wx; };
    if constexpr (std::is_same_v<T, float>) {
      OP_REQUIRES_OK(
          ctx, GatherGradient<float>(ctx, st, BilinearTaps, term, grads, st.output->base<float>()));
    } else if constexpr (std::is_same_v<T, double>) {
      const auto wide = [&](float g, float wy, float wx) -> double { return term(g, wy, wx); };
      OP_REQUIRES_OK(ctx, GatherGradient<double>(ctx, st, BilinearTaps, wide, grads,
                                                 st.output->base<double>()));
    } else {
      // half and bfloat16: summed in float, rounded once.
      Tensor sums;
      OP_REQUIRES_OK(ctx, ctx->allocate_temp(DT_FLOAT, st.output->shape(), &sums));
      OP_REQUIRES_OK(ctx,
                     GatherGradient<float>(ctx, st, BilinearTaps, term, grads, sums.base<float>()));
      st.output->flat<T>() = sums.flat<float>().template cast<T>();
    }
  }

 private:
  bool align_corners_ = false;
  bool half_pixel_centers_ = false;
};

template <typename T>
class ResizeBicubicGradOp : public OpKernel {
 public:
  explicit ResizeBicubicGradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    ReadResizeAttrs(ctx, &align_corners_, &half_pixel_centers_);
  }

  void Compute(OpKernelContext* ctx) override {
    ImageResizerGradientState st(align_corners_, half_pixel_centers_);
    if (!st.Validate(ctx)) return;
    if (st.output->NumElements() == 0) return;
    const auto term = [](float g, float wy, float wx) {
      return static_cast<T>(g) * static_cast<T>(wy) * static_cast<T>(wx);
    };
    OP_REQUIRES_OK(ctx, GatherGradient<T>(ctx, st, CubicTaps, term, ctx->input(0).base<float>(),
                                          st.output->base<T>()));
  }

 private:
  bool align_corners_ = false;
  bool half_pixel_centers_ = false;
};

// The original coordinate a resized coordinate x copied from, as TensorFlow's gradient
// computes it: rounded with align_corners, floored otherwise, from (x + 0.5) * scale with
// half_pixel_centers and x * scale without; clamped to the dim.
int64_t NearestGradSource(bool align_corners, bool half_pixel_centers, int64_t x, int64_t size,
                          float scale) {
  const float in = half_pixel_centers ? HalfPixelScaleForNearest(x, scale) : LegacyScale(x, scale);
  int64_t i = static_cast<int64_t>(align_corners ? std::round(in) : std::floor(in));
  i = std::min(i, size - 1);
  if (half_pixel_centers) i = std::max(i, int64_t{0});
  return i;
}

float NearestGradScale(int64_t original, int64_t resized, bool align_corners) {
  return (align_corners && original > 1 && resized > 1)
             ? static_cast<float>(original - 1) / static_cast<float>(resized - 1)
             : static_cast<float>(original) / static_cast<float>(resized);
}

template <typename T>
class ResizeNearestNeighborGradOp : public OpKernel {
 public:
  explicit ResizeNearestNeighborGradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    ReadResizeAttrs(ctx, &align_corners_, &half_pixel_centers_);
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& grads = ctx->input(0);
    OP_REQUIRES(
        ctx, grads.dims() == 4,
        errors::InvalidArgument("input must be 4-dimensional", grads.shape().DebugString()));
    const Tensor& size = ctx->input(1);
    OP_REQUIRES(
        ctx, size.dims() == 1,
        errors::InvalidArgument("shape_t must be 1-dimensional", size.shape().DebugString()));
    OP_REQUIRES(
        ctx, size.NumElements() == 2,
        errors::InvalidArgument("shape_t must have two elements", size.shape().DebugString()));
    const int64_t out_height = size.base<int32_t>()[0];
    const int64_t out_width = size.base<int32_t>()[1];
    OP_REQUIRES(ctx, out_height > 0 && out_width > 0,
                errors::InvalidArgument("shape_t's elements must be positive"));
    const int64_t batch = grads.dim_size(0);
    const int64_t in_height = grads.dim_size(1);
    const int64_t in_width = grads.dim_size(2);
    const int64_t channels = grads.dim_size(3);
    TensorShape shape;
    OP_REQUIRES_OK(ctx,
                   TensorShape::BuildTensorShape({batch, out_height, out_width, channels}, &shape));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &output));
    if (output->NumElements() == 0) return;
    const float height_scale = NearestGradScale(out_height, in_height, align_corners_);
    const float width_scale = NearestGradScale(out_width, in_width, align_corners_);
    ScratchArray<int64_t> ys, xs;
    OP_REQUIRES_OK(ctx, ys.Allocate(ctx, in_height));
    OP_REQUIRES_OK(ctx, xs.Allocate(ctx, in_width));
    for (int64_t y = 0; y < in_height; ++y) {
      ys[y] = NearestGradSource(align_corners_, half_pixel_centers_, y, out_height, height_scale);
    }
    for (int64_t x = 0; x < in_width; ++x) {
      xs[x] = NearestGradSource(align_corners_, half_pixel_centers_, x, out_width, width_scale) *
              channels;
    }
    const T* in = grads.base<T>();
    T* out = output->base<T>();
    const int64_t in_row = in_width * channels;
    const int64_t out_row = out_width * channels;
    const int64_t rows = batch * out_height;
    const double per_row =
        static_cast<double>(in_height) * in_row / static_cast<double>(out_height);
    const Eigen::TensorOpCost cost(per_row * sizeof(T), out_row * sizeof(T), per_row);
    ParallelFor(ctx, rows, rows * out_row, cost, [&](int64_t first, int64_t last) {
      for (int64_t row = first; row < last; ++row) {
        const int64_t oy = row % out_height;
        const T* image = in + (row / out_height) * in_height * in_row;
        T* dst = out + row * out_row;
        std::fill_n(dst, out_row, T(0));
        for (int64_t y = 0; y < in_height; ++y) {
          if (ys[y] != oy) continue;
          const T* src = image + y * in_row;
          for (int64_t x = 0; x < in_width; ++x) {
            T* o = dst + xs[x];
            const T* g = src + x * channels;
            for (int64_t c = 0; c < channels; ++c) o[c] = WrappingAdd(o[c], g[c]);
          }
        }
      }
    });
  }

 private:
  bool align_corners_ = false;
  bool half_pixel_centers_ = false;
};

// TensorFlow's CPU kernels: ResizeBilinearGrad for half, bfloat16, float and double;
// ResizeBicubicGrad for float and double; ResizeNearestNeighborGrad for every dtype of its
// OpDef.
#define REGISTER_BILINEAR_GRAD(T)                                                               \
  REGISTER_KERNEL_BUILDER(Name("ResizeBilinearGrad").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          ResizeBilinearGradOp<T>);
SLUICE_CALL_FLOAT_TYPES(REGISTER_BILINEAR_GRAD)
#undef REGISTER_BILINEAR_GRAD

#define REGISTER_BICUBIC_GRAD(T)                                                               \
  REGISTER_KERNEL_BUILDER(Name("ResizeBicubicGrad").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          ResizeBicubicGradOp<T>);
SLUICE_CALL_float(REGISTER_BICUBIC_GRAD) SLUICE_CALL_double(REGISTER_BICUBIC_GRAD)
#undef REGISTER_BICUBIC_GRAD

#define REGISTER_NEAREST_GRAD(T)                            \
  REGISTER_KERNEL_BUILDER(Name("ResizeNearestNeighborGrad") \
                              .Device(DEVICE_CPU)           \
                              .TypeConstraint<T>("T")       \
                              .HostMemory("size"),          \
                          ResizeNearestNeighborGradOp<T>);
    SLUICE_CALL_uint8(REGISTER_NEAREST_GRAD) SLUICE_CALL_int8(REGISTER_NEAREST_GRAD)
        SLUICE_CALL_int32(REGISTER_NEAREST_GRAD) SLUICE_CALL_FLOAT_TYPES(REGISTER_NEAREST_GRAD)
#undef REGISTER_NEAREST_GRAD

}  // namespace
}  // namespace sluice
