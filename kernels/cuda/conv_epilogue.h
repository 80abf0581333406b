// One output value of a fused convolution's epilogue, as host-and-device code: exactly what
// the unfused GPU ops compute on the convolution's output — BiasAdd, or FusedBatchNormV3's
// inference normalisation (batch_norm_ops.cu), then AddV2 of the residual, then the
// activation's own functor (cwise_functors.h; swish is Sigmoid, then Mul) — each rounded to
// the element type where that op stores its output. A fused node thus gives the unfused GPU
// graph's values for the same convolution output, bit for bit; the host build is checked
// against Sluice's CPU kernels (conv_epilogue_test.cc).
#ifndef SLUICE_KERNELS_CUDA_CONV_EPILOGUE_H_
#define SLUICE_KERNELS_CUDA_CONV_EPILOGUE_H_

#include "kernels/cuda/conv_epilogue_launch.h"
#include "kernels/cuda/cwise_functors.h"
#include "kernels/cuda/half_bits.h"

namespace sluice {
namespace cuda {

// Float operations rounded once each: nvcc must not contract the normalisation's multiply
// and add into one fused operation, where the CPU kernel rounds twice.
namespace conv_epilogue_internal {
SLUICE_HOST_DEVICE inline float Add(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fadd_rn(a, b);
#else
  return a + b;
#endif
}
SLUICE_HOST_DEVICE inline float Sub(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fsub_rn(a, b);
#else
  return a - b;
#endif
}
SLUICE_HOST_DEVICE inline float Mul(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}
SLUICE_HOST_DEVICE inline float Div(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fdiv_rn(a, b);
#else
  return a / b;
#endif
}
SLUICE_HOST_DEVICE inline float SquareRoot(float a) {
#if defined(__CUDA_ARCH__)
  return __fsqrt_rn(a);
#else
  return sqrtf(a);
#endif
}
}  // namespace conv_epilogue_internal

// The output element for the convolution's element `x` (widened from S), the channel's
// arguments `arg` (widened: the bias in arg[0], or scale, offset, mean, variance) and, with
// `e.add`, the addend's element.
template <typename S>
SLUICE_HOST_DEVICE inline S ConvEpilogueValue(const ConvEpilogue& e, float x, const float* arg,
                                              float addend) {
  namespace in = conv_epilogue_internal;
  float v;
  if (e.batch_norm) {
    const float multiplier = in::Div(arg[0], in::SquareRoot(in::Add(arg[3], e.epsilon)));
    v = RoundTo<S>(in::Add(in::Mul(in::Sub(x, arg[2]), multiplier), arg[1]));
  } else {
    v = RoundTo<S>(in::Add(x, arg[0]));
  }
  if (e.add) v = RoundTo<S>(in::Add(v, addend));
  switch (e.activation) {
    case ConvActivation::kNone:
      break;
    case ConvActivation::kRelu:
      v = ReluFunctor<S>()(v);
      break;
    case ConvActivation::kRelu6:
      v = Relu6Functor<S>()(v);
      break;
    case ConvActivation::kElu:
      v = EluFunctor<S>()(v);
      break;
    case ConvActivation::kLeakyRelu:
      v = LeakyReluFunctor<S>{Constant<S>(e.leakyrelu_alpha)}(v);
      break;
    case ConvActivation::kSwish:
      v = MulFunctor<S>()(v, RoundTo<S>(SigmoidFunctor<S>()(v)));
      break;
  }
  return Store<S>(v);
}

}  // namespace cuda
}  // namespace sluice

#endif  // SLUICE_KERNELS_CUDA_CONV_EPILOGUE_H_
