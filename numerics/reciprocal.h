// Float reciprocals as TensorFlow 2.21's CPU kernels compute them: Sluice's float Reciprocal
// (and Inv), the same in its kernel, in `_FusedElementwise`, in compiled clusters and in the
// reciprocal of a constant divisor (passes/division_by_constant.h), which TensorFlow's
// constant folding computes with the same kernel.
//
// TensorFlow's Eigen evaluates the reciprocal in packets of eight floats (AVX): the
// processor's reciprocal approximation refined by one Newton step,
//
//   r0 = rcp(x)                   the instruction's estimate (12 bits or more)
//   t  = 1 - x * r0               each product and sum rounded on its own: no fused
//   r  = r0 * t + r0              multiply-adds in its build
//
// and r0 itself where r is NaN (x zero, infinite or NaN: the instruction's answer, so
// 1/+0 = +inf, 1/-0 = -inf, 1/±inf = ±0). The tensor's last total % 8 elements, which its
// vectorised loop leaves over, are 1 / x instead: one correctly rounded division.
//
// The estimate is the processor's own (SSE's rcpps and AVX's vrcpps agree lane by lane), and
// Intel's and AMD's differ, so the result can differ between the two makers in the last place,
// as TensorFlow's does; on one machine the two are equal (tests/kernels/unary_sweep.py).
//
// For |x| below 2^104 the vector result is within 3 units in the last place of the correctly
// rounded reciprocal (1/1 need not be 1). Above it the correction r0 * t falls below the
// normal range, which the kernels' flush-to-zero mode drops: from 2^115 the result is the
// estimate alone, good to about 12 bits, as TensorFlow's is, and from 2^126, where the
// estimate itself is subnormal, a zero of x's sign.
//
// In the kernels' floating-point mode (numerics/float_environment.h) a subnormal reads as zero:
// its reciprocal is an infinity of its sign. These functions do whatever the calling thread's
// mode says. Off x86 every element is 1 / x.
#ifndef SLUICE_NUMERICS_RECIPROCAL_H_
#define SLUICE_NUMERICS_RECIPROCAL_H_

#include <cstdint>

namespace sluice {
namespace numerics {

// Elements per packet of TensorFlow's vectorised Reciprocal: which elements of a tensor are
// its scalar tail (the last total % kReciprocalFloatPacket).
inline constexpr int64_t kReciprocalFloatPacket = 8;

// y[i] = 1 / x[i] for the n elements at flat indices [flat, flat + n) of a tensor of `total`
// elements; those at or past total - total % kReciprocalFloatPacket take the scalar form.
// y may be x itself (in place); otherwise the two do not overlap.
void ReciprocalFloat(const float* x, float* y, int64_t n, int64_t flat, int64_t total);

// A whole tensor of n elements.
inline void ReciprocalFloat(const float* x, float* y, int64_t n) { ReciprocalFloat(x, y, n, 0, n); }

}  // namespace numerics
}  // namespace sluice

#endif  // SLUICE_NUMERICS_RECIPROCAL_H_
