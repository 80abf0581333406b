// Dispatch on the real number dtypes, for array kernels that compare elements (searchsorted,
// set difference) and so need them typed, unlike the kernels that only move them.
#ifndef SLUICE_KERNELS_CPU_ARRAY_REAL_TYPES_H_
#define SLUICE_KERNELS_CPU_ARRAY_REAL_TYPES_H_

#include <cstdint>

#include "graph/core/tensor.h"
#include "graph/core/types.h"

namespace sluice {
namespace array_internal {

// TensorFlow's TF_CALL_REAL_NUMBER_TYPES.
inline DataTypeVector RealTypes() {
  return {DT_FLOAT, DT_DOUBLE, DT_HALF,  DT_BFLOAT16, DT_INT8,   DT_INT16,
          DT_INT32, DT_INT64,  DT_UINT8, DT_UINT16,   DT_UINT32, DT_UINT64};
}

// Calls fn(ElementTypeTag<E>{}) with the C++ type of a dtype of RealTypes() and returns true;
// false (fn not called) for any other dtype.
template <typename Fn>
bool VisitRealType(DataType dtype, Fn&& fn) {
  switch (dtype) {
    case DT_FLOAT:
      fn(ElementTypeTag<float>{});
      return true;
    case DT_DOUBLE:
      fn(ElementTypeTag<double>{});
      return true;
    case DT_HALF:
      fn(ElementTypeTag<half>{});
      return true;
    case DT_BFLOAT16:
      fn(ElementTypeTag<bfloat16>{});
      return true;
    case DT_INT8:
      fn(ElementTypeTag<int8_t>{});
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
    case DT_UINT8:
      fn(ElementTypeTag<uint8_t>{});
      return true;
    case DT_UINT16:
      fn(ElementTypeTag<uint16_t>{});
      return true;
    case DT_UINT32:
      fn(ElementTypeTag<uint32_t>{});
      return true;
    case DT_UINT64:
      fn(ElementTypeTag<uint64_t>{});
      return true;
    default:
      return false;
  }
}

}  // namespace array_internal
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_ARRAY_REAL_TYPES_H_
