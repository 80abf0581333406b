// A float's bits and back, and the distance between two floats in units in the last place: how
// numerics/' tests and sweeps compare results, bit for bit or within a stated number of ulps.
#ifndef SLUICE_NUMERICS_FLOAT_BITS_H_
#define SLUICE_NUMERICS_FLOAT_BITS_H_

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace sluice {
namespace numerics {

inline uint32_t FloatBits(float v) {
  uint32_t b;
  std::memcpy(&b, &v, sizeof(b));
  return b;
}

inline float FloatFromBits(uint32_t b) {
  float v;
  std::memcpy(&v, &b, sizeof(v));
  return v;
}

// Units in the last place between a and b, two floats of the same sign.
inline int64_t UlpDistance(float a, float b) {
  return std::llabs(static_cast<int64_t>(FloatBits(a)) - static_cast<int64_t>(FloatBits(b)));
}

}  // namespace numerics
}  // namespace sluice

#endif  // SLUICE_NUMERICS_FLOAT_BITS_H_
