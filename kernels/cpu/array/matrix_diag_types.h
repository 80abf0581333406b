// The dtypes the diagonal kernels register on the CPU: TensorFlow's TF_CALL_POD_TYPES, every
// number type and bool. The kernels move elements by size, so the list only chooses which
// nodes find them.
#ifndef SLUICE_KERNELS_CPU_ARRAY_MATRIX_DIAG_TYPES_H_
#define SLUICE_KERNELS_CPU_ARRAY_MATRIX_DIAG_TYPES_H_

#include "graph/core/types.h"

namespace sluice {
namespace matrix_diag {

inline DataTypeVector MatrixDiagTypes() {
  return {DT_FLOAT,  DT_DOUBLE, DT_HALF,      DT_BFLOAT16,   DT_INT8,
          DT_INT16,  DT_INT32,  DT_INT64,     DT_UINT8,      DT_UINT16,
          DT_UINT32, DT_UINT64, DT_COMPLEX64, DT_COMPLEX128, DT_BOOL};
}

}  // namespace matrix_diag
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_ARRAY_MATRIX_DIAG_TYPES_H_
