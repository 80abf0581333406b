// Square roots of float and double elements, correctly rounded: Sluice's Sqrt for float and
// double tensors, the same in its kernels, in `_FusedElementwise` and in compiled clusters.
//
// IEEE 754's square root, which the CPU's sqrtps/sqrtpd instructions compute: the exact root
// rounded to nearest, sqrt(+inf) = +inf, sqrt(-0) = -0, NaN for every other negative x and for
// NaN. This is what TensorFlow 2.21's CPU kernels return (its Eigen uses the instruction). Eigen
// 3.4's vectorised float sqrt under EIGEN_FAST_MATH, which the kernel used before, is an rsqrt
// approximation and one Newton step instead: 1 to 3 units in the last place off for about one
// positive float in five, NaN for +inf, +inf for negative subnormals.
//
// In the kernels' floating-point mode (numerics/float_environment.h) a subnormal input reads
// as zero (sqrt(1e-40f) is 0, sqrt(-1e-40f) is -0), as in TensorFlow's; these functions do
// whatever the calling thread's mode says.
//
// Compiled code gets the same bits from the same instruction (MLIR's math.sqrt, which LLVM
// lowers to it without fast-math flags).
#ifndef SLUICE_NUMERICS_SQRT_H_
#define SLUICE_NUMERICS_SQRT_H_

#include <cstdint>

namespace sluice {
namespace numerics {

// y[i] = sqrt(x[i]) for i in [0, n). y may be x itself (in place); otherwise the two do not
// overlap.
void SqrtFloat(const float* x, float* y, int64_t n);
void SqrtDouble(const double* x, double* y, int64_t n);

}  // namespace numerics
}  // namespace sluice

#endif  // SLUICE_NUMERICS_SQRT_H_
