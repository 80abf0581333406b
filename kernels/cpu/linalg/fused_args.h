// What a fused contraction (_FusedConv2D, _FusedDepthwiseConv2dNative, _FusedMatMul) applies
// after its product, read from the node's fused_ops / num_args / epsilon / leakyrelu_alpha
// attrs, and the per-call checks of the extra arguments.
//
// ParseFusion accepts exactly the combinations TensorFlow's CPU kernels implement:
//   conv2d:    ["BiasAdd"] or ["FusedBatchNorm"], optionally followed by one of Relu, Relu6,
//              Elu, LeakyRelu, _FusedSwish; or ["BiasAdd", "Add"], optionally followed by Relu,
//              Relu6, Elu or LeakyRelu (TensorFlow's oneDNN builds' residual fusion: the
//              last extra argument is a tensor of the output's shape added before the
//              activation)
//   depthwise: ["BiasAdd"], optionally followed by Relu, Relu6, Elu, LeakyRelu, _FusedSwish
//   matmul:    ["BiasAdd"], optionally followed by Relu, Relu6, Elu, LeakyRelu, _FusedSwish,
//              Tanh, Sigmoid, GeluApproximate, GeluExact (the Gelus only where `allow_gelu`)
// _FusedSwish (x * sigmoid(x)) is what TensorFlow's oneDNN builds name the remapped
// Sigmoid-and-Mul; its stock CPU kernels do not take it, Sluice's remapper produces it.
// Anything else is UNIMPLEMENTED "Fusion is not implemented: [A,B]"; a num_args that does not
// fit the fusion, or no fused op at all, is INVALID_ARGUMENT (TensorFlow's messages).
//
// The activation is then either a oneDNN eltwise post-op (ActivationEltwise) or, for the
// dtypes computed with plain loops, Activate() on each element.
#ifndef SLUICE_KERNELS_CPU_LINALG_FUSED_ARGS_H_
#define SLUICE_KERNELS_CPU_LINALG_FUSED_ARGS_H_

#include <cmath>
#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "graph/core/tensor.h"
#include "oneapi/dnnl/dnnl.hpp"
#include "runtime/framework/op_kernel.h"

namespace sluice {

enum class FusedContraction { kConv2D, kDepthwiseConv2D, kMatMul };

enum class FusedActivation {
  kNone,
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

struct FusionSpec {
  bool batch_norm = false;  // FusedBatchNorm (scale, offset, mean, variance); else BiasAdd
  bool add = false;         // "Add": the addend is input kAddendInput
  FusedActivation activation = FusedActivation::kNone;
  float leakyrelu_alpha = 0.2f;
  float epsilon = 0.0f;  // batch norm only
};

absl::Status ParseFusion(OpKernelConstruction* ctx, FusedContraction kind, bool allow_gelu,
                         FusionSpec* spec);

// A fused convolution's own attrs (_FusedConv2D's HWIO filter_format, TensorFlow's only one
// on both devices; then ParseFusion): UNIMPLEMENTED for another filter format, naming
// `device` ("the CPU", "GPUs").
absl::Status ParseFusedConvolution(OpKernelConstruction* ctx, bool depthwise,
                                   absl::string_view device, FusionSpec* spec);

// INVALID_ARGUMENT unless the extra arguments (inputs 2.. of ctx) fit `spec` for an output of
// `channels` channels: a bias vector of that length, or four such batch-norm vectors, of the
// output's dtype (TArgs may say otherwise; the kernels read them as the output's type).
absl::Status CheckFusionArgs(OpKernelContext* ctx, const FusionSpec& spec, int64_t channels);

// The input index of the "Add" fusion's addend (after the product's two and the bias).
inline constexpr int kAddendInput = 3;

// INVALID_ARGUMENT unless the addend of an "Add" fusion has the output's dtype and `shape`
// (TensorFlow's remapper fuses only same-shape adds, and nothing is broadcast here).
absl::Status CheckFusionAddend(OpKernelContext* ctx, const TensorShape& shape);

// The activation as a oneDNN eltwise operation; algorithm undef for kNone.
struct Eltwise {
  dnnl::algorithm algorithm = dnnl::algorithm::undef;
  float alpha = 0.0f;
  float beta = 0.0f;
};
Eltwise ActivationEltwise(const FusionSpec& spec);

// The activation of one value, as TensorFlow's element-wise ops compute it.
template <typename T>
T Activate(FusedActivation act, float leakyrelu_alpha, T x) {
  switch (act) {
    case FusedActivation::kNone:
      return x;
    case FusedActivation::kRelu:
      return x > T(0) ? x : T(0);
    case FusedActivation::kRelu6:
      return x > T(0) ? (x < T(6) ? x : T(6)) : T(0);
    case FusedActivation::kElu:
      return x < T(0) ? std::expm1(x) : x;
    case FusedActivation::kLeakyRelu:
      return x > T(0) ? x : x * static_cast<T>(leakyrelu_alpha);
    case FusedActivation::kSwish:
      return x * (T(1) / (T(1) + std::exp(-x)));
    case FusedActivation::kTanh:
      return std::tanh(x);
    case FusedActivation::kSigmoid:
      return T(1) / (T(1) + std::exp(-x));
    case FusedActivation::kGeluApproximate:
      return T(0.5) * x * (T(1) + std::tanh(T(0.7978845608028654) * (x + T(0.044715) * x * x * x)));
    case FusedActivation::kGeluExact:
      return T(0.5) * x * (T(1) + std::erf(x * T(0.7071067811865476)));
  }
  return x;
}

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_LINALG_FUSED_ARGS_H_
