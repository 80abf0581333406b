// CudnnConvolution: one node's forward 2-D convolutions through cuDNN, with the algorithm
// chosen once per shape and remembered.
//
// The caller has already brought the operands into cuDNN's terms (conv_plan.h): the input
// with the padding cuDNN cannot express added, the filter in the layout matching the data
// format. Run then
//  1. describes input, filter, output and convolution (cross-correlation, float
//     accumulation for every element type, `groups` groups);
//  2. on the first call for a shape, asks cuDNN to time its algorithms on the real operands
//     (cudnnFindConvolutionForwardAlgorithmEx, with the device's workspace; this blocks until
//     the timing runs are done) or, should that fail, for its heuristic ranking
//     (cudnnGetConvolutionForwardAlgorithm_v7), and keeps the fastest usable one,
//     deterministic ones first;
//  3. enqueues the convolution on the compute stream and returns without waiting.
// Math: float32 uses TF32 tensor cores only when the device allows it (allow_tf32), else
// FMA only; float16 and bfloat16 may use tensor cores.
//
// Thread safety: Run may be called concurrently (the executor may run one node in several
// steps at once); the cache is guarded by a mutex, never held while cuDNN runs.
#ifndef SLUICE_KERNELS_CUDA_CONV_CUDNN_CONV_H_
#define SLUICE_KERNELS_CUDA_CONV_CUDNN_CONV_H_

#include <cudnn.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "graph/core/types.h"
#include "kernels/cuda/conv/conv_plan.h"
#include "runtime/framework/gpu/gpu_device_context.h"

namespace sluice {
namespace cuda {

class CudnnConvolution {
 public:
  // Convolves x with w into y, all device memory of `dtype` (float, half or bfloat16)
  // shaped as `shape` says. INVALID_ARGUMENT for sizes past cuDNN's int arguments or a
  // configuration cuDNN rejects; RESOURCE_EXHAUSTED when the workspace cannot be had.
  absl::Status Run(GpuDeviceContext& gpu, DataType dtype, const CudnnConvShape& shape,
                   const void* x, const void* w, void* y);

 private:
  struct Choice {
    cudnnConvolutionFwdAlgo_t algo;
    size_t workspace_bytes;
  };

  absl::Mutex mu_;
  // One entry per shape (and dtype and TF32 setting) this node has run.
  absl::flat_hash_map<std::vector<int64_t>, Choice> choices_ ABSL_GUARDED_BY(mu_);
};

}  // namespace cuda
}  // namespace sluice

#endif  // SLUICE_KERNELS_CUDA_CONV_CUDNN_CONV_H_
