// The per-element arithmetic of the CUDA elementwise kernels, as functors callable from host
// and device code (SLUICE_HOST_DEVICE), so that the same definitions run on the GPU and in
// host-compiled tests that compare them with Sluice's CPU kernels.
//
// Each functor is a template over the element type S (float, Half or BFloat16, half_bits.h)
// and computes in ComputeType<S> (float for all three): the kernel widens elements with
// Load<S>, calls the functor and rounds the result with Store<S>. Where Sluice's CPU kernel
// (Eigen's half arithmetic) rounds an intermediate result to S, the functor rounds it too
// (RoundTo<S>), so that results match wherever the math functions agree:
//
//   Relu(x)     = x < 0 ? 0 : x                (NaN and -0 pass through, as std::max(x, 0))
//   Relu6(x)    = min(Relu(x), 6)              (NaN passes through)
//   Elu(x)      = x < 0 ? exp(x) - 1 : x
//   Selu(x)     = x < 0 ? scale*alpha*(exp(x) - 1) : scale*x (TensorFlow's constants, in S)
//   Sigmoid(x)  = 1 / (1 + exp(-x)); in float as exp(x) / (1 + exp(x)) for x < 0 (no
//                 overflow; the CPU kernel's Eigen approximation is exp(x) below -9)
//   Tanh(x)     = tanh(x)
//   Softplus(x) = x if x > -t; exp(x) if x < t; else log(exp(x) + 1), t = log(eps_S) + 2
//   AddV2, Sub, Mul, RealDiv: a op b, rounded once
//   Maximum/Minimum: a if a is NaN, else b if b is NaN, else the larger/smaller (a on ties,
//                 so max(+0, -0) is +0 and max(-0, +0) is -0, as the CPU kernel)
//   SquaredDifference(a, b) = d * d, d = a - b rounded to S
//   Pow(a, b)   = pow(a, b)
//   LeakyRelu(x) = x > 0 ? x : alpha * x       (alpha rounded to S, as the attr cast to T)
//   Softsign(x) = x / (|x| + 1)                (the sum rounded to S)
//   Neg, Abs, Square (x * x), Floor, Ceil; Sqrt; Rsqrt = 1 / sqrt(x) (two correctly rounded
//   steps, no hardware approximation); Reciprocal (and Inv) = 1 / x; Exp, Expm1, Log, Log1p,
//   Erf, Erfc, Sin, Cos: the C library's (host) or CUDA's (device) float function
// Transcendental functions are the C library's in host code and CUDA's (within 1-2 ulp in
// float) in device code; the CPU kernels use Eigen's vectorised versions (Tanh and Sigmoid are
// rational approximations there, and exp clamps its argument at about -88.4), so those
// results agree within the tolerances cwise_functors_test.cc states, not bit for bit.
#ifndef SLUICE_KERNELS_CUDA_CWISE_FUNCTORS_H_
#define SLUICE_KERNELS_CUDA_CWISE_FUNCTORS_H_

#include <cmath>
#include <type_traits>

#include "kernels/cuda/half_bits.h"

