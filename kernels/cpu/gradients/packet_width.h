// How TensorFlow 2.21's x86 build (AVX, no FMA) splits elementwise work: its Eigen evaluates
// a flat range in packets of kTfPacket<T> elements and the elements after the last whole
// packet one by one, and the two forms of some functions round differently. Kernels that
// reproduce TensorFlow's bits make the same split.
#ifndef SLUICE_KERNELS_CPU_GRADIENTS_PACKET_WIDTH_H_
#define SLUICE_KERNELS_CPU_GRADIENTS_PACKET_WIDTH_H_

#include <cstdint>

namespace sluice {
namespace gradients {

// Elements per 32-byte packet: 8 floats, halfs or bfloat16s (TensorFlow's packets of the
// 16-bit types hold 8), 4 doubles or complex64s, 2 complex128s.
template <typename T>
inline constexpr int64_t kTfPacket = 32 / (sizeof(T) == 2 ? 4 : sizeof(T));

// The first flat index of the scalar tail of a range of `total` elements.
inline int64_t VectorEnd(int64_t total, int64_t packet) { return total - total % packet; }

}  // namespace gradients
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_GRADIENTS_PACKET_WIDTH_H_
