// PlanCudnnConv: a TensorFlow convolution (ConvGeometry, kernels/cpu/linalg/conv_params.h)
// in cuDNN's terms, decided on the host before anything is launched.
//
// The plan says
//  - how the filter is rewritten: the HWIO filter (a depthwise [H, W, C, M] filter read as
//    [H, W, 1, C*M], see conv_index.h) into [out, rows, cols, in] for NHWC data or
//    [out, in, rows, cols] for NCHW, "in" being one group's input channels;
//  - whether the input is copied with zeros added first, and how (PadDims in the input's
//    own layout), for padding cuDNN's symmetric padding cannot give (PlanSpatialPadding);
//  - the convolution cuDNN runs on the (possibly padded) input (CudnnConvShape).
// Plain C++: no CUDA or cuDNN types, so host tests check plans against the CPU kernels.
#ifndef SLUICE_KERNELS_CUDA_CONV_CONV_PLAN_H_
#define SLUICE_KERNELS_CUDA_CONV_CONV_PLAN_H_

#include <cstdint>

#include "absl/status/status.h"
#include "graph/core/tensor_format.h"
#include "graph/core/tensor_shape.h"
#include "kernels/cpu/linalg/conv_params.h"
#include "kernels/cuda/conv/conv_index.h"

namespace sluice {
namespace cuda {

// A convolution as cuDNN describes it (dims as logical N, C, H, W whatever the layout).
struct CudnnConvShape {
  int64_t batch = 0;
  int64_t in_depth = 0, in_rows = 0, in_cols = 0;  // the input cuDNN reads (padded)
  int64_t out_depth = 0, out_rows = 0, out_cols = 0;
  int64_t filter_rows = 0, filter_cols = 0;
  int64_t groups = 1;
  int64_t stride_rows = 1, stride_cols = 1;
  int64_t dilation_rows = 1, dilation_cols = 1;
  int64_t pad_rows = 0, pad_cols = 0;  // on both sides
  // NHWC: input and output NHWC, filter [out, rows, cols, in]; NCHW: NCHW and
  // [out, in, rows, cols].
  TensorFormat format = FORMAT_NHWC;
};

struct CudnnConvPlan {
  FilterDims filter;  // the HWIO view of the node's filter
  FilterLayout filter_layout = FilterLayout::kOhwi;
  bool pad_input = false;
  PadDims pad;           // when pad_input
  TensorShape padded;    // when pad_input: the padded input's shape
  CudnnConvShape shape;  // what cuDNN runs
};

// The plan of `geo` (from ForwardConvGeometry) over an input of `input_shape`.
// INVALID_ARGUMENT if the padded input's shape is not a valid TensorShape.
// REQUIRES: the output is not empty.
absl::Status PlanCudnnConv(const ConvGeometry& geo, const TensorShape& input_shape,
                           CudnnConvPlan* plan);

}  // namespace cuda
}  // namespace sluice

#endif  // SLUICE_KERNELS_CUDA_CONV_CONV_PLAN_H_
