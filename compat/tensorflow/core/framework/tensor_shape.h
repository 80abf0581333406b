// TensorFlow's shape header: TensorShape, PartialTensorShape, and TensorShapeUtils, the
// predicates and builders kernels validate their inputs with.
#ifndef SLUICE_COMPAT_TENSORFLOW_CORE_FRAMEWORK_TENSOR_SHAPE_H_
#define SLUICE_COMPAT_TENSORFLOW_CORE_FRAMEWORK_TENSOR_SHAPE_H_

#include <cstdint>
#include <string>

#include "absl/strings/str_join.h"
#include "absl/types/span.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/tensor_shape.h"
#include "tensorflow/core/lib/core/status.h"
#include "tensorflow/core/platform/namespace.h"

namespace tensorflow {

// Static helpers over TensorShape, with TensorFlow's names and meanings.
class TensorShapeUtils {
 public:
  static bool IsScalar(const TensorShape& shape) { return shape.dims() == 0; }
  static bool IsVector(const TensorShape& shape) { return shape.dims() == 1; }
  static bool IsVectorOrHigher(const TensorShape& shape) { return shape.dims() >= 1; }
  static bool IsMatrix(const TensorShape& shape) { return shape.dims() == 2; }
  static bool IsSquareMatrix(const TensorShape& shape) {
    return shape.dims() == 2 && shape.dim_size(0) == shape.dim_size(1);
  }
  static bool IsMatrixOrHigher(const TensorShape& shape) { return shape.dims() >= 2; }

  // A shape from dimension sizes; INVALID_ARGUMENT for a negative size or an element count
  // that overflows int64.
  template <typename Int>
  static Status MakeShape(absl::Span<const Int> sizes, TensorShape* out) {
    *out = TensorShape();
    for (const Int size : sizes) {
      RETURN_IF_ERROR(out->AddDimWithStatus(static_cast<int64_t>(size)));
    }
    return OkStatus();
  }
  static Status MakeShape(const int32_t* sizes, int64_t n, TensorShape* out) {
    return MakeShape(absl::Span<const int32_t>(sizes, static_cast<size_t>(n)), out);
  }
  static Status MakeShape(const int64_t* sizes, int64_t n, TensorShape* out) {
    return MakeShape(absl::Span<const int64_t>(sizes, static_cast<size_t>(n)), out);
  }

  // "[2,3], [4]" for a list of shapes.
  static std::string ShapeListString(absl::Span<const TensorShape> shapes) {
    std::string joined;
    for (const TensorShape& shape : shapes) {
      if (!joined.empty()) joined += ", ";
      joined += "[" + absl::StrJoin(shape.dim_sizes(), ",") + "]";
    }
    return joined;
  }

  // Whether `shape` begins (ends) with the dimensions of `prefix` (`suffix`).
  static bool StartsWith(const TensorShape& shape, const TensorShape& prefix) {
    if (shape.dims() < prefix.dims()) return false;
    for (int d = 0; d < prefix.dims(); ++d) {
      if (shape.dim_size(d) != prefix.dim_size(d)) return false;
    }
    return true;
  }
  static bool EndsWith(const TensorShape& shape, const TensorShape& suffix) {
    const int offset = shape.dims() - suffix.dims();
    if (offset < 0) return false;
    for (int d = 0; d < suffix.dims(); ++d) {
      if (shape.dim_size(offset + d) != suffix.dim_size(d)) return false;
    }
    return true;
  }
};

}  // namespace tensorflow

#endif  // SLUICE_COMPAT_TENSORFLOW_CORE_FRAMEWORK_TENSOR_SHAPE_H_
