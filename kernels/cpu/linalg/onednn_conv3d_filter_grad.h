// OneDnnConv3DFilterGrad: the filter gradient of a 3-D convolution (Conv3DBackpropFilterV2)
// on oneDNN's convolution_backward_weights, its primitives cached by shape.
//
// Layout: src (the convolution's input) and diff_dst (out_backprop) are NDHWC; the result is
// written in TensorFlow's filter layout [planes, rows, cols, in_depth, out_depth] (DHWIO).
// When the primitive wants another layout for its result, it writes into a temp of that
// layout and a reorder (part of the cached entry) moves it into DHWIO.
// Thread safety: Run may be called concurrently; each call brings its own scratch buffers.
#ifndef SLUICE_KERNELS_CPU_LINALG_ONEDNN_CONV3D_FILTER_GRAD_H_
#define SLUICE_KERNELS_CPU_LINALG_ONEDNN_CONV3D_FILTER_GRAD_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "kernels/cpu/linalg/conv3d_params.h"
#include "kernels/cpu/linalg/onednn_util.h"
#include "oneapi/dnnl/dnnl.hpp"
#include "runtime/framework/op_kernel.h"

namespace sluice {

class OneDnnConv3DFilterGrad {
 public:
  // Writes the gradient of the filter into `filter_grad` (DHWIO, `type` elements) from `src`
  // [batch, dims[].in, in_depth] and `diff_dst` [batch, dims[].out, out_depth]. INTERNAL if
  // oneDNN fails (a bfloat16 convolution on a CPU without AVX-512, for one). REQUIRES: dims
  // came from Conv3DBackpropDims, and no operand is empty.
  absl::Status Run(OpKernelContext* ctx, const Conv3DSpatialDim dims[3], int64_t batch,
                   int64_t in_depth, int64_t out_depth, dnnl::memory::data_type type,
                   const void* src, const void* diff_dst, void* filter_grad);

 private:
  struct Primitive {
    dnnl::convolution_backward_weights::primitive_desc pd;
    dnnl::primitive primitive;
    dnnl::memory::desc plain_weights;           // DHWIO through strides
    bool reorder = false;                       // whether pd's diff_weights layout differs from it
    dnnl::reorder::primitive_desc to_plain_pd;  // that reorder, when needed
    dnnl::primitive to_plain;
  };

  // key: batch, in_depth, out_depth, then in, window, stride, pad, pad_after, out per dim,
  // then the type.
  static absl::Status Create(const std::vector<int64_t>& key, dnnl::memory::data_type type,
                             std::shared_ptr<const Primitive>* out);

  OneDnnShapeCache<std::vector<int64_t>, Primitive> cache_;
};

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_LINALG_ONEDNN_CONV3D_FILTER_GRAD_H_
