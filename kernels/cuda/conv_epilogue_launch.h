// The epilogue of a GPU _FusedConv2D or _FusedDepthwiseConv2dNative (conv_epilogue.cu): what
// follows the convolution — its bias or inference batch norm, a residual addend, an
// activation — applied in one pass over the convolution's output, in place. Plain C++: the
// g++-compiled kernel classes include it.
#ifndef SLUICE_KERNELS_CUDA_CONV_EPILOGUE_LAUNCH_H_
#define SLUICE_KERNELS_CUDA_CONV_EPILOGUE_LAUNCH_H_

#include <cstdint>

#include "kernels/cuda/cwise_launch.h"

struct CUstream_st;

namespace sluice {
namespace cuda {

// The activations a fused convolution takes, in the order of FusedActivation's first six
// (kernels/cpu/linalg/fused_args.h; fused_conv_ops.cc checks it).
enum class ConvActivation : int { kNone, kRelu, kRelu6, kElu, kLeakyRelu, kSwish };

struct ConvEpilogue {
  bool batch_norm = false;  // the channel's arguments are scale, offset, mean, variance
  bool add = false;         // a residual addend of the output's shape follows the bias
  ConvActivation activation = ConvActivation::kNone;
  float leakyrelu_alpha = 0.2f;
  float epsilon = 0.0f;  // batch norm's
};

// Where the epilogue reads. The output is [outer, channels, inner] (inner is 1 for NHWC,
// rows * cols for NCHW); `args` are device vectors of `channels` elements of the output's
// type: the bias alone (args[0]), or batch norm's scale, offset, mean and variance; `addend`
// is the residual tensor, of the output's shape, when the epilogue adds one.
struct ConvEpilogueOperands {
  const void* args[4] = {nullptr, nullptr, nullptr, nullptr};
  const void* addend = nullptr;
  int64_t elements = 0;
  int64_t channels = 0;
  int64_t inner = 1;
};

// Rewrites every element of `out` (device memory of `type`: float, half or bfloat16) as
// ConvEpilogueValue (conv_epilogue.h) of it. Enqueued on `stream`; launch errors are left
// for LastLaunchStatus. Nothing is launched for zero elements; false (nothing launched) for
// another element type.
bool LaunchConvEpilogue(ElementType type, const ConvEpilogue& epilogue,
                        const ConvEpilogueOperands& operands, void* out, CUstream_st* stream);

}  // namespace cuda
}  // namespace sluice

#endif  // SLUICE_KERNELS_CUDA_CONV_EPILOGUE_LAUNCH_H_
