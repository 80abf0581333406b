// Invert (~x) and PopulationCount (the number of set bits, as uint8) on the CPU, for every
// integer dtype, as TensorFlow registers them.
#include <bitset>
#include <cstdint>
#include <type_traits>

#include "graph/core/types.h"
#include "kernels/cpu/unary/unary_op.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

template <typename T>
struct InvertBits {
  static T Apply(T x) { return static_cast<T>(~x); }
};

template <typename T>
struct CountBits {
  static uint8_t Apply(T x) {
    using U = std::make_unsigned_t<T>;
    return static_cast<uint8_t>(std::bitset<sizeof(T) * 8>(static_cast<U>(x)).count());
  }
};

template <typename T>
using InvertFunctor = ScalarUnaryFunctor<T, T, InvertBits<T>, 1>;
template <typename T>
using PopulationCountFunctor = ScalarUnaryFunctor<T, uint8_t, CountBits<T>, 2>;

#define REGISTER_BITWISE(T)                         \
  SLUICE_REGISTER_UNARY("Invert", InvertFunctor, T) \
  SLUICE_REGISTER_UNARY("PopulationCount", PopulationCountFunctor, T)
SLUICE_CALL_INTEGRAL_TYPES(REGISTER_BITWISE)
#undef REGISTER_BITWISE

}  // namespace
}  // namespace sluice
