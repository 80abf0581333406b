// Ragged tensors made dense: RaggedTensorToTensor, which Keras's TextVectorization emits to
// pad the token ids of each string to a common length.
#include <string>
#include <vector>

#include "graph/core/errors.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/op/op_registry.h"
#include "graph/ops/ragged_to_dense_spec.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"

namespace sluice {

using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

namespace {

// The `shape` input's value where known (a scalar -1 meaning any shape), checked against and
// completed by the values' inner dims (ragged_to_dense_spec.h).
absl::Status RaggedTensorToTensorShape(InferenceContext* c) {
  ShapeHandle shape_handle;
  RETURN_IF_ERROR(c->MakeShapeFromShapeTensorTreatScalarAsUnknownShape(0, &shape_handle));
  PartialTensorShape shape;
  RETURN_IF_ERROR(c->AsPartialTensorShape(shape_handle, &shape));
  std::vector<std::string> names;
  RETURN_IF_ERROR(c->GetAttr("row_partition_types", &names));
  std::vector<RowPartitionType> types;
  RETURN_IF_ERROR(ParseRowPartitionTypes(names, &types));
  const int num_tensors = c->num_inputs() - 3;
  RETURN_IF_ERROR(ValidateRowPartitionTypes(types, num_tensors));
  for (int i = 0; i < num_tensors; ++i) {
    const ShapeHandle partition = c->input(3 + i);
    if (!c->RankKnown(partition)) continue;
    if (types[i] == RowPartitionType::kFirstDimSize) {
      if (c->Rank(partition) != 0) {
        return errors::InvalidArgument("FIRST_DIM_SIZE must be a scalar.");
      }
    } else if (c->Rank(partition) != 1) {
      return errors::InvalidArgument("Row partition must be a vector.");
    }
  }
  PartialTensorShape values_shape;
  RETURN_IF_ERROR(c->AsPartialTensorShape(c->input(1), &values_shape));
  PartialTensorShape default_shape;
  RETURN_IF_ERROR(c->AsPartialTensorShape(c->input(2), &default_shape));
  RETURN_IF_ERROR(ValidateDefaultValueShape(default_shape, values_shape));
  PartialTensorShape out;
  RETURN_IF_ERROR(CombineRaggedTensorToTensorShapes(RaggedRank(types), shape, values_shape, &out));
  ShapeHandle out_handle;
  RETURN_IF_ERROR(c->MakeShapeFromPartialTensorShape(out, &out_handle));
  c->set_output(0, out_handle);
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("RaggedTensorToTensor")
    .Attr("T: type")
    .Attr("Tindex: {int64, int32}")
    .Attr("Tshape: {int64, int32}")
    .Attr("num_row_partition_tensors: int >= 1")
    .Attr("row_partition_types: list(string)")
    .Input("shape: Tshape")
    .Input("values: T")
    .Input("default_value: T")
    .Input("row_partition_tensors: num_row_partition_tensors * Tindex")
    .Output("result: T")
    .SetShapeFn(RaggedTensorToTensorShape);

}  // namespace sluice
