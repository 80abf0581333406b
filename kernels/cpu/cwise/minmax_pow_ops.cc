// Maximum, Minimum and Pow on the CPU, over BinaryOp (binary_op.h). Maximum/Minimum of
// floats propagate NaN; integers to negative powers are INVALID_ARGUMENT. Dtypes are
// TensorFlow's CPU registrations.
#include "kernels/cpu/cwise/binary_op.h"
#include "kernels/cpu/cwise/cwise_functors.h"

namespace sluice {
namespace {

// int32 also on GPUs, in host memory (binary_op.h).
SLUICE_REGISTER_BINARY_INT32_ON_GPU("Maximum", MaximumFunctor);
SLUICE_REGISTER_BINARY_INT32_ON_GPU("Minimum", MinimumFunctor);

#define REGISTER_MINMAX(T)                             \
  SLUICE_REGISTER_BINARY("Maximum", MaximumFunctor, T) \
  SLUICE_REGISTER_BINARY("Minimum", MinimumFunctor, T)
SLUICE_CALL_REAL_NUMBER_TYPES(REGISTER_MINMAX)
#undef REGISTER_MINMAX

#define REGISTER_POW(T) SLUICE_REGISTER_BINARY("Pow", PowFunctor, T)
SLUICE_CALL_FLOAT_TYPES(REGISTER_POW)
SLUICE_CALL_int8(REGISTER_POW) SLUICE_CALL_int16(REGISTER_POW) SLUICE_CALL_int32(REGISTER_POW)
    SLUICE_CALL_int64(REGISTER_POW) SLUICE_CALL_COMPLEX_TYPES(REGISTER_POW)
#undef REGISTER_POW
}  // namespace
}  // namespace sluice
