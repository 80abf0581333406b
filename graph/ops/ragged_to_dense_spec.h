// The shape rules of RaggedTensorToTensor, shared by its shape function and its kernel:
// the row partition types, the ragged rank they imply, the check of default_value's shape
// against the flat values', and the output shape from the `shape` input and the values.
#ifndef SLUICE_GRAPH_OPS_RAGGED_TO_DENSE_SPEC_H_
#define SLUICE_GRAPH_OPS_RAGGED_TO_DENSE_SPEC_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "graph/core/partial_tensor_shape.h"

namespace sluice {

// How one ragged dimension relates to the next: FIRST_DIM_SIZE (a scalar: the number of rows;
// only first), VALUE_ROWIDS (the row of each item) or ROW_SPLITS (where each row starts).
enum class RowPartitionType { kFirstDimSize, kValueRowIds, kRowSplits };

// Parses the row_partition_types attr; INVALID_ARGUMENT naming an unknown string.
absl::Status ParseRowPartitionTypes(const std::vector<std::string>& names,
                                    std::vector<RowPartitionType>* types);

// The sequence rules: not empty; FIRST_DIM_SIZE only first, and then followed by
// VALUE_ROWIDS; VALUE_ROWIDS never first; one type per partition tensor (`num_tensors`).
absl::Status ValidateRowPartitionTypes(const std::vector<RowPartitionType>& types, int num_tensors);

// The number of ragged dimensions: one per partition, the leading FIRST_DIM_SIZE excepted.
int RaggedRank(const std::vector<RowPartitionType>& types);

// default_value must have a lower rank than the flat values, and each of its dims, read from
// the left against the values' dims after the first, must be 1 or equal (TensorFlow's rule,
// which is not numpy's right-aligned one). Unknown ranks and dims pass.
absl::Status ValidateDefaultValueShape(const PartialTensorShape& default_shape,
                                       const PartialTensorShape& values_shape);

// The output shape: `shape` (from the shape input; unknown rank means ragged_rank +
// values' rank unknown dims) must have rank ragged_rank + rank(values), and its dims after the
// ragged ones agree with the values' inner dims, which fill in its unknown ones.
absl::Status CombineRaggedTensorToTensorShapes(int ragged_rank, const PartialTensorShape& shape,
                                               const PartialTensorShape& values_shape,
                                               PartialTensorShape* out);

}  // namespace sluice

#endif  // SLUICE_GRAPH_OPS_RAGGED_TO_DENSE_SPEC_H_
