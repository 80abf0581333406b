// The complex-number kernels on the CPU: Complex (real, imag -> z, broadcasting as every
// binary op does), Real, Imag, ComplexAbs (|z| = hypot(re, im), so no overflow or underflow
// in between, and |inf + NaN i| = inf), Angle (atan2(im, re), so the sign of a zero
// imaginary part picks +pi or -pi on the negative real axis) and Conj.
//
// As in TensorFlow, each registers the pairs float <-> complex64 and double <-> complex128
// only; another pair (Tout=complex128 for float parts) finds no kernel. Conj's variant
// kernel (for TensorLists of complex tensors) is not implemented.
#include <complex>

#include "graph/core/types.h"
#include "kernels/cpu/cwise/binary_op.h"
#include "kernels/cpu/unary/unary_op.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

template <typename Real>
struct MakeComplexFunctor : CwiseFunctor<Real, std::complex<Real>> {
  static std::complex<Real> Apply(Real re, Real im) { return std::complex<Real>(re, im); }
};

template <typename C>
struct RealPart {
  static typename C::value_type Apply(C z) { return z.real(); }
};
template <typename C>
struct ImagPart {
  static typename C::value_type Apply(C z) { return z.imag(); }
};
template <typename C>
struct Modulus {
  static typename C::value_type Apply(C z) { return std::abs(z); }
};
template <typename C>
struct Argument {
  static typename C::value_type Apply(C z) { return std::arg(z); }
};
template <typename C>
struct Conjugate {
  static C Apply(C z) { return std::conj(z); }
};

template <typename C, template <typename> class Part, int kCycles>
using PartFunctor = ScalarUnaryFunctor<C, typename C::value_type, Part<C>, kCycles>;

#define REGISTER_COMPLEX(Real)                                             \
  REGISTER_KERNEL_BUILDER(Name("Complex")                                  \
                              .Device(DEVICE_CPU)                          \
                              .TypeConstraint<Real>("T")                   \
                              .TypeConstraint<std::complex<Real>>("Tout"), \
                          BinaryOp<MakeComplexFunctor<Real>>);
SLUICE_CALL_float(REGISTER_COMPLEX) SLUICE_CALL_double(REGISTER_COMPLEX)
#undef REGISTER_COMPLEX

#define REGISTER_PART(op, Part, cycles, C)                                     \
  REGISTER_KERNEL_BUILDER(Name(op)                                             \
                              .Device(DEVICE_CPU)                              \
                              .TypeConstraint<C>("T")                          \
                              .TypeConstraint<typename C::value_type>("Tout"), \
                          UnaryOp<PartFunctor<C, Part, cycles>>);
#define REGISTER_PARTS(C)                     \
  REGISTER_PART("Real", RealPart, 1, C)       \
  REGISTER_PART("Imag", ImagPart, 1, C)       \
  REGISTER_PART("ComplexAbs", Modulus, 20, C) \
  REGISTER_PART("Angle", Argument, 40, C)
    SLUICE_CALL_COMPLEX_TYPES(REGISTER_PARTS)
#undef REGISTER_PARTS
#undef REGISTER_PART

#define REGISTER_CONJ(C)                                                          \
  REGISTER_KERNEL_BUILDER(Name("Conj").Device(DEVICE_CPU).TypeConstraint<C>("T"), \
                          UnaryOp<ScalarUnaryFunctor<C, C, Conjugate<C>, 1>>);
        SLUICE_CALL_COMPLEX_TYPES(REGISTER_CONJ)
#undef REGISTER_CONJ

}  // namespace
}  // namespace sluice
