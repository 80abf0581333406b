// Fake quantization (quantization-aware training): float values rounded to the grid of a
// num_bits integer type over [min, max], left in float. Frozen QAT graphs keep these nodes.
#include "graph/core/errors.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"

namespace sluice {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

REGISTER_OP("FakeQuantWithMinMaxArgs")
    .Input("inputs: float")
    .Output("outputs: float")
    .Attr("min: float = -6.0")
    .Attr("max: float = 6.0")
    .Attr("num_bits: int = 8")
    .Attr("narrow_range: bool = false")
    .SetShapeFn(shape_inference::UnchangedShape);

REGISTER_OP("FakeQuantWithMinMaxVars")
    .Input("inputs: float")
    .Input("min: float")
    .Input("max: float")
    .Output("outputs: float")
    .Attr("num_bits: int = 8")
    .Attr("narrow_range: bool = false")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle unused;
      RETURN_IF_ERROR(c->WithRank(c->input(1), 0, &unused));
      RETURN_IF_ERROR(c->WithRank(c->input(2), 0, &unused));
      c->set_output(0, c->input(0));
      return absl::OkStatus();
    });

REGISTER_OP("FakeQuantWithMinMaxVarsPerChannel")
    .Input("inputs: float")
    .Input("min: float")
    .Input("max: float")
    .Output("outputs: float")
    .Attr("num_bits: int = 8")
    .Attr("narrow_range: bool = false")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle input, min, max;
      RETURN_IF_ERROR(c->WithRankAtLeast(c->input(0), 1, &input));
      RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &min));
      RETURN_IF_ERROR(c->WithRank(c->input(2), 1, &max));
      DimensionHandle unused;
      RETURN_IF_ERROR(c->Merge(c->Dim(input, -1), c->Dim(min, 0), &unused));
      RETURN_IF_ERROR(c->Merge(c->Dim(input, -1), c->Dim(max, 0), &unused));
      RETURN_IF_ERROR(c->Merge(c->Dim(min, 0), c->Dim(max, 0), &unused));
      c->set_output(0, input);
      return absl::OkStatus();
    });

}  // namespace sluice
