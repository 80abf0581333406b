// Integer addition, subtraction and multiplication with TensorFlow's semantics: signed
// overflow wraps around (two's complement), which C++ leaves undefined. The operation is done
// in the unsigned type at least as wide as int, so narrow types do not overflow through
// integer promotion either (uint16 * uint16 promotes to int). Floating-point types compute as
// usual.
#ifndef SLUICE_KERNELS_CPU_WRAPPING_ARITHMETIC_H_
#define SLUICE_KERNELS_CPU_WRAPPING_ARITHMETIC_H_

#include <type_traits>

namespace sluice {
namespace wrapping_internal {

// The unsigned type in which T's arithmetic wraps without promotion surprises.
template <typename T>
using Unsigned = std::make_unsigned_t<decltype(T() + T())>;

}  // namespace wrapping_internal

template <typename T>
inline T WrappingAdd(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = wrapping_internal::Unsigned<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}

template <typename T>
inline T WrappingSub(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = wrapping_internal::Unsigned<T>;
    return static_cast<T>(static_cast<U>(a) - static_cast<U>(b));
  } else {
    return a - b;
  }
}

template <typename T>
inline T WrappingMul(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = wrapping_internal::Unsigned<T>;
    return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
  } else {
    return a * b;
  }
}

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_WRAPPING_ARITHMETIC_H_
