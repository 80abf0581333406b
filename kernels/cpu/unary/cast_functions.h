// CastValue<Dst>(x): one element converted as TensorFlow's Cast converts it on x86 CPUs, and
// TruncateMantissa, Cast's Truncate=true rounding.
//
// Conversions (every pair of bool, the integer, floating-point and complex types):
//  - integer -> integer wraps (keeps the low bits); anything -> bool is x != 0 (NaN is true;
//    for complex, the real part != 0, as TensorFlow); bool -> anything is 0 or 1;
//  - integer / floating -> floating rounds to nearest even (half and bfloat16 from float);
//  - complex -> real takes the real part; real -> complex has imaginary part 0;
//  - floating -> integer truncates toward zero. NaN and values out of range give what
//    TensorFlow's vectorised x86 conversion gives (its result for all but the last few
//    elements of a tensor): for int32 and int64 the "integer indefinite" value INT_MIN;
//    for int8/int16 (uint8/uint16) the int32 conversion saturated to the target range
//    (to [0, max]; from double and half to uint8 through a uint16 saturation whose result
//    is read as int16, so values from 32768 up give 0); for uint32 the value modulo 2^32
//    when trunc(x) lies in [-2^31, 2^32), else 2^31; for uint64 the exact value in [2^63, 2^64),
//    else the int64 conversion's bits. (TensorFlow's scalar remainder loop wraps instead of
//    saturating for some of these; its results then depend on an element's position, which no
//    kernel should imitate.)
// Every conversion here is defined behaviour: out-of-range values never reach a C++ cast.
#ifndef SLUICE_KERNELS_CPU_UNARY_CAST_FUNCTIONS_H_
#define SLUICE_KERNELS_CPU_UNARY_CAST_FUNCTIONS_H_

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "graph/core/types.h"

namespace sluice {
namespace cast_internal {

template <typename T>
struct IsComplex : std::false_type {};
template <typename T>
struct IsComplex<std::complex<T>> : std::true_type {};

template <typename T>
constexpr bool kIsFloating =
    std::is_floating_point_v<T> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16>;

// Explicit mantissa bits of a floating type; 0 for everything else.
template <typename T>
constexpr int kMantissaBits = std::is_same_v<T, double>     ? 52
                              : std::is_same_v<T, float>    ? 23
                              : std::is_same_v<T, half>     ? 10
                              : std::is_same_v<T, bfloat16> ? 7
                                                            : 0;

template <typename T>
struct RealOf {
  using type = T;
};
template <typename T>
struct RealOf<std::complex<T>> {
  using type = T;
};

// trunc(d) as int32 / int64 the way x86's cvtt* instructions give it: INT_MIN for NaN and
// out-of-range values.
inline int32_t X86ToInt32(double d) {
  if (!(d > -2147483649.0 && d < 2147483648.0)) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(d);
}
inline int64_t X86ToInt64(double d) {
  if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0)) {
    return std::numeric_limits<int64_t>::min();
  }
  return static_cast<int64_t>(d);
}

// double and half sources narrow to uint8 through 16-bit lanes (see FloatToInt).
template <typename Src>
constexpr bool kNarrowsThroughInt16 = std::is_same_v<Src, double> || std::is_same_v<Src, half>;

// d, a value of Src, converted to the integer type Dst.
template <typename Dst, typename Src>
Dst FloatToInt(double d) {
  if constexpr (std::is_same_v<Dst, int32_t>) {
    return X86ToInt32(d);
  } else if constexpr (std::is_same_v<Dst, int64_t>) {
    return X86ToInt64(d);
  } else if constexpr (std::is_same_v<Dst, uint32_t>) {
    const double t = std::trunc(d);
    if (!(t >= -2147483648.0 && t < 4294967296.0)) return uint32_t{1} << 31;
    return static_cast<uint32_t>(static_cast<int64_t>(t));
  } else if constexpr (std::is_same_v<Dst, uint64_t>) {
    if (d >= 9223372036854775808.0 && d < 18446744073709551616.0) {
      return static_cast<uint64_t>(d);
    }
    return static_cast<uint64_t>(X86ToInt64(d));
  } else if constexpr (std::is_same_v<Dst, uint8_t> && kNarrowsThroughInt16<Src>) {
    // Saturated to uint16, whose bits are then read as int16 and saturated to uint8: so
    // 300 -> 255 but 40000 -> 0.
    const int32_t v = X86ToInt32(d);
    const int32_t u16 = v < 0 ? 0 : (v > 65535 ? 65535 : v);
    const int32_t s16 = u16 > 32767 ? u16 - 65536 : u16;
    return static_cast<uint8_t>(s16 < 0 ? 0 : (s16 > 255 ? 255 : s16));
  } else {
    // int8, int16, uint8, uint16: the int32 conversion, saturated.
    const int32_t v = X86ToInt32(d);
    constexpr int32_t lo = std::numeric_limits<Dst>::min();
    constexpr int32_t hi = std::numeric_limits<Dst>::max();
    return static_cast<Dst>(v < lo ? lo : (v > hi ? hi : v));
  }
}

