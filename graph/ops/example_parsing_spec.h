// The attrs of the tf.train.Example parsers (ParseExample, ParseExampleV2,
// ParseSingleExample), read and checked as TensorFlow's ParseExampleAttrs and
// ParseSingleExampleAttrs do, shared by their shape functions and their kernels:
//  - the lengths of the key, type and shape lists agree;
//  - every value type is float, int64 or string, every ragged split type int32 or int64;
//  - each dense shape has a known rank and known inner dims; an unknown first dim makes the
//    feature variable-length (its values are padded with the default to the longest);
//  - elements_per_stride is the number of values one row holds (the whole shape, or the
//    inner dims of a variable-length shape).
// Errors are INVALID_ARGUMENT in TensorFlow's wording.
//
// Header-only, and a private header (srcs) of //graph/ops and of the kernel library: as a
// library of its own it would join the headers of everything above //graph/ops, which would
// then all recompile.
#ifndef SLUICE_GRAPH_OPS_EXAMPLE_PARSING_SPEC_H_
#define SLUICE_GRAPH_OPS_EXAMPLE_PARSING_SPEC_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "graph/core/errors.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/types.h"

namespace sluice {

// Which op's attrs: ParseSingleExample (keys in attrs), ParseExample (v1: Nsparse/Ndense),
// ParseExampleV2 (num_sparse, ragged features).
enum class ExampleParserOp { kSingle, kV1, kV2 };

struct ExampleParserAttrs {
  int64_t num_sparse = 0;
  int64_t num_dense = 0;
  int64_t num_ragged = 0;
  std::vector<std::string> sparse_keys;  // kSingle only
  std::vector<std::string> dense_keys;   // kSingle only
  std::vector<DataType> sparse_types;
  std::vector<DataType> dense_types;
  std::vector<DataType> ragged_value_types;
  std::vector<DataType> ragged_split_types;
  std::vector<PartialTensorShape> dense_shapes;
  std::vector<bool> variable_length;         // per dense feature
  std::vector<int64_t> elements_per_stride;  // per dense feature
};

// The checks made once the attrs are read (FinishInit and GetDenseShapes).
inline absl::Status CheckExampleValueType(DataType type) {
  if (type == DT_FLOAT || type == DT_INT64 || type == DT_STRING) return absl::OkStatus();
  return errors::InvalidArgument("Received input dtype: ", DataTypeString(type));
}

inline absl::Status FinishExampleParserAttrs(ExampleParserOp op, ExampleParserAttrs* a) {
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
  for (DataType t : a->dense_types) RETURN_IF_ERROR(CheckExampleValueType(t));
  for (DataType t : a->sparse_types) RETURN_IF_ERROR(CheckExampleValueType(t));
  for (DataType t : a->ragged_value_types) RETURN_IF_ERROR(CheckExampleValueType(t));
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

// Reads the attrs through `c->GetAttr` (an InferenceContext or an OpKernelConstruction).
template <typename Context>
absl::Status ReadExampleParserAttrs(Context* c, ExampleParserOp op, ExampleParserAttrs* a) {
  RETURN_IF_ERROR(c->GetAttr("sparse_types", &a->sparse_types));
  RETURN_IF_ERROR(c->GetAttr("Tdense", &a->dense_types));
  RETURN_IF_ERROR(c->GetAttr("dense_shapes", &a->dense_shapes));
  switch (op) {
    case ExampleParserOp::kSingle:
      RETURN_IF_ERROR(c->GetAttr("sparse_keys", &a->sparse_keys));
      RETURN_IF_ERROR(c->GetAttr("dense_keys", &a->dense_keys));
      break;
    case ExampleParserOp::kV1:
      RETURN_IF_ERROR(c->GetAttr("Nsparse", &a->num_sparse));
      RETURN_IF_ERROR(c->GetAttr("Ndense", &a->num_dense));
      break;
    case ExampleParserOp::kV2:
      RETURN_IF_ERROR(c->GetAttr("num_sparse", &a->num_sparse));
      RETURN_IF_ERROR(c->GetAttr("ragged_value_types", &a->ragged_value_types));
      RETURN_IF_ERROR(c->GetAttr("ragged_split_types", &a->ragged_split_types));
      break;
  }
  return FinishExampleParserAttrs(op, a);
}

}  // namespace sluice

#endif  // SLUICE_GRAPH_OPS_EXAMPLE_PARSING_SPEC_H_
