// Elementwise functors for BinaryOp (binary_op.h), one per TensorFlow op, with TensorFlow's
// semantics:
//  - integers wrap on overflow (wrapping_arithmetic.h);
//  - integer division and modulo by zero are rejected up front (OperandCheck); the one
//    other trap, INT_MIN / -1, gives INT_MIN and INT_MIN % -1 gives 0, as TensorFlow does;
//  - FloorDiv/FloorMod round toward negative infinity, and FloorMod's result takes the
//    divisor's sign (Python's rule), for integers and floats alike;
//  - Maximum/Minimum of floats propagate NaN;
//  - complex numbers divide and raise to powers with std::complex's operators;
//  - half and bfloat16 compute through float where TensorFlow's Eigen functions do
//    (fmod, pow), and round after each operation elsewhere, as Eigen's half arithmetic does.
#ifndef SLUICE_KERNELS_CPU_CWISE_CWISE_FUNCTORS_H_
#define SLUICE_KERNELS_CPU_CWISE_CWISE_FUNCTORS_H_

#include <cmath>
#include <complex>
#include <limits>
#include <type_traits>

#include "Eigen/Core"
#include "graph/core/types.h"
#include "kernels/cpu/cwise/binary_op.h"
#include "kernels/cpu/wrapping_arithmetic.h"

