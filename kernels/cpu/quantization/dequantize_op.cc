// Dequantize: qint8, quint8, qint16, quint16 or qint32 back to float or bfloat16 over
// [min_range, max_range], one range for the tensor or one per slice along `axis`; the inverse
// of QuantizeV2's three modes. The arithmetic is TensorFlow's, operation for operation in
// float, so the outputs are its bits; bfloat16 outputs are the float results rounded.
#include <algorithm>
#include <cmath>
#include <cstdint>
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

// One slice's conversion of each element to float.
template <typename T>
struct SliceDequantizer {
  SliceDequantizer(Mode mode, bool narrow_range, float min_range, float max_range, bool one_slice)
      : mode(mode), one_slice(one_slice) {
    const float lowest = static_cast<float>(quantize::Lowest<T>());
    const float highest = static_cast<float>(quantize::Highest<T>());
    if (mode == Mode::kMinCombined) {
      const float half_range =
          std::is_signed_v<quantize::Underlying<T>> ? (highest - lowest + 1) / 2.0f : 0.0f;
      scale = (max_range - min_range) / (highest - lowest);
      // ((q + half_range) * scale) + min_range
      pre_offset = half_range;
      offset = min_range;
    } else if (mode == Mode::kMinFirst) {
      constexpr double kSteps = static_cast<double>(int64_t{1} << (8 * sizeof(T)));
      scale = static_cast<float>((max_range - min_range) / (kSteps - 1.0));
      const float min_rounded =
          max_range == min_range ? min_range : std::round(min_range / scale) * scale;
      // (min_rounded - lowest * scale) + q * scale
      offset = min_rounded - lowest * scale;
    } else {
      const int min_output = static_cast<int>(quantize::Lowest<T>()) + (narrow_range ? 1 : 0);
      const int max_output = static_cast<int>(quantize::Highest<T>());
      scale = quantize::Lowest<T>() == 0 ? max_range / max_output
                                         : std::max(min_range / min_output, max_range / max_output);
    }
  }

  float operator()(T q) const {
    const float value = static_cast<float>(static_cast<quantize::Underlying<T>>(q));
    switch (mode) {
      case Mode::kMinCombined:
        return (value + pre_offset) * scale + offset;
      case Mode::kMinFirst:
        return offset + value * scale;
      case Mode::kScaled:
      default:
        // With one range, TensorFlow casts qint32 to int through float: values that round to
        // 2^31 wrap to -2^31 (int casts of the narrower types are exact).
        if (std::is_same_v<T, qint32> && one_slice) {
          return static_cast<float>(quantize::TruncateToInt32(value)) * scale;
        }
        return value * scale;
    }
  }

  Mode mode;
  bool one_slice;
  float scale = 0, pre_offset = 0, offset = 0;
};

template <typename T, typename Out>
class DequantizeOp : public OpKernel {
 public:
  explicit DequantizeOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string mode;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("mode", &mode));
    OP_REQUIRES(
        ctx, mode == "MIN_COMBINED" || mode == "MIN_FIRST" || mode == "SCALED",
        errors::InvalidArgument(
            "Mode string must be 'MIN_COMBINED', 'MIN_FIRST', or 'SCALED', is '", mode, "'"));
    OP_REQUIRES(
        ctx, (std::is_same_v<Out, float> || mode == "MIN_COMBINED"),
        errors::InvalidArgument(
            "When output type is bfloat16, Mode string must be 'MIN_COMBINED', is '", mode, "'"));
    mode_ = mode == "MIN_COMBINED" ? Mode::kMinCombined
            : mode == "MIN_FIRST"  ? Mode::kMinFirst
                                   : Mode::kScaled;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("narrow_range", &narrow_range_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("axis", &axis_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const Tensor& min_range = ctx->input(1);
    const Tensor& max_range = ctx->input(2);
    OP_REQUIRES(ctx, axis_ < input.dims(),
                errors::InvalidArgument("Axis must be less than input dimension(", input.dims(),
                                        "), got ", axis_));
    // An axis below -1 (which the shape function refuses) means no axis, as in TensorFlow.
    const bool per_axis = axis_ >= 0;
    const int64_t num_slices = per_axis ? input.dim_size(axis_) : 1;
    OP_REQUIRES(ctx, min_range.NumElements() == num_slices,
                errors::InvalidArgument("input_min_tensor must have as many elements as input on "
                                        "the dequantization axis (",
                                        axis_, "), got ", min_range.NumElements(), ", expected ",
                                        num_slices));
    OP_REQUIRES(ctx, max_range.NumElements() == num_slices,
                errors::InvalidArgument("input_max_tensor must have as many elements as input on "
                                        "the dequantization axis (",
                                        axis_, "), got ", max_range.NumElements(), ", expected ",
                                        num_slices));
    OP_REQUIRES(
        ctx, num_slices == 1 || mode_ != Mode::kMinFirst,
        errors::Unimplemented("MIN_FIRST mode is not implemented for Dequantize with axis != -1."));
    // TensorFlow reads several slices' ranges as vectors, and crashes on other ranks.
    OP_REQUIRES(ctx, num_slices == 1 || (min_range.dims() == 1 && max_range.dims() == 1),
                errors::InvalidArgument("input_min_tensor and input_max_tensor must be vectors "
                                        "when axis is specified, got shapes ",
                                        min_range.shape().DebugString(), " and ",
                                        max_range.shape().DebugString()));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, input.shape(), &output));

    int64_t inner = 1;
    for (int d = per_axis ? axis_ + 1 : input.dims(); d < input.dims(); ++d) {
      inner *= input.dim_size(d);
    }
    const int64_t rows = num_slices == 0 || inner == 0 ? 0 : input.NumElements() / inner;
    const float* mins = min_range.flat<float>().data();
    const float* maxs = max_range.flat<float>().data();
    const T* in = input.flat<T>().data();
    Out* out = output->flat<Out>().data();
    // Rows of `inner` elements; row r belongs to slice r % num_slices.
    ParallelFor(ctx, rows, input.NumElements(), Eigen::TensorOpCost(inner, 4 * inner, 4 * inner),
                [&](int64_t first, int64_t last) {
                  for (int64_t r = first; r < last; ++r) {
                    const int64_t s = r % num_slices;
                    const SliceDequantizer<T> slice(mode_, narrow_range_, mins[s], maxs[s],
                                                    num_slices == 1);
                    const T* row_in = in + r * inner;
                    Out* row_out = out + r * inner;
                    for (int64_t j = 0; j < inner; ++j) {
                      row_out[j] = static_cast<Out>(slice(row_in[j]));
                    }
                  }
                });
  }

 private:
  Mode mode_ = Mode::kMinCombined;
  bool narrow_range_ = false;
  int64_t axis_ = -1;
};

#define REGISTER_CPU(T)                                                                            \
  REGISTER_KERNEL_BUILDER(                                                                         \
      Name("Dequantize").Device(DEVICE_CPU).TypeConstraint<T>("T").TypeConstraint<float>("dtype"), \
      DequantizeOp<T, float>);                                                                     \
  REGISTER_KERNEL_BUILDER(Name("Dequantize")                                                       \
                              .Device(DEVICE_CPU)                                                  \
                              .TypeConstraint<T>("T")                                              \
                              .TypeConstraint<bfloat16>("dtype"),                                  \
                          DequantizeOp<T, bfloat16>);
REGISTER_CPU(qint8)
REGISTER_CPU(quint8)
REGISTER_CPU(qint16)
REGISTER_CPU(quint16)
REGISTER_CPU(qint32)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
