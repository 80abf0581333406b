#include "graph/ops/example_parsing_spec.h"

namespace sluice {
namespace {

absl::Status CheckValueType(DataType type) {
  if (type == DT_FLOAT || type == DT_INT64 || type == DT_STRING) return absl::OkStatus();
  return errors::InvalidArgument("Received input dtype: ", DataTypeString(type));
}

}  // namespace

absl::Status FinishExampleParserAttrs(ExampleParserOp op, ExampleParserAttrs* a) {
  if (op == ExampleParserOp::kSingle) {
    a->num_sparse = static_cast<int64_t>(a->sparse_keys.size());
    a->num_dense = static_cast<int64_t>(a->dense_keys.size());
  } else if (op == ExampleParserOp::kV2) {
    a->num_dense = static_cast<int64_t>(a->dense_types.size());
    a->num_ragged = static_cast<int64_t>(a->ragged_value_types.size());
  }
  if (static_cast<size_t>(a->num_sparse) != a->sparse_types.size()) {
    return errors::InvalidArgument("len(sparse_keys) != len(sparse_types)");
  }
  if (static_cast<size_t>(a->num_dense) != a->dense_types.size()) {
    return errors::InvalidArgument("len(dense_keys) != len(dense_types)");
  }
  if (static_cast<size_t>(a->num_dense) != a->dense_shapes.size()) {
    return errors::InvalidArgument("len(dense_keys) != len(dense_shapes)");
  }
  if (static_cast<size_t>(a->num_ragged) != a->ragged_split_types.size()) {
    return errors::InvalidArgument("len(ragged_keys) != len(ragged_split_types)");
  }
  for (DataType t : a->dense_types) RETURN_IF_ERROR(CheckValueType(t));
  for (DataType t : a->sparse_types) RETURN_IF_ERROR(CheckValueType(t));
  for (DataType t : a->ragged_value_types) RETURN_IF_ERROR(CheckValueType(t));
  for (DataType t : a->ragged_split_types) {
    if (t != DT_INT32 && t != DT_INT64) {
      return errors::InvalidArgument("Invalid ragged_split_type: ", DataTypeString(t));
    }
  }
  a->variable_length.clear();
  a->elements_per_stride.clear();
  for (size_t i = 0; i < a->dense_shapes.size(); ++i) {
    const PartialTensorShape& s = a->dense_shapes[i];
    bool ok = s.dims() >= 0;
    for (int d = 1; ok && d < s.dims(); ++d) ok = s.dim_size(d) >= 0;
    if (!ok) {
      return errors::InvalidArgument(
          "dense_shapes[", i, "] has unknown rank or unknown inner dimensions: ", s.DebugString());
    }
    const bool variable = s.dims() > 0 && s.dim_size(0) < 0;
    int64_t elements = 1;
    for (int d = variable ? 1 : 0; d < s.dims(); ++d) {
      if (s.dim_size(d) != 0 && elements > INT64_MAX / s.dim_size(d)) {
        return errors::InvalidArgument("dense_shapes[", i,
                                       "] has too many elements: ", s.DebugString());
      }
      elements *= s.dim_size(d);
    }
    a->variable_length.push_back(variable);
    a->elements_per_stride.push_back(elements);
  }
  return absl::OkStatus();
}

}  // namespace sluice
