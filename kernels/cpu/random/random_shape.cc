#include "kernels/cpu/random/random_shape.h"

#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"

namespace sluice {
namespace random {

absl::Status RandomOutputShape(const Tensor& shape, TensorShape* out) {
  if (shape.dims() != 1 || (shape.dtype() != DT_INT32 && shape.dtype() != DT_INT64)) {
    return errors::InvalidArgument("shape must be a vector of {int32,int64}, got shape ",
                                   shape.shape().DebugString());
  }
  IntegerValues sizes;
  RETURN_IF_ERROR(IntegerTensorValues(shape, &sizes));
  for (int64_t size : sizes) {
    if (size < 0) return errors::InvalidArgument("Dimension ", size, " must be >= 0");
  }
  return TensorShape::BuildTensorShape(sizes, out);
}

}  // namespace random
}  // namespace sluice
