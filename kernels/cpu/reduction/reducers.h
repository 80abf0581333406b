// Reducers: what Sum, Mean, Prod, Max, Min, All and Any do to each element, written once
// for every dtype and consumed by the loops of reduce_loops.h.
//
// A reducer R<T> names its accumulation type Acc and provides
//   static Acc Identity();                       the value of an empty reduction
//   static Acc Combine(Acc a, Acc b);            associative; partial results combine too
//   static T Finalize(Acc a, int64_t count);     the output from the folded `count` inputs
//   static constexpr bool kFinalizes;            false when Finalize is a plain cast
// Semantics follow TensorFlow's CPU kernels:
//  - half and bfloat16 accumulate in float (exact for Max/Min; for Sum/Mean/Prod more
//    accurate than TensorFlow, which rounds to half after every step);
//  - signed integers wrap on overflow (computed unsigned, so it is defined behaviour);
//  - Mean of int8/16/32 (uint8/16/32) sums in int64 (uint64) and divides with truncation;
//    an empty Mean is NaN for floating types and 0 for integers and complex types;
//  - Max and Min propagate NaN; empty Max is -inf (lowest for integers), Min +inf (max).
#ifndef SLUICE_KERNELS_CPU_REDUCTION_REDUCERS_H_
#define SLUICE_KERNELS_CPU_REDUCTION_REDUCERS_H_

#include <cstdint>
#include <limits>
#include <type_traits>

#include "graph/core/types.h"
#include "kernels/cpu/wrapping_arithmetic.h"

namespace sluice {
namespace reduction {

template <typename T>
constexpr bool kIsHalfLike = std::is_same_v<T, half> || std::is_same_v<T, bfloat16>;

// float for half and bfloat16, T otherwise.
template <typename T>
using WideFloat = std::conditional_t<kIsHalfLike<T>, float, T>;

// v != v is true only for NaN; integers never are.
template <typename T>
inline bool IsNaN(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    return v != v;
  } else {
    return false;
  }
}

template <typename T>
inline T WrappingMultiply(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    // Through an unsigned type at least as wide as unsigned int: narrower operands would be
    // promoted to (signed) int, whose overflow is undefined.
    using U = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
    return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
  } else {
    return a * b;
  }
}

template <typename T>
struct SumReducer {
  using Acc = WideFloat<T>;
  static constexpr bool kFinalizes = false;
  static Acc Identity() { return Acc(0); }
  static Acc Combine(Acc a, Acc b) { return WrappingAdd(a, b); }
  static T Finalize(Acc a, int64_t) { return static_cast<T>(a); }
};

template <typename T>
struct ProdReducer {
  using Acc = WideFloat<T>;
  static constexpr bool kFinalizes = false;
  static Acc Identity() { return Acc(1); }
  static Acc Combine(Acc a, Acc b) { return WrappingMultiply(a, b); }
  static T Finalize(Acc a, int64_t) { return static_cast<T>(a); }
};

template <typename T>
using MeanAcc =
    std::conditional_t<std::is_integral_v<T>,
                       std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>, WideFloat<T>>;

template <typename T>
struct MeanReducer {
  using Acc = MeanAcc<T>;
  static constexpr bool kFinalizes = true;
  static Acc Identity() { return Acc(0); }
  static Acc Combine(Acc a, Acc b) { return WrappingAdd(a, b); }
  static T Finalize(Acc a, int64_t count) {
    if constexpr (std::is_integral_v<Acc> || std::is_same_v<T, complex64> ||
                  std::is_same_v<T, complex128>) {
      return count == 0 ? T(0) : static_cast<T>(a / static_cast<Acc>(count));
    } else {
      return static_cast<T>(a / static_cast<Acc>(count));
    }
  }
};

template <typename T>
struct MaxReducer {
  using Acc = WideFloat<T>;
  static constexpr bool kFinalizes = false;
  static Acc Identity() {
    if constexpr (std::numeric_limits<Acc>::has_infinity) {
      return -std::numeric_limits<Acc>::infinity();
    } else {
      return std::numeric_limits<Acc>::lowest();
    }
  }
  // A NaN, once met, sticks: nothing compares greater than it.
  static Acc Combine(Acc a, Acc b) { return (b > a || IsNaN(b)) ? b : a; }
  static T Finalize(Acc a, int64_t) { return static_cast<T>(a); }
};

template <typename T>
struct MinReducer {
  using Acc = WideFloat<T>;
  static constexpr bool kFinalizes = false;
  static Acc Identity() {
    if constexpr (std::numeric_limits<Acc>::has_infinity) {
      return std::numeric_limits<Acc>::infinity();
    } else {
      return std::numeric_limits<Acc>::max();
    }
  }
  static Acc Combine(Acc a, Acc b) { return (b < a || IsNaN(b)) ? b : a; }
  static T Finalize(Acc a, int64_t) { return static_cast<T>(a); }
};

template <typename T>
struct AllReducer {
  using Acc = bool;
  static constexpr bool kFinalizes = false;
  static bool Identity() { return true; }
  static bool Combine(bool a, bool b) { return a && b; }
  static bool Finalize(bool a, int64_t) { return a; }
};

template <typename T>
struct AnyReducer {
  using Acc = bool;
  static constexpr bool kFinalizes = false;
  static bool Identity() { return false; }
  static bool Combine(bool a, bool b) { return a || b; }
  static bool Finalize(bool a, int64_t) { return a; }
};

}  // namespace reduction
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_REDUCTION_REDUCERS_H_
