// Ops that take a rectangular part of a tensor: Slice (begin and size) and StridedSlice
// (begin, end, strides and masks; see strided_slice_spec.h).
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/tensor.h"
#include "graph/op/op_registry.h"
#include "graph/ops/strided_slice_spec.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"

namespace sluice {
namespace {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

// The output shape needs the input's rank, the spec's length and the strides' values;
// begin and end values make more dims known.
absl::Status StridedSliceShape(InferenceContext* c) {
  ShapeHandle input = c->input(0);
  ShapeHandle begin_shape, end_shape, strides_shape;
  RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &begin_shape));
  RETURN_IF_ERROR(c->WithRank(c->input(2), 1, &end_shape));
  RETURN_IF_ERROR(c->WithRank(c->input(3), 1, &strides_shape));
  RETURN_IF_ERROR(c->Merge(begin_shape, end_shape, &begin_shape));
  RETURN_IF_ERROR(c->Merge(begin_shape, strides_shape, &begin_shape));
  DimensionHandle spec_length = c->Dim(begin_shape, 0);
  const Tensor* strides = c->input_tensor(3);
  if (!c->RankKnown(input) || !c->ValueKnown(spec_length) || strides == nullptr) {
    c->set_output(0, c->UnknownShape());
    return absl::OkStatus();
  }
  StridedSliceMasks masks;
  RETURN_IF_ERROR(ReadStridedSliceMasks(c, &masks));
  PartialTensorShape input_shape;
  RETURN_IF_ERROR(c->AsPartialTensorShape(input, &input_shape));
  StridedSliceSpec spec;
  RETURN_IF_ERROR(ComputeStridedSliceSpec(c->input_tensor(1), c->input_tensor(2), *strides,
                                          input_shape, masks, &spec));
  ShapeHandle out;
  RETURN_IF_ERROR(c->MakeShapeFromPartialTensorShape(spec.final_shape, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("Slice")
    .Input("input: T")
    .Input("begin: Index")
    .Input("size: Index")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Index: {int32, int64}")
    .SetShapeFn(shape_inference::SliceShape);

REGISTER_OP("StridedSlice")
    .Input("input: T")
    .Input("begin: Index")
    .Input("end: Index")
    .Input("strides: Index")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Index: {int16, int32, int64}")
    .Attr("begin_mask: int = 0")
    .Attr("end_mask: int = 0")
    .Attr("ellipsis_mask: int = 0")
    .Attr("new_axis_mask: int = 0")
    .Attr("shrink_axis_mask: int = 0")
    .SetShapeFn(StridedSliceShape);

// The gradient of StridedSlice: dy placed where StridedSlice(zeros(shape), ...) read it from,
// zeros elsewhere.
REGISTER_OP("StridedSliceGrad")
    .Input("shape: Index")
    .Input("begin: Index")
    .Input("end: Index")
    .Input("strides: Index")
    .Input("dy: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Index: {int32, int64}")
    .Attr("begin_mask: int = 0")
    .Attr("end_mask: int = 0")
    .Attr("ellipsis_mask: int = 0")
    .Attr("new_axis_mask: int = 0")
    .Attr("shrink_axis_mask: int = 0")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle out;
      RETURN_IF_ERROR(c->MakeShapeFromShapeTensor(0, &out));
      c->set_output(0, out);
      return absl::OkStatus();
    });

}  // namespace sluice
