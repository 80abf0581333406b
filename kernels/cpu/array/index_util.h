// Reading the small integer host tensors array kernels take as arguments (shapes, axes,
// sizes, multiples, permutations): any of int8, int16, int32 or int64, as the op's index
// attr allows. Kernels check ranks themselves, with their op's message, before calling.
#ifndef SLUICE_KERNELS_CPU_ARRAY_INDEX_UTIL_H_
#define SLUICE_KERNELS_CPU_ARRAY_INDEX_UTIL_H_

#include <cstdint>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "graph/core/tensor.h"

namespace sluice {
namespace array_internal {

using IndexVector = absl::InlinedVector<int64_t, 8>;

// The elements of `t`, row-major, as int64. INVALID_ARGUMENT for a non-integer dtype.
absl::Status ReadIndices(const Tensor& t, IndexVector* values);

// The first element of `t`. REQUIRES: t has at least one element; INVALID_ARGUMENT for a
// non-integer dtype.
absl::Status ReadIndexScalar(const Tensor& t, int64_t* value);

}  // namespace array_internal
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_ARRAY_INDEX_UTIL_H_
