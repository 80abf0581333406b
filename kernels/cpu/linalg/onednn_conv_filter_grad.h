// OneDnnConvFilterGrad: the filter gradient of a 2-D convolution (grouped or not, so
// depthwise too) on oneDNN's convolution_backward_weights, its primitives cached by shape.
//
// Layout: src (the convolution's input) and diff_dst (out_backprop) are NHWC or NCHW as
// geo.data_format says; the result is written in TensorFlow's filter layout
// [rows, cols, in_depth / groups, out_depth] (HWIO). When the primitive wants another
// layout for its result, it writes into a temp of that layout and a reorder (part of the
// cached entry) moves it into HWIO.
// Thread safety: Run may be called concurrently; each call brings its own scratch buffers.
#ifndef SLUICE_KERNELS_CPU_LINALG_ONEDNN_CONV_FILTER_GRAD_H_
#define SLUICE_KERNELS_CPU_LINALG_ONEDNN_CONV_FILTER_GRAD_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "kernels/cpu/linalg/conv_params.h"
#include "kernels/cpu/linalg/onednn_util.h"
#include "oneapi/dnnl/dnnl.hpp"
#include "runtime/framework/op_kernel.h"

namespace sluice {

class OneDnnConvFilterGrad {
 public:
  // Writes the gradient of the filter into `filter_grad` (HWIO, `type` elements) from `src`
  // and `diff_dst` (buffers of `type` laid out per `geo`). INTERNAL if oneDNN fails (a
  // bfloat16 convolution on a CPU without AVX-512, for one). REQUIRES: geo came from the
  // checks in conv_params.h or conv_grad_params.h, and no operand is empty.
  absl::Status Run(OpKernelContext* ctx, const ConvGeometry& geo, dnnl::memory::data_type type,
                   const void* src, const void* diff_dst, void* filter_grad);

 private:
  struct Primitive {
    dnnl::convolution_backward_weights::primitive_desc pd;
    dnnl::primitive primitive;
    dnnl::memory::desc plain_weights;           // HWIO through strides
    bool reorder = false;                       // whether pd's diff_weights layout differs from it
    dnnl::reorder::primitive_desc to_plain_pd;  // that reorder, when needed
    dnnl::primitive to_plain;
  };

  static absl::Status Create(const ConvGeometry& geo, dnnl::memory::data_type type,
                             std::shared_ptr<const Primitive>* out);

  OneDnnShapeCache<std::vector<int64_t>, Primitive> cache_;
};

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_LINALG_ONEDNN_CONV_FILTER_GRAD_H_
