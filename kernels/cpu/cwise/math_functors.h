// BinaryOp functors (binary_op.h) of the bitwise, angle and "safe" math ops, with TensorFlow
// 2.21's semantics:
//  - Atan2(y, x) is the C library's atan2, through float for half and bfloat16, and for float
//    and double TensorFlow's vector form below a tensor's tail (numerics/trig_float.h);
//  - LeftShift and RightShift clamp the shift to [0, bits - 1] (a negative shift is 0, a
//    shift past the width the width less one); LeftShift shifts the unsigned bits, RightShift
//    is arithmetic for signed types;
//  - Mod is the remainder of truncated division (C's % and fmod);
//  - MulNoNan is 0 where y is 0 (even for an infinite or NaN x), x * y elsewhere;
//  - Xlogy, Xdivy and Xlog1py are 0 where x is 0 (even for a y that would give NaN), else
//    x * log(y), x / y, x * log1p(y);
//  - NextAfter is the C library's nextafter;
//  - Igamma, Igammac, Zeta and Polygamma are Eigen's scalar functions (Zeta with TensorFlow's
//    newer edge cases).
#ifndef SLUICE_KERNELS_CPU_CWISE_MATH_FUNCTORS_H_
#define SLUICE_KERNELS_CPU_CWISE_MATH_FUNCTORS_H_

#include <climits>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "kernels/cpu/cwise/binary_op.h"
#include "kernels/cpu/cwise/cwise_functors.h"
#include "kernels/cpu/unary/double_log_packets.h"
#include "numerics/log_float.h"
#include "numerics/trig_float.h"
#include "unsupported/Eigen/SpecialFunctions"

