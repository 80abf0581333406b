// EigenOrHalfKeepingNaN: an Eigen special function (Lgamma, Digamma) as TensorFlow's kernel
// computes it, for half through float with TensorFlow's NaN bits; QuietHalfNaN, those bits.
#ifndef SLUICE_KERNELS_CPU_UNARY_HALF_KEEPING_NAN_H_
#define SLUICE_KERNELS_CPU_UNARY_HALF_KEEPING_NAN_H_

#include <cstdint>
#include <type_traits>

#include "kernels/cpu/unary/unary_op.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sluice {
namespace unary {

// Half: Eigen's function of the value in float, rounded once, but a NaN keeps its payload
// (quieted) as through TensorFlow's conversions, and its sign where TensorFlow's arithmetic
// keeps it (the Bessel functions start from |x|, so theirs is positive); Eigen 3.4's
// float-to-half conversion would give its one canonical NaN.
inline Eigen::half QuietHalfNaN(Eigen::half nan, bool sign_cleared) {
  uint16_t bits = static_cast<uint16_t>(Eigen::numext::bit_cast<uint16_t>(nan) | 0x0200u);
  if (sign_cleared) bits &= 0x7fffu;
  return Eigen::numext::bit_cast<Eigen::half>(bits);
}

template <typename Op, bool kNanSignCleared>
struct HalfKeepingNaN {
  static Eigen::half Apply(Eigen::half x) {
    if (Eigen::numext::isnan(x)) return QuietHalfNaN(x, kNanSignCleared);
    return Op()(x);
  }
};
template <typename T, typename Op, bool kNanSignCleared = false>
using EigenOrHalfKeepingNaN =
    std::conditional_t<std::is_same_v<T, Eigen::half>,
                       ScalarUnaryFunctor<T, T, HalfKeepingNaN<Op, kNanSignCleared>,
                                          Eigen::internal::functor_traits<Op>::Cost>,
                       EigenUnaryFunctor<T, Op>>;

}  // namespace unary
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_UNARY_HALF_KEEPING_NAN_H_
