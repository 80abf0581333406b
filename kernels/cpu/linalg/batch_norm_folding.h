// BatchNormFolder: a convolution followed by inference batch normalization,
//   y = (conv(x, w) - mean) * scale * rsqrt(variance + epsilon) + offset,
// is the convolution with a rescaled filter and a bias:
//   s = scale * rsqrt(variance + epsilon),  w'[..., c] = w[..., c] * s[c],
//   b[c] = offset[c] - mean[c] * s[c],      y = conv(x, w') + b.
// Fold() computes w' and b in float and keeps them while the filter and the four batch-norm
// vectors are the same buffers with the same contents (a content fingerprint catches
// in-place updates; read-only sources, such as Consts' values, are not fingerprinted), so
// constant weights are folded once and the returned w' keeps its buffer, which lets
// OneDnnConv's cache of reordered weights hit too. w' and b are read-only tensors.
//
// The filter is TensorFlow's [rows, cols, in_depth / groups, out_depth]: the output channel
// is the innermost dim. Thread safety: Fold may be called concurrently.
#ifndef SLUICE_KERNELS_CPU_LINALG_BATCH_NORM_FOLDING_H_
#define SLUICE_KERNELS_CPU_LINALG_BATCH_NORM_FOLDING_H_

#include <cstdint>
#include <memory>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "graph/core/tensor.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {

class BatchNormFolder {
 public:
  // The folded filter and bias are temps of `ctx` (they count against the device's
  // allocator while cached); RESOURCE_EXHAUSTED when it refuses them.
  // REQUIRES: float tensors; scale, offset, mean and variance of out_depth elements each.
  absl::Status Fold(OpKernelContext* ctx, const Tensor& filter, const Tensor& scale,
                    const Tensor& offset, const Tensor& mean, const Tensor& variance, float epsilon,
                    Tensor* folded_filter, Tensor* bias);

 private:
  struct Entry {
    Tensor sources[5];  // filter, scale, offset, mean, variance: kept alive so that their
                        // addresses identify them
    uint64_t fingerprint = 0;
    float epsilon = 0.0f;
    Tensor filter, bias;
  };

  static uint64_t Fingerprint(const Tensor* const (&sources)[5]);

  absl::Mutex mu_;
  std::shared_ptr<const Entry> entry_ ABSL_GUARDED_BY(mu_);
};

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_LINALG_BATCH_NORM_FOLDING_H_
