// EigenRowSum: the sum of a contiguous run of elements in the order TensorFlow 2.21's Eigen
// sums a whole tensor on one thread (its vectorised tree reduction, AVX packets), so that a
// kernel that sums rows that way (BiasAddGrad's NCHW form) gives TensorFlow's bits:
//
//  - a run longer than packet * leaf elements is split in two at a packet boundary (counted
//    from the start of the run) past its middle, each half summed so, then 0 + left + right;
//    leaf is 1024, 200 for half, 128 for bfloat16;
//  - otherwise packets of P lanes (kTfPacket) are added lane by lane: four accumulators over
//    groups of 4 packets while whole groups remain, then folded into the first (second,
//    third, fourth in turn), then whole packets into the first; the elements left over are
//    summed from 0 one by one, and the result is that sum plus the lanes reduced by halves
//    (lane k += lane k + P/2, down to one lane).
//
// Each addition is rounded to T, except the halving of half and bfloat16 lanes, which is done
// in float and rounded once. Integers wrap, and their sum does not depend on the order.
#ifndef SLUICE_KERNELS_CPU_GRADIENTS_EIGEN_ROW_SUM_H_
#define SLUICE_KERNELS_CPU_GRADIENTS_EIGEN_ROW_SUM_H_

#include <cstdint>
#include <type_traits>

#include "graph/core/types.h"
#include "kernels/cpu/gradients/packet_width.h"
#include "kernels/cpu/wrapping_arithmetic.h"

namespace sluice {
namespace gradients {

namespace row_sum_internal {

template <typename T>
inline constexpr bool kIsHalfOrBfloat16 =
    std::is_same_v<T, Eigen::half> || std::is_same_v<T, Eigen::bfloat16>;

template <typename T>
inline constexpr int64_t kLeaf = std::is_same_v<T, Eigen::half>
                                     ? 200
                                     : (std::is_same_v<T, Eigen::bfloat16> ? 128 : 1024);

// The P lanes reduced by halves.
template <typename T, int64_t P>
T ReduceLanes(const T* lanes) {
  using F = std::conditional_t<kIsHalfOrBfloat16<T>, float, T>;
  F tmp[P];
  for (int64_t k = 0; k < P; ++k) tmp[k] = static_cast<F>(lanes[k]);
  for (int64_t width = P / 2; width >= 1; width /= 2) {
    for (int64_t k = 0; k < width; ++k) tmp[k] = tmp[k] + tmp[k + width];
  }
  return static_cast<T>(tmp[0]);
}

// The n elements at x, which sit at index `first` of the run being summed.
template <typename T>
T TreeSum(const T* x, int64_t first, int64_t n) {
  constexpr int64_t P = kTfPacket<T>;
  if (n > P * kLeaf<T>) {
    const int64_t half = (n + 1) / 2;
    const int64_t split = P * ((first + half + P - 1) / P);
    const int64_t left = split - first < n ? split - first : n;
    T acc = static_cast<T>(0) + TreeSum(x, first, left);
    if (left < n) acc = acc + TreeSum(x + left, split, n - left);
    return acc;
  }
  T lanes[4][P];
  for (auto& packet : lanes) {
    for (T& lane : packet) lane = static_cast<T>(0);
  }
  int64_t start = 0;
  if (n >= 4 * P) {
    const int64_t end = n / (4 * P) * (4 * P);
    for (int64_t j = 0; j < end; j += 4 * P) {
      for (int64_t q = 0; q < 4; ++q) {
        for (int64_t k = 0; k < P; ++k) lanes[q][k] = lanes[q][k] + x[j + q * P + k];
      }
    }
    for (int64_t q = 1; q < 4; ++q) {
      for (int64_t k = 0; k < P; ++k) lanes[0][k] = lanes[0][k] + lanes[q][k];
    }
    start = end;
  }
  if (start <= n - P) {
    const int64_t end = n / P * P;
    for (int64_t j = start; j < end; j += P) {
      for (int64_t k = 0; k < P; ++k) lanes[0][k] = lanes[0][k] + x[j + k];
    }
    start = end;
  }
  T acc = static_cast<T>(0);
  for (int64_t j = start; j < n; ++j) acc = acc + x[j];
  return acc + ReduceLanes<T, P>(lanes[0]);
}

}  // namespace row_sum_internal

template <typename T>
T EigenRowSum(const T* x, int64_t n) {
  if constexpr (std::is_integral_v<T>) {
    T acc = 0;
    for (int64_t i = 0; i < n; ++i) acc = WrappingAdd(acc, x[i]);
    return acc;
  } else {
    return row_sum_internal::TreeSum(x, 0, n);
  }
}

}  // namespace gradients
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_GRADIENTS_EIGEN_ROW_SUM_H_
