// Helpers for kernels whose index inputs come in several integer dtypes (Tindices, TI,
// Tpaddings, Taxis): dispatch on the dtype at run time, so the kernel class itself is not a
// template over the index type.
//
// VisitIndexType(dtype, fn) calls fn(ElementTypeTag<I>{}) for I in {int8, uint8, int16,
// int32, int64} and returns true; false (fn not called) for other dtypes. Registrations
// restrict which dtypes reach a kernel, so the false branch is never taken by a valid node.
#ifndef SLUICE_KERNELS_CPU_INDEXING_INDEX_TYPES_H_
#define SLUICE_KERNELS_CPU_INDEXING_INDEX_TYPES_H_

#include <cstdint>
#include <limits>

#include "graph/core/tensor.h"
#include "graph/core/types.h"

namespace sluice {

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

// Element `i` of an integer tensor of an index dtype, widened to int64.
// REQUIRES: 0 <= i < t.NumElements().
inline int64_t ReadIndex(const Tensor& t, int64_t i) {
  int64_t value = 0;
  VisitIndexType(t.dtype(), [&](auto tag) {
    value = static_cast<int64_t>(t.base<typename decltype(tag)::type>()[i]);
  });
  return value;
}

// The value of a one-element integer tensor (a scalar axis or depth), widened to int64.
inline int64_t ReadIndexScalar(const Tensor& t) { return ReadIndex(t, 0); }

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_INDEXING_INDEX_TYPES_H_
