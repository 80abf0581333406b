// QuantizeV2: float to qint8, quint8, qint16, quint16 or qint32 over [min_range, max_range],
// one range for the tensor or one per slice along `axis`.
//
// The range is first widened to hold 0 and at least ensure_minimum_range * max(1, |min|, |max|)
// wide. MIN_COMBINED maps it linearly onto the type's whole range (signed types shifted by
// half), MIN_FIRST rounds min and the values on a scale of 2^bits - 1 steps and subtracts,
// SCALED keeps 0 at 0 with the largest scale neither end overflows (and reports the range that
// scale covers). The arithmetic is TensorFlow's, operation for operation in float, so the
// outputs are its bits, including where its casts overflow (MIN_COMBINED qint32 maps max_range
// to -2^31, as TensorFlow does).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/quantization/quantize_math.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

enum class Mode { kMinCombined, kMinFirst, kScaled };

// One slice's conversion: the reported range and the function of each element.
template <typename T>
struct SliceQuantizer {
  SliceQuantizer(Mode mode, bool narrow_range, bool half_to_even, float ensure_minimum_range,
                 float input_min, float input_max)
      : mode(mode), half_to_even(half_to_even) {
    min_range = std::min(0.0f, input_min);
    const float epsilon =
        std::max(1.0f, std::max(std::fabs(input_min), std::fabs(input_max))) * ensure_minimum_range;
    max_range = std::max(0.0f, std::max(input_max, min_range + epsilon));
    const double lowest = static_cast<double>(quantize::Lowest<T>());
    const double highest = static_cast<double>(quantize::Highest<T>());
    if (mode == Mode::kMinCombined) {
      scale = static_cast<float>((highest - lowest) / (max_range - min_range));
      half_range = std::is_signed_v<quantize::Underlying<T>>
                       ? static_cast<float>((highest - lowest + 1) / 2.0f)
                       : 0.0f;
    } else if (mode == Mode::kMinFirst) {
      constexpr double kSteps = static_cast<double>(int64_t{1} << (8 * sizeof(T)));
      scale = max_range == min_range ? 0.0f
                                     : static_cast<float>((kSteps - 1.0) / (max_range - min_range));
      const float min_scaled = std::round(min_range * scale);
      offset = min_scaled - static_cast<float>(quantize::Lowest<T>());
      lower_bound = std::max(static_cast<float>(quantize::Lowest<T>()), -2.147483648e+09f);
      upper_bound = std::min(static_cast<float>(quantize::Highest<T>()), +2.147483520e+09f);
    } else {
      const int min_output = static_cast<int>(quantize::Lowest<T>()) + (narrow_range ? 1 : 0);
      const int max_output = static_cast<int>(quantize::Highest<T>());
      const float from_min =
          min_output * min_range > 0 ? min_output / min_range : std::numeric_limits<float>::max();
      const float from_max =
          max_output * max_range > 0 ? max_output / max_range : std::numeric_limits<float>::max();
      scale = std::min(from_min, from_max);
      min_range = min_output / scale;
      max_range = max_output / scale;
    }
  }

  T operator()(float x) const {
    switch (mode) {
      case Mode::kMinCombined: {
        const float shifted = (std::max(std::min(x, max_range), min_range) - min_range) * scale;
        if constexpr (std::is_signed_v<quantize::Underlying<T>>) {
          return quantize::FromFloat<T>(std::round(shifted - half_range));
        } else {
          return quantize::FromFloat<T>(shifted + 0.5f);
        }
      }
      case Mode::kMinFirst: {
        float q = std::round(x * scale) - offset;
        q = std::min(std::max(q, lower_bound), upper_bound);
        return quantize::FromInt32<T>(quantize::TruncateToInt32(q));
      }
      case Mode::kScaled:
      default: {
        const float scaled = std::max(std::min(x, max_range), min_range) * scale;
        return quantize::FromFloat<T>(half_to_even ? quantize::RoundHalfToEven(scaled)
                                                   : std::round(scaled));
      }
    }
  }

  Mode mode;
  bool half_to_even;
  float min_range = 0, max_range = 0, scale = 0, half_range = 0;
  float offset = 0, lower_bound = 0, upper_bound = 0;  // MIN_FIRST
};

