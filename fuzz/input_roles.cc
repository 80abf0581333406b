#include "fuzz/input_roles.h"

#include <cstdint>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "fuzz/random_tensor.h"
#include "graph/core/allocator.h"
#include "graph/core/errors.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"

namespace sluice {
namespace fuzz {
namespace {

// TensorFlow's names of shape arguments, by role.
const absl::flat_hash_map<std::string, InputRole>& Roles() {
  static const auto* roles = [] {
    auto* map = new absl::flat_hash_map<std::string, InputRole>;
    for (const char* name : {"axis",
                             "branch_index",
                             "clip_value_max",
                             "clip_value_min",
                             "concat_dim",
                             "constant_values",
                             "default_value",
                             "delta",
                             "depth",
                             "dim",
                             "dimension",
                             "index",
                             "iou_threshold",
                             "k",
                             "limit",
                             "max_num_elements",
                             "max_output_size",
                             "num_buckets",
                             "num_elements",
                             "num_lower",
                             "num_upper",
                             "off_value",
                             "on_value",
                             "score_threshold",
                             "soft_nms_sigma",
                             "split_dim",
                             "start",
                             "value"}) {
      (*map)[name] = InputRole::kScalar;
    }
    for (const char* name :
         {"begin", "block_shape", "dims", "element_shape", "end", "fft_length", "input_sizes",
          "ksize", "multiples", "output_shape", "perm", "reduction_indices", "s0", "s1", "shape",
          "size", "size_splits", "strides"}) {
      (*map)[name] = InputRole::kRankVector;
    }
    for (const char* name : {"crops", "paddings"}) (*map)[name] = InputRole::kRankPairs;
    return map;
  }();
  return *roles;
}

bool IsInteger(DataType dtype) {
  return dtype == DT_INT32 || dtype == DT_INT64 || dtype == DT_INT16 || dtype == DT_INT8 ||
         dtype == DT_UINT8 || dtype == DT_UINT16 || dtype == DT_UINT32 || dtype == DT_UINT64;
}

// An integer tensor of `shape` holding `values`, repeated to fill it.
absl::StatusOr<Tensor> IntegerTensor(DataType dtype, const TensorShape& shape,
                                     const std::vector<int64_t>& values) {
  ASSIGN_OR_RETURN(Tensor tensor, Tensor::Allocate(DefaultCpuAllocator(), dtype, shape));
  const int64_t n = tensor.NumElements();
  for (int64_t i = 0; i < n && !values.empty(); ++i) {
    const int64_t v = values[i % values.size()];
    switch (dtype) {
#define SLUICE_FUZZ_SET_CASE(T)              \
  case DataTypeToEnum<T>::value:             \
    tensor.flat<T>()(i) = static_cast<T>(v); \
    break;
      SLUICE_CALL_INTEGRAL_TYPES(SLUICE_FUZZ_SET_CASE)
#undef SLUICE_FUZZ_SET_CASE
      default:
        return errors::Internal("not an integer dtype: ", DataTypeString(dtype));
    }
  }
  return tensor;
}

}  // namespace

InputRole RoleOfInput(absl::string_view arg_name) {
  const auto it = Roles().find(arg_name);
  return it == Roles().end() ? InputRole::kData : it->second;
}

absl::StatusOr<Tensor> TensorForRole(InputRole role, DataType dtype, const TensorShape& common,
                                     ByteSource* bytes) {
  if (role == InputRole::kData || bytes->OneIn(4)) {
    return RandomTensorOfShape(dtype, bytes->Bool() ? common : RandomShape(bytes), bytes);
  }
  const int64_t rank = common.dims();
  switch (role) {
    case InputRole::kScalar:
      if (IsInteger(dtype) && bytes->Bool()) {
        return IntegerTensor(dtype, TensorShape({}), {bytes->InRange(0, 3)});
      }
      return RandomTensorOfShape(dtype, TensorShape({}), bytes);
    case InputRole::kRankVector: {
      const TensorShape shape({rank});
      if (!IsInteger(dtype)) return RandomTensorOfShape(dtype, shape, bytes);
      switch (bytes->Below(3)) {
        case 0: {
          const auto dims = common.dim_sizes();
          return IntegerTensor(dtype, shape, std::vector<int64_t>(dims.begin(), dims.end()));
        }
        case 1: {
          std::vector<int64_t> iota;
          for (int64_t i = 0; i < rank; ++i) iota.push_back(i);
          return IntegerTensor(dtype, shape, iota);
        }
        default:
          return RandomTensorOfShape(dtype, shape, bytes);
      }
    }
    case InputRole::kRankPairs: {
      const TensorShape shape({rank, 2});
      if (!IsInteger(dtype)) return RandomTensorOfShape(dtype, shape, bytes);
      std::vector<int64_t> values;
      for (int64_t i = 0; i < 2 * rank; ++i) values.push_back(bytes->InRange(0, 2));
      return IntegerTensor(dtype, shape, values);
    }
    case InputRole::kData:
      break;
  }
  return RandomTensorOfShape(dtype, common, bytes);
}

}  // namespace fuzz
}  // namespace sluice
