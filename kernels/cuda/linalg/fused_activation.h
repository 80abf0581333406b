// The activations a GPU _FusedMatMul applies after its bias, as host-and-device code: the same
// formulas as the CPU kernels' Activate (kernels/cpu/linalg/fused_args.h), so that the host
// build of this header is checked against it (fused_activation_test.cc) and the device build
// computes the same function. Computed in float for 16-bit and float types, double for double.
#ifndef SLUICE_KERNELS_CUDA_LINALG_FUSED_ACTIVATION_H_
#define SLUICE_KERNELS_CUDA_LINALG_FUSED_ACTIVATION_H_

#include <math.h>

#ifndef SLUICE_HOST_DEVICE
#if defined(__CUDACC__)
#define SLUICE_HOST_DEVICE __host__ __device__
#else
#define SLUICE_HOST_DEVICE
#endif
#endif

namespace sluice {
namespace gpu_fused {

// The same order as FusedActivation (fused_args.h); fused_matmul_op.cc checks it.
enum Activation : int {
  kNone = 0,
  kRelu,
  kRelu6,
  kElu,
  kLeakyRelu,
  kSwish,
  kTanh,
  kSigmoid,
  kGeluApproximate,
  kGeluExact,
};

SLUICE_HOST_DEVICE inline float Expm1(float x) { return expm1f(x); }
SLUICE_HOST_DEVICE inline double Expm1(double x) { return expm1(x); }
SLUICE_HOST_DEVICE inline float Exp(float x) { return expf(x); }
SLUICE_HOST_DEVICE inline double Exp(double x) { return exp(x); }
SLUICE_HOST_DEVICE inline float Tanh(float x) { return tanhf(x); }
SLUICE_HOST_DEVICE inline double Tanh(double x) { return tanh(x); }
SLUICE_HOST_DEVICE inline float Erf(float x) { return erff(x); }
SLUICE_HOST_DEVICE inline double Erf(double x) { return erf(x); }

template <typename W>
SLUICE_HOST_DEVICE inline W Activate(int activation, float leakyrelu_alpha, W x) {
  switch (activation) {
    case kRelu:
      return x > W(0) ? x : W(0);
    case kRelu6:
      return x > W(0) ? (x < W(6) ? x : W(6)) : W(0);
    case kElu:
      return x < W(0) ? Expm1(x) : x;
    case kLeakyRelu:
      return x > W(0) ? x : x * static_cast<W>(leakyrelu_alpha);
    case kSwish:
      return x * (W(1) / (W(1) + Exp(-x)));
    case kTanh:
      return Tanh(x);
    case kSigmoid:
      return W(1) / (W(1) + Exp(-x));
    case kGeluApproximate:
      return W(0.5) * x * (W(1) + Tanh(W(0.7978845608028654) * (x + W(0.044715) * x * x * x)));
    case kGeluExact:
      return W(0.5) * x * (W(1) + Erf(x * W(0.7071067811865476)));
    default:
      return x;
  }
}

}  // namespace gpu_fused
}  // namespace sluice

#endif  // SLUICE_KERNELS_CUDA_LINALG_FUSED_ACTIVATION_H_
