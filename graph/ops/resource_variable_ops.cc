// Resource (TF2) variables: VarHandleOp makes a DT_RESOURCE handle to a variable in the
// session's resources; the other ops read, write and destroy the variable through it.
// The handle carries the variable's dtype and shape as handle data for shape inference.
// ResourceGather(Nd) read rows of a variable (embedding lookups); the ResourceScatter ops
// update rows in place (TF2 optimizers' sparse updates).
#include <cstdint>
#include <vector>

#include "graph/core/errors.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/types.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"

namespace sluice {
namespace {

using shape_inference::DimensionHandle;
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

// params[:batch_dims] + indices[batch_dims:] + params[batch_dims+1:], params being the
// variable.
absl::Status ResourceGatherShape(InferenceContext* c) {
  ShapeAndType variable;
  RETURN_IF_ERROR(VariableFromHandle(c, &variable));
  const ShapeHandle indices = c->input(1);
  int32_t batch_dims;
  RETURN_IF_ERROR(c->GetAttr("batch_dims", &batch_dims));
  if (batch_dims < 0) return errors::InvalidArgument("batch_dims is negative (", batch_dims, ")");
  ShapeHandle unused;
  RETURN_IF_ERROR(c->WithRankAtLeast(variable.shape, int64_t{batch_dims} + 1, &unused));
  RETURN_IF_ERROR(c->WithRankAtLeast(indices, batch_dims, &unused));
  ShapeHandle params_outer, params_inner, indices_inner, out;
  RETURN_IF_ERROR(c->Subshape(variable.shape, 0, batch_dims, &params_outer));
  RETURN_IF_ERROR(c->Subshape(variable.shape, int64_t{batch_dims} + 1, &params_inner));
  RETURN_IF_ERROR(c->Subshape(indices, batch_dims, &indices_inner));
  RETURN_IF_ERROR(c->Concatenate(params_outer, indices_inner, &out));
  RETURN_IF_ERROR(c->Concatenate(out, params_inner, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

// GatherNd's shape with the variable as params: indices[:-1] + params[indices.shape[-1]:].
// As in TensorFlow, an input without handle data stands for itself (a scalar).
absl::Status ResourceGatherNdShape(InferenceContext* c) {
  ShapeHandle params = c->input(0);
  if (c->input_handle_shapes_and_types(0) != nullptr) {
    ShapeAndType variable;
    RETURN_IF_ERROR(VariableFromHandle(c, &variable));
    params = variable.shape;
  }
  ShapeHandle indices;
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(1), 1, &indices));
  const DimensionHandle depth = c->Dim(indices, -1);
  if (!c->RankKnown(params) || !c->ValueKnown(depth)) {
    c->set_output(0, c->UnknownShape());
    return absl::OkStatus();
  }
  if (c->Value(depth) > c->Rank(params)) {
    return errors::InvalidArgument(
        "indices.shape[-1] must be <= params.rank, but saw indices shape: ",
        c->DebugString(indices), " and params shape: ", c->DebugString(params));
  }
  ShapeHandle indices_outer, params_inner, out;
  RETURN_IF_ERROR(c->Subshape(indices, 0, -1, &indices_outer));
  RETURN_IF_ERROR(c->Subshape(params, c->Value(depth), &params_inner));
  RETURN_IF_ERROR(c->Concatenate(indices_outer, params_inner, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

// ResourceScatterXxx(resource, indices, updates): updates is indices.shape +
// variable.shape[1:], or a scalar.
absl::Status ResourceScatterUpdateShape(InferenceContext* c) {
  ShapeAndType variable;
  RETURN_IF_ERROR(VariableFromHandle(c, &variable));
  ShapeHandle var_inner, rows, unused;
  RETURN_IF_ERROR(c->Subshape(variable.shape, 1, &var_inner));
  RETURN_IF_ERROR(c->Concatenate(c->input(1), var_inner, &rows));
  if (InferenceContext::Rank(c->input(2)) != 0) {
    RETURN_IF_ERROR(c->Merge(c->input(2), rows, &unused));
  }
  return absl::OkStatus();
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

REGISTER_OP("ResourceGather")
    .Input("resource: resource")
    .Input("indices: Tindices")
    .Output("output: dtype")
    .Attr("batch_dims: int = 0")
    .Attr("validate_indices: bool = true")
    .Attr("dtype: type")
    .Attr("Tindices: {int32, int64}")
    .SetIsStateful()
    .SetShapeFn(ResourceGatherShape);

REGISTER_OP("ResourceGatherNd")
    .Input("resource: resource")
    .Input("indices: Tindices")
    .Output("output: dtype")
    .Attr("dtype: type")
    .Attr("Tindices: {int32, int64}")
    .SetIsStateful()
    .SetShapeFn(ResourceGatherNdShape);

REGISTER_OP("ResourceScatterAdd")
    .Input("resource: resource")
    .Input("indices: Tindices")
    .Input("updates: dtype")
    .Attr("dtype: numbertype")
    .Attr("Tindices: {int32, int64}")
    .SetIsStateful()
    .SetShapeFn(ResourceScatterUpdateShape);

REGISTER_OP("ResourceScatterSub")
    .Input("resource: resource")
    .Input("indices: Tindices")
    .Input("updates: dtype")
    .Attr("dtype: numbertype")
    .Attr("Tindices: {int32, int64}")
    .SetIsStateful()
    .SetShapeFn(ResourceScatterUpdateShape);

REGISTER_OP("ResourceScatterMul")
    .Input("resource: resource")
    .Input("indices: Tindices")
    .Input("updates: dtype")
    .Attr("dtype: numbertype")
    .Attr("Tindices: {int32, int64}")
    .SetIsStateful()
    .SetShapeFn(ResourceScatterUpdateShape);

REGISTER_OP("ResourceScatterDiv")
    .Input("resource: resource")
    .Input("indices: Tindices")
    .Input("updates: dtype")
    .Attr("dtype: numbertype")
    .Attr("Tindices: {int32, int64}")
    .SetIsStateful()
    .SetShapeFn(ResourceScatterUpdateShape);

REGISTER_OP("ResourceScatterMin")
    .Input("resource: resource")
    .Input("indices: Tindices")
    .Input("updates: dtype")
    .Attr("dtype: numbertype")
    .Attr("Tindices: {int32, int64}")
    .SetIsStateful()
    .SetShapeFn(ResourceScatterUpdateShape);

REGISTER_OP("ResourceScatterMax")
    .Input("resource: resource")
    .Input("indices: Tindices")
    .Input("updates: dtype")
    .Attr("dtype: numbertype")
    .Attr("Tindices: {int32, int64}")
    .SetIsStateful()
    .SetShapeFn(ResourceScatterUpdateShape);

REGISTER_OP("ResourceScatterUpdate")
    .Input("resource: resource")
    .Input("indices: Tindices")
    .Input("updates: dtype")
    .Attr("dtype: type")
    .Attr("Tindices: {int32, int64}")
    .SetIsStateful()
    .SetShapeFn(ResourceScatterUpdateShape);

}  // namespace sluice
