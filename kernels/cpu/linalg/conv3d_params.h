// The attrs and shape checks shared by Conv3D's gradient kernels (Conv3DBackpropInput(V2) in
// conv3d_op.cc, Conv3DBackpropFilterV2 in conv3d_grad_filter_op.cc), with TensorFlow's rules
// and messages, as its CPU kernels give them.
#ifndef SLUICE_KERNELS_CPU_LINALG_CONV3D_PARAMS_H_
#define SLUICE_KERNELS_CPU_LINALG_CONV3D_PARAMS_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "graph/core/padding.h"
#include "graph/core/tensor_shape.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {

// The geometry of one spatial dim of a 3-D convolution's gradient: input size, window,
// stride, the padding before and after, and the output size.
struct Conv3DSpatialDim {
  int64_t in = 0, window = 0, stride = 1, pad = 0, pad_after = 0, out = 0;
};

// Reads and checks the strides, dilations and padding of a gradient kernel: NDHWC only (the
// data_format attr exists in the V2 ops only: `v2_label` names the kernel in the message, null
// for V1), 5 dilations of 1, 5 strides of 1 in the batch and channels.
absl::Status ReadConv3DBackpropAttrs(OpKernelConstruction* ctx, const char* v2_label,
                                     std::vector<int32_t>* strides, Padding* padding);

// TensorFlow's ConvBackpropComputeDimensions for 3 spatial dims of an NDHWC convolution, with
// `label` opening its messages: equal batches, a positive filter depth dividing the input
// depth, the filter's and out_backprop's out_depth equal, and each spatial size of
// out_backprop the forward convolution's. REQUIRES: the three shapes are 5-D.
absl::Status Conv3DBackpropDims(absl::string_view label, const TensorShape& input,
                                const TensorShape& filter, const TensorShape& out_backprop,
                                const std::vector<int32_t>& strides, Padding padding,
                                Conv3DSpatialDim dims[3]);

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_LINALG_CONV3D_PARAMS_H_
