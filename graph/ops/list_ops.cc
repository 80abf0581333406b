// TensorFlow's list ops: a TensorList (a sequence of tensors of one dtype) held in a scalar
// DT_VARIANT tensor, made, changed and read by value. Keras' recurrent layers and every TF2
// loop that collects per-step results (tf.TensorArray in a tf.function) use them. The
// kernels are in kernels/cpu/lists/.
//
// Shape functions: a list is a scalar; a read's shape comes from its element_shape argument
// when that is a constant (TensorFlow's refiner also tracks the list's element shape through
// the handle, which Sluice's does not: such reads are of unknown shape until they run).
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"

namespace sluice {
namespace {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

absl::Status ListShape(InferenceContext* c) {
  for (int i = 0; i < c->num_outputs(); ++i) c->set_output(i, c->Scalar());
  return absl::OkStatus();
}

// The element shape given by input `index` (-1 or a vector with -1 for unknown dims).
absl::Status ElementShapeInput(InferenceContext* c, int index, ShapeHandle* shape) {
  return c->MakeShapeFromShapeTensorTreatScalarAsUnknownShape(index, shape);
}

absl::Status GetItemShape(InferenceContext* c) {
  ShapeHandle element;
  RETURN_IF_ERROR(ElementShapeInput(c, 2, &element));
  c->set_output(0, element);
  return absl::OkStatus();
}

absl::Status StackShape(InferenceContext* c) {
  ShapeHandle element;
  RETURN_IF_ERROR(ElementShapeInput(c, 1, &element));
  int64_t num_elements;
  RETURN_IF_ERROR(c->GetAttr("num_elements", &num_elements));
  const DimensionHandle leading = num_elements >= 0 ? c->MakeDim(num_elements) : c->UnknownDim();
  ShapeHandle out;
  RETURN_IF_ERROR(c->Concatenate(c->Vector(leading), element, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

absl::Status GatherShape(InferenceContext* c) {
  ShapeHandle indices;
  RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &indices));
  ShapeHandle element;
  RETURN_IF_ERROR(ElementShapeInput(c, 2, &element));
  ShapeHandle out;
  RETURN_IF_ERROR(c->Concatenate(indices, element, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

absl::Status PopBackShape(InferenceContext* c) {
  // TensorFlow reads the element's shape from the list's handle data only.
  c->set_output(0, c->Scalar());
  c->set_output(1, c->UnknownShape());
  return absl::OkStatus();
}

// The concatenation has the element shape with an unknown first dim.
absl::Status ConcatShape(InferenceContext* c) {
  ShapeHandle element;
  RETURN_IF_ERROR(ElementShapeInput(c, 1, &element));
  ShapeHandle out = c->UnknownShape();
  if (c->RankKnown(element) && c->Rank(element) >= 1) {
    RETURN_IF_ERROR(c->ReplaceDim(element, 0, c->UnknownDim(), &out));
  }
  c->set_output(0, out);
  c->set_output(1, c->Vector(c->UnknownDim()));
  return absl::OkStatus();
}

absl::Status ElementShapeShape(InferenceContext* c) {
  // A vector of the element rank, or the scalar -1 when the rank is unknown.
  c->set_output(0, c->UnknownShape());
  return absl::OkStatus();
}

REGISTER_OP("EmptyTensorList")
    .Input("element_shape: shape_type")
    .Input("max_num_elements: int32")
    .Output("handle: variant")
    .Attr("element_dtype: type")
    .Attr("shape_type: {int32, int64}")
    .SetShapeFn(ListShape);

REGISTER_OP("TensorListReserve")
    .Input("element_shape: shape_type")
    .Input("num_elements: int32")
    .Output("handle: variant")
    .Attr("element_dtype: type")
    .Attr("shape_type: {int32, int64}")
    .SetShapeFn(ListShape);

REGISTER_OP("TensorListFromTensor")
    .Input("tensor: element_dtype")
    .Input("element_shape: shape_type")
    .Output("output_handle: variant")
    .Attr("element_dtype: type")
    .Attr("shape_type: {int32, int64}")
    .SetShapeFn(ListShape);

REGISTER_OP("TensorListSplit")
    .Input("tensor: element_dtype")
    .Input("element_shape: shape_type")
    .Input("lengths: int64")
    .Output("output_handle: variant")
    .Attr("element_dtype: type")
    .Attr("shape_type: {int32, int64}")
    .SetShapeFn(ListShape);

REGISTER_OP("TensorListScatter")
    .Input("tensor: element_dtype")
    .Input("indices: int32")
    .Input("element_shape: shape_type")
    .Output("output_handle: variant")
    .Attr("element_dtype: type")
    .Attr("shape_type: {int32, int64}")
    .SetShapeFn(ListShape);

REGISTER_OP("TensorListScatterV2")
    .Input("tensor: element_dtype")
    .Input("indices: int32")
    .Input("element_shape: shape_type")
    .Input("num_elements: int32")
    .Output("output_handle: variant")
    .Attr("element_dtype: type")
    .Attr("shape_type: {int32, int64}")
    .SetShapeFn(ListShape);

REGISTER_OP("TensorListScatterIntoExistingList")
    .Input("input_handle: variant")
    .Input("tensor: element_dtype")
    .Input("indices: int32")
    .Output("output_handle: variant")
    .Attr("element_dtype: type")
    .SetShapeFn(ListShape);

REGISTER_OP("TensorListLength")
    .Input("input_handle: variant")
    .Output("length: int32")
    .SetShapeFn(shape_inference::ScalarShape);

REGISTER_OP("TensorListElementShape")
    .Input("input_handle: variant")
    .Output("element_shape: shape_type")
    .Attr("shape_type: {int32, int64}")
    .SetShapeFn(ElementShapeShape);

REGISTER_OP("TensorListGetItem")
    .Input("input_handle: variant")
    .Input("index: int32")
    .Input("element_shape: Tshape")
    .Output("item: element_dtype")
    .Attr("element_dtype: type")
    .Attr("Tshape: {int32, int64} = DT_INT32")
    .SetShapeFn(GetItemShape);

REGISTER_OP("TensorListSetItem")
    .Input("input_handle: variant")
    .Input("index: int32")
    .Input("item: element_dtype")
    .Output("output_handle: variant")
    .Attr("element_dtype: type")
    .Attr("resize_if_index_out_of_bounds: bool = false")
    .SetShapeFn(ListShape);

REGISTER_OP("TensorListPushBack")
    .Input("input_handle: variant")
    .Input("tensor: element_dtype")
    .Output("output_handle: variant")
    .Attr("element_dtype: type")
    .SetShapeFn(ListShape);

REGISTER_OP("TensorListPopBack")
    .Input("input_handle: variant")
    .Input("element_shape: int32")
    .Output("output_handle: variant")
    .Output("tensor: element_dtype")
    .Attr("element_dtype: type")
    .SetShapeFn(PopBackShape);

REGISTER_OP("TensorListResize")
    .Input("input_handle: variant")
    .Input("size: int32")
    .Output("output_handle: variant")
    .SetShapeFn(ListShape);

REGISTER_OP("TensorListStack")
    .Input("input_handle: variant")
    .Input("element_shape: int32")
    .Output("tensor: element_dtype")
    .Attr("element_dtype: type")
    .Attr("num_elements: int = -1")
    .SetShapeFn(StackShape);

REGISTER_OP("TensorListGather")
    .Input("input_handle: variant")
    .Input("indices: int32")
    .Input("element_shape: int32")
    .Output("values: element_dtype")
    .Attr("element_dtype: type")
    .SetShapeFn(GatherShape);

REGISTER_OP("TensorListConcatV2")
    .Input("input_handle: variant")
    .Input("element_shape: shape_type")
    .Input("leading_dims: int64")
    .Output("tensor: element_dtype")
    .Output("lengths: int64")
    .Attr("element_dtype: type")
    .Attr("shape_type: {int32, int64}")
    .SetShapeFn(ConcatShape);

}  // namespace
}  // namespace sluice
