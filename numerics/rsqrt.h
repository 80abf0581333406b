// Float reciprocal square roots as TensorFlow 2.21's CPU kernels compute them: Sluice's float
// Rsqrt, the same in its kernel, in `_FusedElementwise` and in compiled clusters.
//
// TensorFlow's Eigen evaluates Rsqrt in packets of eight floats (its x86 builds use AVX): the
// processor's rsqrt approximation refined by one Newton step,
//
//   y0 = rsqrt(x)                 the instruction's estimate (12 bits or more)
//   h  = (x * y0) * y0 - 1        each product and sum rounded on its own: no fused
//   y  = (y0 * -0.5) * h + y0     multiply-adds in its build
//
// and y0 itself where y is NaN (x zero, infinite, negative or NaN: the instruction's answer, so
// rsqrt(+0) = +inf, rsqrt(-0) = -inf, rsqrt(+inf) = +0, NaN for the rest). The tensor's last
// total % 8 elements, which its vectorised loop leaves over, are 1 / sqrt(x) instead: two
// correctly rounded operations, with the same special cases.
//
// The estimate is the processor's own (SSE's rsqrtps and AVX's vrsqrtps agree lane by lane),
// and Intel's and AMD's differ, so the result can differ between the two makers in the last
// place, as TensorFlow's does; on one machine the two are equal for every float (all 2^32 of
// them, tests/kernels/unary_sweep.py). The vector result is within 2 units in the last place
// of the correctly rounded value. Eigen 3.4's form, which Sluice used before, refines the same
// estimate in another order and differed from TensorFlow for about one positive float in
// seven.
//
// In the kernels' floating-point mode (numerics/float_environment.h) a subnormal reads as zero:
// its rsqrt is an infinity of its sign. These functions do whatever the calling thread's mode
// says. Off x86 every element is 1 / sqrt(x).
#ifndef SLUICE_NUMERICS_RSQRT_H_
#define SLUICE_NUMERICS_RSQRT_H_

#include <cstdint>

namespace sluice {
namespace numerics {

// Elements per packet of TensorFlow's vectorised Rsqrt: which elements of a tensor are its
// scalar tail (the last total % kRsqrtFloatPacket).
inline constexpr int64_t kRsqrtFloatPacket = 8;

// y[i] = rsqrt(x[i]) for the n elements at flat indices [flat, flat + n) of a tensor of
// `total` elements; those at or past total - total % kRsqrtFloatPacket take the scalar form.
// y may be x itself (in place); otherwise the two do not overlap.
void RsqrtFloat(const float* x, float* y, int64_t n, int64_t flat, int64_t total);

// A whole tensor of n elements.
inline void RsqrtFloat(const float* x, float* y, int64_t n) { RsqrtFloat(x, y, n, 0, n); }

}  // namespace numerics
}  // namespace sluice

#endif  // SLUICE_NUMERICS_RSQRT_H_
