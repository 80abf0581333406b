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
  absl::StatusOr<Tensor> cudnn_filter =
      CudnnFilter(ctx, stream, filter, plan.filter, plan.filter_layout);
  RETURN_IF_ERROR(cudnn_filter.status());
  return conv_.Run(gpu, input.dtype(), plan.shape, x->raw_data(), cudnn_filter->raw_data(),
                   output->raw_data());
}

absl::StatusOr<Tensor> GpuForwardConvolution::CudnnFilter(OpKernelContext* ctx, CUstream_st* stream,
                                                          const Tensor& filter,
                                                          const FilterDims& dims,
                                                          FilterLayout layout) {
  const bool cacheable = filter.IsReadOnly();
  if (cacheable) {
    absl::MutexLock lock(&mu_);
    if (has_cached_ && cached_.source.SharesBufferWith(filter) &&
        cached_.source.dtype() == filter.dtype() && cached_.layout == layout &&
        cached_.dims.rows == dims.rows && cached_.dims.cols == dims.cols &&
        cached_.dims.in_depth == dims.in_depth && cached_.dims.out_depth == dims.out_depth) {
      return cached_.rewritten;
    }
  }
  // The rewritten filter has the filter's elements; its shape is only a size here. A cached
  // copy outlives the step, so it comes from the device's allocator, not the step's temps.
  Tensor rewritten;
  if (cacheable) {
    absl::StatusOr<Tensor> copy =
        Tensor::Allocate(ctx->device()->GetAllocator(), filter.dtype(), filter.shape());
    RETURN_IF_ERROR(copy.status());
    rewritten = *std::move(copy);
  } else {
    RETURN_IF_ERROR(ctx->allocate_temp(filter.dtype(), filter.shape(), &rewritten));
  }
  if (!LaunchFilterToCudnn(filter.raw_data(), rewritten.raw_data(), dims, layout,
                           DataTypeSize(filter.dtype()), stream)) {
    return errors::Internal("No CUDA filter kernel for ", DataTypeString(filter.dtype()));
  }
  RETURN_IF_ERROR(LastLaunchStatus("FilterToCudnn"));
  if (cacheable) {
    // Later users of the copy are ordered after the rewrite on the compute stream.
    absl::MutexLock lock(&mu_);
    cached_ = CachedFilter{filter, dims, layout, rewritten};
    has_cached_ = true;
  }
  return rewritten;
}

}  // namespace cuda
}  // namespace sluice
