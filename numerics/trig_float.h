// Inverse trigonometric functions as TensorFlow 2.21's CPU kernels compute them: Sluice's float
// Atan, Asin, Acos and Atanh, and its double Atan.
//
// TensorFlow's Eigen evaluates these in packets (eight floats or four doubles, AVX without
// fused multiply-adds, so each product and sum is rounded on its own) and gives a tensor's last
// total % packet elements, which its vectorised loop leaves over, to the C library (std::atan
// and friends). The packet forms, each lane on its own:
//
//   atan:  |x| > 1 is reduced by atan(x) = pi/2 - atan(1/|x|) (float: the processor's
//          reciprocal estimate and one Newton step; double: a division), then
//          atan(t) ~ t P(t^2) / Q(t^2) (float: degrees 2 and 3; double: 6 and 6), sign restored.
//   asin:  |x| > 1/2 is reduced to t = sqrt(1/2 - |x|/2) with asin = pi/2 - 2 asin(t), then
//          asin(t) ~ t P(t^2) (degree 4), sign restored; NaN for |x| > 1.
//   acos:  acos(|x|) ~ sqrt(1 - |x|) P(|x|) (degree 6, its even and odd terms summed
//          separately), pi - that for x with its sign bit set.
//   atan2: atan(y / x) by the atan above, plus pi for an x with its sign bit set (with y's
//          sign); y / x is taken as +-1 where |x| = |y| and as a zero where both are zeros.
//   atanh: |x| < 1/2: x + x^3 P(x^2) (degree 4); else log((1 + x) / (1 - x)) / 2 with
//          TensorFlow's vector log (log_float.h); +-inf at +-1, NaN beyond.
//
// The C library's functions, used for the tail, are within an ulp of the true value; the
// packet forms within a few, and so the two may differ for the same input.
#ifndef SLUICE_NUMERICS_TRIG_FLOAT_H_
#define SLUICE_NUMERICS_TRIG_FLOAT_H_

#include <cstdint>

namespace sluice {
namespace numerics {

// Elements per packet of TensorFlow's vectorised float and double loops.
inline constexpr int64_t kTrigFloatPacket = 8;
inline constexpr int64_t kTrigDoublePacket = 4;

// y[i] = f(x[i]) for the n elements of a whole tensor (or of a range of one that starts at a
// multiple of the packet and ends at the tensor's end or at another multiple): elements past
// n - n % packet take the C library's form. y may be x itself; otherwise they do not overlap.
void AtanFloat(const float* x, float* y, int64_t n);
void AsinFloat(const float* x, float* y, int64_t n);
void AcosFloat(const float* x, float* y, int64_t n);
void AtanhFloat(const float* x, float* y, int64_t n);
void AtanDouble(const double* x, double* y, int64_t n);

// atan2(y, x) by the packet form alone (what TensorFlow's Atan2 gives an element below a
// tensor's scalar tail; the tail is the C library's atan2).
float Atan2FloatPacketForm(float y, float x);
double Atan2DoublePacketForm(double y, double x);

}  // namespace numerics
}  // namespace sluice

#endif  // SLUICE_NUMERICS_TRIG_FLOAT_H_
