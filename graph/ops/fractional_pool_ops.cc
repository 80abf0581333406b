// Fractional pooling (Graham, "Fractional Max-Pooling", arXiv:1412.6071): FractionalMaxPool and
// FractionalAvgPool pool NHWC rows and columns by a non-integer ratio over windows drawn from a
// seeded Philox stream, and return the windows' boundaries with the output so that their
// gradients, FractionalMaxPoolGrad and FractionalAvgPoolGrad, can walk the same windows.
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "graph/core/errors.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"

namespace sluice {
namespace {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

// Each known dim divided by its ratio (in float, as the kernel computes it) and floored, dim
// by dim: a known dim's size is checked before its ratio, so a negative ratio there fails as a
// negative size (a NaN or out-of-range quotient as the lowest int64, which x86 makes of it). The
// sequence outputs are given TensorFlow's lengths, the output rows and columns, although the kernel
// returns one boundary more than that.
absl::Status FractionalPoolShape(InferenceContext* c) {
  ShapeHandle input;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 4, &input));
  std::vector<float> ratio;
  RETURN_IF_ERROR(c->GetAttr("pooling_ratio", &ratio));
  if (ratio.size() != 4) {
    return errors::InvalidArgument("pooling_ratio field must specify 4 dimensions");
  }
  std::vector<DimensionHandle> dims;
  for (int i = 0; i < 4; ++i) {
    const DimensionHandle d = c->Dim(input, i);
    if (c->ValueKnown(d)) {
      const float quotient = std::floor(c->Value(d) / ratio[i]);
      constexpr float kTwoTo63 = 9223372036854775808.0f;
      const int64_t size = quotient >= -kTwoTo63 && quotient < kTwoTo63
                               ? static_cast<int64_t>(quotient)
                               : std::numeric_limits<int64_t>::min();
      if (size < 0) {
        return errors::InvalidArgument("Size computed for dim ", i, " is negative: ", size);
      }
      dims.push_back(c->MakeDim(size));
    } else {
      dims.push_back(c->UnknownDim());
    }
    if (ratio[i] < 1) {
      return errors::InvalidArgument("pooling_ratio cannot be smaller than 1, got: ", ratio[i]);
    }
  }
  c->set_output(0, c->MakeShape(dims));
  c->set_output(1, c->Vector(dims[1]));
  c->set_output(2, c->Vector(dims[2]));
  return absl::OkStatus();
}

// The input's shape from orig_input_tensor_shape when it is known, else any 4-D shape.
absl::Status FractionalAvgPoolGradShape(InferenceContext* c) {
  if (c->input_tensor(0) == nullptr) {
    c->set_output(0, c->UnknownShapeOfRank(4));
    return absl::OkStatus();
  }
  ShapeHandle out;
  RETURN_IF_ERROR(c->MakeShapeFromShapeTensor(0, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("FractionalMaxPool")
    .Input("value: T")
    .Output("output: T")
    .Output("row_pooling_sequence: int64")
    .Output("col_pooling_sequence: int64")
    .Attr("pooling_ratio: list(float) >=4")
    .Attr("pseudo_random: bool = false")
    .Attr("overlapping: bool = false")
    .Attr("deterministic: bool = false")
    .Attr("seed: int = 0")
    .Attr("seed2: int = 0")
    .Attr("T: {float, double, int32, int64}")
    .SetShapeFn(FractionalPoolShape);

REGISTER_OP("FractionalMaxPoolGrad")
    .Input("orig_input: T")
    .Input("orig_output: T")
    .Input("out_backprop: T")
    .Input("row_pooling_sequence: int64")
    .Input("col_pooling_sequence: int64")
    .Output("output: T")
    .Attr("overlapping: bool = false")
    .Attr("T: {float, double, int32, int64}")
    .SetShapeFn([](InferenceContext* c) { return shape_inference::UnchangedShapeWithRank(c, 4); });

REGISTER_OP("FractionalAvgPool")
    .Input("value: T")
    .Output("output: T")
    .Output("row_pooling_sequence: int64")
    .Output("col_pooling_sequence: int64")
    .Attr("pooling_ratio: list(float) >=4")
    .Attr("pseudo_random: bool = false")
    .Attr("overlapping: bool = false")
    .Attr("deterministic: bool = false")
    .Attr("seed: int = 0")
    .Attr("seed2: int = 0")
    .Attr("T: {float, double, int32, int64}")
    .SetShapeFn(FractionalPoolShape);

REGISTER_OP("FractionalAvgPoolGrad")
    .Input("orig_input_tensor_shape: int64")
    .Input("out_backprop: T")
    .Input("row_pooling_sequence: int64")
    .Input("col_pooling_sequence: int64")
    .Output("output: T")
    .Attr("overlapping: bool = false")
    .Attr("T: {float, double, int32, int64}")
    .SetShapeFn(FractionalAvgPoolGradShape);

}  // namespace sluice
