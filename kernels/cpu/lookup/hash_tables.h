// The hash-map tables (absl::flat_hash_map) behind HashTableV2, MutableHashTableV2 and
// MutableHashTableOfTensorsV2, for the key/value dtype pairs TensorFlow's CPU kernels
// register. Each factory returns UNIMPLEMENTED for another pair.
#ifndef SLUICE_KERNELS_CPU_LOOKUP_HASH_TABLES_H_
#define SLUICE_KERNELS_CPU_LOOKUP_HASH_TABLES_H_

#include "absl/status/status.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/lookup/lookup_table.h"

namespace sluice {
namespace lookup {

// Each sets *table to a new table holding one reference for the caller.
absl::Status NewHashTable(DataType key_dtype, DataType value_dtype, LookupTable** table);
absl::Status NewMutableHashTable(DataType key_dtype, DataType value_dtype, LookupTable** table);
// `value_shape` must be a vector (INVALID_ARGUMENT "Default value must be a vector, got
// shape [...]").
absl::Status NewMutableHashTableOfTensors(DataType key_dtype, DataType value_dtype,
                                          const TensorShape& value_shape, LookupTable** table);

}  // namespace lookup
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_LOOKUP_HASH_TABLES_H_
