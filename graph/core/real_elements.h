// VisitRealElements: one switch from a tensor's dtype to its element type, for code that
// reads the elements of any real-number or bool tensor as numbers (statistics, NaN counts,
// summaries) and has no use for the other dtypes.
#ifndef SLUICE_GRAPH_CORE_REAL_ELEMENTS_H_
#define SLUICE_GRAPH_CORE_REAL_ELEMENTS_H_

#include <cstdint>

#include "graph/core/tensor.h"
#include "graph/core/types.h"

namespace sluice {

// Calls visit(const T* data) with the tensor's elements for the real-number and bool dtypes
// and returns true; returns false, calling nothing, for the others.
template <typename Visit>
bool VisitRealElements(const Tensor& tensor, Visit visit) {
  switch (tensor.dtype()) {
    case DT_FLOAT:
      visit(tensor.base<float>());
      return true;
    case DT_DOUBLE:
      visit(tensor.base<double>());
      return true;
    case DT_HALF:
      visit(tensor.base<half>());
      return true;
    case DT_BFLOAT16:
      visit(tensor.base<bfloat16>());
      return true;
    case DT_INT8:
      visit(tensor.base<int8_t>());
      return true;
    case DT_INT16:
      visit(tensor.base<int16_t>());
      return true;
    case DT_INT32:
      visit(tensor.base<int32_t>());
      return true;
    case DT_INT64:
      visit(tensor.base<int64_t>());
      return true;
    case DT_UINT8:
      visit(tensor.base<uint8_t>());
      return true;
    case DT_UINT16:
      visit(tensor.base<uint16_t>());
      return true;
    case DT_UINT32:
      visit(tensor.base<uint32_t>());
      return true;
    case DT_UINT64:
      visit(tensor.base<uint64_t>());
      return true;
    case DT_BOOL:
      visit(tensor.base<bool>());
      return true;
    default:
      return false;
  }
}

}  // namespace sluice

#endif  // SLUICE_GRAPH_CORE_REAL_ELEMENTS_H_
