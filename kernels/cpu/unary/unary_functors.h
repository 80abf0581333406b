// The functors of the elementwise ops of one tensor that more than one kernel evaluates:
// the op's own UnaryOp kernel (registered in arith_ops.cc, transcendental_ops.cc and
// activation_ops.cc) and `_FusedElementwise` (kernels/cpu/cwise/fused_elementwise_op.cc),
// which must compute exactly what the op's kernel computes. Each is a UnaryOp functor
// (unary_op.h): Eigen's scalar functor for floating-point and complex elements, as
// TensorFlow uses; integer Neg, Abs and Square wrap around on overflow, computed in
// unsigned arithmetic so that the wrap is defined behaviour.
#ifndef SLUICE_KERNELS_CPU_UNARY_UNARY_FUNCTORS_H_
#define SLUICE_KERNELS_CPU_UNARY_UNARY_FUNCTORS_H_

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernels/cpu/unary/unary_op.h"
#include "numerics/erf_float.h"
#include "numerics/erfc_float.h"
#include "numerics/exp_float.h"
#include "numerics/log_float.h"
#include "numerics/reciprocal.h"
#include "numerics/rsqrt.h"
#include "numerics/sigmoid_tanh_float.h"
#include "numerics/sqrt.h"
#include "unsupported/Eigen/CXX11/Tensor"
#include "unsupported/Eigen/SpecialFunctions"

