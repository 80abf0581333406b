// PoolGeometry: the validated window arithmetic shared by the 2-D pooling kernels (MaxPool,
// MaxPoolV2, AvgPool), with TensorFlow's checks and messages.
//
// A pooling window either slides over the two spatial dims (the common case) or, for max
// pooling only, covers disjoint groups of channels ("depthwise" pooling, NHWC only, no
// padding). Both layouts reduce to the same NHWC loop: an NCHW tensor is an NHWC tensor of
// batch N*C and depth 1, so the kernels only ever walk NHWC.
//
// Every function returns INVALID_ARGUMENT or UNIMPLEMENTED (TensorFlow's codes) instead of
// trusting its input; sizes are int64 and cannot overflow for valid TensorShapes.
#ifndef SLUICE_KERNELS_CPU_NN_POOL_PARAMS_H_
#define SLUICE_KERNELS_CPU_NN_POOL_PARAMS_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "graph/core/padding.h"
#include "graph/core/tensor_format.h"
#include "graph/core/tensor_shape.h"

namespace sluice {

// The attrs (or, for MaxPoolV2, input values) that describe a pooling window, indexed by
// the dims of `format` (N, H, W, C in NHWC order for NHWC, N, C, H, W for NCHW).
//
// on the heap, bounded: the lists are attrs (or MaxPoolV2's inputs, checked to hold 4 values before
// they are copied here), so the graph bounds them.
struct PoolWindow {
  std::vector<int32_t> ksize;
  std::vector<int32_t> strides;
  Padding padding = VALID;
  std::vector<int64_t> explicit_paddings;  // 8 values when padding == EXPLICIT
  TensorFormat format = FORMAT_NHWC;
};

// The pooling of one input, as an NHWC walk (see the file comment).
struct PoolGeometry {
  int64_t batch = 0;  // N, or N*C for NCHW
  int64_t in_rows = 0;
  int64_t in_cols = 0;
  int64_t depth = 0;  // C, or 1 for NCHW
  int64_t window_rows = 1;
  int64_t window_cols = 1;
  int64_t row_stride = 1;
  int64_t col_stride = 1;
  int64_t pad_top = 0;
  int64_t pad_left = 0;
  int64_t out_rows = 0;
  int64_t out_cols = 0;
  // Depthwise pooling: channels are reduced in groups of depth_window; 1 otherwise.
  int64_t depth_window = 1;
  int64_t out_depth = 0;
  TensorShape output_shape;  // in the input's format
};

// Checks the lengths of ksize and strides ("Sliding window ksize field must specify 4
// dimensions") and that neither pools over the batch dim (UNIMPLEMENTED "Pooling is not yet
// supported on the batch dimension.").
absl::Status CheckPoolWindowSizes(const PoolWindow& window);

// Checks the explicit paddings: 8 non-negative values, zero on N and C, and each spatial
// pad smaller than its window ("Top padding 2 needs to be smaller than the window size 2").
absl::Status CheckExplicitPoolPadding(const PoolWindow& window);

// The geometry of pooling `input` with `window`, whose sizes were checked above:
// INVALID_ARGUMENT unless the input has 2 spatial dims, UNIMPLEMENTED for windows that mix
// depth and spatial pooling or depth windows that do not tile the channels, and
// INVALID_ARGUMENT when an output size would be negative.
absl::Status ComputePoolGeometry(const TensorShape& input, const PoolWindow& window,
                                 PoolGeometry* geometry);

// TensorFlow's windowed output size along one dim, with the padding before it.
// INVALID_ARGUMENT for a non-positive stride or a negative output size.
absl::Status WindowedOutputSize(int64_t input_size, int64_t window, int64_t stride, Padding padding,
                                int64_t explicit_before, int64_t explicit_after,
                                int64_t* output_size, int64_t* pad_before);

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_NN_POOL_PARAMS_H_
