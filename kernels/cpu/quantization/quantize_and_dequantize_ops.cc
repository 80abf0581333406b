// QuantizeAndDequantizeV2, V3 and V4: a float or double tensor rounded to the grid of a num_bits
// integer (signed or not, narrow or not) that keeps 0 exact, and returned in its own type;
// the range is given (range_given) or the input's own minimum and maximum, per tensor or per
// slice along `axis`. QuantizeAndDequantizeV4Grad passes the gradient where the input lies in
// [min, max] and zero elsewhere.
//
// The arithmetic is TensorFlow's in T, operation for operation, so the outputs are its bits.
// TensorFlow's quirks are kept: V2 and V4 accept only scalar ranges when range_given (so a
// given range with an axis is always an error), V3 checks min <= max only for one range.
// Where TensorFlow crashes (V3 given a range of other than one element and no axis) Sluice
// returns INVALID_ARGUMENT. A computed range over an input holding NaN is NaN here (every output
// NaN); TensorFlow's depends on where its Eigen reduction meets the NaN.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/quantization/quantize_math.h"
#include "kernels/cpu/scratch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

absl::Status CheckNumBits(int64_t num_bits, bool signed_input, const char* signed_name) {
  if (num_bits > 0 && num_bits < (signed_input ? 62 : 63)) return absl::OkStatus();
  return errors::InvalidArgument("num_bits is out of range: ", num_bits, " with ", signed_name, " ",
                                 signed_input ? 1 : 0);
}

// The grid for one range: the scale into integers, its inverse, and the range (one end moved
// so that both ends lie on the grid) that given ranges clamp to.
template <typename T>
struct Grid {
  Grid(bool signed_input, int num_bits, bool narrow_range, T min, T max)
      : min_range(min), max_range(max) {
    const int64_t min_quantized =
        signed_input ? (narrow_range ? -static_cast<int64_t>(uint64_t{1} << (num_bits - 1)) + 1
                                     : -static_cast<int64_t>(uint64_t{1} << (num_bits - 1)))
                     : 0;
    const int64_t max_quantized = signed_input
                                      ? static_cast<int64_t>((uint64_t{1} << (num_bits - 1)) - 1)
                                      : static_cast<int64_t>((uint64_t{1} << num_bits) - 1);
    const T qmin = static_cast<T>(min_quantized);
    const T qmax = static_cast<T>(max_quantized);
    const T from_min = qmin * min_range > 0 ? qmin / min_range : std::numeric_limits<T>::max();
    const T from_max = qmax * max_range > 0 ? qmax / max_range : std::numeric_limits<T>::max();
    if (from_min < from_max) {
      scale = from_min;
      inverse_scale = min_range / qmin;
      max_range = qmax * inverse_scale;
    } else {
      scale = from_max;
      inverse_scale = max_range / qmax;
      min_range = qmin * inverse_scale;
    }
  }

  T min_range, max_range, scale = 0, inverse_scale = 0;
};

// The input viewed as [outer, channels, inner] around `axis` (one channel when axis is -1).
struct ChannelLayout {
  ChannelLayout(const Tensor& input, int64_t axis) {
    if (axis < 0) {
      inner = input.NumElements();
      return;
    }
    channels = input.dim_size(axis);
    for (int d = axis + 1; d < input.dims(); ++d) inner *= input.dim_size(d);
    for (int d = 0; d < axis; ++d) outer *= input.dim_size(d);
  }
  int64_t outer = 1, channels = 1, inner = 1;
};

// Each channel's minimum and maximum, as TensorFlow's reductions order equal values (the later
// one wins, which tells -0.0 from 0.0); NaN when the channel holds a NaN.
template <typename T>
void ChannelExtremes(const T* in, const ChannelLayout& layout, T* mins, T* maxs) {
  constexpr T kNaN = std::numeric_limits<T>::quiet_NaN();
  for (int64_t c = 0; c < layout.channels; ++c) {
    T lo = std::numeric_limits<T>::infinity();
    T hi = -std::numeric_limits<T>::infinity();
    bool nan = false;
    for (int64_t o = 0; o < layout.outer; ++o) {
      const T* row = in + (o * layout.channels + c) * layout.inner;
      for (int64_t j = 0; j < layout.inner; ++j) {
        const T x = row[j];
        nan |= std::isnan(x);
        lo = lo < x ? lo : x;
        hi = x < hi ? hi : x;
      }
    }
    mins[c] = nan ? kNaN : lo;
    maxs[c] = nan ? kNaN : hi;
  }
}

struct QuantizeAndDequantizeParams {
  bool signed_input = true;
  int num_bits = 8;
  bool range_given = false;
  bool narrow_range = false;
  bool half_to_even = true;
};

