// OneDnnConv: a 2-D convolution (forward, or its input gradient) run on oneDNN, with the
// primitive and the filter in oneDNN's preferred layout cached across calls.
//
// One OneDnnConv lives in each kernel. Run() looks its primitive up by the call's geometry
// and element type (creating it on a miss), then looks at the filter: a filter whose buffer,
// shape and content fingerprint equal the cached one's reuses the reordered copy, anything
// else is reordered again and replaces it. The cached entry holds a reference to the filter
// tensor, so its buffer cannot be freed and reused under the same address; the fingerprint
// catches in-place updates (a variable assigned in place). A read-only filter
// (Tensor::IsReadOnly: a Const's value, a folded filter) cannot change in place, so it is
// not fingerprinted: reading a large model's every filter each step costs a tenth of a
// batch-1 step.
//
// Layout: activations are NHWC or NCHW as geo.data_format says; the filter is TensorFlow's
// [rows, cols, in_depth / groups, out_depth] (HWIO), read through strides.
// A forward convolution may apply an epilogue before storing its result: a per-channel bias
// (part of the primitive) and then an eltwise activation (a post-op), both keyed into the
// primitive cache.
// Thread safety: Run may be called concurrently; the cache is guarded by a mutex and each
// call brings its own scratchpad.
#ifndef SLUICE_KERNELS_CPU_LINALG_ONEDNN_CONV_H_
#define SLUICE_KERNELS_CPU_LINALG_ONEDNN_CONV_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "graph/core/tensor.h"
#include "kernels/cpu/linalg/conv_params.h"
#include "oneapi/dnnl/dnnl.hpp"
#include "runtime/framework/op_kernel.h"

namespace sluice {

// What a forward convolution applies to its result: bias (out_depth elements of the
// convolution's type, or null for none), then, with `sum`, the values dst holds before the
// call (a oneDNN sum post-op: the residual add), then the activation post-op.
struct ConvEpilogue {
  const void* bias = nullptr;
  bool sum = false;
  dnnl::algorithm activation = dnnl::algorithm::undef;
  float alpha = 0.0f;
  float beta = 0.0f;
};

// oneDNN descriptors of a convolution's operands, shared with its filter gradient
// (onednn_conv_filter_grad.h): an activation [batch, depth, rows, cols] in geo.data_format;
// TensorFlow's filter [rows, cols, in_depth / groups, out_depth] (HWIO) as oneDNN's (g)oihw
// dims read through strides; and the same dims in the layout oneDNN prefers (format any).
dnnl::memory::desc ActivationDesc(const ConvGeometry& geo, int64_t depth, int64_t rows,
                                  int64_t cols, dnnl::memory::data_type type);
dnnl::memory::desc PlainWeightsDesc(const ConvGeometry& geo, dnnl::memory::data_type type);
dnnl::memory::desc AnyWeightsDesc(const ConvGeometry& geo, dnnl::memory::data_type type);

class OneDnnConv {
 public:
  enum class Direction {
    kForward,       // src: the input, dst: the output
    kBackwardData,  // src: out_backprop, dst: the input gradient
  };

  explicit OneDnnConv(Direction direction) : direction_(direction) {}

  // Convolves `src` with `filter` into `dst` (buffers of `type` elements laid out per `geo`),
  // then applies `epilogue` (forward only). INTERNAL if oneDNN fails. REQUIRES: geo came from
  // the checks in conv_params.h and the output is not empty.
  absl::Status Run(OpKernelContext* ctx, const ConvGeometry& geo, dnnl::memory::data_type type,
                   const Tensor& filter, const void* src, void* dst,
                   const ConvEpilogue& epilogue = {});

 private:
  struct Primitive;
  struct Weights;
  struct Entry {
    std::shared_ptr<const Primitive> primitive;
    std::shared_ptr<const Weights> weights;
  };

  absl::Status CreatePrimitive(const ConvGeometry& geo, dnnl::memory::data_type type,
                               const ConvEpilogue& epilogue,
                               std::shared_ptr<const Primitive>* primitive) const;
  absl::Status ReorderWeights(const Primitive& primitive, const Tensor& filter,
                              std::shared_ptr<const Weights>* weights) const;

  static constexpr size_t kMaxCachedShapes = 16;

  const Direction direction_;
  absl::Mutex mu_;
  absl::flat_hash_map<std::vector<int64_t>, Entry> cache_ ABSL_GUARDED_BY(mu_);
};

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_LINALG_ONEDNN_CONV_H_
