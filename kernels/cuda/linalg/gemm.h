// EnqueueGemm: the matrix products of a MatMulPlan (kernels/cpu/linalg/matmul_plan.h) through
// cuBLAS, enqueued on the GPU's compute stream; float32, float16 and bfloat16 accumulate in
// float32 (TF32 only where the session allows it: the handle's math mode), float64 in float64.
//
// cuBLAS is column-major, where a row-major matrix is its own transpose: the row-major
// out = X * Y is computed as out^T = Y^T * X^T, operands swapped, nothing copied. The merged
// batch dims run as one strided batched product over the innermost merged dim (a broadcast
// operand has stride 0), looping over the outer ones.
//
// REQUIRES: p.k > 0 and an output of at least one element (callers handle those). x, y and out
// are device memory holding the plan's operands, row-major. INVALID_ARGUMENT for sizes past
// cuBLAS's 32-bit arguments; cuBLAS's errors as CublasStatus makes them.
#ifndef SLUICE_KERNELS_CUDA_LINALG_GEMM_H_
#define SLUICE_KERNELS_CUDA_LINALG_GEMM_H_

#include "absl/status/status.h"
#include "kernels/cpu/linalg/matmul_plan.h"
#include "runtime/framework/gpu/gpu_device_context.h"

namespace sluice {

template <typename T>
absl::Status EnqueueGemm(GpuDeviceContext& gpu, const MatMulPlan& p, const T* x, const T* y,
                         T* out);

}  // namespace sluice

#endif  // SLUICE_KERNELS_CUDA_LINALG_GEMM_H_
