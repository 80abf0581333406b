// Einsum's plan (kernels/cpu/linalg/einsum_plan.h) in the GPU's terms: its strided passes as
// the launch argument of the GPU's pass kernel (kernels/cuda/strided_pass.h), and its batched
// product as a MatMulPlan for cuBLAS (gemm.h). Plain C++, checked on the host against the CPU
// kernel (einsum_pass_test.cc).
#ifndef SLUICE_KERNELS_CUDA_LINALG_EINSUM_PASS_H_
#define SLUICE_KERNELS_CUDA_LINALG_EINSUM_PASS_H_

#include "absl/status/status.h"
#include "kernels/cpu/linalg/einsum_plan.h"
#include "kernels/cpu/linalg/matmul_plan.h"
#include "kernels/cuda/strided_pass.h"

namespace sluice {
namespace cuda {

// `pass` as a PassShape. UNIMPLEMENTED for more than kMaxPassDims kept or reduced dims (an
// equation of that many distinct labels that the plan could not merge).
absl::Status ToPassShape(const einsum::StridedPass& pass, PassShape* shape);

// The plan's product out[b, m, n] = sum_k X[b, m, k] * Y[b, k, n] as a MatMulPlan over X and
// Y as the plan prepares them (transposed operands as adjoints). REQUIRES: two inputs.
MatMulPlan ProductOf(const einsum::Plan& plan);

}  // namespace cuda
}  // namespace sluice

#endif  // SLUICE_KERNELS_CUDA_LINALG_EINSUM_PASS_H_
