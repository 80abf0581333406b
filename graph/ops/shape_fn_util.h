// Helpers shared by the shape functions in graph/ops/.
//
// Shape functions read small integer tensors (axes, shape vectors, paddings, multiples) whose
// dtype is an attr the user chose. These helpers read any integer dtype TensorFlow allows
// for such inputs and report other dtypes as INVALID_ARGUMENT, so a mistyped constant never
// reaches the CHECKs in Tensor's typed views. NumElements follows TensorFlow where
// InferenceContext::NumElements does not.
#ifndef SLUICE_GRAPH_OPS_SHAPE_FN_UTIL_H_
#define SLUICE_GRAPH_OPS_SHAPE_FN_UTIL_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "graph/shape/shape_inference.h"

namespace sluice {
namespace shape_fn_util {

// The elements of `t` (int8, int16, int32, int64, uint8, uint16, uint32 or uint64), in
// row-major order, as int64. uint64 values above INT64_MAX are INVALID_ARGUMENT.
absl::Status IntTensorValues(const Tensor& t, std::vector<int64_t>* values);

// The value of `t`, which must hold exactly one integer element.
absl::Status IntTensorScalar(const Tensor& t, int64_t* value);

// The element count of `s` as TensorFlow's InferenceContext::NumElements computes it: a
// known 0 dim makes it 0 even when other dims are unknown; otherwise it is unknown if a dim
// is (or if the product overflows int64).
shape_inference::DimensionHandle NumElements(shape_inference::InferenceContext* c,
                                             shape_inference::ShapeHandle s);

}  // namespace shape_fn_util
}  // namespace sluice

#endif  // SLUICE_GRAPH_OPS_SHAPE_FN_UTIL_H_
