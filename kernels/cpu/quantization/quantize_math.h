// Arithmetic shared by the QuantizeV2, Dequantize and QuantizeAndDequantize kernels: the
// rounding functions TensorFlow's kernels apply, and float-to-integer conversions with the
// results TensorFlow's x86 build gives where C++ leaves them undefined (NaN and values outside
// the integer's range, which TensorFlow's MIN_COMBINED qint32 path reaches at the top of the
// range), written out so that the sanitizers see no undefined behaviour.
#ifndef SLUICE_KERNELS_CPU_QUANTIZATION_QUANTIZE_MATH_H_
#define SLUICE_KERNELS_CPU_QUANTIZATION_QUANTIZE_MATH_H_

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

#include "graph/core/types.h"

namespace sluice {
namespace quantize {

// The integer inside a quantized type (int8_t for qint8...).
template <typename T>
using Underlying = decltype(std::declval<T>().value);

template <typename T>
constexpr int64_t Lowest() {
  return std::numeric_limits<Underlying<T>>::lowest();
}
template <typename T>
constexpr int64_t Highest() {
  return std::numeric_limits<Underlying<T>>::max();
}

// A float truncated to int32 as x86's cvttss2si does: NaN and values outside int32's range
// give INT32_MIN.
inline int32_t TruncateToInt32(float x) {
  if (!(x >= -2147483648.0f && x < 2147483648.0f)) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(x);
}

// A float rounded to the nearest long (ties to even) as lrint does on x86-64: NaN and values
// outside int64's range give INT64_MIN.
inline int64_t RoundToInt64(float x) {
  if (!(x >= -9223372036854775808.0f && x < 9223372036854775808.0f)) {
    return std::numeric_limits<int64_t>::min();
  }
  return static_cast<int64_t>(std::nearbyint(x));
}

// A float (already rounded, or to be truncated) stored in quantized type T as TensorFlow's
// Eigen cast does: qint32 through lrint (so 2^31 wraps to -2^31 and NaN gives 0); the narrower
// types through a vector conversion that saturates, NaN giving the type's lowest value.
// (TensorFlow's scalar remainder of that vector loop, the last few elements of a tensor, gives
// 0 for NaN instead; Sluice gives the lowest value everywhere.)
template <typename T>
T FromFloat(float x) {
  if constexpr (std::is_same_v<T, qint32>) {
    return T(static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(RoundToInt64(x)))));
  } else {
    using U = Underlying<T>;
    if (std::isnan(x) || x <= static_cast<float>(Lowest<T>()))
      return T(static_cast<U>(Lowest<T>()));
    if (x >= static_cast<float>(Highest<T>())) return T(static_cast<U>(Highest<T>()));
    return T(static_cast<U>(x));
  }
}

// An int32 stored in quantized type T, keeping its low bits.
template <typename T>
T FromInt32(int32_t x) {
  using U = Underlying<T>;
  using UnsignedU = std::make_unsigned_t<U>;
  return T(static_cast<U>(static_cast<UnsignedU>(static_cast<uint32_t>(x))));
}

// Round half to even, as TensorFlow's scalar_round_half_to_even_op for a type with a vector
// rint (float and double on x86): rint in the default rounding mode, which keeps -0.0.
template <typename F>
F RoundHalfToEven(F x) {
  return std::nearbyint(x);
}

// Round half up: floor(x + 0.5).
template <typename F>
F RoundHalfUp(F x) {
  return std::floor(x + F(0.5));
}

}  // namespace quantize
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_QUANTIZATION_QUANTIZE_MATH_H_