namespace sluice {
namespace cwise {

template <typename T>
constexpr bool kIsFloat =
    std::is_floating_point_v<T> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16>;

// float for half and bfloat16, else T: the type libm functions are called in.
template <typename T>
using MathType =
    std::conditional_t<std::is_same_v<T, half> || std::is_same_v<T, bfloat16>, float, T>;

template <typename T>
inline bool IsNan(T a) {  // real types only
  if constexpr (kIsFloat<T>) {
    return Eigen::numext::isnan(a);
  } else {
    return false;
  }
}

// A subnormal float or double as the signed zero that arithmetic reads it as in the kernels'
// floating-point mode (numerics/float_environment.h), for functions that look at bits.
template <typename T>
inline T SubnormalAsZero(T x) {
  return std::fabs(x) < std::numeric_limits<T>::min() ? std::copysign(T(0), x) : x;
}

// Integer division and remainder that never trap; b != 0 (checked by the kernel).
template <typename T>
inline T TruncDivInt(T a, T b) {
  if constexpr (std::is_signed_v<T>) {
    if (b == T(-1)) return static_cast<T>(WrappingSub(T(0), a));
  }
  return static_cast<T>(a / b);
}
template <typename T>
inline T TruncModInt(T a, T b) {
  if constexpr (std::is_signed_v<T>) {
    if (b == T(-1)) return T(0);
  }
  return static_cast<T>(a % b);
}

template <typename T>
struct AddFunctor : CwiseFunctor<T> {
  static T Apply(T a, T b) { return WrappingAdd(a, b); }
};

template <typename T>
struct SubFunctor : CwiseFunctor<T> {
  static T Apply(T a, T b) { return WrappingSub(a, b); }
};

template <typename T>
struct MulFunctor : CwiseFunctor<T> {
  static T Apply(T a, T b) { return WrappingMul(a, b); }
};

template <typename T>
constexpr bool kIsComplex = std::is_same_v<T, complex64> || std::is_same_v<T, complex128>;

// (a - b) * conj(a - b), so complex results are real, as in TensorFlow.
template <typename T>
struct SquaredDifferenceFunctor : CwiseFunctor<T> {
  static T Apply(T a, T b) {
    const T d = WrappingSub(a, b);
    if constexpr (kIsComplex<T>) {
      return d * std::conj(d);
    } else {
      return WrappingMul(d, d);
    }
  }
};

// Div and RealDiv of floats, Div and TruncateDiv of integers.
template <typename T>
struct DivFunctor : CwiseFunctor<T> {
  static constexpr OperandCheck kCheck =
      std::is_integral_v<T> ? OperandCheck::kNonZeroDivisor : OperandCheck::kNone;
  static constexpr int kCycles = 8;
  static T Apply(T a, T b) {
    if constexpr (std::is_integral_v<T>) {
      return TruncDivInt(a, b);
    } else {
      return a / b;
    }
  }
};

template <typename T>
struct DivNoNanFunctor : CwiseFunctor<T> {
  static constexpr int kCycles = 8;
  static T Apply(T a, T b) { return b == T(0) ? T(0) : T(a / b); }
};

template <typename T>
struct FloorDivFunctor : CwiseFunctor<T> {
  static constexpr OperandCheck kCheck =
      std::is_integral_v<T> ? OperandCheck::kNonZeroDivisor : OperandCheck::kNone;
  static constexpr int kCycles = 8;
  static T Apply(T a, T b) {
    if constexpr (std::is_integral_v<T>) {
      T q = TruncDivInt(a, b);
      if constexpr (std::is_signed_v<T>) {
        if (TruncModInt(a, b) != 0 && ((a < 0) != (b < 0))) q = WrappingSub(q, T(1));
      }
      return q;
    } else {
      using M = MathType<T>;
      return static_cast<T>(std::floor(static_cast<M>(T(a / b))));
    }
  }
};

template <typename T>
struct FloorModFunctor : CwiseFunctor<T> {
  static constexpr OperandCheck kCheck =
      std::is_integral_v<T> ? OperandCheck::kNonZeroDivisor : OperandCheck::kNone;
  static constexpr int kCycles = 8;
  static T Apply(T a, T b) {
    if constexpr (std::is_integral_v<T>) {
      const T r = TruncModInt(a, b);
      if constexpr (std::is_signed_v<T>) {
        if (r != 0 && ((r < 0) != (b < 0))) return static_cast<T>(r + b);
      }
      return r;
    } else {
      using M = MathType<T>;
      const M mb = static_cast<M>(b);
      const M r = std::fmod(static_cast<M>(a), mb);
      return static_cast<T>(r != M(0) && ((mb < M(0)) != (r < M(0))) ? r + mb : r);
    }
  }
};

// TruncateDiv of floats (integers use DivFunctor).
template <typename T>
struct TruncateDivFloatFunctor : CwiseFunctor<T> {
  static constexpr int kCycles = 8;
  static T Apply(T a, T b) {
    using M = MathType<T>;
    return static_cast<T>(std::trunc(static_cast<M>(T(a / b))));
  }
};

template <typename T>
struct TruncateModFunctor : CwiseFunctor<T> {
  static constexpr OperandCheck kCheck =
      std::is_integral_v<T> ? OperandCheck::kNonZeroDivisor : OperandCheck::kNone;
  static constexpr int kCycles = 8;
  static T Apply(T a, T b) {
    if constexpr (std::is_integral_v<T>) {
      return TruncModInt(a, b);
    } else {
      using M = MathType<T>;
      return static_cast<T>(std::fmod(static_cast<M>(a), static_cast<M>(b)));
    }
  }
};

template <typename T>
struct MaximumFunctor : CwiseFunctor<T> {
  static T Apply(T a, T b) {
    if (IsNan(a)) return a;
    if (IsNan(b)) return b;
    return a < b ? b : a;
  }
};

template <typename T>
struct MinimumFunctor : CwiseFunctor<T> {
  static T Apply(T a, T b) {
    if (IsNan(a)) return a;
    if (IsNan(b)) return b;
    return b < a ? b : a;
  }
};

template <typename T>
struct PowFunctor : CwiseFunctor<T> {
  static constexpr OperandCheck kCheck =
      std::is_integral_v<T> ? OperandCheck::kNonNegativeExponent : OperandCheck::kNone;
  static constexpr int kCycles = 20;
  static T Apply(T a, T b) {
    if constexpr (std::is_integral_v<T>) {
      // Exponentiation by squaring; b >= 0 (checked by the kernel).
      T result = 1;
      T base = a;
      for (T e = b; e != 0; e = static_cast<T>(e >> 1)) {
        if (e & 1) result = WrappingMul(result, base);
        base = WrappingMul(base, base);
      }
      return result;
    } else if constexpr (std::is_floating_point_v<T>) {
      // TensorFlow's pow returns x itself for y == 1 and otherwise reads a subnormal
      // operand as the zero it is in its kernels' mode; the C library's pow looks at the
      // operands' bits (pow(-1e-40, 0.5) would be NaN, not 0).
      if (b == T(1)) return a;
      return std::pow(SubnormalAsZero(a), SubnormalAsZero(b));
    } else {
      using M = MathType<T>;
      return static_cast<T>(std::pow(static_cast<M>(a), static_cast<M>(b)));
    }
  }
};

#define SLUICE_CWISE_COMPARISON(Name, op)          \
  template <typename T>                            \
  struct Name : CwiseFunctor<T, bool> {            \
    static bool Apply(T a, T b) { return a op b; } \
  };
SLUICE_CWISE_COMPARISON(GreaterFunctor, >)
SLUICE_CWISE_COMPARISON(GreaterEqualFunctor, >=)
SLUICE_CWISE_COMPARISON(LessFunctor, <)
SLUICE_CWISE_COMPARISON(LessEqualFunctor, <=)
SLUICE_CWISE_COMPARISON(EqualFunctor, ==)
SLUICE_CWISE_COMPARISON(NotEqualFunctor, !=)
#undef SLUICE_CWISE_COMPARISON

struct LogicalAndFunctor : CwiseFunctor<bool> {
  static bool Apply(bool a, bool b) { return a && b; }
};

struct LogicalOrFunctor : CwiseFunctor<bool> {
  static bool Apply(bool a, bool b) { return a || b; }
};

}  // namespace cwise
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_CWISE_CWISE_FUNCTORS_H_
