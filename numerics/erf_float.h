// Float erf as TensorFlow 2.21's CPU kernels compute it: Sluice's float Erf (and bfloat16's and
// half's, computed in float), the same in its kernel, in `_FusedElementwise` and in compiled
// clusters.
//
// TensorFlow's newer Eigen uses one form for every element, vector or scalar (no FMA in its
// build):
//
//   x2 = min(16, x * x)                         (erf is ±1 in float from |x| = 4)
//   p  = x * (((((a0 x2 + a1) x2 + a2) x2 + a3) x2 + a4) x2 + a5)
//   q  = ((((b0 x2 + b1) x2 + b2) x2 + b3) x2 + b4) x2 + b5
//   erf(x) = clamp(p / q, -1, 1)
//
// each product and sum rounded on its own, with the constants below. Within 7 units in the
// last place of the true value (every third float of magnitude below 4). Eigen 3.4's
// approximation, which Sluice used before, clamps x to ±4 and has other coefficients; it
// differed from TensorFlow's for about one float in five of random bit patterns.
//
// The contract with compiled code (compiler/transcendental_code.cc, EmitTensorFlowErf): this
// sequence of float operations exactly.
#ifndef SLUICE_NUMERICS_ERF_FLOAT_H_
#define SLUICE_NUMERICS_ERF_FLOAT_H_

#include <cstdint>

namespace sluice {
namespace numerics {

inline constexpr float kErfFloatLargestSquare = 16.0f;
// a0 .. a5 and b0 .. b5 above.
inline constexpr float kErfFloatNumerator[] = {
    2.123732201653183437883853912353515625e-06f, 2.861979592125862836837768554687500000e-04f,
    3.658048342913389205932617187500000000e-03f, 5.243302136659622192382812500000000000e-02f,
    1.874160766601562500000000000000000000e-01f, 1.128379106521606445312500000000000000e+00f};
inline constexpr float kErfFloatDenominator[] = {
    3.89185734093189239501953125000e-05f, 1.14329601638019084930419921875e-03f,
    1.47520881146192550659179687500e-02f, 1.12945675849914550781250000000e-01f,
    4.99425798654556274414062500000e-01f, 1.0f};
inline constexpr int kErfFloatTerms = 6;

// y[i] = erf(x[i]) for n elements. y may be x itself; otherwise the two do not overlap.
void ErfFloat(const float* x, float* y, int64_t n);

}  // namespace numerics
}  // namespace sluice

#endif  // SLUICE_NUMERICS_ERF_FLOAT_H_
