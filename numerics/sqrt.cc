#include "numerics/sqrt.h"

#include <cmath>

namespace sluice {
namespace numerics {
namespace {

// Built with -fno-math-errno (numerics/BUILD): std::sqrt is then the sqrt instruction alone,
// and GCC vectorises these loops to sqrtps/sqrtpd. Without it, GCC keeps a call to the C
// library for negative x so as to set errno, which no kernel reads. The values are the same
// either way. In place and out of place are separate loops so that neither needs a run-time
// overlap check.
template <typename T>
__attribute__((always_inline)) inline void SqrtInto(const T* __restrict x, T* __restrict y,
                                                    int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = std::sqrt(x[i]);
}

template <typename T>
__attribute__((always_inline)) inline void SqrtLoop(const T* x, T* y, int64_t n) {
  if (x == y) {
    for (int64_t i = 0; i < n; ++i) y[i] = std::sqrt(y[i]);
  } else {
    SqrtInto(x, y, n);
  }
}

// One copy of the loop per vector width, chosen on the first call. The root is correctly
// rounded at any width, so every copy gives the same bits; the wider ones are faster (1M
// floats on the 2-core AMD EPYC guest: 275 us with SSE's sqrtps, 70 us with AVX-512, against
// 186 us for Eigen 3.4's rsqrt approximation that this replaced). Chosen by hand rather than
// with GCC's target_clones, as in erfc_float.cc (its ifunc resolver runs before
// ThreadSanitizer's runtime is up).
template <typename T>
__attribute__((target("avx512f"))) void SqrtAvx512(const T* x, T* y, int64_t n) {
  SqrtLoop(x, y, n);
}
template <typename T>
__attribute__((target("avx"))) void SqrtAvx(const T* x, T* y, int64_t n) {
  SqrtLoop(x, y, n);
}
template <typename T>
void SqrtBaseline(const T* x, T* y, int64_t n) {
  SqrtLoop(x, y, n);
}

template <typename T>
using SqrtFunction = void (*)(const T*, T*, int64_t);

template <typename T>
SqrtFunction<T> ChooseSqrt() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return SqrtAvx512<T>;
  if (__builtin_cpu_supports("avx")) return SqrtAvx<T>;
  return SqrtBaseline<T>;
}

}  // namespace

void SqrtFloat(const float* x, float* y, int64_t n) {
  static const SqrtFunction<float> sqrt = ChooseSqrt<float>();
  sqrt(x, y, n);
}

void SqrtDouble(const double* x, double* y, int64_t n) {
  static const SqrtFunction<double> sqrt = ChooseSqrt<double>();
  sqrt(x, y, n);
}

}  // namespace numerics
}  // namespace sluice
