#include "kernels/cuda/gpu_kernel_util.h"

#include "graph/core/errors.h"
#include "runtime/framework/gpu/cuda_status.h"
#include "runtime/framework/gpu/gpu_device_context.h"

namespace sluice {
namespace cuda {

absl::Span<const DataType> FloatTypes() {
  static constexpr DataType kTypes[] = {DT_HALF, DT_BFLOAT16, DT_FLOAT};
  return kTypes;
}

absl::Span<const DataType> CastTypes() {
  static constexpr DataType kTypes[] = {DT_BOOL,     DT_INT32, DT_INT64, DT_HALF,
                                        DT_BFLOAT16, DT_FLOAT, DT_DOUBLE};
  return kTypes;
}

absl::Status ToElementType(DataType dtype, ElementType* type) {
  switch (dtype) {
    case DT_FLOAT:
      *type = ElementType::kFloat;
      return absl::OkStatus();
    case DT_HALF:
      *type = ElementType::kHalf;
      return absl::OkStatus();
    case DT_BFLOAT16:
      *type = ElementType::kBFloat16;
      return absl::OkStatus();
    case DT_DOUBLE:
      *type = ElementType::kDouble;
      return absl::OkStatus();
    case DT_INT32:
      *type = ElementType::kInt32;
      return absl::OkStatus();
    case DT_INT64:
      *type = ElementType::kInt64;
      return absl::OkStatus();
    case DT_BOOL:
      *type = ElementType::kBool;
      return absl::OkStatus();
    default:
      return errors::InvalidArgument("No CUDA kernel takes ", DataTypeString(dtype));
  }
}

CUstream_st* ComputeStream(OpKernelContext* ctx) {
  GpuDeviceContext* gpu = ctx->device()->gpu_device_context();
  if (gpu == nullptr) {
    ctx->SetStatus(
        errors::Internal("A GPU kernel ran on ", ctx->device()->name(), ", which is not a GPU"));
    return nullptr;
  }
  return gpu->compute_stream();
}

absl::Status LaunchStatus(bool launched, const OpKernel& kernel) {
  if (!launched) {
    return errors::Internal("No CUDA kernel of ", kernel.type_string(), " for ",
                            DataTypeString(kernel.input_type(0)));
  }
  return LastLaunchStatus(kernel.type_string());
}

}  // namespace cuda
}  // namespace sluice
