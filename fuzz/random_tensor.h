// Shapes, integers and tensors for the structure-aware fuzz targets, drawn from a ByteSource.
//
// What is drawn is meant to reach kernels rather than their first size check: shapes are
// mostly small (rank 0-4, dims 0-4, at most 256 elements) so that inputs often agree, and
// rarely a vector long enough to be a shape of too high a rank; values are mostly small integers
// (valid axes, indices, sizes), with the extremes that break unchecked arithmetic mixed in: 0, -1,
// INT32_MAX, 2^31, INT64_MAX, INT64_MIN for integers (the values that become huge dimensions when a
// tensor is read as a shape), NaN, infinities, -0, denormals and the largest finite values for
// floats.
//
// Thread-compatible: no shared state.
#ifndef SLUICE_FUZZ_RANDOM_TENSOR_H_
#define SLUICE_FUZZ_RANDOM_TENSOR_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "fuzz/byte_source.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "proto/types.pb.h"

namespace sluice {
namespace fuzz {

// Elements of the small shapes, and of the rare long vectors (past 254, the most dims a
// shape may have).
inline constexpr int64_t kMaxSmallShapeElements = 256;
inline constexpr int64_t kMaxGeneratedElements = 300;

// Mostly in [-2, 6]; one time in four an extreme (see above).
int64_t RandomInt(ByteSource* bytes);
// Mostly small integers and halves; one time in four NaN, an infinity, -0, a denormal, the
// largest finite double or another extreme.
double RandomDouble(ByteSource* bytes);

// Rank 0-4 (rarely 5-6), every dim 0-4, at most kMaxSmallShapeElements elements; one time in
// 16 a vector of 5 to kMaxGeneratedElements elements.
TensorShape RandomShape(ByteSource* bytes);
// For shape attrs: unknown rank, or dims that may be unknown (-1), zero, small or huge.
PartialTensorShape RandomPartialShape(ByteSource* bytes);

// A tensor of `dtype` with RandomShape's shape and values as above, filled element by
// element, with one repeated value, or 0, 1, 2, ... (valid permutations and indices).
// UNIMPLEMENTED for dtypes whose values cannot be drawn (resource, variant, float8, int4).
absl::StatusOr<Tensor> RandomTensor(DataType dtype, ByteSource* bytes);
absl::StatusOr<Tensor> RandomTensorOfShape(DataType dtype, const TensorShape& shape,
                                           ByteSource* bytes);

}  // namespace fuzz
}  // namespace sluice

#endif  // SLUICE_FUZZ_RANDOM_TENSOR_H_
