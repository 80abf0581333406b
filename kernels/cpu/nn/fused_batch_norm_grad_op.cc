// FusedBatchNormGrad, FusedBatchNormGradV2 and FusedBatchNormGradV3 on the CPU: the gradients
// of FusedBatchNorm with respect to x, scale and offset, given y_backprop (dy), x, scale and
// the statistics the forward pass saved (reserve_space_1: the mean, reserve_space_2: the
// variance; V3's reserve_space_3 carries nothing on the CPU and is not read). Per channel,
// with n the number of elements per channel and inv = rsqrt(variance + epsilon):
//
//   offset_backprop = sum(dy)
//   scale_backprop  = sum(dy * (x - mean)) * inv
//   x_backprop      = scale * inv * (dy - sum(dy) / n - (x - mean) * inv * scale_backprop / n)
//                     in training (the statistics were the batch's, so they depend on x);
//   x_backprop      = dy * scale * inv   with is_training=false (fixed statistics).
//
// Everything is computed in float from T (float, half or bfloat16) and rounded once; the
// sums accumulate in double over fixed blocks combined in order, so results do not depend on
// the thread count. An empty x gives zero scale and offset gradients.
//
// TensorFlow's CPU kernels differ by case, and Sluice follows each: float and bfloat16 data
// in NHWC or NCHW run on oneDNN there, which takes 4-D data only and returns the two
// placeholder outputs (reserve_space_3/4, or 4/5 in V3) as scalars; otherwise (half, or
// NDHWC/NCDHW) its Eigen kernel takes 4-D or 5-D data, refuses channels-first data with
// is_training=false, and returns the placeholders with shape [0].
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include "absl/status/status.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_format.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/nn/batch_norm_args.h"
#include "kernels/cpu/nn/batch_norm_stats.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/scratch.h"
#include "runtime/framework/op_kernel.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sluice {
namespace {

using batch_norm_internal::kRowsPerBlock;
using batch_norm_internal::NumBlocks;

// Per channel c: sum_dy[c] = sum(dy) and sum_dy_xc[c] = sum(dy * (x - mean[c])), accumulated
// in double per block of kRowsPerBlock rows of `outer` (into `partial`, 2 * C doubles per
// block) and combined in block order.
template <typename T>
absl::Status GradientSums(OpKernelContext* ctx, const BatchNormLayout& l, const T* dy, const T* x,
                          const float* mean, double* sum_dy, double* sum_dy_xc) {
  const int64_t blocks = NumBlocks(l);
  const int64_t channels = l.channels;
  ScratchArray<double> partial;
  RETURN_IF_ERROR(partial.Allocate(ctx, blocks * 2 * channels));
  const double block_elements = static_cast<double>(kRowsPerBlock * channels * l.inner);
  ParallelFor(ctx, blocks, l.outer * channels * l.inner,
              Eigen::TensorOpCost(2 * block_elements * sizeof(T), 0, block_elements * 4),
              [&](int64_t first, int64_t last) {
                for (int64_t b = first; b < last; ++b) {
                  double* s_dy = partial.data() + b * 2 * channels;
                  double* s_dy_xc = s_dy + channels;
                  const int64_t row_end = std::min(l.outer, (b + 1) * kRowsPerBlock);
                  for (int64_t r = b * kRowsPerBlock; r < row_end; ++r) {
                    for (int64_t c = 0; c < channels; ++c) {
                      const int64_t base = (r * channels + c) * l.inner;
                      double a = 0, d = 0;
                      for (int64_t i = 0; i < l.inner; ++i) {
                        const float g = static_cast<float>(dy[base + i]);
                        a += g;
                        d += g * (static_cast<float>(x[base + i]) - mean[c]);
                      }
                      s_dy[c] += a;
                      s_dy_xc[c] += d;
                    }
                  }
                }
              });
  std::fill_n(sum_dy, channels, 0.0);
  std::fill_n(sum_dy_xc, channels, 0.0);
  for (int64_t b = 0; b < blocks; ++b) {
    const double* s = partial.data() + b * 2 * channels;
    for (int64_t c = 0; c < channels; ++c) {
      sum_dy[c] += s[c];
      sum_dy_xc[c] += s[channels + c];
    }
  }
  return absl::OkStatus();
}

// x_backprop = (dy - shift[c] - (x - mean[c]) * slope[c]) * gain[c], in float. out may
// alias dy.
template <typename T>
void InputGradient(OpKernelContext* ctx, const BatchNormLayout& l, const T* dy, const T* x,
                   const float* mean, const float* gain, const float* shift, const float* slope,
                   T* out) {
  const int64_t total = l.outer * l.channels * l.inner;
  // Channels last: a task row is a pixel's channel vector; channels first: a channel's plane.
  const bool channels_last = l.inner == 1;
  const int64_t rows = channels_last ? l.outer : l.outer * l.channels;
  const int64_t row_elements = channels_last ? l.channels : l.inner;
  const Eigen::TensorOpCost row_cost(2.0 * row_elements * sizeof(T), row_elements * sizeof(T),
                                     row_elements * 5.0);
  ParallelFor(ctx, rows, total, row_cost, [&](int64_t first, int64_t last) {
    for (int64_t r = first; r < last; ++r) {
      for (int64_t j = 0; j < row_elements; ++j) {
        const int64_t c = channels_last ? j : r % l.channels;
        const int64_t i = r * row_elements + j;
        const float centered = static_cast<float>(x[i]) - mean[c];
        out[i] =
            static_cast<T>((static_cast<float>(dy[i]) - shift[c] - centered * slope[c]) * gain[c]);
      }
    }
  });
}

absl::Status FillOutput(OpKernelContext* ctx, int index, const TensorShape& shape, float value) {
  Tensor* t = nullptr;
  RETURN_IF_ERROR(ctx->allocate_output(index, shape, &t));
  std::fill_n(t->flat<float>().data(), t->NumElements(), value);
  return absl::OkStatus();
}

template <typename T>
class FusedBatchNormGradOp : public OpKernel {
 public:
  explicit FusedBatchNormGradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("epsilon", &epsilon_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("is_training", &is_training_));
    std::string format_name;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("data_format", &format_name));
    TensorFormat format;
    OP_REQUIRES(ctx, FormatFromString(format_name, &format),
                errors::InvalidArgument("Invalid data format"));
    // NDHWC and NCDHW parse as NHWC and NCHW.
    OP_REQUIRES(ctx, format == FORMAT_NHWC || format == FORMAT_NCHW,
                errors::InvalidArgument("Invalid data format"));
    channels_last_ = format == FORMAT_NHWC;
    // See the file comment: which of TensorFlow's kernels the node would run.
    onednn_ = (std::is_same_v<T, float> || std::is_same_v<T, bfloat16>)&&(format_name == "NHWC" ||
                                                                          format_name == "NCHW");
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& dy = ctx->input(0);
    const Tensor& x = ctx->input(1);
    const Tensor& scale = ctx->input(2);
    const Tensor& mean = ctx->input(3);
    const Tensor& variance = ctx->input(4);
    BatchNormLayout layout;
    OP_REQUIRES_OK(ctx, CheckArgs(dy, x, scale, mean, variance, &layout));
    const int64_t channels = layout.channels;

