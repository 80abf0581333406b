// What the CUDA kernel classes of kernels/cuda share: the element types they register and
// launch with, the device's compute stream, and the status of a launch.
#ifndef SLUICE_KERNELS_CUDA_GPU_KERNEL_UTIL_H_
#define SLUICE_KERNELS_CUDA_GPU_KERNEL_UTIL_H_

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "graph/core/types.h"
#include "kernels/cuda/cwise_launch.h"
#include "runtime/framework/op_kernel.h"

struct CUstream_st;

namespace sluice {
namespace cuda {

// The dtypes of the floating-point GPU kernels (TypeConstraint("T", FloatTypes())). int32 is
// left to the CPU, as in TensorFlow, which keeps int32 tensors in host memory.
absl::Span<const DataType> FloatTypes();

// The dtypes Cast converts between on a GPU.
absl::Span<const DataType> CastTypes();

// The launchers' element type of `dtype`. INVALID_ARGUMENT for a dtype no CUDA kernel takes
// (registrations keep those away; a kernel checks in its constructor).
absl::Status ToElementType(DataType dtype, ElementType* type);

// The compute stream of the GPU device ctx runs on. Null, with INTERNAL set on ctx, when the
// device is no GPU (a registration error).
CUstream_st* ComputeStream(OpKernelContext* ctx);

// Whether a launch went through: INTERNAL when the launcher had no kernel for the type
// (`launched` false), else the launch error CUDA reports, if any (cuda_status.h).
absl::Status LaunchStatus(bool launched, const OpKernel& kernel);

}  // namespace cuda
}  // namespace sluice

#endif  // SLUICE_KERNELS_CUDA_GPU_KERNEL_UTIL_H_