// Rounds every channel of `input` to its grid into `output`. `mins` and `maxs` hold one range
// per channel when range_given; otherwise they are filled with the channels' extremes.
template <typename T>
void QuantizeAndDequantize(OpKernelContext* ctx, const Tensor& input, int64_t axis,
                           const QuantizeAndDequantizeParams& params, T* mins, T* maxs,
                           Tensor* output) {
  const ChannelLayout layout(input, axis);
  const T* in = input.flat<T>().data();
  T* out = output->flat<T>().data();
  if (input.NumElements() == 0) return;
  if (!params.range_given) ChannelExtremes(in, layout, mins, maxs);
  const int64_t rows = layout.outer * layout.channels;
  ParallelFor(
      ctx, rows, input.NumElements(),
      Eigen::TensorOpCost(sizeof(T) * layout.inner, sizeof(T) * layout.inner, 6 * layout.inner),
      [&](int64_t first, int64_t last) {
        for (int64_t r = first; r < last; ++r) {
          const int64_t c = r % layout.channels;
          const Grid<T> grid(params.signed_input, params.num_bits, params.narrow_range, mins[c],
                             maxs[c]);
          const T* row_in = in + r * layout.inner;
          T* row_out = out + r * layout.inner;
          for (int64_t j = 0; j < layout.inner; ++j) {
            T x = row_in[j];
            // Given ranges clamp, so that the integers stay in the type (TensorFlow's order:
            // min with the top, then max with the bottom, which keeps NaN).
            if (params.range_given) x = std::max(std::min(x, grid.max_range), grid.min_range);
            const T scaled = x * grid.scale;
            const T rounded = params.half_to_even ? quantize::RoundHalfToEven(scaled)
                                                  : quantize::RoundHalfUp(scaled);
            row_out[j] = rounded * grid.inverse_scale;
          }
        }
      });
}

// V2 and V4 (the same kernel in TensorFlow).
template <typename T>
class QuantizeAndDequantizeV2Op : public OpKernel {
 public:
  explicit QuantizeAndDequantizeV2Op(OpKernelConstruction* ctx) : OpKernel(ctx) {
    int64_t num_bits = 0;
    std::string round_mode;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("signed_input", &params_.signed_input));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("axis", &axis_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("num_bits", &num_bits));
    OP_REQUIRES_OK(ctx, CheckNumBits(num_bits, params_.signed_input, "signed_input_"));
    params_.num_bits = static_cast<int>(num_bits);
    OP_REQUIRES_OK(ctx, ctx->GetAttr("range_given", &params_.range_given));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("round_mode", &round_mode));
    OP_REQUIRES(
        ctx, round_mode == "HALF_UP" || round_mode == "HALF_TO_EVEN",
        errors::InvalidArgument("Round mode string must be 'HALF_UP' or 'HALF_TO_EVEN', is '",
                                round_mode, "'"));
    params_.half_to_even = round_mode == "HALF_TO_EVEN";
    OP_REQUIRES_OK(ctx, ctx->GetAttr("narrow_range", &params_.narrow_range));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    OP_REQUIRES(ctx, axis_ >= -1,
                errors::InvalidArgument("Axis must be at least -1. Found ", axis_));
    OP_REQUIRES(ctx, axis_ == -1 || axis_ < input.dims(),
                errors::InvalidArgument("Shape must be at least rank ", axis_ + 1, " but is rank ",
                                        input.dims()));
    const int64_t depth = axis_ == -1 ? 1 : input.dim_size(axis_);
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, input.shape(), &output));
    ScratchArray<T> ranges;
    OP_REQUIRES_OK(ctx, ranges.Allocate(ctx, 2 * depth));
    if (params_.range_given) {
      const Tensor& min = ctx->input(1);
      const Tensor& max = ctx->input(2);
      OP_REQUIRES(ctx, min.dims() == 0, errors::InvalidArgument("input_min must be a scalar."));
      OP_REQUIRES(ctx, max.dims() == 0, errors::InvalidArgument("input_max must be a scalar."));
      // Scalars pass only without an axis: TensorFlow then asks for vectors.
      OP_REQUIRES(ctx, axis_ == -1,
                  errors::InvalidArgument(
                      "Shape must be rank 1 for input_min_tensor when the axis is specified"));
      const T min_value = min.scalar<T>()();
      const T max_value = max.scalar<T>()();
      OP_REQUIRES(ctx, min_value <= max_value,
                  errors::InvalidArgument("Invalid range: input_min ", min_value, " > input_max ",
                                          max_value));
      ranges[0] = min_value;
      ranges[1] = max_value;
    }
    QuantizeAndDequantize<T>(ctx, input, axis_, params_, ranges.data(), ranges.data() + depth,
                             output);
  }

 private:
  QuantizeAndDequantizeParams params_;
  int64_t axis_ = -1;
};

