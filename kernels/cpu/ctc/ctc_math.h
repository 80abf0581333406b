// The log-space arithmetic the CTC kernels share: TensorFlow's CTC code adds probabilities in
// log space with float functions (log1pf, expf) for both float and double, so double results
// carry float rounding there; Sluice does the same so that its losses, gradients and beam
// scores, and the beam search's choices between near-equal hypotheses, follow TensorFlow's.
#ifndef SLUICE_KERNELS_CPU_CTC_CTC_MATH_H_
#define SLUICE_KERNELS_CPU_CTC_CTC_MATH_H_

#include <cmath>
#include <limits>

namespace sluice {
namespace ctc {

// log(0): the probability of an impossible path or an empty beam slot.
template <typename T>
constexpr T LogZero() {
  return -std::numeric_limits<T>::infinity();
}

// log(exp(a) + exp(b)); an exact log(0) operand returns the other one unchanged.
template <typename T>
inline T LogSumExp(T a, T b) {
  if (a == LogZero<T>()) return b;
  if (b == LogZero<T>()) return a;
  const T big = a > b ? a : b;
  const T small = a > b ? b : a;
  return big + static_cast<T>(std::log1p(std::exp(static_cast<float>(small - big))));
}

}  // namespace ctc
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_CTC_CTC_MATH_H_
