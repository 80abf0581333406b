// How TensorFlow's indexing kernels name a bad index in their errors: by the coordinates of
// its element in the index tensor.
#ifndef SLUICE_KERNELS_CPU_INDEXING_INDEX_COORDINATES_H_
#define SLUICE_KERNELS_CPU_INDEXING_INDEX_COORDINATES_H_

#include <cstdint>
#include <string>

#include "graph/core/tensor_shape.h"

namespace sluice {

// The coordinates of flat element `flat` of `shape` as TensorFlow prints them in index
// errors: "" for a scalar, "[4]" for a vector, "[1,2]" for a matrix.
std::string SliceDebugString(const TensorShape& shape, int64_t flat);

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_INDEXING_INDEX_COORDINATES_H_
