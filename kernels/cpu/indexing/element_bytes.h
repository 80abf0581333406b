// Helpers for kernels that move elements without looking at their values (gather, pad,
// space/depth): they are written once per element *size* rather than once per dtype, which
// keeps the number of template instantiations (and compile time) small.
//
// VisitByElementSize(dtype, fn) calls fn(ElementTypeTag<U>{}) with U an unsigned integer of
// the dtype's element size (1, 2, 4 or 8 bytes), Bytes16 for 16-byte elements (complex128),
// std::string for DT_STRING and ResourceHandleProto for DT_RESOURCE, and returns true; it
// returns false (without calling fn) for dtypes with no element type. Copying a U copies the
// element exactly (bool, floats including NaN payloads, quantized values), so only kernels
// that never compare or compute on elements may use it.
#ifndef SLUICE_KERNELS_CPU_INDEXING_ELEMENT_BYTES_H_
#define SLUICE_KERNELS_CPU_INDEXING_ELEMENT_BYTES_H_

#include <cstdint>
#include <string>

#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "proto/resource_handle.pb.h"

namespace sluice {

struct Bytes16 {
  uint64_t lo;
  uint64_t hi;
};

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

// The elements of `t` viewed as U, the type VisitByElementSize chose for t.dtype().
template <typename U>
const U* ElementsAs(const Tensor& t) {
  return static_cast<const U*>(t.raw_data());
}
template <typename U>
U* MutableElementsAs(Tensor* t) {
  return static_cast<U*>(t->raw_data());
}

// The coordinates of flat element `flat` of `shape` as TensorFlow prints them in index
// errors: "" for a scalar, "[4]" for a vector, "[1,2]" for a matrix.
std::string SliceDebugString(const TensorShape& shape, int64_t flat);

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_INDEXING_ELEMENT_BYTES_H_
