// Type-agnostic element movement for the array kernels.
//
// Shape and layout ops move elements without looking at them, so they are written once per
// element *size* rather than per dtype: POD dtypes are copied as 1-, 2-, 4-, 8- or 16-byte
// units; DT_STRING and DT_RESOURCE elements are objects and are assigned one by one. This
// keeps each kernel at a handful of template instantiations whatever dtypes it registers.
//
// Contract: every function here takes raw element pointers of a tensor of `dtype` and counts
// in elements. REQUIRES (the caller's invariant): `dtype` is a dtype a Tensor can hold, i.e.
// POD, DT_STRING or DT_RESOURCE; ranges do not overlap.
#ifndef SLUICE_KERNELS_CPU_ARRAY_ELEMENT_COPY_H_
#define SLUICE_KERNELS_CPU_ARRAY_ELEMENT_COPY_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "graph/core/types.h"
#include "proto/resource_handle.pb.h"

namespace sluice {
namespace array_internal {

// The 16-byte POD unit (complex128).
struct Unit16 {
  uint64_t lo;
  uint64_t hi;
};

// Calls fn(ElementUnit<U>{}) with the unit type U that moves elements of `dtype`:
// uint8_t/uint16_t/uint32_t/uint64_t/Unit16 for POD dtypes, std::string or
// ResourceHandleProto for objects.
template <typename U>
struct ElementUnit {
  using type = U;
};

template <typename Fn>
void VisitElementUnit(DataType dtype, Fn&& fn) {
  if (dtype == DT_STRING) return fn(ElementUnit<std::string>{});
  if (dtype == DT_RESOURCE) return fn(ElementUnit<ResourceHandleProto>{});
  switch (DataTypeSize(dtype)) {
    case 1:
      return fn(ElementUnit<uint8_t>{});
    case 2:
      return fn(ElementUnit<uint16_t>{});
    case 4:
      return fn(ElementUnit<uint32_t>{});
    case 8:
      return fn(ElementUnit<uint64_t>{});
    default:
      return fn(ElementUnit<Unit16>{});
  }
}

// dst[i] = src[i] for i in [0, n), with U the unit VisitElementUnit chose.
template <typename U>
void CopyUnits(const U* src, U* dst, int64_t n) {
  if constexpr (std::is_trivially_copyable_v<U>) {
    if (n > 0) std::memcpy(dst, src, static_cast<size_t>(n) * sizeof(U));
  } else {
    for (int64_t i = 0; i < n; ++i) dst[i] = src[i];
  }
}

// dst[i] = src[i] for i in [0, n).
void CopyElements(DataType dtype, const void* src, void* dst, int64_t n);

// dst[i] = *value for i in [0, n).
void FillElements(DataType dtype, const void* value, void* dst, int64_t n);

}  // namespace array_internal
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_ARRAY_ELEMENT_COPY_H_
