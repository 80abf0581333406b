// Div, RealDiv, DivNoNan, FloorDiv, FloorMod, TruncateDiv and TruncateMod on the CPU, over
// BinaryOp (binary_op.h). Integer division or modulo by zero is INVALID_ARGUMENT
// "Integer division by zero" (INTERNAL for TruncateDiv/TruncateMod, as in TensorFlow).
// Dtypes are TensorFlow's CPU registrations.
#include "kernels/cpu/cwise/binary_op.h"
#include "kernels/cpu/cwise/cwise_functors.h"

namespace sluice {
namespace {

// int32 also on GPUs, in host memory (binary_op.h).
SLUICE_REGISTER_BINARY_INT32_ON_GPU("FloorDiv", FloorDivFunctor);
SLUICE_REGISTER_BINARY_INT32_ON_GPU("FloorMod", FloorModFunctor);

#define REGISTER_DIVISION(T)                             \
  SLUICE_REGISTER_BINARY("Div", DivFunctor, T)           \
  SLUICE_REGISTER_BINARY("FloorDiv", FloorDivFunctor, T) \
  SLUICE_REGISTER_BINARY("FloorMod", FloorModFunctor, T)
SLUICE_CALL_REAL_NUMBER_TYPES(REGISTER_DIVISION)
#undef REGISTER_DIVISION

#define REGISTER_FLOAT_DIVISION(T)                       \
  SLUICE_REGISTER_BINARY("RealDiv", DivFunctor, T)       \
  SLUICE_REGISTER_BINARY("DivNoNan", DivNoNanFunctor, T) \
  SLUICE_REGISTER_BINARY("TruncateDiv", TruncateDivFloatFunctor, T)
SLUICE_CALL_FLOAT_TYPES(REGISTER_FLOAT_DIVISION)
#undef REGISTER_FLOAT_DIVISION

#define REGISTER_COMPLEX_DIVISION(T)               \
  SLUICE_REGISTER_BINARY("Div", DivFunctor, T)     \
  SLUICE_REGISTER_BINARY("RealDiv", DivFunctor, T) \
  SLUICE_REGISTER_BINARY("DivNoNan", DivNoNanFunctor, T)
SLUICE_CALL_COMPLEX_TYPES(REGISTER_COMPLEX_DIVISION)
#undef REGISTER_COMPLEX_DIVISION

#define REGISTER_TRUNCATE_DIV(T) SLUICE_REGISTER_BINARY("TruncateDiv", DivFunctor, T)
SLUICE_CALL_INTEGRAL_TYPES(REGISTER_TRUNCATE_DIV)
#undef REGISTER_TRUNCATE_DIV

#define REGISTER_TRUNCATE_MOD(T) SLUICE_REGISTER_BINARY("TruncateMod", TruncateModFunctor, T)
SLUICE_CALL_float(REGISTER_TRUNCATE_MOD) SLUICE_CALL_double(REGISTER_TRUNCATE_MOD)
    SLUICE_CALL_int32(REGISTER_TRUNCATE_MOD) SLUICE_CALL_int64(REGISTER_TRUNCATE_MOD)
#undef REGISTER_TRUNCATE_MOD
}  // namespace
}  // namespace sluice
