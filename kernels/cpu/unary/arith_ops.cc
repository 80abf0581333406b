// Elementwise arithmetic of one tensor on the CPU: Neg, Abs, Sign, Square, Reciprocal, and
// the rounding ops Floor, Ceil, Round, Rint.
//
// Floating-point and complex elements use Eigen's functors, as TensorFlow does. Integer
// Neg, Abs and Square wrap around on overflow (-INT_MIN == INT_MIN), which is what
// TensorFlow produces on x86; they are computed in unsigned arithmetic so that the wrap is
// defined behaviour. Round rounds half to even ("banker's rounding"), as TensorFlow's Round
// does; on integers it is the identity.
#include <complex>
#include <cstdint>
#include <type_traits>

#include "graph/types.h"
#include "kernels/cpu/unary/unary_op.h"
#include "runtime/op_kernel.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sluice {
namespace {

using Eigen::internal::scalar_abs_op;
using Eigen::internal::scalar_ceil_op;
using Eigen::internal::scalar_floor_op;
using Eigen::internal::scalar_inverse_op;
using Eigen::internal::scalar_opposite_op;
using Eigen::internal::scalar_rint_op;
using Eigen::internal::scalar_sign_op;
using Eigen::internal::scalar_square_op;

template <typename T>
using Unsigned = std::make_unsigned_t<T>;

template <typename T>
struct WrappingNeg {
  static T Apply(T x) { return static_cast<T>(Unsigned<T>{0} - static_cast<Unsigned<T>>(x)); }
};

template <typename T>
struct WrappingAbs {
  static T Apply(T x) { return x < 0 ? WrappingNeg<T>::Apply(x) : x; }
};

// Widened to 64 bits first: uint16 * uint16 would otherwise promote to a signed int.
template <typename T>
struct WrappingSquare {
  static T Apply(T x) {
    const uint64_t u = static_cast<uint64_t>(x);
    return static_cast<T>(u * u);
  }
};

template <typename T>
struct Identity {
  static T Apply(T x) { return x; }
};

template <typename T, template <typename> class IntFn, typename EigenOp>
using IntOrEigen = std::conditional_t<std::is_integral_v<T>, ScalarUnaryFunctor<T, T, IntFn<T>, 1>,
                                      EigenUnaryFunctor<T, EigenOp>>;

template <typename T>
using NegFunctor = IntOrEigen<T, WrappingNeg, scalar_opposite_op<T>>;
template <typename T>
using AbsFunctor = IntOrEigen<T, WrappingAbs, scalar_abs_op<T>>;
template <typename T>
using SquareFunctor = IntOrEigen<T, WrappingSquare, scalar_square_op<T>>;
template <typename T>
using SignFunctor = EigenUnaryFunctor<T, scalar_sign_op<T>>;
// 1/z as conj(z) / |z|^2, as TensorFlow's vectorised complex division computes it (so
// 1/0 is NaN + NaN i, where std::complex would give an infinity).
template <typename T>
struct ComplexReciprocal {
  static T Apply(T z) {
    const typename T::value_type d = z.real() * z.real() + z.imag() * z.imag();
    return T(z.real() / d, -z.imag() / d);
  }
};

template <typename T>
struct IsComplex : std::false_type {};
template <typename T>
struct IsComplex<std::complex<T>> : std::true_type {};

template <typename T>
using ReciprocalFunctor =
    std::conditional_t<IsComplex<T>::value, ScalarUnaryFunctor<T, T, ComplexReciprocal<T>, 8>,
                       EigenUnaryFunctor<T, scalar_inverse_op<T>>>;
template <typename T>
using FloorFunctor = EigenUnaryFunctor<T, scalar_floor_op<T>>;
template <typename T>
using CeilFunctor = EigenUnaryFunctor<T, scalar_ceil_op<T>>;
// rint rounds half to even under the default rounding mode, which kernels never change.
template <typename T>
using RintFunctor = EigenUnaryFunctor<T, scalar_rint_op<T>>;
template <typename T>
using RoundFunctor = IntOrEigen<T, Identity, scalar_rint_op<T>>;

#define REGISTER_SIGNED(T)                      \
  SLUICE_REGISTER_UNARY("Neg", NegFunctor, T)   \
  SLUICE_REGISTER_UNARY("Sign", SignFunctor, T) \
  SLUICE_REGISTER_UNARY("Square", SquareFunctor, T)
SLUICE_CALL_FLOAT_TYPES(REGISTER_SIGNED)
SLUICE_CALL_COMPLEX_TYPES(REGISTER_SIGNED)
SLUICE_CALL_int8(REGISTER_SIGNED)
SLUICE_CALL_int16(REGISTER_SIGNED)
SLUICE_CALL_int32(REGISTER_SIGNED)
SLUICE_CALL_int64(REGISTER_SIGNED)
#undef REGISTER_SIGNED

#define REGISTER_ABS(T) SLUICE_REGISTER_UNARY("Abs", AbsFunctor, T)
SLUICE_CALL_FLOAT_TYPES(REGISTER_ABS)
SLUICE_CALL_int8(REGISTER_ABS)
SLUICE_CALL_int16(REGISTER_ABS)
SLUICE_CALL_int32(REGISTER_ABS)
SLUICE_CALL_int64(REGISTER_ABS)
#undef REGISTER_ABS

#define REGISTER_UNSIGNED_SQUARE(T) SLUICE_REGISTER_UNARY("Square", SquareFunctor, T)
SLUICE_CALL_uint8(REGISTER_UNSIGNED_SQUARE)
SLUICE_CALL_uint16(REGISTER_UNSIGNED_SQUARE)
SLUICE_CALL_uint32(REGISTER_UNSIGNED_SQUARE)
SLUICE_CALL_uint64(REGISTER_UNSIGNED_SQUARE)
#undef REGISTER_UNSIGNED_SQUARE

#define REGISTER_RECIPROCAL(T) SLUICE_REGISTER_UNARY("Reciprocal", ReciprocalFunctor, T)
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
