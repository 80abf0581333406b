// Elementwise arithmetic the SparseTensor kernels share, written once over every dtype they
// register: the conjugate (identity for real types), the magnitude SparseAdd compares with its
// threshold, and TensorFlow's NaN-propagating maximum and minimum.
#ifndef SLUICE_KERNELS_CPU_SPARSE_SPARSE_VALUE_MATH_H_
#define SLUICE_KERNELS_CPU_SPARSE_SPARSE_VALUE_MATH_H_

#include <cmath>
#include <complex>
#include <type_traits>

#include "graph/core/types.h"

namespace sluice {
namespace sparse {

template <typename T>
struct IsComplex : std::false_type {};
template <typename T>
struct IsComplex<std::complex<T>> : std::true_type {};

template <typename T>
T Conj(const T& x) {
  if constexpr (IsComplex<T>::value) {
    return std::conj(x);
  } else {
    return x;
  }
}

// The real type of T: T itself, or the component type of a complex T.
template <typename T>
struct RealOf {
  using type = T;
};
template <typename T>
struct RealOf<std::complex<T>> {
  using type = T;
};

// |x| as std::abs gives it for each dtype: the modulus of a complex number, and the absolute
// value of a narrow integer after promotion to int (so |-128| is 128 for int8).
template <typename T>
auto Magnitude(const T& x) {
  if constexpr (IsComplex<T>::value || std::is_floating_point_v<T>) {
    return std::abs(x);
  } else if constexpr (std::is_integral_v<T>) {
    return x < 0 ? -x : +x;
  } else {
    return static_cast<T>(Eigen::numext::abs(x));
  }
}

template <typename T>
bool IsNan(const T& x) {
  if constexpr (std::is_integral_v<T>) {
    return false;
  } else {
    return Eigen::numext::isnan(x);
  }
}

// TensorFlow's tf.maximum / tf.minimum on one element: NaN if either operand is NaN.
template <typename T>
T Maximum(const T& a, const T& b) {
  if (IsNan(a)) return a;
  if (IsNan(b)) return b;
  return a < b ? b : a;
}
template <typename T>
T Minimum(const T& a, const T& b) {
  if (IsNan(a)) return a;
  if (IsNan(b)) return b;
  return b < a ? b : a;
}

}  // namespace sparse
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_SPARSE_SPARSE_VALUE_MATH_H_