namespace sluice {
namespace unary {

namespace ei = Eigen::internal;

// Arithmetic: Neg, Abs, Square, Reciprocal, Sign and the rounding ops.

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
using NegFunctor = IntOrEigen<T, WrappingNeg, ei::scalar_opposite_op<T>>;
template <typename T>
using AbsFunctor = IntOrEigen<T, WrappingAbs, ei::scalar_abs_op<T>>;
template <typename T>
using SquareFunctor = IntOrEigen<T, WrappingSquare, ei::scalar_square_op<T>>;
// Float and double Sign: 1 or -1, else the input's magnitude (+0 for either zero, NaN for NaN,
// and a subnormal, neither above nor below zero as the processor compares it, as its
// magnitude), which is TensorFlow 2.21's; Eigen 3.4's gives 0 for a subnormal.
template <typename T>
struct SignOrSelf {
  static T Apply(T x) { return x > T(0) ? T(1) : (x < T(0) ? T(-1) : std::fabs(x)); }
};
template <typename T>
using SignFunctor = std::conditional_t<
    std::is_floating_point_v<T>,
    ScalarUnaryFunctor<T, T, SignOrSelf<T>, ei::functor_traits<ei::scalar_sign_op<T>>::Cost>,
    EigenUnaryFunctor<T, ei::scalar_sign_op<T>>>;
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

// A UnaryOp functor over one of numerics/' whole-array functions, fn(x, y, n): those that give
// TensorFlow 2.21's bits where Eigen 3.4's functor does not. UnaryOp's ranges start at
// multiples of kBlockAlign and `_FusedElementwise`'s tiles at multiples of its tile, so every
// range but a tensor's last has a length that is a multiple of 8, and the last one's remainder
// is the tensor's: a range's own last size % 8 elements are the tensor's scalar tail, which is
// what the functions that split a tensor into packets and a tail (Rsqrt, Reciprocal) need.
template <typename T, void (*kFunction)(const T*, T*, int64_t), int kCost>
struct NumericsFunctor {
  using In = T;
  using Out = T;
  static constexpr int kCycles = kCost;
  template <typename X, typename Y>
  void operator()(const X& x, Y& y) const {
    kFunction(x.data(), y.data(), x.size());
  }
};

// Float elements by numerics/' function `kFloat`, at the cost Eigen gives its functor `Op`;
// other element types by `Other` (Eigen's functor by default).
using FloatArrayFunction = void (*)(const float*, float*, int64_t);
template <typename T, FloatArrayFunction kFloat, template <typename> class Op,
          typename Other = EigenUnaryFunctor<T, Op<T>>>
using FloatFromNumerics =
    std::conditional_t<std::is_same_v<T, float>,
                       NumericsFunctor<float, kFloat, ei::functor_traits<Op<float>>::Cost>, Other>;

// Float Reciprocal is TensorFlow 2.21's (numerics/reciprocal.h): the processor's estimate and
// one Newton step in packets of 8, 1 / x for the tensor's last total % 8 elements. Eigen 3.4's
// functor divides, which differs from TensorFlow for about one float in three. Double and
// half and bfloat16 divide (the latter in float, rounded once), as TensorFlow's do.
template <typename T>
using ReciprocalFunctor =
    std::conditional_t<IsComplex<T>::value, ScalarUnaryFunctor<T, T, ComplexReciprocal<T>, 8>,
                       FloatFromNumerics<T, numerics::ReciprocalFloat, ei::scalar_inverse_op>>;
template <typename T>
using FloorFunctor = EigenUnaryFunctor<T, ei::scalar_floor_op<T>>;
template <typename T>
using CeilFunctor = EigenUnaryFunctor<T, ei::scalar_ceil_op<T>>;
// rint rounds half to even under the default rounding mode, which kernels never change.
template <typename T>
using RintFunctor = EigenUnaryFunctor<T, ei::scalar_rint_op<T>>;
template <typename T>
using RoundFunctor = IntOrEigen<T, Identity, ei::scalar_rint_op<T>>;

// Transcendental functions.

// Float and double Sqrt are correctly rounded (numerics/sqrt.h: the CPU's sqrt instruction),
// as TensorFlow 2.21's are. Eigen 3.4's vectorised float sqrt is an rsqrt approximation and a
// Newton step (1 to 3 units in the last place off, NaN for +inf). half and bfloat16 keep
// Eigen's path, the float square root rounded to the type, which is TensorFlow's for every
// half and every bfloat16 (the latter's subnormals aside, which TensorFlow flushes to zero).
template <typename T>
using SqrtFunctor = std::conditional_t<
    std::is_same_v<T, float>,
    NumericsFunctor<float, numerics::SqrtFloat,
                    ei::functor_traits<ei::scalar_sqrt_op<float>>::Cost>,
    std::conditional_t<std::is_same_v<T, double>,
                       NumericsFunctor<double, numerics::SqrtDouble,
                                       ei::functor_traits<ei::scalar_sqrt_op<double>>::Cost>,
                       EigenUnaryFunctor<T, ei::scalar_sqrt_op<T>>>>;

// EigenWithFixups runs Eigen's functor over the tensor, then recomputes the elements for
// which Fixup::Needs(x) holds with Fixup::Apply(x). Those elements are noted before y is
// written, as y may be x's own buffer.
template <typename T, typename EigenOp, typename Fixup>
struct EigenWithFixups : EigenUnaryFunctor<T, EigenOp> {
  template <typename X, typename Y>
  void operator()(const X& x, Y& y) const {
    const T* in = x.data();
    const Eigen::Index n = x.size();
    std::vector<std::pair<Eigen::Index, T>> fixups;
    for (Eigen::Index i = 0; i < n; ++i) {
      if (Fixup::Needs(in[i])) fixups.emplace_back(i, in[i]);
    }
    y = x.unaryExpr(EigenOp());
    T* out = y.data();
    for (const auto& [i, v] : fixups) out[i] = Fixup::Apply(v);
  }
};

// half and bfloat16 Rsqrt: 1 / sqrt(x) in float, rounded once to the type, which is
// TensorFlow's for every half and every bfloat16 (subnormals aside, as for Sqrt). Eigen 3.4's
// functor divides in the type itself after rounding the root to it, two roundings that differ
// from TensorFlow for about one value in eight.
template <typename T>
struct RsqrtThroughFloat {
  static T Apply(T x) { return static_cast<T>(1.0f / std::sqrt(static_cast<float>(x))); }
};
template <typename T>
inline constexpr bool kIsHalfOrBfloat16 =
    std::is_same_v<T, Eigen::half> || std::is_same_v<T, Eigen::bfloat16>;
// Float Rsqrt: TensorFlow 2.21's (numerics/rsqrt.h), the processor's estimate and one Newton
// step in packets of 8, 1 / sqrt(x) for the tensor's last total % 8 elements.
using TensorFlowRsqrtFloat = NumericsFunctor<float, numerics::RsqrtFloat,
                                             ei::functor_traits<ei::scalar_rsqrt_op<float>>::Cost>;
// Double (and complex) Rsqrt keep Eigen's functor: 1 / sqrt(x), correctly rounded twice.
template <typename T>
using RsqrtFunctor =
    std::conditional_t<kIsHalfOrBfloat16<T>,
                       ScalarUnaryFunctor<T, T, RsqrtThroughFloat<T>,
                                          ei::functor_traits<ei::scalar_rsqrt_op<T>>::Cost>,
                       std::conditional_t<std::is_same_v<T, float>, TensorFlowRsqrtFloat,
                                          EigenUnaryFunctor<T, ei::scalar_rsqrt_op<T>>>>;
// Float Exp: TensorFlow 2.21's (numerics/exp_float.h), its newer Eigen's polynomial in
// packets of 8, std::exp for the tensor's last total % 8 elements. Eigen 3.4's differs from it
// in the last place for about one float in a thousand. Double and the 16-bit types keep
// Eigen's functor (double matches TensorFlow's for every value tried).
template <typename T>
using ExpFunctor = FloatFromNumerics<T, numerics::ExpFloat, ei::scalar_exp_op>;
// Float Expm1 likewise (numerics/exp_float.h): TensorFlow's exp and log in packets of 8,
// std::expm1 for the tail.
template <typename T>
using Expm1Functor = FloatFromNumerics<T, numerics::Expm1Float, ei::scalar_expm1_op>;
// Kernels read a subnormal input as the signed zero TensorFlow's kernels read it as (the
// processor's denormals-are-zero mode, numerics/float_environment.h), but some of Eigen 3.4's
// functions look at an input's bits rather than its value: its scalar float log (the C
// library's, used for the elements a vectorised loop leaves over) gives -103.97 for 2e-44,
// and its log1p returns a tiny input itself, bits and all. Subnormal elements are therefore
// recomputed from their zero after Eigen's pass, which is what TensorFlow's vectorised loops
// give (log -inf, log1p a zero), wherever the element falls in a tensor's split. The
// subnormals are noted before y is written, as y may be x's own buffer.
// From the bits: in the kernels' mode a subnormal compares equal to zero, and GCC's
// std::fpclassify compares.
template <typename T>
inline bool IsSubnormalBits(T x) {
  using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  constexpr int kMantissaBits = std::numeric_limits<T>::digits - 1;
  Bits bits;
  std::memcpy(&bits, &x, sizeof(bits));
  const Bits magnitude = bits & ~(Bits{1} << (sizeof(T) * 8 - 1));
  return magnitude != 0 && (magnitude >> kMantissaBits) == 0;
}

template <typename T, typename EigenOp>
struct SubnormalAsZeroFixup {
  static bool Needs(T x) { return IsSubnormalBits(x); }
  static T Apply(T x) { return EigenOp()(std::copysign(T(0), x)); }
};

template <typename T, typename EigenOp>
using FloatSubnormalsReadAsZero =
    std::conditional_t<std::is_floating_point_v<T>,
                       EigenWithFixups<T, EigenOp, SubnormalAsZeroFixup<T, EigenOp>>,
                       EigenUnaryFunctor<T, EigenOp>>;
// Float Log and Log1p are TensorFlow 2.21's (numerics/log_float.h), its newer Eigen's rational
// log in packets of 8, which reads subnormals as zero itself; double and the 16-bit types keep
// Eigen's functors with the fixup.
template <typename T>
using LogFunctor = FloatFromNumerics<T, numerics::LogFloat, ei::scalar_log_op,
                                     FloatSubnormalsReadAsZero<T, ei::scalar_log_op<T>>>;
template <typename T>
using Log1pFunctor = FloatFromNumerics<T, numerics::Log1pFloat, ei::scalar_log1p_op,
                                       FloatSubnormalsReadAsZero<T, ei::scalar_log1p_op<T>>>;
template <typename T>
using SinFunctor = EigenUnaryFunctor<T, ei::scalar_sin_op<T>>;
template <typename T>
using CosFunctor = EigenUnaryFunctor<T, ei::scalar_cos_op<T>>;
// Float Tanh and Sigmoid are TensorFlow 2.21's (numerics/sigmoid_tanh_float.h): its newer
// Eigen's rational tanh, one form for every element, and its exp-based sigmoid in packets of 8
// with the scalar form for the tensor's last total % 8.
template <typename T>
using TanhFunctor = FloatFromNumerics<T, numerics::TanhFloat, ei::scalar_tanh_op>;
// half Sigmoid as TensorFlow computes it, in half arithmetic: e = exp(x) (numerics::ExpFloat
// rounded to half: its vector form in packets of 8, std::exp for the tensor's last total % 8),
// then 1 where e is +inf, else e / (1 + e) with the sum and the quotient each rounded to half.
struct TensorFlowSigmoidHalf {
  using In = Eigen::half;
  using Out = Eigen::half;
  static constexpr int kCycles = ei::functor_traits<ei::scalar_logistic_op<float>>::Cost;
  template <typename X, typename Y>
  void operator()(const X& x, Y& y) const {
    const Eigen::half* in = x.data();
    Eigen::half* out = y.data();
    const int64_t n = x.size();
    constexpr int64_t kChunk = 256;  // a multiple of the packet, so the tail stays the range's
    float exp[kChunk];
    for (int64_t begin = 0; begin < n; begin += kChunk) {
      const int64_t count = std::min(kChunk, n - begin);
      for (int64_t i = 0; i < count; ++i) exp[i] = static_cast<float>(in[begin + i]);
      numerics::ExpFloat(exp, exp, count, begin, n);
      for (int64_t i = 0; i < count; ++i) {
        const Eigen::half e(exp[i]);
        const float ef = static_cast<float>(e);
        out[begin + i] = ef == std::numeric_limits<float>::infinity()
                             ? Eigen::half(1.0f)
                             : Eigen::half(ef / static_cast<float>(Eigen::half(1.0f + ef)));
      }
    }
  }
};
template <typename T>
using SigmoidFunctor =
    FloatFromNumerics<T, numerics::SigmoidFloat, ei::scalar_logistic_op,
                      std::conditional_t<std::is_same_v<T, Eigen::half>, TensorFlowSigmoidHalf,
                                         EigenUnaryFunctor<T, ei::scalar_logistic_op<T>>>>;
// Float Erf is TensorFlow 2.21's (numerics/erf_float.h), one form for every element; half and
// bfloat16 compute it in float and round, as TensorFlow does (every one of their values
// compared).
template <typename T>
struct ErfThroughFloat {
  static T Apply(T x) {
    const float v = static_cast<float>(x);
    float r;
    numerics::ErfFloat(&v, &r, 1);
    return static_cast<T>(r);
  }
};
template <typename T>
using ErfFunctor = FloatFromNumerics<
    T, numerics::ErfFloat, ei::scalar_erf_op,
    std::conditional_t<kIsHalfOrBfloat16<T>,
                       ScalarUnaryFunctor<T, T, ErfThroughFloat<T>,
                                          ei::functor_traits<ei::scalar_erf_op<float>>::Cost>,
                       EigenUnaryFunctor<T, ei::scalar_erf_op<T>>>>;
// Float erfc is Sluice's own (numerics/erfc_float.h): within one unit in the last place of
// the true value (the C library's erfcf, which Eigen 3.4 calls one element at a time, is
// within three), about six times faster, and what compiled clusters compute inline. double,
// half and bfloat16 keep Eigen's path: the C library's erfc, or erfcf through float.
template <typename T>
using ErfcFunctor =
    std::conditional_t<std::is_same_v<T, float>, NumericsFunctor<float, numerics::ErfcFloat, 40>,
                       EigenUnaryFunctor<T, ei::scalar_erfc_op<T>>>;

// Activations without attrs.
template <typename T>
struct ActivationFunctor {
  using In = T;
  using Out = T;
  static constexpr int kCycles = 4;
};

template <typename T>
struct ReluFunctor : ActivationFunctor<T> {
  template <typename X, typename Y>
  void operator()(const X& x, Y& y) const {
    y = x.cwiseMax(static_cast<T>(0));
  }
};

template <typename T>
struct Relu6Functor : ActivationFunctor<T> {
  template <typename X, typename Y>
  void operator()(const X& x, Y& y) const {
    y = x.cwiseMax(static_cast<T>(0)).cwiseMin(static_cast<T>(6));
  }
};

}  // namespace unary
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_UNARY_UNARY_FUNCTORS_H_
