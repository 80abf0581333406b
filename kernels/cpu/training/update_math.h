// The scalar functions the optimizers' updates use, with the semantics of the Eigen
// expressions TensorFlow's kernels evaluate, one element at a time:
//  - half and bfloat16 compute each function in float and round the result once (Eigen's
//    half/bfloat16 functions); +, -, *, / on them round after every operation, as Eigen's
//    operators do, so an update written as TensorFlow's expression reads rounds the same way;
//  - Max(a, b) and Min(a, b) are std::max and std::min (Eigen's cwiseMax/cwiseMin: with a
//    NaN, the first operand);
//  - Sign is -1, 0 or 1 (0 for NaN);
//  - Rsqrt is 1 / sqrt computed in full precision. TensorFlow's vectorized rsqrt of float
//    starts from the processor's approximation and may differ in the last bits (the tests
//    allow for it); sqrt, +, -, *, / are exact IEEE operations and match bit for bit.
#ifndef SLUICE_KERNELS_CPU_TRAINING_UPDATE_MATH_H_
#define SLUICE_KERNELS_CPU_TRAINING_UPDATE_MATH_H_

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "graph/core/types.h"

namespace sluice {
namespace training {

// The type a function of T is computed in: float for the 16-bit types.
template <typename T>
using Wide = std::conditional_t<std::is_same_v<T, double>, double, float>;

template <typename T>
inline T Sqrt(T x) {
  return static_cast<T>(std::sqrt(static_cast<Wide<T>>(x)));
}

template <typename T>
inline T Rsqrt(T x) {
  return static_cast<T>(Wide<T>(1) / std::sqrt(static_cast<Wide<T>>(x)));
}

template <typename T>
inline T Exp(T x) {
  return static_cast<T>(std::exp(static_cast<Wide<T>>(x)));
}

template <typename T>
inline T Pow(T x, T y) {
  return static_cast<T>(std::pow(static_cast<Wide<T>>(x), static_cast<Wide<T>>(y)));
}

template <typename T>
inline T Abs(T x) {
  return static_cast<T>(std::fabs(static_cast<Wide<T>>(x)));
}

template <typename T>
inline T Sign(T x) {
  return static_cast<T>(static_cast<int>(x > T(0)) - static_cast<int>(x < T(0)));
}

template <typename T>
inline T Max(T a, T b) {
  return a < b ? b : a;
}

template <typename T>
inline T Min(T a, T b) {
  return b < a ? b : a;
}

// One Adadelta update of element i of var (v[0]), accum (v[1]) and accum_update (v[2]) by
// gradient g, in TensorFlow's order of operations: the same for the dense and sparse kernels.
template <typename T>
inline void AdadeltaElementUpdate(T* const* v, T g, int64_t i, T lr, T rho, T epsilon,
                                  T one_minus_rho) {
  const T accum = v[1][i] * rho + g * g * one_minus_rho;
  v[1][i] = accum;
  const T accum_update = v[2][i];
  const T update = Sqrt(accum_update + epsilon) * Rsqrt(accum + epsilon) * g;
  v[0][i] = v[0][i] - update * lr;
  v[2][i] = accum_update * rho + update * update * one_minus_rho;
}

}  // namespace training
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_TRAINING_UPDATE_MATH_H_
