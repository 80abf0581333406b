// Add, AddV2, Sub, Mul and SquaredDifference on the CPU, over BinaryOp (binary_op.h).
// Dtypes are TensorFlow's CPU registrations (Add of strings concatenates); int32 also on GPUs,
// in host memory.
#include "kernels/cpu/cwise/binary_op.h"
#include "kernels/cpu/cwise/cwise_functors.h"

namespace sluice {
namespace {

// int32 also on GPUs, in host memory (binary_op.h).
SLUICE_REGISTER_BINARY_INT32_ON_GPU("Add", AddFunctor);
SLUICE_REGISTER_BINARY_INT32_ON_GPU("AddV2", AddFunctor);
SLUICE_REGISTER_BINARY_INT32_ON_GPU("Sub", SubFunctor);
SLUICE_REGISTER_BINARY_INT32_ON_GPU("Mul", MulFunctor);

#define REGISTER_ADD(T) SLUICE_REGISTER_BINARY("Add", AddFunctor, T)
SLUICE_CALL_FLOAT_TYPES(REGISTER_ADD)
SLUICE_CALL_int8(REGISTER_ADD) SLUICE_CALL_int16(REGISTER_ADD) SLUICE_CALL_int32(REGISTER_ADD)
    SLUICE_CALL_int64(REGISTER_ADD) SLUICE_CALL_uint8(REGISTER_ADD)
        SLUICE_CALL_COMPLEX_TYPES(REGISTER_ADD) SLUICE_CALL_string(REGISTER_ADD)
#undef REGISTER_ADD

#define REGISTER_ARITHMETIC(T)                   \
  SLUICE_REGISTER_BINARY("AddV2", AddFunctor, T) \
  SLUICE_REGISTER_BINARY("Sub", SubFunctor, T)   \
  SLUICE_REGISTER_BINARY("Mul", MulFunctor, T)
            SLUICE_CALL_NUMBER_TYPES(REGISTER_ARITHMETIC)
#undef REGISTER_ARITHMETIC

#define REGISTER_SQUARED_DIFFERENCE(T) \
  SLUICE_REGISTER_BINARY("SquaredDifference", SquaredDifferenceFunctor, T)
                SLUICE_CALL_FLOAT_TYPES(REGISTER_SQUARED_DIFFERENCE)
                    SLUICE_CALL_int32(REGISTER_SQUARED_DIFFERENCE)
                        SLUICE_CALL_int64(REGISTER_SQUARED_DIFFERENCE)
                            SLUICE_CALL_COMPLEX_TYPES(REGISTER_SQUARED_DIFFERENCE)
#undef REGISTER_SQUARED_DIFFERENCE

}  // namespace
}  // namespace sluice
