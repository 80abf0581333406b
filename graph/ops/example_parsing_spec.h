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
absl::Status FinishExampleParserAttrs(ExampleParserOp op, ExampleParserAttrs* attrs);

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
