#include "kernels/cuda/conv/gpu_convolution.h"

#include <cuda_runtime_api.h>

#include "graph/core/errors.h"
#include "graph/core/types.h"
#include "kernels/cuda/conv/conv_launch.h"
#include "kernels/cuda/conv/conv_plan.h"
#include "runtime/framework/gpu/cuda_status.h"

namespace sluice {
namespace cuda {

absl::Status GpuForwardConvolution::Run(OpKernelContext* ctx, GpuDeviceContext& gpu,
                                        const ConvGeometry& geo, const Tensor& input,
                                        const Tensor& filter, Tensor* output) {
  CUstream_st* stream = gpu.compute_stream();
  const int element_bytes = DataTypeSize(input.dtype());
  if (input.NumElements() == 0) {
    return CudaStatus(
        cudaMemsetAsync(output->raw_data(), 0, output->NumElements() * element_bytes, stream),
        "cudaMemsetAsync");
  }
  CudnnConvPlan plan;
  RETURN_IF_ERROR(PlanCudnnConv(geo, input.shape(), &plan));
  const Tensor* x = &input;
  Tensor padded;
  if (plan.pad_input) {
    RETURN_IF_ERROR(ctx->allocate_temp(input.dtype(), plan.padded, &padded));
    if (!LaunchZeroPad(input.raw_data(), padded.raw_data(), plan.pad, element_bytes, stream)) {
      return errors::Internal("No CUDA padding kernel for ", DataTypeString(input.dtype()));
    }
    RETURN_IF_ERROR(LastLaunchStatus("ZeroPad"));
    x = &padded;
  }
  // The rewritten filter has the filter's elements; its shape is only a size here.
  Tensor cudnn_filter;
  RETURN_IF_ERROR(ctx->allocate_temp(filter.dtype(), filter.shape(), &cudnn_filter));
  if (!LaunchFilterToCudnn(filter.raw_data(), cudnn_filter.raw_data(), plan.filter,
                           plan.filter_layout, element_bytes, stream)) {
    return errors::Internal("No CUDA filter kernel for ", DataTypeString(filter.dtype()));
  }
  RETURN_IF_ERROR(LastLaunchStatus("FilterToCudnn"));
  return conv_.Run(gpu, input.dtype(), plan.shape, x->raw_data(), cudnn_filter.raw_data(),
                   output->raw_data());
}

}  // namespace cuda
}  // namespace sluice
