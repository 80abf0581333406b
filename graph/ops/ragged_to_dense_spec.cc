#include "graph/ops/ragged_to_dense_spec.h"

#include <algorithm>
#include <cstdint>

#include "absl/container/inlined_vector.h"
#include "graph/core/errors.h"

namespace sluice {

absl::Status ParseRowPartitionTypes(const std::vector<std::string>& names,
                                    std::vector<RowPartitionType>* types) {
  types->clear();
  for (const std::string& name : names) {
    if (name == "FIRST_DIM_SIZE") {
      types->push_back(RowPartitionType::kFirstDimSize);
    } else if (name == "VALUE_ROWIDS") {
      types->push_back(RowPartitionType::kValueRowIds);
    } else if (name == "ROW_SPLITS") {
      types->push_back(RowPartitionType::kRowSplits);
    } else {
      return errors::InvalidArgument("Unknown string for partition info type: ", name);
    }
  }
  return absl::OkStatus();
}

absl::Status ValidateRowPartitionTypes(const std::vector<RowPartitionType>& types,
                                       int num_tensors) {
  if (types.empty()) return errors::InvalidArgument("Partition info types should not be empty");
  for (size_t i = 1; i < types.size(); ++i) {
    if (types[i] == RowPartitionType::kFirstDimSize) {
      return errors::InvalidArgument("FIRST_DIM_SIZE must be first");
    }
  }
  if (types[0] == RowPartitionType::kFirstDimSize &&
      (types.size() < 2 || types[1] != RowPartitionType::kValueRowIds)) {
    return errors::InvalidArgument("FIRST_DIM_SIZE must be followed by VALUE_ROWIDS");
  }
  if (types[0] == RowPartitionType::kValueRowIds) {
    return errors::InvalidArgument("VALUE_ROWIDS cannot be first");
  }
  if (num_tensors != static_cast<int>(types.size())) {
    return errors::InvalidArgument("Number of row partition tensors (", num_tensors,
                                   ") does not equal the number of row partition types(",
                                   types.size(), ").");
  }
  return absl::OkStatus();
}

int RaggedRank(const std::vector<RowPartitionType>& types) {
  if (types.empty()) return 0;
  const int n = static_cast<int>(types.size());
  return types[0] == RowPartitionType::kFirstDimSize ? n - 1 : n;
}

absl::Status ValidateDefaultValueShape(const PartialTensorShape& default_shape,
                                       const PartialTensorShape& values_shape) {
  if (default_shape.unknown_rank() || values_shape.unknown_rank()) return absl::OkStatus();
  const int default_rank = default_shape.dims();
  const int values_rank = values_shape.dims();
  if (default_rank >= values_rank) {
    return errors::InvalidArgument("default_value.shape=", default_shape.DebugString(),
                                   " and rt_input.flat_values.shape=", values_shape.DebugString(),
                                   " are incompatible: default_value.rank = ", default_rank,
                                   "  must be less than rt_input.flat_values.rank = ", values_rank);
  }
  for (int i = 0; i < default_rank; ++i) {
    const int64_t d = default_shape.dim_size(i);
    const int64_t v = values_shape.dim_size(i + 1);
    if (d >= 0 && v >= 0 && d != 1 && d != v) {
      return errors::InvalidArgument("default_value.shape=", default_shape.DebugString(),
                                     " and rt_input.flat_values.shape=", values_shape.DebugString(),
                                     " are incompatible: default_value.shape[", i - default_rank,
                                     "] = ", d, " but rt_input.flat_values.shape[",
                                     i - default_rank, "] = ", v);
    }
  }
  return absl::OkStatus();
}

absl::Status CombineRaggedTensorToTensorShapes(int ragged_rank, const PartialTensorShape& shape,
                                               const PartialTensorShape& values_shape,
                                               PartialTensorShape* out) {
  if (shape.unknown_rank() && values_shape.unknown_rank()) {
    *out = PartialTensorShape();
    return absl::OkStatus();
  }
  // One entry per output dim: the ranks of the shapes given bound it.
  absl::InlinedVector<int64_t, 8> dims;
  if (shape.unknown_rank()) {
    dims.assign(static_cast<size_t>(ragged_rank + values_shape.dims()), -1);
  } else {
    dims.assign(shape.dim_sizes().begin(), shape.dim_sizes().end());
  }
  if (!values_shape.unknown_rank()) {
    const int values_rank = values_shape.dims();
    const int out_rank = static_cast<int>(dims.size());
    if (ragged_rank + values_rank != out_rank) {
      return errors::InvalidArgument("rt_input.shape and shape=", shape.DebugString(),
                                     " are incompatible: rt_input.rank = ",
                                     ragged_rank + values_rank, " but shape.rank = ", out_rank);
    }
    for (int i = 1; i < values_rank; ++i) {
      const int64_t v = values_shape.dim_size(i);
      int64_t& d = dims[static_cast<size_t>(out_rank - values_rank + i)];
      if (v < 0) continue;
      if (d >= 0 && d != v) {
        return errors::InvalidArgument("rt_input.shape and shape=", shape.DebugString(),
                                       " are incompatible: rt_input.shape[", i + ragged_rank,
                                       "] = ", v, " but shape[", i + ragged_rank, "] = ", d);
      }
      d = v;
    }
  }
  return PartialTensorShape::BuildPartialTensorShape(dims, out);
}

}  // namespace sluice