template <typename T>
class QuantizeV2Op : public OpKernel {
 public:
  explicit QuantizeV2Op(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string mode, round_mode;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("mode", &mode));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("round_mode", &round_mode));
    OP_REQUIRES(
        ctx, mode == "MIN_COMBINED" || mode == "MIN_FIRST" || mode == "SCALED",
        errors::InvalidArgument(
            "Mode string must be 'MIN_COMBINED', 'MIN_FIRST', or 'SCALED', is '", mode, "'"));
    mode_ = mode == "MIN_COMBINED" ? Mode::kMinCombined
            : mode == "MIN_FIRST"  ? Mode::kMinFirst
                                   : Mode::kScaled;
    OP_REQUIRES(ctx, round_mode == "HALF_AWAY_FROM_ZERO" || round_mode == "HALF_TO_EVEN",
                errors::InvalidArgument("Round mode string must be 'HALF_AWAY_FROM_ZERO' or "
                                        "'HALF_TO_EVEN', is '",
                                        round_mode, "'"));
    half_to_even_ = round_mode == "HALF_TO_EVEN";
    OP_REQUIRES(ctx, !half_to_even_ || mode_ == Mode::kScaled,
                errors::InvalidArgument(
                    "Round mode 'HALF_TO_EVEN' only supported for mode 'SCALED', but mode is '",
                    mode, "'."));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("narrow_range", &narrow_range_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("axis", &axis_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("ensure_minimum_range", &ensure_minimum_range_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const Tensor& min_range = ctx->input(1);
    const Tensor& max_range = ctx->input(2);
    OP_REQUIRES(ctx, axis_ < input.dims(),
                errors::InvalidArgument(
                    "Axis is on a zero-based index, so its value must always be less than "
                    "number of input's dims, but given axis value was ",
                    axis_, " and input's dims was ", input.dims()));
    // An axis below -1 (which the shape function refuses) means no axis, as in TensorFlow.
    const bool per_axis = axis_ >= 0;
    const int64_t num_slices = per_axis ? input.dim_size(axis_) : 1;
    if (!per_axis) {
      OP_REQUIRES(ctx, min_range.NumElements() == 1,
                  errors::InvalidArgument("If axis is not specified, min_range must contain a "
                                          "single float element, but it contains ",
                                          min_range.NumElements(), " elements"));
      OP_REQUIRES(ctx, max_range.NumElements() == 1,
                  errors::InvalidArgument("If axis is not specified, max_range must contain a "
                                          "single float element, but it contains ",
                                          max_range.NumElements(), " elements"));
    } else {
      OP_REQUIRES_OK(ctx, CheckRangeVector(min_range, "min_range", num_slices));
      OP_REQUIRES_OK(ctx, CheckRangeVector(max_range, "max_range", num_slices));
    }
    OP_REQUIRES(
        ctx, num_slices == 1 || mode_ != Mode::kMinFirst,
        errors::Unimplemented("MIN_FIRST mode is not implemented for Quantize with axis != -1."));
    const float* mins = min_range.flat<float>().data();
    const float* maxs = max_range.flat<float>().data();
    for (int64_t i = 0; i < num_slices; ++i) {
      OP_REQUIRES(ctx, !(maxs[i] < mins[i]),
                  errors::InvalidArgument("input_max_range must be larger than input_min_range."));
    }

    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, input.shape(), &output));
    // One slice reports scalar ranges, even when the axis has size 1.
    const TensorShape range_shape = num_slices == 1 ? TensorShape({}) : min_range.shape();
    Tensor* output_min = nullptr;
    Tensor* output_max = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, range_shape, &output_min));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(2, range_shape, &output_max));

    int64_t inner = 1;
    for (int d = per_axis ? axis_ + 1 : input.dims(); d < input.dims(); ++d) {
      inner *= input.dim_size(d);
    }
    const int64_t rows = num_slices == 0 || inner == 0 ? 0 : input.NumElements() / inner;
    const float* in = input.flat<float>().data();
    T* out = output->flat<T>().data();
    for (int64_t i = 0; i < num_slices; ++i) {
      const SliceQuantizer<T> slice(mode_, narrow_range_, half_to_even_, ensure_minimum_range_,
                                    mins[i], maxs[i]);
      output_min->flat<float>()(i) = slice.min_range;
      output_max->flat<float>()(i) = slice.max_range;
    }
    // Rows of `inner` elements; row r belongs to slice r % num_slices.
    ParallelFor(ctx, rows, input.NumElements(), Eigen::TensorOpCost(4 * inner, inner, 10 * inner),
                [&](int64_t first, int64_t last) {
                  for (int64_t r = first; r < last; ++r) {
                    const int64_t s = r % num_slices;
                    const SliceQuantizer<T> slice(mode_, narrow_range_, half_to_even_,
                                                  ensure_minimum_range_, mins[s], maxs[s]);
                    const float* row_in = in + r * inner;
                    T* row_out = out + r * inner;
                    for (int64_t j = 0; j < inner; ++j) row_out[j] = slice(row_in[j]);
                  }
                });
  }

 private:
  static absl::Status CheckRangeVector(const Tensor& range, const char* name, int64_t depth) {
    if (range.dims() != 1) {
      return errors::InvalidArgument(
          "If axis is specified, ", name,
          " must be a 1-D tensor whose size matches the axis dimension of the input and output "
          "tensors, but ",
          name, " dims are ", range.dims());
    }
    if (range.dim_size(0) != depth) {
      return errors::InvalidArgument(
          "If axis is specified, ", name,
          " must be a 1-D tensor whose size matches the axis dimension of the input and output "
          "tensors, but ",
          name, " is a 1-D tensor of size ", range.dim_size(0),
          " and input's axis dimension is of size ", depth);
    }
    return absl::OkStatus();
  }

  Mode mode_ = Mode::kMinCombined;
  bool half_to_even_ = false;
  bool narrow_range_ = false;
  int64_t axis_ = -1;
  float ensure_minimum_range_ = 0.01f;
};

#define REGISTER_CPU(T)                                                                 \
  REGISTER_KERNEL_BUILDER(Name("QuantizeV2").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          QuantizeV2Op<T>);
REGISTER_CPU(qint8)
REGISTER_CPU(quint8)
REGISTER_CPU(qint16)
REGISTER_CPU(quint16)
REGISTER_CPU(qint32)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
