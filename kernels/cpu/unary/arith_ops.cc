// Elementwise arithmetic of one tensor on the CPU: Neg, Abs, Sign, Square, Reciprocal (and
// its old name Inv), and the rounding ops Floor, Ceil, Round, Rint.
//
// Floating-point and complex elements use Eigen's functors, as TensorFlow does. Integer
// Neg, Abs and Square wrap around on overflow (-INT_MIN == INT_MIN), which is what
// TensorFlow produces on x86; they are computed in unsigned arithmetic so that the wrap is
// defined behaviour. Round rounds half to even ("banker's rounding"), as TensorFlow's Round
// does; on integers it is the identity.
#include <complex>
#include <cstdint>
#include <type_traits>

#include "graph/core/types.h"
#include "kernels/cpu/unary/unary_functors.h"
#include "kernels/cpu/unary/unary_op.h"
#include "runtime/framework/op_kernel.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sluice {
namespace {

using unary::AbsFunctor;
using unary::CeilFunctor;
using unary::FloorFunctor;
using unary::NegFunctor;
using unary::ReciprocalFunctor;
using unary::RintFunctor;
using unary::RoundFunctor;
using unary::SignFunctor;
using unary::SquareFunctor;

#define REGISTER_SIGNED(T)                      \
  SLUICE_REGISTER_UNARY("Neg", NegFunctor, T)   \
  SLUICE_REGISTER_UNARY("Sign", SignFunctor, T) \
  SLUICE_REGISTER_UNARY("Square", SquareFunctor, T)
SLUICE_CALL_FLOAT_TYPES(REGISTER_SIGNED)
SLUICE_CALL_COMPLEX_TYPES(REGISTER_SIGNED)
SLUICE_CALL_int8(REGISTER_SIGNED) SLUICE_CALL_int16(REGISTER_SIGNED) SLUICE_CALL_int32(
    REGISTER_SIGNED) SLUICE_CALL_int64(REGISTER_SIGNED)
#undef REGISTER_SIGNED

// int32 on GPUs, in host memory (TensorFlow's registrations): shape arithmetic.
#define REGISTER_INT32_ON_GPU(OP, FUNCTOR)                                                      \
  REGISTER_KERNEL_BUILDER(                                                                      \
      Name(OP).Device(DEVICE_GPU).HostMemory("x").HostMemory("y").TypeConstraint<int32_t>("T"), \
      ::sluice::UnaryOp<FUNCTOR<int32_t>>);
    REGISTER_INT32_ON_GPU("Neg", NegFunctor) REGISTER_INT32_ON_GPU("Sign", SignFunctor)
        REGISTER_INT32_ON_GPU("Square", SquareFunctor) REGISTER_INT32_ON_GPU("Abs", AbsFunctor)
#undef REGISTER_INT32_ON_GPU

#define REGISTER_ABS(T) SLUICE_REGISTER_UNARY("Abs", AbsFunctor, T)
            SLUICE_CALL_FLOAT_TYPES(REGISTER_ABS) SLUICE_CALL_int8(REGISTER_ABS) SLUICE_CALL_int16(
                REGISTER_ABS) SLUICE_CALL_int32(REGISTER_ABS) SLUICE_CALL_int64(REGISTER_ABS)
#undef REGISTER_ABS

#define REGISTER_UNSIGNED_SQUARE(T) SLUICE_REGISTER_UNARY("Square", SquareFunctor, T)
                SLUICE_CALL_uint8(REGISTER_UNSIGNED_SQUARE) SLUICE_CALL_uint16(
                    REGISTER_UNSIGNED_SQUARE) SLUICE_CALL_uint32(REGISTER_UNSIGNED_SQUARE)
                    SLUICE_CALL_uint64(REGISTER_UNSIGNED_SQUARE)
#undef REGISTER_UNSIGNED_SQUARE

#define REGISTER_RECIPROCAL(T)                              \
  SLUICE_REGISTER_UNARY("Reciprocal", ReciprocalFunctor, T) \
  SLUICE_REGISTER_UNARY("Inv", ReciprocalFunctor, T)
                        SLUICE_CALL_FLOAT_TYPES(REGISTER_RECIPROCAL)
                            SLUICE_CALL_COMPLEX_TYPES(REGISTER_RECIPROCAL)
#undef REGISTER_RECIPROCAL

#define REGISTER_ROUNDING(T)                      \
  SLUICE_REGISTER_UNARY("Floor", FloorFunctor, T) \
  SLUICE_REGISTER_UNARY("Ceil", CeilFunctor, T)   \
  SLUICE_REGISTER_UNARY("Round", RoundFunctor, T)
                                SLUICE_CALL_FLOAT_TYPES(REGISTER_ROUNDING)
#undef REGISTER_ROUNDING

                                    SLUICE_REGISTER_UNARY("Round", RoundFunctor, int32_t)
                                        SLUICE_REGISTER_UNARY("Round", RoundFunctor, int64_t)
                                            SLUICE_REGISTER_UNARY("Rint", RintFunctor, float)
                                                SLUICE_REGISTER_UNARY("Rint", RintFunctor, double)

}  // namespace
}  // namespace sluice
