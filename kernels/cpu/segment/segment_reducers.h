// The per-element reductions of the segment ops: an identity for output rows no input row
// reaches, and Apply(x, &acc), which folds one input element into its output element.
// Inputs are folded one at a time in input order, as TensorFlow's CPU kernels do, so float
// sums and products round as TensorFlow's do.
//
// First(x) is the accumulator after folding x into the sorted ops' start value (0 for Sum,
// 1 for Prod, -inf or the lowest integer for Max): 0 + -0.0 is +0.0, so it is not always x.
//
// Max and Min compare as Eigen's cwiseMax/cwiseMin in TensorFlow's kernels, with the input
// element as the first operand: max(x, acc) is acc only when x < acc (so a NaN input is kept
// and a NaN accumulator is replaced by the next input).
#ifndef SLUICE_KERNELS_CPU_SEGMENT_SEGMENT_REDUCERS_H_
#define SLUICE_KERNELS_CPU_SEGMENT_SEGMENT_REDUCERS_H_

#include "Eigen/Core"
#include "kernels/cpu/wrapping_arithmetic.h"

namespace sluice {
namespace segment {

template <typename T>
struct Sum {
  static T Identity() { return T(0); }
  static T First(const T& x) { return WrappingAdd(T(0), x); }
  static void Apply(const T& x, T* acc) { *acc = WrappingAdd(*acc, x); }
};

template <typename T>
struct Prod {
  static T Identity() { return T(1); }
  static T First(const T& x) { return WrappingMul(T(1), x); }
  static void Apply(const T& x, T* acc) { *acc = WrappingMul(*acc, x); }
};

// The unsorted ops start empty rows at the lowest and highest finite values (not
// infinities), as TensorFlow's.
template <typename T>
struct Max {
  static T Identity() { return Eigen::NumTraits<T>::lowest(); }
  static T First(const T& x) { return x; }
  static void Apply(const T& x, T* acc) { *acc = x < *acc ? *acc : x; }
};

template <typename T>
struct Min {
  static T Identity() { return Eigen::NumTraits<T>::highest(); }
  static T First(const T& x) { return x; }
  static void Apply(const T& x, T* acc) { *acc = *acc < x ? *acc : x; }
};

}  // namespace segment
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_SEGMENT_SEGMENT_REDUCERS_H_
