// WrappingAdd: a + b with TensorFlow's integer semantics.
//
// Signed integer overflow wraps around in TensorFlow (two's complement), but is undefined
// behaviour in C++; adding through the unsigned type gives the wrapped result without it.
// Floating-point and unsigned types add as usual.
#ifndef SLUICE_KERNELS_CPU_WRAPPING_ADD_H_
#define SLUICE_KERNELS_CPU_WRAPPING_ADD_H_

#include <type_traits>

namespace sluice {

template <typename T>
inline T WrappingAdd(T a, T b) {
  if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_WRAPPING_ADD_H_
