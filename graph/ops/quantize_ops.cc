// Quantization to integer types and back: QuantizeV2 and Dequantize (float <-> qint8, quint8,
// qint16, quint16, qint32 over a [min, max] range, per tensor or per channel along `axis`), and
// the QuantizeAndDequantize V2/V3/V4 ops that round a float tensor to a num_bits grid in place
// (with V4's gradient). Graphs from post-training quantization tools and Keras int8 layers
// carry them.
#include <cstdint>
#include <limits>

#include "graph/core/errors.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"

namespace sluice {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

namespace {

constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();

absl::Status CheckAxisAtLeastMinusOne(int64_t axis) {
  if (axis < -1) return errors::InvalidArgument("axis should be at least -1, got ", axis);
  return absl::OkStatus();
}

// The QuantizeAndDequantize ops refuse an axis of int32's maximum before computing axis + 1
// (TFSA-2022-168, TFSA-2023-002).
absl::Status CheckQuantizeAndDequantizeAxis(int64_t axis) {
  RETURN_IF_ERROR(CheckAxisAtLeastMinusOne(axis));
  if (axis >= kInt32Max) {
    return errors::InvalidArgument("Axis cannot be >= kint32max value, got ", axis);
  }
  return absl::OkStatus();
}

// The range inputs are scalars when axis is -1 and vectors of the axis dimension otherwise.
// QuantizeV2 and Dequantize check the two ranges separately (the max's shape is the one
// reported); the QuantizeAndDequantize ops merge them.
absl::Status RangeShape(InferenceContext* c, int64_t axis, int min_index, bool merge_ranges,
                        ShapeHandle* minmax) {
  const int64_t minmax_rank = axis == -1 ? 0 : 1;
  RETURN_IF_ERROR(c->WithRank(c->input(min_index), minmax_rank, minmax));
  if (merge_ranges) {
    RETURN_IF_ERROR(c->Merge(c->input(min_index + 1), *minmax, minmax));
  } else {
    RETURN_IF_ERROR(c->WithRank(c->input(min_index + 1), minmax_rank, minmax));
  }
  if (axis != -1) {
    ShapeHandle input;
    RETURN_IF_ERROR(c->WithRankAtLeast(c->input(0), axis + 1, &input));
    DimensionHandle depth;
    RETURN_IF_ERROR(c->Merge(c->Dim(*minmax, 0), c->Dim(input, axis), &depth));
  }
  return absl::OkStatus();
}

// The QuantizeAndDequantize ops check the ranges' ranks (scalars for axis -1, vectors for any
// other) before the axis itself, as TensorFlow's do: a scalar range with axis -2 is refused for
// its rank (TFSA-2021-099).
absl::Status QuantizeAndDequantizeRanges(InferenceContext* c, int64_t axis, int min_index,
                                         ShapeHandle* minmax) {
  RETURN_IF_ERROR(c->WithRank(c->input(min_index), axis == -1 ? 0 : 1, minmax));
  RETURN_IF_ERROR(c->Merge(c->input(min_index + 1), *minmax, minmax));
  RETURN_IF_ERROR(CheckQuantizeAndDequantizeAxis(axis));
  return RangeShape(c, axis, min_index, /*merge_ranges=*/true, minmax);
}

absl::Status QuantizeOrDequantizeShape(InferenceContext* c, bool ranges_out) {
  int64_t axis = -1;
  RETURN_IF_ERROR(c->GetAttr("axis", &axis));
  RETURN_IF_ERROR(CheckAxisAtLeastMinusOne(axis));
  if (!ranges_out && axis != -1) {
    // Dequantize compares the axis with the input's rank before the ranges, even when the rank
    // is unknown (-1), so that TensorFlow 2.21 refuses an axis on an input of unknown rank.
    // TensorFlow computes axis + 1 in int32, so for an axis of int32's maximum the rank check
    // passes and the comparison below names the axis (TFSA-2022-003/-004).
    ShapeHandle input;
    if (axis < kInt32Max) RETURN_IF_ERROR(c->WithRankAtLeast(c->input(0), axis + 1, &input));
    const int32_t rank = InferenceContext::Rank(c->input(0));
    if (axis >= rank) {
      return errors::InvalidArgument("Axis must be less than input dimension(", rank, "), got ",
                                     axis);
    }
  }
  RETURN_IF_ERROR(shape_inference::UnchangedShape(c));
  ShapeHandle minmax;
  RETURN_IF_ERROR(RangeShape(c, axis, 1, /*merge_ranges=*/false, &minmax));
  if (ranges_out) {
    c->set_output(1, minmax);
    c->set_output(2, minmax);
  }
  return absl::OkStatus();
}

absl::Status QuantizeAndDequantizeShape(InferenceContext* c) {
  int64_t axis = -1;
  RETURN_IF_ERROR(c->GetAttr("axis", &axis));
  ShapeHandle minmax;
  RETURN_IF_ERROR(QuantizeAndDequantizeRanges(c, axis, 1, &minmax));
  if (c->num_inputs() == 4) {  // V3's num_bits
    ShapeHandle unused;
    RETURN_IF_ERROR(c->WithRank(c->input(3), 0, &unused));
  }
  c->set_output(0, c->input(0));
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("QuantizeV2")
    .Input("input: float")
    .Input("min_range: float")
    .Input("max_range: float")
    .Output("output: T")
    .Output("output_min: float")
    .Output("output_max: float")
    .Attr("T: quantizedtype")
    .Attr("mode: {'MIN_COMBINED', 'MIN_FIRST', 'SCALED'} = 'MIN_COMBINED'")
    .Attr("round_mode: {'HALF_AWAY_FROM_ZERO', 'HALF_TO_EVEN'} = 'HALF_AWAY_FROM_ZERO'")
    .Attr("narrow_range: bool = false")
    .Attr("axis: int = -1")
    .Attr("ensure_minimum_range: float = 0.01")
    .SetShapeFn([](InferenceContext* c) { return QuantizeOrDequantizeShape(c, true); });

REGISTER_OP("Dequantize")
    .Input("input: T")
    .Input("min_range: float")
    .Input("max_range: float")
    .Output("output: dtype")
    .Attr("T: quantizedtype")
    .Attr("mode: {'MIN_COMBINED', 'MIN_FIRST', 'SCALED'} = 'MIN_COMBINED'")
    .Attr("narrow_range: bool = false")
    .Attr("axis: int = -1")
    .Attr("dtype: {bfloat16, float} = DT_FLOAT")
    .SetShapeFn([](InferenceContext* c) { return QuantizeOrDequantizeShape(c, false); });

REGISTER_OP("QuantizeAndDequantizeV2")
    .Input("input: T")
    .Input("input_min: T")
    .Input("input_max: T")
    .Attr("signed_input: bool = true")
    .Attr("num_bits: int = 8")
    .Attr("range_given: bool = false")
    .Output("output: T")
    .Attr("T: {bfloat16, half, float, double}")
    .Attr("round_mode: {'HALF_TO_EVEN', 'HALF_UP'} = 'HALF_TO_EVEN'")
    .Attr("narrow_range: bool = false")
    .Attr("axis: int = -1")
    .SetShapeFn(QuantizeAndDequantizeShape);

REGISTER_OP("QuantizeAndDequantizeV3")
    .Input("input: T")
    .Input("input_min: T")
    .Input("input_max: T")
    .Input("num_bits: int32")
    .Attr("signed_input: bool = true")
    .Attr("range_given: bool = true")
    .Output("output: T")
    .Attr("T: {bfloat16, half, float, double}")
    .Attr("narrow_range: bool = false")
    .Attr("axis: int = -1")
    .SetShapeFn(QuantizeAndDequantizeShape);

REGISTER_OP("QuantizeAndDequantizeV4")
    .Input("input: T")
    .Input("input_min: T")
    .Input("input_max: T")
    .Attr("signed_input: bool = true")
    .Attr("num_bits: int = 8")
    .Attr("range_given: bool = false")
    .Output("output: T")
    .Attr("T: {bfloat16, half, float, double}")
    .Attr("round_mode: {'HALF_TO_EVEN', 'HALF_UP'} = 'HALF_TO_EVEN'")
    .Attr("narrow_range: bool = false")
    .Attr("axis: int = -1")
    .SetShapeFn(QuantizeAndDequantizeShape);

REGISTER_OP("QuantizeAndDequantizeV4Grad")
    .Input("gradients: T")
    .Input("input: T")
    .Input("input_min: T")
    .Input("input_max: T")
    .Output("input_backprop: T")
    .Output("input_min_backprop: T")
    .Output("input_max_backprop: T")
    .Attr("T: {bfloat16, half, float, double}")
    .Attr("axis: int = -1")
    .SetShapeFn([](InferenceContext* c) {
      int64_t axis = -1;
      RETURN_IF_ERROR(c->GetAttr("axis", &axis));
      ShapeHandle minmax;
      RETURN_IF_ERROR(QuantizeAndDequantizeRanges(c, axis, 2, &minmax));
      ShapeHandle inputs;
      RETURN_IF_ERROR(c->Merge(c->input(0), c->input(1), &inputs));
      c->set_output(0, inputs);
      c->set_output(1, minmax);
      c->set_output(2, minmax);
      return absl::OkStatus();
    });

}  // namespace sluice
