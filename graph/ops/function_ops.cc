// Ops that connect a function body to its caller: _Arg/_Retval (and their _Device forms,
// which keep the value in device memory) mark a body's inputs and outputs, and
// PartitionedCall/StatefulPartitionedCall call a function from the library (attr `f`).
// A call's output shapes come from inferring the function body, which the registry cannot
// do, so the call ops' own shape functions say "unknown".
#include <vector>

#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/op/attr_value_util.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"
#include "proto/attr_value.pb.h"

namespace sluice {
namespace {

using shape_inference::InferenceContext;
using shape_inference::ShapeAndType;
using shape_inference::ShapeHandle;

// INVALID_ARGUMENT unless list attr `name` (of `size` entries) is non-empty: only its first
// entry is read, so an empty list is malformed.
absl::Status RequireNonEmptyList(const AttrValue& attr, int size, absl::string_view name) {
  if (size == 0) {
    return errors::InvalidArgument("Invalid \"", name,
                                   "\" attribute value for _Arg node: ", SummarizeAttrValue(attr));
  }
  return absl::OkStatus();
}

// A resource _Arg may say what its resource holds (_handle_dtypes, _handle_shapes), as
// function instantiation records it for variables captured by a function.
absl::Status ArgHandleData(InferenceContext* c) {
  const AttrValue* dtypes = c->attrs().Find("_handle_dtypes");
  const AttrValue* shapes = c->attrs().Find("_handle_shapes");
  if (dtypes == nullptr || shapes == nullptr) return absl::OkStatus();
  RETURN_IF_ERROR(RequireNonEmptyList(*dtypes, dtypes->list().type_size(), "_handle_dtypes"));
  RETURN_IF_ERROR(RequireNonEmptyList(*shapes, shapes->list().shape_size(), "_handle_shapes"));
  ShapeHandle shape;
  RETURN_IF_ERROR(c->MakeShapeFromShapeProto(shapes->list().shape(0), &shape));
  c->set_output_handle_shapes_and_types(
      0, {ShapeAndType(shape, static_cast<DataType>(dtypes->list().type(0)))});
  return absl::OkStatus();
}

// An argument's shape is unknown unless the instantiation recorded it in _output_shapes.
absl::Status ArgShape(InferenceContext* c) {
  const AttrValue* dtype = c->attrs().Find("T");
  if (dtype == nullptr) return errors::InvalidArgument("_Arg node does not have attribute \"T\"");
  const AttrValue* output_shapes = c->attrs().Find("_output_shapes");
  if (output_shapes != nullptr && output_shapes->has_list()) {
    RETURN_IF_ERROR(
        RequireNonEmptyList(*output_shapes, output_shapes->list().shape_size(), "_output_shapes"));
    ShapeHandle shape;
    RETURN_IF_ERROR(c->MakeShapeFromShapeProto(output_shapes->list().shape(0), &shape));
    c->set_output(0, shape);
  } else {
    c->set_output(0, c->UnknownShape());
  }
  if (dtype->type() != DT_RESOURCE) return absl::OkStatus();
  return ArgHandleData(c);
}

}  // namespace

REGISTER_OP("_Arg")
    .Output("output: T")
    .Attr("T: type")
    .Attr("index: int >= 0")
    .SetIsStateful()
    .SetShapeFn(ArgShape);

REGISTER_OP("_DeviceArg")
    .Output("output: T")
    .Attr("T: type")
    .Attr("index: int >= 0")
    .SetIsStateful()
    .SetShapeFn(shape_inference::UnknownShape);

REGISTER_OP("_Retval")
    .Input("input: T")
    .Attr("T: type")
    .Attr("index: int >= 0")
    .SetIsStateful()
    .SetShapeFn(shape_inference::NoOutputs);

REGISTER_OP("_DeviceRetval")
    .Input("input: T")
    .Attr("T: type")
    .Attr("index: int >= 0")
    .SetIsStateful()
    .SetShapeFn(shape_inference::NoOutputs);

REGISTER_OP("PartitionedCall")
    .Input("args: Tin")
    .Output("output: Tout")
    .Attr("Tin: list(type) >= 0")
    .Attr("Tout: list(type) >= 0")
    .Attr("f: func")
    .Attr("config: string = ''")
    .Attr("config_proto: string = ''")
    .Attr("executor_type: string = ''")
    .SetShapeFn(shape_inference::UnknownShape);

REGISTER_OP("StatefulPartitionedCall")
    .Input("args: Tin")
    .Output("output: Tout")
    .Attr("Tin: list(type) >= 0")
    .Attr("Tout: list(type) >= 0")
    .Attr("f: func")
    .Attr("config: string = ''")
    .Attr("config_proto: string = ''")
    .Attr("executor_type: string = ''")
    .SetIsStateful()
    .SetIsDistributedCommunication()
    .SetShapeFn(shape_inference::UnknownShape);

}  // namespace sluice
