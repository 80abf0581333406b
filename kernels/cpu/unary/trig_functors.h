// The UnaryOp functors (unary_op.h) of the trigonometric and hyperbolic ops and their
// inverses: Tan, Asin, Acos, Atan, Sinh, Cosh, Asinh, Acosh, Atanh.
//
// TensorFlow 2.21's kernels use its Eigen's scalar functors. Where that Eigen has a vector form
// (float Atan, Asin, Acos and Atanh, double Atan and Atanh) the float and double elements are
// numerics/trig_float.h's (double Atanh double_log_packets.h's), which compute the same vector
// form and give the C library's function to a tensor's scalar tail. Every other element, as in
// TensorFlow, is the C library's function: in float for half and bfloat16, rounded once to the
// type, and the standard library's complex function for complex64 and complex128.
#ifndef SLUICE_KERNELS_CPU_UNARY_TRIG_FUNCTORS_H_
#define SLUICE_KERNELS_CPU_UNARY_TRIG_FUNCTORS_H_

#include <cmath>
#include <complex>
#include <cstdint>
#include <type_traits>

#include "kernels/cpu/unary/double_log_packets.h"
#include "kernels/cpu/unary/unary_op.h"
#include "numerics/trig_float.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sluice {
namespace unary {

// Cost per element: about what Eigen states for these functions.
inline constexpr int kTrigCycles = 40;

// Applies `Fn` (a functor over float, double and std::complex) to one element of type T, half
// and bfloat16 through float.
template <typename T, typename Fn>
struct ThroughFloat {
  static T Apply(T x) {
    if constexpr (std::is_same_v<T, Eigen::half>) {
      // A NaN keeps its sign and payload, quieted, as through TensorFlow's conversions (Eigen
      // 3.4's float-to-half conversion would give its one canonical NaN).
      if (Eigen::numext::isnan(x)) {
        return Eigen::numext::bit_cast<Eigen::half>(
            static_cast<uint16_t>(Eigen::numext::bit_cast<uint16_t>(x) | 0x0200u));
      }
      return static_cast<T>(Fn()(static_cast<float>(x)));
    } else if constexpr (std::is_same_v<T, Eigen::bfloat16>) {
      return static_cast<T>(Fn()(static_cast<float>(x)));
    } else {
      return Fn()(x);
    }
  }
};

#define SLUICE_STD_FUNCTION(NAME, FN) \
  struct NAME {                       \
    template <typename V>             \
    V operator()(V v) const {         \
      return std::FN(v);              \
    }                                 \
  };
SLUICE_STD_FUNCTION(StdTan, tan)
SLUICE_STD_FUNCTION(StdAsin, asin)
SLUICE_STD_FUNCTION(StdAcos, acos)
SLUICE_STD_FUNCTION(StdAtan, atan)
SLUICE_STD_FUNCTION(StdSinh, sinh)
SLUICE_STD_FUNCTION(StdCosh, cosh)
SLUICE_STD_FUNCTION(StdAsinh, asinh)
SLUICE_STD_FUNCTION(StdAcosh, acosh)
SLUICE_STD_FUNCTION(StdAtanh, atanh)
#undef SLUICE_STD_FUNCTION

template <typename T, typename Fn>
using StdFunctor = ScalarUnaryFunctor<T, T, ThroughFloat<T, Fn>, kTrigCycles>;

// T's elements by numerics/' whole-array function `kFunction` where T is `Vectorized`, else
// by `Fn` element by element.
template <typename T, typename Vectorized,
          void (*kFunction)(const Vectorized*, Vectorized*, int64_t), typename Fn>
struct VectorOrStd : StdFunctor<T, Fn> {
  template <typename X, typename Y>
  void operator()(const X& x, Y& y) const {
    if constexpr (std::is_same_v<T, Vectorized>) {
      kFunction(x.data(), y.data(), x.size());
    } else {
      StdFunctor<T, Fn>::operator()(x, y);
    }
  }
};

template <typename T>
using TanFunctor = StdFunctor<T, StdTan>;
template <typename T>
using SinhFunctor = StdFunctor<T, StdSinh>;
template <typename T>
using CoshFunctor = StdFunctor<T, StdCosh>;
template <typename T>
using AsinhFunctor = StdFunctor<T, StdAsinh>;
template <typename T>
using AcoshFunctor = StdFunctor<T, StdAcosh>;
template <typename T>
using AsinFunctor = VectorOrStd<T, float, numerics::AsinFloat, StdAsin>;
template <typename T>
using AcosFunctor = VectorOrStd<T, float, numerics::AcosFloat, StdAcos>;
template <typename T>
using AtanhFunctor =
    std::conditional_t<std::is_same_v<T, double>, VectorOrStd<T, double, AtanhDouble, StdAtanh>,
                       VectorOrStd<T, float, numerics::AtanhFloat, StdAtanh>>;
template <typename T>
using AtanFunctor = std::conditional_t<std::is_same_v<T, double>,
                                       VectorOrStd<T, double, numerics::AtanDouble, StdAtan>,
                                       VectorOrStd<T, float, numerics::AtanFloat, StdAtan>>;

}  // namespace unary
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_UNARY_TRIG_FUNCTORS_H_
