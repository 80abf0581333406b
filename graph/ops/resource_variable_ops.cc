// Resource (TF2) variables: VarHandleOp makes a DT_RESOURCE handle to a variable in the
// session's resources; the other ops read, write and destroy the variable through it.
// The handle carries the variable's dtype and shape as handle data for shape inference.
#include <vector>

#include "graph/core/errors.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/types.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"

namespace sluice {
namespace {

using shape_inference::InferenceContext;
using shape_inference::ShapeAndType;
using shape_inference::ShapeHandle;

absl::Status VarHandleShape(InferenceContext* c) {
  c->set_output(0, c->Scalar());
  DataType dtype;
  RETURN_IF_ERROR(c->GetAttr("dtype", &dtype));
  PartialTensorShape shape;
  RETURN_IF_ERROR(c->GetAttr("shape", &shape));
  ShapeHandle handle_shape;
  RETURN_IF_ERROR(c->MakeShapeFromPartialTensorShape(shape, &handle_shape));
  c->set_output_handle_shapes_and_types(0, {ShapeAndType(handle_shape, dtype)});
  return absl::OkStatus();
}

// The variable's shape and dtype from input 0's handle data (unknown without any); the
// `dtype` attr must agree with the handle's.
absl::Status VariableFromHandle(InferenceContext* c, ShapeAndType* variable) {
  const std::vector<ShapeAndType>* handle_data = c->input_handle_shapes_and_types(0);
  if (handle_data == nullptr || handle_data->empty()) {
    *variable = ShapeAndType(c->UnknownShape(), DT_INVALID);
    return absl::OkStatus();
  }
  *variable = (*handle_data)[0];
  DataType dtype;
  RETURN_IF_ERROR(c->GetAttr("dtype", &dtype));
  if (variable->dtype != dtype) {
    return errors::InvalidArgument("Trying to read variable with wrong dtype. Expected ",
                                   DataTypeString(variable->dtype), " got ", DataTypeString(dtype));
  }
  return absl::OkStatus();
}

// A "_shape" attr (set by function tracing) overrides what the handle says.
absl::Status ReadVariableShape(InferenceContext* c) {
  PartialTensorShape annotated;
  if (c->GetAttr("_shape", &annotated).ok()) {
    ShapeHandle out;
    RETURN_IF_ERROR(c->MakeShapeFromPartialTensorShape(annotated, &out));
    c->set_output(0, out);
    return absl::OkStatus();
  }
  ShapeAndType variable;
  RETURN_IF_ERROR(VariableFromHandle(c, &variable));
  c->set_output(0, variable.shape);
  return absl::OkStatus();
}

// The value must fit the variable's shape.
absl::Status AssignVariableShape(InferenceContext* c) {
  ShapeAndType variable;
  RETURN_IF_ERROR(VariableFromHandle(c, &variable));
  ShapeHandle unused;
  return c->Merge(variable.shape, c->input(1), &unused);
}

}  // namespace

REGISTER_OP("VarHandleOp")
    .Output("resource: resource")
    .Attr("container: string = ''")
    .Attr("shared_name: string = ''")
    .Attr("debug_name: string = ''")
    .Attr("dtype: type")
    .Attr("shape: shape")
    .Attr("allowed_devices: list(string) = []")
    .SetIsStateful()
    .SetShapeFn(VarHandleShape);

REGISTER_OP("ReadVariableOp")
    .Input("resource: resource")
    .Output("value: dtype")
    .Attr("dtype: type")
    .SetIsStateful()
    .SetShapeFn(ReadVariableShape);

REGISTER_OP("AssignVariableOp")
    .Input("resource: resource")
    .Input("value: dtype")
    .Attr("dtype: type")
    .Attr("validate_shape: bool = false")
    .SetIsStateful()
    .SetShapeFn(AssignVariableShape);

// TensorFlow 2's save functions run it before reading a variable: it turns off the copy on
// read that TensorFlow's sparse updates use (Sluice's variables have none).
REGISTER_OP("DisableCopyOnRead")
    .Input("resource: resource")
    .SetIsStateful()
    .SetShapeFn(shape_inference::NoOutputs);

REGISTER_OP("AssignAddVariableOp")
    .Input("resource: resource")
    .Input("value: dtype")
    .Attr("dtype: type")
    .SetIsStateful()
    .SetShapeFn(AssignVariableShape);

REGISTER_OP("AssignSubVariableOp")
    .Input("resource: resource")
    .Input("value: dtype")
    .Attr("dtype: type")
    .SetIsStateful()
    .SetShapeFn(AssignVariableShape);

REGISTER_OP("VarIsInitializedOp")
    .Input("resource: resource")
    .Output("is_initialized: bool")
    .SetIsStateful()
    .SetShapeFn(shape_inference::ScalarShape);

REGISTER_OP("DestroyResourceOp")
    .Input("resource: resource")
    .Attr("ignore_lookup_error: bool = true")
    .SetIsStateful()
    .SetShapeFn(shape_inference::NoOutputs);

}  // namespace sluice
