// Reading the small integer tensors that ops take as arguments (shapes, axes, sizes, paddings,
// permutations, multiples, indices): the one helper for shape functions and kernels alike.
//
// Such a tensor's dtype is an attr the user chose (Tidx, Tshape, Tpaddings, Tindices, ...), so
// readers dispatch on it at run time rather than making their callers templates over it, and
// report a dtype that is not an integer as INVALID_ARGUMENT, so that a mistyped constant never
// reaches the CHECKs of Tensor's typed views. Callers check ranks and element counts
// themselves, with their own op's message, before reading.
#ifndef SLUICE_GRAPH_CORE_INTEGER_TENSOR_H_
#define SLUICE_GRAPH_CORE_INTEGER_TENSOR_H_

#include <cstdint>
#include <limits>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"

namespace sluice {

// Room for the values of a shape or axis list of typical rank without a heap allocation.
using IntegerValues = absl::InlinedVector<int64_t, 8>;

// The elements of `t`, in row-major order, widened to int64. Any integer dtype (int8, int16,
// int32, int64, uint8, uint16, uint32, uint64); INVALID_ARGUMENT for other dtypes and for
// uint64 values above INT64_MAX.
absl::Status IntegerTensorValues(const Tensor& t, IntegerValues* values);

// Writes the elements of `t`, widened to int64, to values[0 .. t.NumElements()), with
// IntegerTensorValues' dtypes and errors; for callers that own the memory (a kernel's scratch).
// For a dtype that is not an integer (DataTypeIsInteger) the error comes first and `values` is
// not touched, so callers may size their memory only once the dtype is known to be good.
absl::Status WidenIntegerTensor(const Tensor& t, int64_t* values);

// The value of `t`, which must hold exactly one integer element (a scalar or a one-element
// vector); INVALID_ARGUMENT otherwise, as IntegerTensorValues.
absl::Status IntegerTensorScalar(const Tensor& t, int64_t* value);

// For kernels whose inner loops are templates over the index type: calls
// fn(ElementTypeTag<I>{}) for I in {int8, uint8, int16, int32, int64}, the index dtypes
// TensorFlow's kernels register, and returns true; returns false (fn not called) for other
// dtypes. Registrations restrict which dtypes reach a kernel, so the false branch is never
// taken by a valid node.
template <typename Fn>
bool VisitIndexType(DataType dtype, Fn&& fn) {
  switch (dtype) {
    case DT_INT8:
      fn(ElementTypeTag<int8_t>{});
      return true;
    case DT_UINT8:
      fn(ElementTypeTag<uint8_t>{});
      return true;
    case DT_INT16:
      fn(ElementTypeTag<int16_t>{});
      return true;
    case DT_INT32:
      fn(ElementTypeTag<int32_t>{});
      return true;
    case DT_INT64:
      fn(ElementTypeTag<int64_t>{});
      return true;
    default:
      return false;
  }
}

// The largest value of an index dtype; int64's for dtypes VisitIndexType does not know.
inline int64_t MaxIndexValue(DataType dtype) {
  int64_t max = std::numeric_limits<int64_t>::max();
  VisitIndexType(dtype, [&](auto tag) {
    max = static_cast<int64_t>(std::numeric_limits<typename decltype(tag)::type>::max());
  });
  return max;
}

// Element `i` of a tensor of an index dtype (see VisitIndexType), widened to int64, for a
// kernel that has already validated the tensor. REQUIRES: 0 <= i < t.NumElements(); 0 for a
// dtype VisitIndexType does not know.
inline int64_t IndexElement(const Tensor& t, int64_t i) {
  int64_t value = 0;
  VisitIndexType(t.dtype(), [&](auto tag) {
    value = static_cast<int64_t>(t.base<typename decltype(tag)::type>()[i]);
  });
  return value;
}

}  // namespace sluice

#endif  // SLUICE_GRAPH_CORE_INTEGER_TENSOR_H_
