// The element conversions of the CUDA Cast kernel (cast_op.cu), callable from host and device
// code so that cwise_functors_test.cc checks them against Sluice's CPU Cast. They convert as
// the CPU kernel does (kernels/cpu/unary/cast_functions.h), so a cast gives the same bits on
// either device:
//  - anything -> bool is x != 0 (NaN is true); bool -> anything is 0 or 1;
//  - to half and bfloat16 through float (as Eigen converts: double and int64 round twice),
//    to nearest even; half <-> bfloat16 through float;
//  - floating -> int32/int64 truncates toward zero, and NaN and values out of range give the
//    type's minimum, as x86's conversion gives TensorFlow's CPU kernel (CUDA's own conversion
//    would saturate and give 0 for NaN, as TensorFlow's GPU kernel does);
//  - int64 -> int32 keeps the low bits; integers -> floating round to nearest even;
//  - Truncate=true: float -> half/bfloat16, double -> float/half clear the mantissa bits the
//    destination cannot hold before converting (NaN is converted as is), which rounds toward
//    zero; double -> bfloat16 rounds anyway, as in TensorFlow.
#ifndef SLUICE_KERNELS_CUDA_CAST_FUNCTORS_H_
#define SLUICE_KERNELS_CUDA_CAST_FUNCTORS_H_

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/cuda/half_bits.h"

namespace sluice {
namespace cuda {

template <typename T>
constexpr bool kIs16Bit = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

template <typename T>
constexpr bool kIsFloating = kIs16Bit<T> || std::is_floating_point_v<T>;

// A value as a built-in type: 16-bit floats widen (exactly) to float.
template <typename T>
SLUICE_HOST_DEVICE inline auto Widen(T x) {
  if constexpr (kIs16Bit<T>) {
    return Load<T>(x);
  } else {
    return x;
  }
}

template <typename Dst>
SLUICE_HOST_DEVICE inline Dst FloatToInt(double d) {
  if constexpr (std::is_same_v<Dst, int32_t>) {
    if (!(d > -2147483649.0 && d < 2147483648.0)) return INT32_MIN;
    return static_cast<int32_t>(d);
  } else {
    if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0)) return INT64_MIN;
    return static_cast<int64_t>(d);
  }
}

// x converted to Dst (without Truncate).
template <typename Dst, typename Src>
SLUICE_HOST_DEVICE inline Dst Convert(Src x) {
  if constexpr (std::is_same_v<Dst, bool>) {
    return Widen(x) != 0;
  } else if constexpr (std::is_same_v<Src, bool>) {
    if constexpr (kIs16Bit<Dst>) {
      return Store<Dst>(x ? 1.0f : 0.0f);
    } else {
      return static_cast<Dst>(x ? 1 : 0);
    }
  } else if constexpr (kIsFloating<Src> && std::is_integral_v<Dst>) {
    return FloatToInt<Dst>(static_cast<double>(Widen(x)));
  } else if constexpr (kIs16Bit<Dst>) {
    return Store<Dst>(static_cast<float>(Widen(x)));
  } else {
    return static_cast<Dst>(Widen(x));
  }
}

// Whether Truncate=true changes Src -> Dst (see the file comment). Complex types aside, the
// CPU kernel's rule (kTruncates in cast_functions.h) restricted to these types.
template <typename Src, typename Dst>
constexpr bool kTruncates = (std::is_same_v<Src, float> && kIs16Bit<Dst>) ||
                            (std::is_same_v<Src, double> &&
                             (std::is_same_v<Dst, float> || std::is_same_v<Dst, Half>));

// Explicit mantissa bits of the destinations of a truncating cast.
template <typename T>
constexpr int kMantissaBits = std::is_same_v<T, float>  ? 23
                              : std::is_same_v<T, Half> ? 10
                                                        : 7;

// x with the mantissa bits Dst cannot hold cleared; NaN unchanged (clearing its payload could
// leave an infinity).
template <typename Dst, typename Src>
SLUICE_HOST_DEVICE inline Src ClearLowMantissa(Src x) {
  if (x != x) return x;
  using Bits = std::conditional_t<sizeof(Src) == 8, uint64_t, uint32_t>;
  constexpr int kSrcBits = sizeof(Src) == 8 ? 52 : 23;
  Bits bits;
  std::memcpy(&bits, &x, sizeof(bits));
  bits &= ~((Bits{1} << (kSrcBits - kMantissaBits<Dst>)) - 1);
  std::memcpy(&x, &bits, sizeof(bits));
  return x;
}

// x converted to Dst by Cast with Truncate=true.
template <typename Dst, typename Src>
SLUICE_HOST_DEVICE inline Dst TruncatingConvert(Src x) {
  if constexpr (kTruncates<Src, Dst>) {
    return Convert<Dst>(ClearLowMantissa<Dst>(x));
  } else {
    return Convert<Dst>(x);
  }
}

}  // namespace cuda
}  // namespace sluice

#endif  // SLUICE_KERNELS_CUDA_CAST_FUNCTORS_H_