namespace sluice {
namespace cuda {

// The C library's float functions under the names device code also has.
SLUICE_HOST_DEVICE inline float Exp(float x) { return expf(x); }
SLUICE_HOST_DEVICE inline float Log(float x) { return logf(x); }
SLUICE_HOST_DEVICE inline float Tanh(float x) { return tanhf(x); }
SLUICE_HOST_DEVICE inline float Pow(float x, float y) { return powf(x, y); }
SLUICE_HOST_DEVICE inline float Sqrt(float x) { return sqrtf(x); }
SLUICE_HOST_DEVICE inline float Expm1(float x) { return expm1f(x); }
SLUICE_HOST_DEVICE inline float Log1p(float x) { return log1pf(x); }
SLUICE_HOST_DEVICE inline float Erf(float x) { return erff(x); }
SLUICE_HOST_DEVICE inline float Erfc(float x) { return erfcf(x); }
SLUICE_HOST_DEVICE inline float Sin(float x) { return sinf(x); }
SLUICE_HOST_DEVICE inline float Cos(float x) { return cosf(x); }
SLUICE_HOST_DEVICE inline float Floor(float x) { return floorf(x); }
SLUICE_HOST_DEVICE inline float Ceil(float x) { return ceilf(x); }
SLUICE_HOST_DEVICE inline float Abs(float x) { return fabsf(x); }

template <typename T>
SLUICE_HOST_DEVICE inline bool IsNan(T x) {
  return x != x;
}

// A constant as S holds it (TensorFlow's kernels write static_cast<T>(constant)).
template <typename S>
SLUICE_HOST_DEVICE inline ComputeType<S> Constant(float c) {
  return RoundTo<S>(c);
}

// log(epsilon of S) + 2 as Eigen computes it in S (Softplus's threshold); checked against
// Eigen by cwise_functors_test.
template <typename S>
struct SoftplusThreshold;
template <>
struct SoftplusThreshold<float> {
  static constexpr float kValue = -0x1.be2804p+3f;  // log(2^-23) + 2
};
template <>
struct SoftplusThreshold<Half> {
  static constexpr float kValue = -0x1.c08p+2f;
};
template <>
struct SoftplusThreshold<BFloat16> {
  static constexpr float kValue = -0x1.6cp+1f;  // log(2^-7) + 2
};

// Unary functors: C operator()(C x).

template <typename S>
struct ReluFunctor {
  using C = ComputeType<S>;
  SLUICE_HOST_DEVICE C operator()(C x) const { return x < C(0) ? C(0) : x; }
};

template <typename S>
struct Relu6Functor {
  using C = ComputeType<S>;
  SLUICE_HOST_DEVICE C operator()(C x) const {
    const C relu = x < C(0) ? C(0) : x;
    return C(6) < relu ? C(6) : relu;
  }
};

template <typename S>
struct EluFunctor {
  using C = ComputeType<S>;
  SLUICE_HOST_DEVICE C operator()(C x) const { return x < C(0) ? RoundTo<S>(Exp(x)) - C(1) : x; }
};

template <typename S>
struct SeluFunctor {
  using C = ComputeType<S>;
  SLUICE_HOST_DEVICE C operator()(C x) const {
    const C scale = Constant<S>(1.0507009873554804934193349852946f);
    const C scale_alpha = Constant<S>(1.7580993408473768599402175208123f);
    return x < C(0) ? scale_alpha * RoundTo<S>(RoundTo<S>(Exp(x)) - C(1)) : scale * x;
  }
};

template <typename S>
struct SigmoidFunctor {
  using C = ComputeType<S>;
  SLUICE_HOST_DEVICE C operator()(C x) const {
    if constexpr (std::is_same_v<C, S>) {
      if (x >= C(0)) return C(1) / (C(1) + Exp(-x));
      const C e = Exp(x);  // NaN lands here and stays NaN
      return e / (C(1) + e);
    } else {
      // Eigen's 16-bit logistic, one rounding per step: half's exp(-x) overflows below
      // about -11.1, where the result is then 0.
      return C(1) / RoundTo<S>(C(1) + RoundTo<S>(Exp(-x)));
    }
  }
};

template <typename S>
struct TanhFunctor {
  using C = ComputeType<S>;
  SLUICE_HOST_DEVICE C operator()(C x) const { return Tanh(x); }
};

template <typename S>
struct SoftplusFunctor {
  using C = ComputeType<S>;
  SLUICE_HOST_DEVICE C operator()(C x) const {
    const C threshold = SoftplusThreshold<S>::kValue;
    if (x > -threshold) return x;  // exp(x) + 1 would round to exp(x)
    const C e = RoundTo<S>(Exp(x));
    if (x < threshold) return e;  // 1 + e would round to 1
    return Log(RoundTo<S>(e + C(1)));
  }
};

template <typename S>
struct LeakyReluFunctor {
  using C = ComputeType<S>;
  C alpha;  // the attr as S holds it: Constant<S>(alpha)
  SLUICE_HOST_DEVICE C operator()(C x) const { return x > C(0) ? x : alpha * x; }
};

template <typename S>
struct SoftsignFunctor {
  using C = ComputeType<S>;
  SLUICE_HOST_DEVICE C operator()(C x) const { return x / RoundTo<S>(Abs(x) + C(1)); }
};

template <typename S>
struct NegFunctor {
  using C = ComputeType<S>;
  SLUICE_HOST_DEVICE C operator()(C x) const { return -x; }
};

template <typename S>
struct AbsFunctor {
  using C = ComputeType<S>;
  SLUICE_HOST_DEVICE C operator()(C x) const { return Abs(x); }
};

template <typename S>
struct SquareFunctor {
  using C = ComputeType<S>;
  SLUICE_HOST_DEVICE C operator()(C x) const { return x * x; }
};

template <typename S>
struct FloorFunctor {
  using C = ComputeType<S>;
  SLUICE_HOST_DEVICE C operator()(C x) const { return Floor(x); }
};

template <typename S>
struct CeilFunctor {
  using C = ComputeType<S>;
  SLUICE_HOST_DEVICE C operator()(C x) const { return Ceil(x); }
};

template <typename S>
struct SqrtFunctor {
  using C = ComputeType<S>;
  SLUICE_HOST_DEVICE C operator()(C x) const { return Sqrt(x); }
};

template <typename S>
struct RsqrtFunctor {
  using C = ComputeType<S>;
  SLUICE_HOST_DEVICE C operator()(C x) const { return C(1) / RoundTo<S>(Sqrt(x)); }
};

template <typename S>
struct ReciprocalFunctor {
  using C = ComputeType<S>;
  SLUICE_HOST_DEVICE C operator()(C x) const { return C(1) / x; }
};

template <typename S>
struct ExpFunctor {
  using C = ComputeType<S>;
  SLUICE_HOST_DEVICE C operator()(C x) const { return Exp(x); }
};

template <typename S>
struct Expm1Functor {
  using C = ComputeType<S>;
  SLUICE_HOST_DEVICE C operator()(C x) const { return Expm1(x); }
};

template <typename S>
struct LogFunctor {
  using C = ComputeType<S>;
  SLUICE_HOST_DEVICE C operator()(C x) const { return Log(x); }
};

template <typename S>
struct Log1pFunctor {
  using C = ComputeType<S>;
  SLUICE_HOST_DEVICE C operator()(C x) const { return Log1p(x); }
};

template <typename S>
struct ErfFunctor {
  using C = ComputeType<S>;
  SLUICE_HOST_DEVICE C operator()(C x) const { return Erf(x); }
};

template <typename S>
struct ErfcFunctor {
  using C = ComputeType<S>;
  SLUICE_HOST_DEVICE C operator()(C x) const { return Erfc(x); }
};

template <typename S>
struct SinFunctor {
  using C = ComputeType<S>;
  SLUICE_HOST_DEVICE C operator()(C x) const { return Sin(x); }
};

template <typename S>
struct CosFunctor {
  using C = ComputeType<S>;
  SLUICE_HOST_DEVICE C operator()(C x) const { return Cos(x); }
};

// Binary functors: C operator()(C a, C b).

template <typename S>
struct AddFunctor {
  using C = ComputeType<S>;
  SLUICE_HOST_DEVICE C operator()(C a, C b) const { return a + b; }
};

template <typename S>
struct SubFunctor {
  using C = ComputeType<S>;
  SLUICE_HOST_DEVICE C operator()(C a, C b) const { return a - b; }
};

template <typename S>
struct MulFunctor {
  using C = ComputeType<S>;
  SLUICE_HOST_DEVICE C operator()(C a, C b) const { return a * b; }
};

template <typename S>
struct RealDivFunctor {
  using C = ComputeType<S>;
  SLUICE_HOST_DEVICE C operator()(C a, C b) const { return a / b; }
};

template <typename S>
struct MaximumFunctor {
  using C = ComputeType<S>;
  SLUICE_HOST_DEVICE C operator()(C a, C b) const {
    if (IsNan(a)) return a;
    if (IsNan(b)) return b;
    return a < b ? b : a;
  }
};

template <typename S>
struct MinimumFunctor {
  using C = ComputeType<S>;
  SLUICE_HOST_DEVICE C operator()(C a, C b) const {
    if (IsNan(a)) return a;
    if (IsNan(b)) return b;
    return b < a ? b : a;
  }
};

template <typename S>
struct SquaredDifferenceFunctor {
  using C = ComputeType<S>;
  SLUICE_HOST_DEVICE C operator()(C a, C b) const {
    const C d = RoundTo<S>(a - b);
    return d * d;
  }
};

template <typename S>
struct PowFunctor {
  using C = ComputeType<S>;
  SLUICE_HOST_DEVICE C operator()(C a, C b) const { return Pow(a, b); }
};

}  // namespace cuda
}  // namespace sluice

#endif  // SLUICE_KERNELS_CUDA_CWISE_FUNCTORS_H_
