// How TensorFlow's random kernels turn Philox blocks into values of each dtype.
//
// Each distribution fills a group of kGroupSize outputs. A fixed one (kRejects false) reads
// exactly one Philox block per group, so group g reads block g of the stream. One that rejects
// samples (the truncated normal) reads a SingleSamples stream that starts kBlocksPerGroup
// blocks further on for each group, enough that the groups never overlap in practice. These
// layouts, the bit conversions and the Box-Muller arithmetic (float sincosf/logf for the
// 32-bit types, double for double) are TensorFlow's, so outputs match it bit for bit.
#ifndef SLUICE_KERNELS_CPU_RANDOM_RANDOM_DISTRIBUTIONS_H_
#define SLUICE_KERNELS_CPU_RANDOM_RANDOM_DISTRIBUTIONS_H_

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "graph/core/types.h"
#include "kernels/cpu/random/philox.h"

namespace sluice {
namespace random {

// [0, 1) from the low bits of x, as the mantissa of a number in [1, 2) less one.
inline float UniformFloat(uint32_t x) {
  const uint32_t bits = 0x3f800000u | (x & 0x7fffffu);
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value - 1.0f;
}

// [0, 1) from 52 bits: the low 20 bits of high and all of low.
inline double UniformDouble(uint32_t high, uint32_t low) {
  const uint64_t bits = uint64_t{0x3ff} << 52 | uint64_t{high & 0xfffffu} << 32 | low;
  double value;
  std::memcpy(&value, &bits, sizeof(value));
  return value - 1.0;
}

inline half UniformHalf(uint32_t x) {
  return Eigen::numext::bit_cast<half>(static_cast<uint16_t>(0x3c00u | (x & 0x3ffu))) - half(1.0f);
}

inline bfloat16 UniformBfloat16(uint32_t x) {
  return Eigen::numext::bit_cast<bfloat16>(static_cast<uint16_t>(0x3f80u | (x & 0x7fu))) -
         bfloat16(1.0f);
}

// Two standard normals from two uniforms (Box-Muller), in float arithmetic.
inline void BoxMullerFloat(uint32_t x0, uint32_t x1, float* f0, float* f1) {
  float u1 = UniformFloat(x0);
  if (u1 < 1.0e-7f) u1 = 1.0e-7f;
  // 2 pi is a double: the product is rounded to float once, as in TensorFlow.
  const float v1 = static_cast<float>(2.0 * M_PI * UniformFloat(x1));
  const float radius = std::sqrt(-2.0f * std::log(u1));
  float s, c;
  sincosf(v1, &s, &c);
  *f0 = s * radius;
  *f1 = c * radius;
}

// Two standard normals from four uint32s, in double arithmetic.
inline void BoxMullerDouble(uint32_t x0, uint32_t x1, uint32_t x2, uint32_t x3, double* d0,
                            double* d1) {
  double u1 = UniformDouble(x0, x1);
  if (u1 < 1.0e-7) u1 = 1.0e-7;
  const double v1 = 2 * M_PI * UniformDouble(x2, x3);
  const double radius = std::sqrt(-2.0 * std::log(u1));
  double s, c;
  sincos(v1, &s, &c);
  *d0 = s * radius;
  *d1 = c * radius;
}

// Uniform [0, 1).
template <typename T>
struct UniformReal {
  static constexpr bool kRejects = false;
  static constexpr int kGroupSize = std::is_same<T, double>::value ? 2 : 4;
  void operator()(Philox4x32* generator, T* out) const {
    const Philox4x32::Block block = (*generator)();
    if constexpr (std::is_same<T, double>::value) {
      out[0] = UniformDouble(block[0], block[1]);
      out[1] = UniformDouble(block[2], block[3]);
    } else {
      for (int i = 0; i < 4; ++i) {
        if constexpr (std::is_same<T, float>::value) out[i] = UniformFloat(block[i]);
        if constexpr (std::is_same<T, half>::value) out[i] = UniformHalf(block[i]);
        if constexpr (std::is_same<T, bfloat16>::value) out[i] = UniformBfloat16(block[i]);
      }
    }
  }
};

// Standard normal; half and bfloat16 are the float values rounded.
template <typename T>
struct Normal {
  static constexpr bool kRejects = false;
  static constexpr int kGroupSize = std::is_same<T, double>::value ? 2 : 4;
  void operator()(Philox4x32* generator, T* out) const {
    const Philox4x32::Block block = (*generator)();
    if constexpr (std::is_same<T, double>::value) {
      BoxMullerDouble(block[0], block[1], block[2], block[3], &out[0], &out[1]);
    } else {
      for (int i = 0; i < 4; i += 2) {
        float f[2];
        BoxMullerFloat(block[i], block[i + 1], &f[0], &f[1]);
        out[i] = static_cast<T>(f[0]);
        out[i + 1] = static_cast<T>(f[1]);
      }
    }
  }
};

// Standard normal cut to (-2, 2) by rejection: pairs are drawn until the group is full.
template <typename T>
struct TruncatedNormal {
  static constexpr bool kRejects = true;
  static constexpr int kGroupSize = std::is_same<T, double>::value ? 2 : 4;
  void operator()(SingleSamples* samples, T* out) const {
    int filled = 0;
    while (true) {
      if constexpr (std::is_same<T, double>::value) {
        const uint32_t x0 = (*samples)(), x1 = (*samples)(), x2 = (*samples)(), x3 = (*samples)();
        double d[2];
        BoxMullerDouble(x0, x1, x2, x3, &d[0], &d[1]);
        for (double value : d) {
          if (std::abs(value) < 2.0) {
            out[filled++] = value;
            if (filled == kGroupSize) return;
          }
        }
      } else {
        const uint32_t x0 = (*samples)(), x1 = (*samples)();
        float f[2];
        BoxMullerFloat(x0, x1, &f[0], &f[1]);
        for (float value : f) {
          if (std::abs(value) < 2.0f) {
            out[filled++] = static_cast<T>(value);
            if (filled == kGroupSize) return;
          }
        }
      }
    }
  }
};

// Integers in [lo, hi): lo plus the sample modulo the range (so slightly biased, as
// TensorFlow's). int64 takes two uint32s per value, the first as the low word.
template <typename T>
struct UniformInt {
  using Unsigned = std::make_unsigned_t<T>;
  static constexpr bool kRejects = false;
  static constexpr int kGroupSize = sizeof(T) == 8 ? 2 : 4;
  UniformInt(T lo, T hi) : lo(lo), range(static_cast<Unsigned>(hi) - static_cast<Unsigned>(lo)) {}
  void operator()(Philox4x32* generator, T* out) const {
    const Philox4x32::Block block = (*generator)();
    for (int i = 0; i < kGroupSize; ++i) {
      const Unsigned bits =
          sizeof(T) == 8 ? static_cast<Unsigned>(uint64_t{block[2 * i + 1]} << 32 | block[2 * i])
                         : static_cast<Unsigned>(block[i]);
      // lo + offset without signed overflow: the offset is added in two halves.
      const Unsigned offset = bits % range;
      const Unsigned half_offset = offset >> 1;
      out[i] = lo + static_cast<T>(half_offset) + static_cast<T>(offset - half_offset);
    }
  }
  T lo;
  Unsigned range;
};

// Every value of the integer type equally likely: the sample's bits.
template <typename T>
struct UniformFullInt {
  static constexpr bool kRejects = false;
  static constexpr int kGroupSize = sizeof(T) == 8 ? 2 : 4;
  void operator()(Philox4x32* generator, T* out) const {
    const Philox4x32::Block block = (*generator)();
    for (int i = 0; i < kGroupSize; ++i) {
      out[i] = sizeof(T) == 8 ? static_cast<T>(uint64_t{block[2 * i + 1]} << 32 | block[2 * i])
                              : static_cast<T>(block[i]);
    }
  }
};

}  // namespace random
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_RANDOM_RANDOM_DISTRIBUTIONS_H_
