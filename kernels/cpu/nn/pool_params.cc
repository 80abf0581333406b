// Window arithmetic of the 2-D pooling kernels; see pool_params.h.
#include "kernels/cpu/nn/pool_params.h"

#include <algorithm>
#include <cstdint>

#include "absl/status/status.h"
#include "graph/core/errors.h"
#include "graph/core/padding.h"
#include "graph/core/tensor_format.h"
#include "graph/core/tensor_shape.h"

namespace sluice {
namespace {

int DimIndex(TensorFormat format, char dim) { return GetTensorDimIndex(format, dim, 4); }

}  // namespace

absl::Status WindowedOutputSize(int64_t input_size, int64_t window, int64_t stride, Padding padding,
                                int64_t explicit_before, int64_t explicit_after,
                                int64_t* output_size, int64_t* pad_before) {
  if (stride <= 0) return errors::InvalidArgument("Stride must be > 0, but got ", stride);
  switch (padding) {
    case VALID:
      *output_size = (input_size - window + stride) / stride;
      *pad_before = 0;
      break;
    case EXPLICIT:
      *output_size = (input_size + explicit_before + explicit_after - window + stride) / stride;
      *pad_before = explicit_before;
      break;
    case SAME: {
      *output_size = (input_size + stride - 1) / stride;
      const int64_t needed =
          std::max<int64_t>(0, (*output_size - 1) * stride + window - input_size);
      *pad_before = needed / 2;
      break;
    }
  }
  if (*output_size < 0) {
    return errors::InvalidArgument("Computed output size would be negative: ", *output_size,
                                   " [input_size: ", input_size,
                                   ", effective_filter_size: ", window, ", stride: ", stride, "]");
  }
  return absl::OkStatus();
}

absl::Status CheckPoolWindowSizes(const PoolWindow& window) {
  if (window.ksize.size() != 4) {
    return errors::InvalidArgument("Sliding window ksize field must specify 4 dimensions");
  }
  if (window.strides.size() != 4) {
    return errors::InvalidArgument("Sliding window stride field must specify 4 dimensions");
  }
  const int n = DimIndex(window.format, 'N');
  if (window.ksize[n] != 1 || window.strides[n] != 1) {
    return errors::Unimplemented("Pooling is not yet supported on the batch dimension.");
  }
  return absl::OkStatus();
}

absl::Status CheckExplicitPoolPadding(const PoolWindow& window) {
  RETURN_IF_ERROR(CheckValidPadding(window.padding, window.explicit_paddings, 4, window.format));
  if (window.padding != EXPLICIT) return absl::OkStatus();
  const int h = DimIndex(window.format, 'H');
  const int w = DimIndex(window.format, 'W');
  struct Side {
    const char* name;
    int64_t pad;
    int32_t window;
  };
  const Side sides[] = {{"Top", window.explicit_paddings[2 * h], window.ksize[h]},
                        {"Bottom", window.explicit_paddings[2 * h + 1], window.ksize[h]},
                        {"Left", window.explicit_paddings[2 * w], window.ksize[w]},
                        {"Right", window.explicit_paddings[2 * w + 1], window.ksize[w]}};
  for (const Side& side : sides) {
    if (side.pad >= side.window) {
      return errors::InvalidArgument(side.name, " padding ", side.pad,
                                     " needs to be smaller than the window size ", side.window);
    }
  }
  return absl::OkStatus();
}

absl::Status ComputePoolGeometry(const TensorShape& input, const PoolWindow& window,
                                 PoolGeometry* g) {
  if (GetTensorSpatialDims(input.dims(), window.format) != 2) {
    return errors::InvalidArgument("tensor_in_shape must have 2 spatial dimensions. ", input.dims(),
                                   " ", static_cast<int>(window.format));
  }
  const int n = DimIndex(window.format, 'N');
  const int h = DimIndex(window.format, 'H');
  const int w = DimIndex(window.format, 'W');
  const int c = DimIndex(window.format, 'C');
  const int64_t channels = input.dim_size(c);
  g->in_rows = input.dim_size(h);
  g->in_cols = input.dim_size(w);
  g->window_rows = window.ksize[h];
  g->window_cols = window.ksize[w];
  g->row_stride = window.strides[h];
  g->col_stride = window.strides[w];
  g->depth_window = window.ksize[c];
  if (g->depth_window != 1 && (g->window_rows != 1 || g->window_cols != 1)) {
    return errors::Unimplemented(
        "MaxPooling supports exactly one of pooling across depth or pooling across "
        "width/height.");
  }
  if (g->depth_window != 1) {
    if (channels % g->depth_window != 0) {
      return errors::Unimplemented(
          "Depthwise max pooling requires the depth window to evenly divide the input depth");
    }
    if (window.strides[c] != g->depth_window) {
      return errors::Unimplemented(
          "Depthwise max pooling requires the depth window to equal the depth stride");
    }
    // Depthwise pooling keeps the spatial dims as they are (TensorFlow ignores the spatial
    // strides here).
    g->batch = input.dim_size(n);
    g->depth = channels;
    g->window_rows = g->window_cols = g->row_stride = g->col_stride = 1;
    g->pad_top = g->pad_left = 0;
    g->out_rows = g->in_rows;
    g->out_cols = g->in_cols;
    g->out_depth = channels / g->depth_window;
    return TensorShape::BuildTensorShape({g->batch, g->out_rows, g->out_cols, g->out_depth},
                                         &g->output_shape);
  }
  const bool explicit_pad = window.padding == EXPLICIT;
  RETURN_IF_ERROR(WindowedOutputSize(g->in_rows, g->window_rows, g->row_stride, window.padding,
                                     explicit_pad ? window.explicit_paddings[2 * h] : 0,
                                     explicit_pad ? window.explicit_paddings[2 * h + 1] : 0,
                                     &g->out_rows, &g->pad_top));
  RETURN_IF_ERROR(WindowedOutputSize(g->in_cols, g->window_cols, g->col_stride, window.padding,
                                     explicit_pad ? window.explicit_paddings[2 * w] : 0,
                                     explicit_pad ? window.explicit_paddings[2 * w + 1] : 0,
                                     &g->out_cols, &g->pad_left));
  if (window.format == FORMAT_NHWC) {
    g->batch = input.dim_size(n);
    g->depth = channels;
    g->out_depth = channels;
    return TensorShape::BuildTensorShape({g->batch, g->out_rows, g->out_cols, channels},
                                         &g->output_shape);
  }
  g->batch = input.dim_size(n) * channels;
  g->depth = 1;
  g->out_depth = 1;
  return TensorShape::BuildTensorShape({input.dim_size(n), channels, g->out_rows, g->out_cols},
                                       &g->output_shape);
}

}  // namespace sluice
