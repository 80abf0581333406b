// TensorFlow 1's TensorArray ops: TensorArrayV3 makes an array resource for the step (its
// DT_RESOURCE handle and a float "flow" scalar that orders the ops that use it); Write, Read,
// Gather, Scatter, Concat, Split, Size and Close use it. TF1's dynamic_rnn, tf.map_fn and
// while loops collect their results in them. TensorArrayGradV3 and TensorArrayGradWithShape
// look up (or make) the array that collects an array's gradients, for TF1's gradients of
// those loops. The kernels are in kernels/cpu/lists/.
//
// The handle's inferred shape is [2], as TensorFlow's shape function says (a remnant of the
// string handles of earlier versions), although the kernel makes a scalar handle, as
// TensorFlow's does; nothing reads the handle's shape.
#include "graph/core/errors.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"

namespace sluice {
namespace {

using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

absl::Status CreationShape(InferenceContext* c) {
  ShapeHandle unused;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 0, &unused));
  c->set_output(0, c->Vector(2));
  c->set_output(1, c->Scalar());
  return absl::OkStatus();
}

// The gradient arrays' ops check that the forward handle could be a two-element vector, as
// TensorFlow's do.
absl::Status GradShape(InferenceContext* c) {
  ShapeHandle handle;
  shape_inference::DimensionHandle unused;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 1, &handle));
  RETURN_IF_ERROR(c->WithValue(c->Dim(handle, 0), 2, &unused));
  c->set_output(0, c->Vector(2));
  c->set_output(1, c->Scalar());
  return absl::OkStatus();
}

// Ops that pass the flow on: a scalar out.
absl::Status FlowShape(InferenceContext* c) {
  c->set_output(0, c->Scalar());
  return absl::OkStatus();
}

absl::Status GatherShape(InferenceContext* c) {
  ShapeHandle indices;
  RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &indices));
  PartialTensorShape element_shape;
  RETURN_IF_ERROR(c->GetAttr("element_shape", &element_shape));
  ShapeHandle element;
  RETURN_IF_ERROR(c->MakeShapeFromPartialTensorShape(element_shape, &element));
  ShapeHandle out;
  RETURN_IF_ERROR(c->Concatenate(c->Vector(c->Dim(indices, 0)), element, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

// As TensorFlow's: the value's shape is left unknown.
absl::Status ConcatShape(InferenceContext* c) {
  c->set_output(0, c->UnknownShape());
  c->set_output(1, c->Vector(c->UnknownDim()));
  return absl::OkStatus();
}

REGISTER_OP("TensorArrayV3")
    .Input("size: int32")
    .Output("handle: resource")
    .Output("flow: float")
    .Attr("dtype: type")
    .Attr("element_shape: shape = { unknown_rank: true }")
    .Attr("dynamic_size: bool = false")
    .Attr("clear_after_read: bool = true")
    .Attr("identical_element_shapes: bool = false")
    .Attr("tensor_array_name: string = ''")
    .SetIsStateful()
    .SetShapeFn(CreationShape);

REGISTER_OP("TensorArrayWriteV3")
    .Input("handle: resource")
    .Input("index: int32")
    .Input("value: T")
    .Input("flow_in: float")
    .Output("flow_out: float")
    .Attr("T: type")
    .SetIsStateful()
    .SetShapeFn(FlowShape);

REGISTER_OP("TensorArrayReadV3")
    .Input("handle: resource")
    .Input("index: int32")
    .Input("flow_in: float")
    .Output("value: dtype")
    .Attr("dtype: type")
    .SetIsStateful()
    .SetShapeFn(shape_inference::UnknownShape);

REGISTER_OP("TensorArrayGatherV3")
    .Input("handle: resource")
    .Input("indices: int32")
    .Input("flow_in: float")
    .Output("value: dtype")
    .Attr("dtype: type")
    .Attr("element_shape: shape = { unknown_rank: true }")
    .SetIsStateful()
    .SetShapeFn(GatherShape);

REGISTER_OP("TensorArrayScatterV3")
    .Input("handle: resource")
    .Input("indices: int32")
    .Input("value: T")
    .Input("flow_in: float")
    .Output("flow_out: float")
    .Attr("T: type")
    .SetIsStateful()
    .SetShapeFn(FlowShape);

REGISTER_OP("TensorArrayConcatV3")
    .Input("handle: resource")
    .Input("flow_in: float")
    .Output("value: dtype")
    .Output("lengths: int64")
    .Attr("dtype: type")
    .Attr("element_shape_except0: shape = { unknown_rank: true }")
    .SetIsStateful()
    .SetShapeFn(ConcatShape);

REGISTER_OP("TensorArraySplitV3")
    .Input("handle: resource")
    .Input("value: T")
    .Input("lengths: int64")
    .Input("flow_in: float")
    .Output("flow_out: float")
    .Attr("T: type")
    .SetIsStateful()
    .SetShapeFn(FlowShape);

REGISTER_OP("TensorArraySizeV3")
    .Input("handle: resource")
    .Input("flow_in: float")
    .Output("size: int32")
    .SetIsStateful()
    .SetShapeFn(shape_inference::ScalarShape);

REGISTER_OP("TensorArrayGradV3")
    .Input("handle: resource")
    .Input("flow_in: float")
    .Output("grad_handle: resource")
    .Output("flow_out: float")
    .Attr("source: string")
    .SetIsStateful()
    .SetShapeFn(GradShape);

REGISTER_OP("TensorArrayGradWithShape")
    .Input("handle: resource")
    .Input("flow_in: float")
    .Input("shape_to_prepend: int32")
    .Output("grad_handle: resource")
    .Output("flow_out: float")
    .Attr("source: string")
    .SetIsStateful()
    .SetShapeFn(GradShape);

REGISTER_OP("TensorArrayCloseV3")
    .Input("handle: resource")
    .SetIsStateful()
    .SetShapeFn(shape_inference::NoOutputs);

}  // namespace
}  // namespace sluice
