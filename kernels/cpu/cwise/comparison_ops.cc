// Greater, GreaterEqual, Less, LessEqual, Equal, NotEqual, LogicalAnd and LogicalOr on the
// CPU, over BinaryOp (binary_op.h); the output is bool. Equal/NotEqual honour
// incompatible_shape_error. Dtypes are TensorFlow's CPU registrations; int32 also on GPUs, in
// host memory.
#include "kernels/cpu/cwise/binary_op.h"
#include "kernels/cpu/cwise/cwise_functors.h"

namespace sluice {
namespace {

#define REGISTER_ORDERING(T)                                     \
  SLUICE_REGISTER_BINARY("Greater", GreaterFunctor, T)           \
  SLUICE_REGISTER_BINARY("GreaterEqual", GreaterEqualFunctor, T) \
  SLUICE_REGISTER_BINARY("Less", LessFunctor, T)                 \
  SLUICE_REGISTER_BINARY("LessEqual", LessEqualFunctor, T)
SLUICE_CALL_REAL_NUMBER_TYPES(REGISTER_ORDERING)
#undef REGISTER_ORDERING

#define REGISTER_EQUALITY(T)                       \
  SLUICE_REGISTER_BINARY("Equal", EqualFunctor, T) \
  SLUICE_REGISTER_BINARY("NotEqual", NotEqualFunctor, T)
SLUICE_CALL_REAL_NUMBER_TYPES(REGISTER_EQUALITY)
SLUICE_CALL_bool(REGISTER_EQUALITY) SLUICE_CALL_COMPLEX_TYPES(REGISTER_EQUALITY)
    SLUICE_CALL_string(REGISTER_EQUALITY) SLUICE_CALL_QUANTIZED_TYPES(REGISTER_EQUALITY)
#undef REGISTER_EQUALITY

        REGISTER_KERNEL_BUILDER(Name("LogicalAnd").Device(DEVICE_CPU),
                                BinaryOp<cwise::LogicalAndFunctor>);
REGISTER_KERNEL_BUILDER(Name("LogicalOr").Device(DEVICE_CPU), BinaryOp<cwise::LogicalOrFunctor>);

// int32 also on GPUs, in host memory (binary_op.h).
SLUICE_REGISTER_BINARY_INT32_ON_GPU("Greater", GreaterFunctor);
SLUICE_REGISTER_BINARY_INT32_ON_GPU("GreaterEqual", GreaterEqualFunctor);
SLUICE_REGISTER_BINARY_INT32_ON_GPU("Less", LessFunctor);
SLUICE_REGISTER_BINARY_INT32_ON_GPU("LessEqual", LessEqualFunctor);
SLUICE_REGISTER_BINARY_INT32_ON_GPU("Equal", EqualFunctor);
SLUICE_REGISTER_BINARY_INT32_ON_GPU("NotEqual", NotEqualFunctor);

}  // namespace
}  // namespace sluice
