// The output shape of a random op, read from its `shape` input with TensorFlow's checks.
#ifndef SLUICE_KERNELS_CPU_RANDOM_RANDOM_SHAPE_H_
#define SLUICE_KERNELS_CPU_RANDOM_RANDOM_SHAPE_H_

#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"

namespace sluice {
namespace random {

// `shape` must be an int32 or int64 vector of non-negative sizes whose product fits int64;
// INVALID_ARGUMENT otherwise.
absl::Status RandomOutputShape(const Tensor& shape, TensorShape* out);

}  // namespace random
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_RANDOM_RANDOM_SHAPE_H_