// V3: num_bits is an input, the rounding is half to even.
template <typename T>
class QuantizeAndDequantizeV3Op : public OpKernel {
 public:
  explicit QuantizeAndDequantizeV3Op(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("signed_input", &params_.signed_input));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("range_given", &params_.range_given));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("narrow_range", &params_.narrow_range));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("axis", &axis_));
    params_.half_to_even = true;
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const Tensor& num_bits = ctx->input(3);
    // TensorFlow's shape function refuses an axis below -1; its kernel would crash.
    OP_REQUIRES(ctx, axis_ >= -1,
                errors::InvalidArgument("Axis must be at least -1. Found ", axis_));
    OP_REQUIRES(ctx, axis_ < input.dims(),
                errors::InvalidArgument("Axis requested is larger than input dimensions. Axis: ",
                                        axis_, " Input Dimensions: ", input.dims()));
    const int64_t depth = axis_ == -1 ? 1 : input.dim_size(axis_);
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, input.shape(), &output));
    OP_REQUIRES(ctx, num_bits.dims() == 0,
                errors::InvalidArgument(
                    "Invalid shape. The `num_bits` tensor should be a scalar. Got dimensions: ",
                    num_bits.dims()));
    const int32_t bits = num_bits.scalar<int32_t>()();
    OP_REQUIRES_OK(ctx, CheckNumBits(bits, params_.signed_input, "`signed_input_`"));
    QuantizeAndDequantizeParams params = params_;
    params.num_bits = bits;
    ScratchArray<T> ranges;
    OP_REQUIRES_OK(ctx, ranges.Allocate(ctx, 2 * depth));
    if (params.range_given) {
      const Tensor& min = ctx->input(1);
      const Tensor& max = ctx->input(2);
      if (axis_ == -1) {
        // TensorFlow reads one element of any shape, and crashes on other sizes.
        OP_REQUIRES(ctx, min.NumElements() == 1,
                    errors::InvalidArgument("input_min must hold one element, got shape ",
                                            min.shape().DebugString()));
        OP_REQUIRES(ctx, max.NumElements() == 1,
                    errors::InvalidArgument("input_max must hold one element, got shape ",
                                            max.shape().DebugString()));
        const T min_value = min.flat<T>()(0);
        const T max_value = max.flat<T>()(0);
        OP_REQUIRES(ctx, min_value <= max_value,
                    errors::InvalidArgument("Invalid range: input_min ", min_value, " > input_max ",
                                            max_value));
        ranges[0] = min_value;
        ranges[1] = max_value;
      } else {
        OP_REQUIRES(ctx, min.dims() == 1,
                    errors::InvalidArgument(
                        "Shape must be rank 1 for input_min_tensor when the axis is specified"));
        OP_REQUIRES(ctx, max.dims() == 1,
                    errors::InvalidArgument(
                        "Shape must be rank 1 for input_max_tensor when the axis is specified"));
        OP_REQUIRES(ctx, min.dim_size(0) == depth,
                    errors::InvalidArgument("input_min_tensor has incorrect size, was ",
                                            min.dim_size(0), " expected ", depth, " to match dim ",
                                            axis_, " of the input ", min.shape().DebugString()));
        OP_REQUIRES(ctx, max.dim_size(0) == depth,
                    errors::InvalidArgument("input_max_tensor has incorrect size, was ",
                                            max.dim_size(0), " expected ", depth, " to match dim ",
                                            axis_, " of the input ", max.shape().DebugString()));
        std::copy_n(min.flat<T>().data(), depth, ranges.data());
        std::copy_n(max.flat<T>().data(), depth, ranges.data() + depth);
      }
    }
    QuantizeAndDequantize<T>(ctx, input, axis_, params, ranges.data(), ranges.data() + depth,
                             output);
  }

 private:
  QuantizeAndDequantizeParams params_;
  int64_t axis_ = -1;
};