    Tensor* x_backprop = nullptr;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({0}, 0, x.shape(), &x_backprop));
    Tensor* scale_backprop = nullptr;
    Tensor* offset_backprop = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, scale.shape(), &scale_backprop));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(2, scale.shape(), &offset_backprop));
    const TensorShape placeholder = onednn_ ? TensorShape({}) : TensorShape({0});
    OP_REQUIRES_OK(ctx, FillOutput(ctx, 3, placeholder, 0.0f));
    OP_REQUIRES_OK(ctx, FillOutput(ctx, 4, placeholder, 0.0f));
    float* d_scale = scale_backprop->flat<float>().data();
    float* d_offset = offset_backprop->flat<float>().data();
    if (x.NumElements() == 0) {
      std::fill_n(d_scale, channels, 0.0f);
      std::fill_n(d_offset, channels, 0.0f);
      return;
    }

    ScratchArray<double> sum_dy, sum_dy_xc;
    OP_REQUIRES_OK(ctx, sum_dy.Allocate(ctx, channels));
    OP_REQUIRES_OK(ctx, sum_dy_xc.Allocate(ctx, channels));
    const float* m = mean.flat<float>().data();
    OP_REQUIRES_OK(ctx, GradientSums<T>(ctx, layout, dy.flat<T>().data(), x.flat<T>().data(), m,
                                        sum_dy.data(), sum_dy_xc.data()));
    // Per channel: x_backprop = (dy - shift - (x - mean) * slope) * gain.
    ScratchArray<float> gain, shift, slope;
    OP_REQUIRES_OK(ctx, gain.Allocate(ctx, channels));
    OP_REQUIRES_OK(ctx, shift.Allocate(ctx, channels));
    OP_REQUIRES_OK(ctx, slope.Allocate(ctx, channels));
    const float* s = scale.flat<float>().data();
    const float* v = variance.flat<float>().data();
    const float n = static_cast<float>(layout.outer * layout.inner);
    for (int64_t c = 0; c < channels; ++c) {
      const float inv = 1.0f / std::sqrt(v[c] + epsilon_);
      d_offset[c] = static_cast<float>(sum_dy[c]);
      d_scale[c] = static_cast<float>(sum_dy_xc[c]) * inv;
      gain[c] = s[c] * inv;
      if (is_training_) {
        shift[c] = d_offset[c] / n;
        slope[c] = inv * d_scale[c] / n;
      }
    }
    InputGradient<T>(ctx, layout, dy.flat<T>().data(), x.flat<T>().data(), m, gain.data(),
                     shift.data(), slope.data(), x_backprop->flat<T>().data());
  }

 private:
  // TensorFlow's checks, in its order, and the layout of x.
  absl::Status CheckArgs(const Tensor& dy, const Tensor& x, const Tensor& scale, const Tensor& mean,
                         const Tensor& variance, BatchNormLayout* layout) const {
    for (const Tensor* t : {&dy, &x}) {
      if (onednn_ && t->dims() != 4) {
        return errors::InvalidArgument("input must be 4-dimensional", t->shape().DebugString());
      }
      if (t->dims() != 4 && t->dims() != 5) {
        return errors::InvalidArgument("input must be 4 or 5-dimensional",
                                       t->shape().DebugString());
      }
    }
    if (scale.dims() != 1) {
      return errors::InvalidArgument("scale must be 1-dimensional", scale.shape().DebugString());
    }
    if (mean.dims() != 1) {
      return errors::InvalidArgument("saved mean must be 1-dimensional",
                                     mean.shape().DebugString());
    }
    if (variance.dims() != 1) {
      return errors::InvalidArgument("saved variance must be 1-dimensional",
                                     variance.shape().DebugString());
    }
    if (x.shape() != dy.shape()) {
      return errors::InvalidArgument("x and y_backprop must have same shape, but x has shape ",
                                     x.shape().DebugString(), " and y_backprop has shape ",
                                     dy.shape().DebugString());
    }
    const int64_t channels = x.dim_size(channels_last_ ? x.dims() - 1 : 1);
    const struct {
      const char* name;
      const Tensor* t;
    } vectors[] = {{"scale", &scale}, {"reserve_space_1", &mean}, {"reserve_space_2", &variance}};
    for (const auto& v : vectors) {
      if (v.t->NumElements() != channels) {
        return errors::InvalidArgument(v.name,
                                       " must have the same number of elements as the channels "
                                       "of x, got ",
                                       v.t->NumElements(), " and ", channels);
      }
    }
    if (!onednn_ && !is_training_ && !channels_last_) {
      return errors::InvalidArgument(
          "The implementation of FusedBatchNormGrad with is_training=False only support NHWC "
          "tensor format for now.");
    }
    layout->channels = channels;
    if (x.NumElements() == 0) {
      layout->outer = layout->inner = 0;
    } else if (channels_last_) {
      layout->outer = x.NumElements() / channels;
      layout->inner = 1;
    } else {
      layout->outer = x.dim_size(0);
      layout->inner = x.NumElements() / (layout->outer * channels);
    }
    return absl::OkStatus();
  }

  float epsilon_ = 0;
  bool is_training_ = true;
  bool channels_last_ = true;
  bool onednn_ = false;
};

REGISTER_KERNEL_BUILDER(Name("FusedBatchNormGrad").Device(DEVICE_CPU).TypeConstraint<float>("T"),
                        FusedBatchNormGradOp<float>);
#define REGISTER_CPU(T)                                    \
  REGISTER_KERNEL_BUILDER(Name("FusedBatchNormGradV2")     \
                              .Device(DEVICE_CPU)          \
                              .TypeConstraint<T>("T")      \
                              .TypeConstraint<float>("U"), \
                          FusedBatchNormGradOp<T>);        \
  REGISTER_KERNEL_BUILDER(Name("FusedBatchNormGradV3")     \
                              .Device(DEVICE_CPU)          \
                              .TypeConstraint<T>("T")      \
                              .TypeConstraint<float>("U"), \
                          FusedBatchNormGradOp<T>);
SLUICE_CALL_float(REGISTER_CPU) SLUICE_CALL_half(REGISTER_CPU) SLUICE_CALL_bfloat16(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