// A real value as a built-in floating type (half and bfloat16 widen exactly to float).
template <typename T>
auto Widen(T x) {
  if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16>) {
    return static_cast<float>(x);
  } else {
    return x;
  }
}

}  // namespace cast_internal

template <typename Dst, typename Src>
Dst CastValue(Src x) {
  using namespace cast_internal;  // NOLINT: the helpers above, local to this function
  if constexpr (std::is_same_v<Dst, Src>) {
    return x;
  } else if constexpr (IsComplex<Src>::value) {
    if constexpr (IsComplex<Dst>::value) {
      using R = typename Dst::value_type;
      return Dst(static_cast<R>(x.real()), static_cast<R>(x.imag()));
    } else {
      return CastValue<Dst>(x.real());
    }
  } else if constexpr (IsComplex<Dst>::value) {
    using R = typename Dst::value_type;
    return Dst(CastValue<R>(x), R(0));
  } else if constexpr (std::is_same_v<Dst, bool>) {
    return Widen(x) != 0;
  } else if constexpr (std::is_same_v<Src, bool>) {
    return x ? static_cast<Dst>(1) : static_cast<Dst>(0);
  } else if constexpr (kIsFloating<Src> && std::is_integral_v<Dst>) {
    return FloatToInt<Dst, Src>(static_cast<double>(Widen(x)));
  } else {
    return static_cast<Dst>(Widen(x));
  }
}

// True when Cast with Truncate=true rounds Src -> Dst toward zero rather than to nearest:
// a float or double source (or complex of them) and a floating destination with fewer
// mantissa bits, except double -> bfloat16, which TensorFlow rounds (through float) anyway.
template <typename Src, typename Dst>
constexpr bool kTruncates =
    (std::is_same_v<typename cast_internal::RealOf<Src>::type, float> ||
     std::is_same_v<typename cast_internal::RealOf<Src>::type, double>)&&cast_internal::
            kMantissaBits<typename cast_internal::RealOf<Dst>::type> > 0 &&
    cast_internal::kMantissaBits<typename cast_internal::RealOf<Dst>::type> <
        cast_internal::kMantissaBits<typename cast_internal::RealOf<Src>::type> &&
    !(std::is_same_v<typename cast_internal::RealOf<Src>::type, double> &&
      std::is_same_v<typename cast_internal::RealOf<Dst>::type, bfloat16>);

// x with the mantissa bits Dst cannot hold cleared (NaN kept as is), so that the rounding
// conversion that follows is exact: truncation toward zero, as TensorFlow's Truncate.
// REQUIRES: kTruncates<Src, Dst>.
template <typename Dst, typename Src>
Src TruncateMantissa(Src x) {
  using cast_internal::RealOf;
  if constexpr (cast_internal::IsComplex<Src>::value) {
    using R = typename RealOf<Src>::type;
    return Src(TruncateMantissa<typename RealOf<Dst>::type, R>(x.real()),
               TruncateMantissa<typename RealOf<Dst>::type, R>(x.imag()));
  } else {
    if (std::isnan(x)) return x;
    using Bits = std::conditional_t<sizeof(Src) == 8, uint64_t, uint32_t>;
    constexpr int kDropped = cast_internal::kMantissaBits<Src> -
                             cast_internal::kMantissaBits<typename RealOf<Dst>::type>;
    Bits bits;
    std::memcpy(&bits, &x, sizeof(bits));
    bits &= ~((Bits{1} << kDropped) - 1);
    std::memcpy(&x, &bits, sizeof(bits));
    return x;
  }
}

// Cast with Truncate=true: x rounded toward zero to Dst. REQUIRES: kTruncates<Src, Dst>.
// float -> bfloat16 keeps the top half of the bits directly: built with GCC 12 at -O1 (the
// ASan configuration), clearing the low bits and then rounding to nearest was observed to
// round the original value instead.
template <typename Dst, typename Src>
Dst TruncatingCast(Src x) {
  if constexpr (cast_internal::IsComplex<Src>::value && !cast_internal::IsComplex<Dst>::value) {
    return TruncatingCast<Dst>(x.real());
  } else if constexpr (std::is_same_v<Src, float> && std::is_same_v<Dst, bfloat16>) {
    if (std::isnan(x)) return CastValue<Dst>(x);
    uint32_t bits;
    std::memcpy(&bits, &x, sizeof(bits));
    return Eigen::numext::bit_cast<bfloat16>(static_cast<uint16_t>(bits >> 16));
  } else {
    return CastValue<Dst>(TruncateMantissa<Dst>(x));
  }
}

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_UNARY_CAST_FUNCTIONS_H_
