// GpuForwardConvolution: one node's forward 2-D convolutions on a GPU, from TensorFlow's
// operands (NHWC or NCHW data, an HWIO or depthwise HWCM filter) to its output, shared by
// Conv2D, DepthwiseConv2dNative and their fused forms.
//
// Per call:
//  1. PlanCudnnConv (conv_plan.h) puts the convolution in cuDNN's terms: a depthwise filter
//     [H, W, C, M] is the HWIO filter [H, W, 1, C*M] of a convolution with C groups, and
//     padding cuDNN cannot express (it pads both sides alike) is added to the input;
//  2. where the plan says so, the input is copied into a temp with that padding as zeros;
//  3. the filter is rewritten from HWIO into cuDNN's layout for the data format: into a temp,
//     or, for a read-only filter (Tensor::IsReadOnly: a Const's value), once, into a copy
//     kept while the same filter comes back (the node holds a reference to that filter, so
//     its buffer cannot be reused under the same address, and no kernel writes a read-only
//     buffer). A frozen model's convolutions thus launch one kernel less per step;
//  4. CudnnConvolution runs it, with the algorithm chosen on the first call per shape.
// An empty input under a non-empty output (windows of padding only) gives zeros, as on the
// CPU. Everything is enqueued on the device's compute stream.
//
// Thread safety: as CudnnConvolution's (Run may be called concurrently).
#ifndef SLUICE_KERNELS_CUDA_CONV_GPU_CONVOLUTION_H_
#define SLUICE_KERNELS_CUDA_CONV_GPU_CONVOLUTION_H_

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "graph/core/tensor.h"
#include "kernels/cpu/linalg/conv_params.h"
#include "kernels/cuda/conv/conv_index.h"
#include "kernels/cuda/conv/cudnn_conv.h"
#include "runtime/framework/gpu/gpu_device_context.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace cuda {

class GpuForwardConvolution {
 public:
  // Convolves `input` with `filter` (device tensors of one dtype: float, half or bfloat16) as
  // `geo` (ForwardConvGeometry of these shapes) says into `output`, allocated with geo's
  // output shape. Temps come from `ctx`.
  // REQUIRES: output and filter are not empty.
  absl::Status Run(OpKernelContext* ctx, GpuDeviceContext& gpu, const ConvGeometry& geo,
                   const Tensor& input, const Tensor& filter, Tensor* output);

 private:
  // The filter in cuDNN's layout: the cached copy, or a rewrite (temp or new cached copy).
  absl::StatusOr<Tensor> CudnnFilter(OpKernelContext* ctx, CUstream_st* stream,
                                     const Tensor& filter, const FilterDims& dims,
                                     FilterLayout layout);

  struct CachedFilter {
    Tensor source;  // the read-only filter it was made from (held: see above)
    FilterDims dims;
    FilterLayout layout = FilterLayout::kOhwi;
    Tensor rewritten;
  };

  CudnnConvolution conv_;
  absl::Mutex mu_;
  bool has_cached_ ABSL_GUARDED_BY(mu_) = false;
  CachedFilter cached_ ABSL_GUARDED_BY(mu_);
};

}  // namespace cuda
}  // namespace sluice

#endif  // SLUICE_KERNELS_CUDA_CONV_GPU_CONVOLUTION_H_
