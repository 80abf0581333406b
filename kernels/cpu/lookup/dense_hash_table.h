// MutableDenseHashTableV2's table (TensorFlow's MutableDenseHashTable): keys (scalars or
// vectors of the empty key's shape) and values in two bucket arrays of a power-of-two
// size, open addressing with TensorFlow's hash (an integer key is its own hash, a string
// TensorFlow's Hash64, a vector key the Hash64Combine of its elements) and probing
// (index + 1, + 2, + 3, ... masked), `empty_key` marking free buckets and `deleted_key`
// removed ones. An insert of n keys first doubles the buckets until the entries plus n
// fit under max_load_factor, re-inserting the old buckets in order; so the buckets, which
// Export returns as they are, hold every key where TensorFlow's do.
#ifndef SLUICE_KERNELS_CPU_LOOKUP_DENSE_HASH_TABLE_H_
#define SLUICE_KERNELS_CPU_LOOKUP_DENSE_HASH_TABLE_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/lookup/lookup_table.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace lookup {

// TensorFlow's Hash64 (a 64-bit Murmur hash, seed 0xDECAFCAFFE) and Hash64Combine.
uint64_t TfHash64(const std::string& data);
uint64_t TfHash64Combine(uint64_t a, uint64_t b);

// A new table holding one reference for the caller, its buckets allocated by `ctx`.
// TensorFlow's checks: max_load_factor in (0, 1), a scalar or vector value shape, a scalar
// or vector empty key, a deleted key of its shape and another value, initial_num_buckets a
// power of two >= 4 (INVALID_ARGUMENT); UNIMPLEMENTED for a dtype pair TensorFlow's CPU
// kernels do not register (or whose values are variants or resources).
absl::Status NewMutableDenseHashTable(OpKernelContext* ctx, DataType key_dtype,
                                      DataType value_dtype, const Tensor& empty_key,
                                      const Tensor& deleted_key, const TensorShape& value_shape,
                                      int64_t initial_num_buckets, float max_load_factor,
                                      LookupTable** table);

}  // namespace lookup
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_LOOKUP_DENSE_HASH_TABLE_H_
