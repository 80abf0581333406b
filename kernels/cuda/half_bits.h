// Half and BFloat16: the 16-bit floating-point element types as CUDA code sees them, and their
// conversions to and from float, usable from host code and device code alike.
//
// Each is 16 bits of storage with the layout of Eigen::half / Eigen::bfloat16 (Sluice's half
// and bfloat16) and of CUDA's __half / __nv_bfloat16, so a launcher may reinterpret a tensor's
// buffer as an array of them. Plain C++: no Eigen, no CUDA types in the interface, so the same
// header serves nvcc-compiled kernels and g++-compiled tests.
//
// Conversions, as Eigen's (and so Sluice's CPU kernels') are:
//  - to float: exact;
//  - from float: round to nearest, ties to even; values beyond the largest finite value round
//    to infinity; NaN stays NaN (its payload is not preserved: NaN compares only as NaN).
// In device code they are CUDA's conversion instructions; in host code the bit manipulation
// below, which computes the same values.
#ifndef SLUICE_KERNELS_CUDA_HALF_BITS_H_
#define SLUICE_KERNELS_CUDA_HALF_BITS_H_

#include <cstdint>
#include <cstring>

#if defined(__CUDACC__)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#endif

// Functions callable from host and device code: __host__ __device__ under nvcc, plain inline
// functions for g++.
#ifndef SLUICE_HOST_DEVICE
#if defined(__CUDACC__)
#define SLUICE_HOST_DEVICE __host__ __device__
#else
#define SLUICE_HOST_DEVICE
#endif
#endif

namespace sluice {
namespace cuda {

struct Half {
  uint16_t bits;
};
struct BFloat16 {
  uint16_t bits;
};

namespace half_bits_internal {

SLUICE_HOST_DEVICE inline uint32_t FloatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}

SLUICE_HOST_DEVICE inline float BitsFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof(f));
  return f;
}

// Rounds m / 2^shift to the nearest integer, ties to even. REQUIRES: 0 < shift < 32.
SLUICE_HOST_DEVICE inline uint32_t ShiftRoundEven(uint32_t m, int shift) {
  const uint32_t q = m >> shift;
  const uint32_t rest = m & ((1u << shift) - 1);
  const uint32_t halfway = 1u << (shift - 1);
  return q + ((rest > halfway || (rest == halfway && (q & 1))) ? 1 : 0);
}

inline uint16_t HostFloatToHalf(float f) {
  const uint32_t x = FloatBits(f);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  const uint32_t ax = x & 0x7fffffffu;
  if (ax > 0x7f800000u) return static_cast<uint16_t>(sign | 0x7e00u);  // NaN
  // 65520 lies halfway between 65504 (the largest half) and 2^16; ties go to the even 2^16,
  // which is infinity.
  if (ax >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);
  if (ax >= 0x38800000u) {  // at least 2^-14: a normal half
    // Rebias the exponent (127 -> 15) and round the 23 mantissa bits to 10; a carry out of
    // the mantissa correctly bumps the exponent.
    return static_cast<uint16_t>(sign | ShiftRoundEven(ax - 0x38000000u, 13));
  }
  // A subnormal half counts units of 2^-24: round ax's value / 2^-24. Float subnormals
  // (exponent 0) are below 2^-126 and round to zero.
  const int exponent = static_cast<int>(ax >> 23);
  if (exponent == 0) return sign;
  const int shift = 126 - exponent;  // at least 14 here
  if (shift >= 32) return sign;
  const uint32_t mantissa = (ax & 0x7fffffu) | 0x800000u;
  return static_cast<uint16_t>(sign | ShiftRoundEven(mantissa, shift));
}

inline float HostHalfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exponent = (h >> 10) & 0x1fu;
  const uint32_t mantissa = h & 0x3ffu;
  if (exponent == 0x1f) return BitsFloat(sign | 0x7f800000u | (mantissa << 13));
  if (exponent == 0) {
    // Zero or subnormal: mantissa * 2^-24, exact in float.
    const float magnitude = static_cast<float>(mantissa) * 5.9604644775390625e-8f;
    return sign ? -magnitude : magnitude;
  }
  return BitsFloat(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

inline uint16_t HostFloatToBFloat16(float f) {
  const uint32_t x = FloatBits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return static_cast<uint16_t>(((x >> 16) & 0x8000u) | 0x7fc0u);
  // Round the low 16 bits away, ties to even; overflow carries into infinity.
  return static_cast<uint16_t>((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

}  // namespace half_bits_internal

SLUICE_HOST_DEVICE inline float HalfToFloat(Half h) {
#if defined(__CUDA_ARCH__)
  return __half2float(__ushort_as_half(h.bits));
#else
  return half_bits_internal::HostHalfToFloat(h.bits);
#endif
}

SLUICE_HOST_DEVICE inline Half FloatToHalf(float f) {
#if defined(__CUDA_ARCH__)
  return Half{__half_as_ushort(__float2half_rn(f))};
#else
  return Half{half_bits_internal::HostFloatToHalf(f)};
#endif
}

SLUICE_HOST_DEVICE inline float BFloat16ToFloat(BFloat16 b) {
  return half_bits_internal::BitsFloat(static_cast<uint32_t>(b.bits) << 16);
}

SLUICE_HOST_DEVICE inline BFloat16 FloatToBFloat16(float f) {
#if defined(__CUDA_ARCH__)
  return BFloat16{__bfloat16_as_ushort(__float2bfloat16_rn(f))};
#else
  return BFloat16{half_bits_internal::HostFloatToBFloat16(f)};
#endif
}

// The arithmetic type of an element type: float for the 16-bit types, the type itself else.
template <typename S>
struct ComputeTypeOf {
  using type = S;
};
template <>
struct ComputeTypeOf<Half> {
  using type = float;
};
template <>
struct ComputeTypeOf<BFloat16> {
  using type = float;
};
template <typename S>
using ComputeType = typename ComputeTypeOf<S>::type;

// An element widened to its compute type, and a compute-type value rounded to an element.
template <typename S>
SLUICE_HOST_DEVICE inline ComputeType<S> Load(S v) {
  return v;
}
template <>
SLUICE_HOST_DEVICE inline float Load<Half>(Half v) {
  return HalfToFloat(v);
}
template <>
SLUICE_HOST_DEVICE inline float Load<BFloat16>(BFloat16 v) {
  return BFloat16ToFloat(v);
}

template <typename S>
SLUICE_HOST_DEVICE inline S Store(ComputeType<S> v) {
  return v;
}
template <>
SLUICE_HOST_DEVICE inline Half Store<Half>(float v) {
  return FloatToHalf(v);
}
template <>
SLUICE_HOST_DEVICE inline BFloat16 Store<BFloat16>(float v) {
  return FloatToBFloat16(v);
}

// v rounded to S and widened back: what an intermediate result of S arithmetic holds (Eigen
// rounds half and bfloat16 after every operation). The identity for float.
template <typename S>
SLUICE_HOST_DEVICE inline ComputeType<S> RoundTo(ComputeType<S> v) {
  return Load<S>(Store<S>(v));
}

}  // namespace cuda
}  // namespace sluice

#endif  // SLUICE_KERNELS_CUDA_HALF_BITS_H_