namespace sluice {
namespace cwise {

// The C library's atan2, through float for half and bfloat16: TensorFlow's scalar form, all
// of half and bfloat16 Atan2 and the tail of float and double (packet_tail_binary_op.h).
template <typename T>
struct Atan2ScalarFunctor : CwiseFunctor<T> {
  static constexpr int kCycles = 40;
  static T Apply(T y, T x) {
    using M = MathType<T>;
    return static_cast<T>(std::atan2(static_cast<M>(y), static_cast<M>(x)));
  }
};
// Float and double: TensorFlow's vector form (numerics/trig_float.h).
template <typename T>
struct Atan2PacketFunctor : CwiseFunctor<T> {
  static constexpr int kCycles = 40;
  static T Apply(T y, T x) {
    if constexpr (std::is_same_v<T, float>) {
      return numerics::Atan2FloatPacketForm(y, x);
    } else {
      return numerics::Atan2DoublePacketForm(y, x);
    }
  }
};

template <typename T>
struct BitwiseAndFunctor : CwiseFunctor<T> {
  static T Apply(T a, T b) { return static_cast<T>(a & b); }
};
template <typename T>
struct BitwiseOrFunctor : CwiseFunctor<T> {
  static T Apply(T a, T b) { return static_cast<T>(a | b); }
};
template <typename T>
struct BitwiseXorFunctor : CwiseFunctor<T> {
  static T Apply(T a, T b) { return static_cast<T>(a ^ b); }
};

// The shift TensorFlow applies for `b`: b clamped to [0, bits of T - 1].
template <typename T>
inline int ClampedShift(T b) {
  constexpr int kMax = static_cast<int>(sizeof(T) * CHAR_BIT) - 1;
  if constexpr (std::is_signed_v<T>) {
    if (b < 0) return 0;
  }
  return b > static_cast<T>(kMax) ? kMax : static_cast<int>(b);
}

template <typename T>
struct LeftShiftFunctor : CwiseFunctor<T> {
  static T Apply(T a, T b) {
    using U = std::make_unsigned_t<T>;
    // Widened so that the shift of a promoted narrow type cannot overflow an int.
    return static_cast<T>(
        static_cast<U>(static_cast<uint64_t>(static_cast<U>(a)) << ClampedShift(b)));
  }
};

template <typename T>
struct RightShiftFunctor : CwiseFunctor<T> {
  static T Apply(T a, T b) { return static_cast<T>(a >> ClampedShift(b)); }
};

// Mod by a zero integer divisor gives 0 here; its kernel reports that case as TensorFlow does
// (math_binary_ops.cc).
template <typename T>
struct ModFunctor : CwiseFunctor<T> {
  static constexpr int kCycles = 8;
  static T Apply(T a, T b) {
    if constexpr (std::is_integral_v<T>) {
      return b == T(0) ? T(0) : TruncModInt(a, b);
    } else {
      return std::fmod(a, b);
    }
  }
};

// Complex products as TensorFlow's vectorised complex multiply forms them (no C99 recovery
// of infinities from NaN parts).
template <typename T>
inline T Product(T a, T b) {
  if constexpr (kIsComplex<T>) {
    return T(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
  } else {
    return a * b;
  }
}

template <typename T>
struct MulNoNanFunctor : CwiseFunctor<T> {
  static T Apply(T a, T b) { return b == T(0) ? T(0) : Product(a, b); }
};

// log(y) and log1p(y) as TensorFlow's vectorised Xlogy and Xlog1py take them: for float, half
// and bfloat16 its vector log in float (numerics/log_float.h, rounded to the type), for double
// its double vector forms (kernels/cpu/unary/double_log_packets.h), for complex the standard
// library's.
template <typename T>
inline T LogForXlogy(T y) {
  if constexpr (kIsFloat<T> && !std::is_same_v<T, double>) {
    const float v = static_cast<float>(y);
    float r;
    numerics::LogFloat(&v, &r, 1, 0, numerics::kLogFloatPacket);
    return static_cast<T>(r);
  } else if constexpr (std::is_same_v<T, double>) {
    return unary::TensorFlowLogDouble(y);
  } else {
    return std::log(y);
  }
}
template <typename T>
inline T Log1pForXlog1py(T y) {
  if constexpr (kIsFloat<T> && !std::is_same_v<T, double>) {
    const float v = static_cast<float>(y);
    float r;
    numerics::Log1pFloat(&v, &r, 1, 0, numerics::kLogFloatPacket);
    return static_cast<T>(r);
  } else if constexpr (std::is_same_v<T, double>) {
    return unary::TensorFlowLog1pDouble(y);
  } else if constexpr (kIsComplex<T>) {
    return std::log(T(1) + y);
  } else {
    return std::log1p(y);
  }
}

// The vector forms (TensorFlow's packets): x itself where x is zero (so -0 stays -0).
template <typename T>
struct XlogyFunctor : CwiseFunctor<T> {
  static constexpr int kCycles = 30;
  static T Apply(T x, T y) { return x == T(0) ? x : Product(x, LogForXlogy(y)); }
};
template <typename T>
struct Xlog1pyFunctor : CwiseFunctor<T> {
  static constexpr int kCycles = 30;
  static T Apply(T x, T y) { return x == T(0) ? x : Product(x, Log1pForXlog1py(y)); }
};
template <typename T>
struct XdivyFunctor : CwiseFunctor<T> {
  static constexpr int kCycles = 8;
  static T Apply(T x, T y) { return x == T(0) ? x : T(x / y); }
};

// The scalar forms, for a tensor's tail: +0 where x is zero, the C library's log and log1p
// (in float for half and bfloat16).
template <typename T>
struct XlogyTail {
  static T Apply(T x, T y) {
    using M = MathType<T>;
    return x == T(0) ? T(0) : T(x * static_cast<T>(std::log(static_cast<M>(y))));
  }
};
template <typename T>
struct Xlog1pyTail {
  static T Apply(T x, T y) {
    using M = MathType<T>;
    return x == T(0) ? T(0) : T(x * static_cast<T>(std::log1p(static_cast<M>(y))));
  }
};
template <typename T>
struct XdivyTail {
  static T Apply(T x, T y) { return x == T(0) ? T(0) : T(x / y); }
};

template <typename T>
struct NextAfterFunctor : CwiseFunctor<T> {
  static T Apply(T a, T b) { return std::nextafter(a, b); }
};

// Eigen's incomplete gamma, Hurwitz zeta and polygamma functions (the scalar forms
// TensorFlow's kernels use: none has a vector form).
template <typename T>
struct IgammaFunctor : CwiseFunctor<T> {
  static constexpr int kCycles = 200;
  static T Apply(T a, T x) { return Eigen::internal::scalar_igamma_op<T>()(a, x); }
};
template <typename T>
struct IgammacFunctor : CwiseFunctor<T> {
  static constexpr int kCycles = 200;
  static T Apply(T a, T x) { return Eigen::internal::scalar_igammac_op<T>()(a, x); }
};
// Hurwitz zeta as TensorFlow 2.21's newer Eigen computes it, on Eigen 3.4's, which differs in
// two places: at a non-positive integer q it is +inf for an even x (including an x too large
// for Eigen 3.4's test through long), NaN otherwise; and when the direct sum
// q^-x + (q + 1)^-x + ... stops without converging on a last term that underflowed to zero,
// the sum is the result (Eigen 3.4 goes on to its Euler-Maclaurin tail, which gives NaN there:
// q = +inf, very large x).
template <typename T>
T TensorFlowZeta(T x, T q) {
  if (x == T(1)) return std::numeric_limits<T>::infinity();
  if (x < T(1)) return std::numeric_limits<T>::quiet_NaN();
  if (q <= T(0) && q == std::floor(q)) {
    return std::rint(T(0.5) * x) == T(0.5) * x ? std::numeric_limits<T>::infinity()
                                               : std::numeric_limits<T>::quiet_NaN();
  }
  if (q > T(0)) {
    // The direct sum, as both Eigens take it: 9 terms past q^-x (float), or more until
    // q + i > 9 (double), stopping early once a term is below half an ulp of the sum.
    const T half_ulp = std::numeric_limits<T>::epsilon() / 2;
    T s = std::pow(q, -x);
    T a = q;
    T b = T(0);
    bool converged = false;
    for (int i = 0; i < 9 || (std::is_same_v<T, double> && a <= T(9));) {
      ++i;
      a += T(1);
      b = std::pow(a, -x);
      s += b;
      if (std::abs(b / s) < half_ulp) {
        converged = true;
        break;
      }
    }
    if (!converged && b == T(0)) return s;
  }
  return Eigen::internal::scalar_zeta_op<T>()(x, q);
}
template <typename T>
struct ZetaFunctor : CwiseFunctor<T> {
  static constexpr int kCycles = 200;
  static T Apply(T x, T q) { return TensorFlowZeta(x, q); }
};
template <typename T>
struct PolygammaFunctor : CwiseFunctor<T> {
  static constexpr int kCycles = 200;
  static T Apply(T n, T x) { return Eigen::internal::scalar_polygamma_op<T>()(n, x); }
};

}  // namespace cwise
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_CWISE_MATH_FUNCTORS_H_
