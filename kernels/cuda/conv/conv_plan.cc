// TensorFlow convolutions in cuDNN's terms; see conv_plan.h.
#include "kernels/cuda/conv/conv_plan.h"

#include "graph/core/errors.h"

namespace sluice {
namespace cuda {

absl::Status PlanCudnnConv(const ConvGeometry& geo, const TensorShape& input_shape,
                           CudnnConvPlan* plan) {
  plan->filter = {geo.filter_rows, geo.filter_cols, geo.in_depth / geo.groups, geo.out_depth};
  plan->filter_layout = geo.data_format == FORMAT_NHWC ? FilterLayout::kOhwi : FilterLayout::kOihw;
  const SpatialPadding rows =
      PlanSpatialPadding(geo.in_rows, (geo.filter_rows - 1) * geo.dilation_rows + 1,
                         geo.stride_rows, geo.pad_top, geo.pad_bottom, geo.out_rows);
  const SpatialPadding cols =
      PlanSpatialPadding(geo.in_cols, (geo.filter_cols - 1) * geo.dilation_cols + 1,
                         geo.stride_cols, geo.pad_left, geo.pad_right, geo.out_cols);
  const int64_t extra_rows = rows.extra_before + rows.extra_after;
  const int64_t extra_cols = cols.extra_before + cols.extra_after;
  plan->pad_input = extra_rows + extra_cols > 0;
  if (plan->pad_input) {
    PadDims& pad = plan->pad;
    for (int d = 0; d < 4; ++d) {
      pad.in[d] = pad.out[d] = input_shape.dim_size(d);
      pad.before[d] = 0;
    }
    const int h = GetTensorDimIndex(geo.data_format, 'H', 4);
    const int w = GetTensorDimIndex(geo.data_format, 'W', 4);
    pad.out[h] += extra_rows;
    pad.before[h] = rows.extra_before;
    pad.out[w] += extra_cols;
    pad.before[w] = cols.extra_before;
    RETURN_IF_ERROR(TensorShape::BuildTensorShape({pad.out[0], pad.out[1], pad.out[2], pad.out[3]},
                                                  &plan->padded));
  }
  CudnnConvShape& s = plan->shape;
  s.batch = geo.batch;
  s.in_depth = geo.in_depth;
  s.in_rows = geo.in_rows + extra_rows;
  s.in_cols = geo.in_cols + extra_cols;
  s.out_depth = geo.out_depth;
  s.out_rows = geo.out_rows;
  s.out_cols = geo.out_cols;
  s.filter_rows = geo.filter_rows;
  s.filter_cols = geo.filter_cols;
  s.groups = geo.groups;
  s.stride_rows = geo.stride_rows;
  s.stride_cols = geo.stride_cols;
  s.dilation_rows = geo.dilation_rows;
  s.dilation_cols = geo.dilation_cols;
  s.pad_rows = rows.symmetric;
  s.pad_cols = cols.symmetric;
  s.format = geo.data_format;
  return absl::OkStatus();
}

}  // namespace cuda
}  // namespace sluice
