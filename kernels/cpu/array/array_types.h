// The dtypes the array kernels register, following TensorFlow's CPU registrations. The
// kernels move elements by size (graph/core/element_bytes.h), so one kernel class serves every
// dtype and these lists only choose which nodes find it. Dtypes a Sluice tensor cannot hold
// (variant, float8, int4) are left out.
#ifndef SLUICE_KERNELS_CPU_ARRAY_ARRAY_TYPES_H_
#define SLUICE_KERNELS_CPU_ARRAY_ARRAY_TYPES_H_

#include <initializer_list>

#include "graph/core/types.h"

namespace sluice {
namespace array_internal {

// Every real and complex number type, bool and string (TensorFlow's TF_CALL_ALL_TYPES),
// followed by `extra`.
inline DataTypeVector ArrayTypes(std::initializer_list<DataType> extra = {}) {
  DataTypeVector types = {DT_FLOAT,     DT_DOUBLE,     DT_HALF,  DT_BFLOAT16, DT_INT8,   DT_INT16,
                          DT_INT32,     DT_INT64,      DT_UINT8, DT_UINT16,   DT_UINT32, DT_UINT64,
                          DT_COMPLEX64, DT_COMPLEX128, DT_BOOL,  DT_STRING};
  // heap-ok: a DataTypeVector of the node's types
  types.insert(types.end(), extra.begin(), extra.end());
  return types;
}

// The dtypes the array kernels register for GPUs, whose copies are by element size as well
// (kernels/cuda/array_copies.cc). int32 is left to the CPU, as TensorFlow keeps int32 tensors
// in host memory; strings cannot live in device memory.
inline DataTypeVector GpuArrayTypes() {
  return {DT_FLOAT, DT_DOUBLE, DT_HALF,      DT_BFLOAT16,   DT_INT8, DT_INT16,
          DT_INT64, DT_UINT8,  DT_COMPLEX64, DT_COMPLEX128, DT_BOOL};
}

}  // namespace array_internal
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_ARRAY_ARRAY_TYPES_H_
