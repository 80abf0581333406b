// Moving elements without looking at them: the one helper for code that copies, fills or
// rearranges tensor elements whatever their dtype (Tensor::DeepCopy, variable assignment, the
// shape, layout, gather and pad kernels).
//
// Such code is written once per element *size* rather than once per dtype: POD elements move
// as unsigned integers of their size (Bytes16 for complex128), DT_STRING, DT_RESOURCE and
// DT_VARIANT elements are objects and are assigned one by one (a Variant shares its value). Copying
// a unit copies the element exactly (bool, NaN payloads, quantized values), so only code that never
// compares or computes on elements may use it; in exchange a kernel has a handful of template
// instantiations whatever dtypes it registers.
//
// Contract: counts are in elements; source and destination ranges do not overlap.
#ifndef SLUICE_GRAPH_CORE_ELEMENT_BYTES_H_
#define SLUICE_GRAPH_CORE_ELEMENT_BYTES_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "graph/core/variant.h"
#include "proto/resource_handle.pb.h"

namespace sluice {

// The 16-byte POD unit (complex128).
struct Bytes16 {
  uint64_t lo;
  uint64_t hi;
};

// Calls fn(ElementTypeTag<U>{}) with the unit U that moves elements of `dtype` (uint8_t,
// uint16_t, uint32_t, uint64_t or Bytes16 for POD dtypes, std::string for DT_STRING,
// ResourceHandleProto for DT_RESOURCE, Variant for DT_VARIANT) and returns true; returns false
// without calling `fn` for dtypes whose elements cannot be moved (DT_INVALID, sub-byte types).
template <typename Fn>
bool VisitByElementSize(DataType dtype, Fn&& fn) {
  if (dtype == DT_STRING) {
    fn(ElementTypeTag<std::string>{});
    return true;
  }
  if (dtype == DT_RESOURCE) {
    fn(ElementTypeTag<ResourceHandleProto>{});
    return true;
  }
  if (dtype == DT_VARIANT) {
    fn(ElementTypeTag<Variant>{});
    return true;
  }
  if (!DataTypeCanUseMemcpy(dtype)) return false;
  switch (DataTypeSize(dtype)) {
    case 1:
      fn(ElementTypeTag<uint8_t>{});
      return true;
    case 2:
      fn(ElementTypeTag<uint16_t>{});
      return true;
    case 4:
      fn(ElementTypeTag<uint32_t>{});
      return true;
    case 8:
      fn(ElementTypeTag<uint64_t>{});
      return true;
    case 16:
      fn(ElementTypeTag<Bytes16>{});
      return true;
    default:
      return false;
  }
}

// The elements of `t` viewed as U, the unit VisitByElementSize chose for t.dtype().
template <typename U>
const U* ElementsAs(const Tensor& t) {
  return static_cast<const U*>(t.raw_data());
}
template <typename U>
U* MutableElementsAs(Tensor* t) {
  return static_cast<U*>(t->raw_data());
}

// dst[i] = src[i] for i in [0, n), with U a unit VisitByElementSize chose.
template <typename U>
void CopyUnits(const U* src, U* dst, int64_t n) {
  if constexpr (std::is_trivially_copyable_v<U>) {
    if (n > 0) std::memcpy(dst, src, static_cast<size_t>(n) * sizeof(U));
  } else {
    for (int64_t i = 0; i < n; ++i) dst[i] = src[i];
  }
}

// dst[i] = src[i] for i in [0, n), for elements of `dtype`. Returns false (copying nothing)
// for a dtype VisitByElementSize rejects.
bool CopyElements(DataType dtype, const void* src, void* dst, int64_t n);

// dst[i] = *value for i in [0, n), for elements of `dtype`. Returns false (writing nothing)
// for a dtype VisitByElementSize rejects.
bool FillElements(DataType dtype, const void* value, void* dst, int64_t n);

// Copies the elements of `from` into `to`'s buffer. REQUIRES: the same dtype and element
// count, a dtype VisitByElementSize accepts (CHECKed: these are the caller's invariants).
void CopyTensorElements(const Tensor& from, Tensor* to);

}  // namespace sluice

#endif  // SLUICE_GRAPH_CORE_ELEMENT_BYTES_H_