template <typename T>
class QuantizeAndDequantizeV4GradOp : public OpKernel {
 public:
  explicit QuantizeAndDequantizeV4GradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("axis", &axis_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& gradient = ctx->input(0);
    const Tensor& input = ctx->input(1);
    const Tensor& min = ctx->input(2);
    const Tensor& max = ctx->input(3);
    OP_REQUIRES(ctx, axis_ >= -1,
                errors::InvalidArgument("Axis must be at least -1. Found ", axis_));
    OP_REQUIRES(ctx, axis_ == -1 || axis_ < input.dims(),
                errors::InvalidArgument("Axis should be -1 or 0 or a positive value less than ",
                                        input.dims(), "but given axis value was ", axis_));
    OP_REQUIRES(ctx, input.shape() == gradient.shape(),
                errors::InvalidArgument("gradient and input must be the same size"));
    OP_REQUIRES(ctx, min.dims() <= 1,
                errors::InvalidArgument("Input min tensor must have dimension 0 or 1. Received ",
                                        min.dims(), "."));
    OP_REQUIRES(ctx, max.dims() <= 1,
                errors::InvalidArgument("Input max tensor must have dimension 0 or 1. Received ",
                                        max.dims(), "."));
    const int64_t depth = axis_ == -1 ? 1 : input.dim_size(axis_);
    if (axis_ == -1) {
      OP_REQUIRES(ctx, min.dims() == 0,
                  errors::InvalidArgument("input_min must be a scalar if axis is unspecified"));
      OP_REQUIRES(ctx, max.dims() == 0,
                  errors::InvalidArgument("input_max must be a scalar if axis is unspecified"));
    } else {
      OP_REQUIRES(ctx, min.dims() == 1,
                  errors::InvalidArgument(
                      "Shape must be rank 1 for input_min_tensor when the axis is specified"));
      OP_REQUIRES(ctx, max.dims() == 1,
                  errors::InvalidArgument(
                      "Shape must be rank 1 for input_max_tensor when the axis is specified"));
      OP_REQUIRES(ctx, min.dim_size(0) == depth,
                  errors::InvalidArgument("min has incorrect size, expected ", depth, " was ",
                                          min.dim_size(0)));
      OP_REQUIRES(ctx, max.dim_size(0) == depth,
                  errors::InvalidArgument("max has incorrect size, expected ", depth, " was ",
                                          max.dim_size(0)));
    }
    Tensor* input_backprop = nullptr;
    Tensor* min_backprop = nullptr;
    Tensor* max_backprop = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, input.shape(), &input_backprop));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, min.shape(), &min_backprop));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(2, min.shape(), &max_backprop));
    std::fill_n(min_backprop->flat<T>().data(), min_backprop->NumElements(), T(0));
    std::fill_n(max_backprop->flat<T>().data(), max_backprop->NumElements(), T(0));
    if (input.NumElements() == 0) return;
    const ChannelLayout layout(input, axis_);
    const T* mins = min.flat<T>().data();
    const T* maxs = max.flat<T>().data();
    const T* g = gradient.flat<T>().data();
    const T* in = input.flat<T>().data();
    T* out = input_backprop->flat<T>().data();
    ParallelFor(ctx, layout.outer * layout.channels, input.NumElements(),
                Eigen::TensorOpCost(2 * sizeof(T) * layout.inner, sizeof(T) * layout.inner,
                                    3 * layout.inner),
                [&](int64_t first, int64_t last) {
                  for (int64_t r = first; r < last; ++r) {
                    const int64_t c = r % layout.channels;
                    const T lo = mins[c];
                    const T hi = maxs[c];
                    for (int64_t j = r * layout.inner; j < (r + 1) * layout.inner; ++j) {
                      // A product, not a select: TensorFlow's zeros keep the gradient's sign
                      // and turn infinities and NaN into NaN.
                      out[j] = g[j] * (in[j] >= lo && in[j] <= hi ? T(1) : T(0));
                    }
                  }
                });
  }

 private:
  int64_t axis_ = -1;
};

#define REGISTER_CPU(T)                                                              \
  REGISTER_KERNEL_BUILDER(                                                           \
      Name("QuantizeAndDequantizeV2").Device(DEVICE_CPU).TypeConstraint<T>("T"),     \
      QuantizeAndDequantizeV2Op<T>);                                                 \
  REGISTER_KERNEL_BUILDER(                                                           \
      Name("QuantizeAndDequantizeV4").Device(DEVICE_CPU).TypeConstraint<T>("T"),     \
      QuantizeAndDequantizeV2Op<T>);                                                 \
  REGISTER_KERNEL_BUILDER(                                                           \
      Name("QuantizeAndDequantizeV3").Device(DEVICE_CPU).TypeConstraint<T>("T"),     \
      QuantizeAndDequantizeV3Op<T>);                                                 \
  REGISTER_KERNEL_BUILDER(                                                           \
      Name("QuantizeAndDequantizeV4Grad").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
      QuantizeAndDequantizeV4GradOp<T>);
REGISTER_CPU(float)
REGISTER_CPU(double)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
