// Einsum on a GPU, float32, float16 and bfloat16: the CPU kernel's plan (kernels/cpu/linalg/
// einsum_plan.h: TensorFlow's equations, checks and messages) run with the GPU's pieces:
//  - plain gathers (transposes, layouts for the product) by the GPU's strided copy
//    (kernels/cpu/array/strided_copy.h);
//  - diagonals, sums over labels and scatters onto an output's diagonal by the pass kernel
//    (kernels/cuda/strided_pass.h; sums in double, as on the CPU);
//  - the batched product by cuBLAS (gemm.h), float accumulation.
// Attention's equations ("bhqd,bhkd->bhqk", "abc,cd->abd", ...) need no pass before the
// product, as on the CPU. 16-bit operands are prepared in their own type (the CPU widens
// them to float first; a gather is exact either way), and the product rounds once. An empty
// output launches nothing; an empty input with a non-empty output gives zeros.
#include <cuda_runtime_api.h>

#include <string>
#include <vector>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/array/strided_copy.h"
#include "kernels/cpu/linalg/einsum_plan.h"
#include "kernels/cuda/gpu_kernel_util.h"
#include "kernels/cuda/linalg/einsum_pass.h"
#include "kernels/cuda/linalg/gemm.h"
#include "kernels/cuda/strided_pass.h"
#include "runtime/framework/gpu/cuda_status.h"
#include "runtime/framework/gpu/gpu_device_context.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace cuda {
namespace {

template <typename T>
class GpuEinsumOp : public OpKernel {
 public:
  explicit GpuEinsumOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string equation;
    int64_t n = 0;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("equation", &equation));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("N", &n));
    OP_REQUIRES_OK(ctx, einsum::ParseEquation(equation, static_cast<int>(n), &equation_));
    OP_REQUIRES_OK(ctx, ToElementType(DataTypeToEnum<T>::value, &type_));
  }

  void Compute(OpKernelContext* ctx) override {
    GpuDeviceContext* gpu = ctx->device()->gpu_device_context();
    OP_REQUIRES(
        ctx, gpu != nullptr,
        errors::Internal("A GPU kernel ran on ", ctx->device()->name(), ", which is not a GPU"));
    std::vector<TensorShape> shapes;
    for (int i = 0; i < ctx->num_inputs(); ++i) shapes.push_back(ctx->input(i).shape());
    einsum::Plan plan;
    OP_REQUIRES_OK(ctx, einsum::MakePlan(equation_, shapes, &plan));
    if (plan.forward) {
      Tensor out;
      OP_REQUIRES(ctx, out.CopyFrom(ctx->input(0), plan.output_shape),
                  errors::Internal("Einsum could not reshape ", shapes[0].DebugString(), " to ",
                                   plan.output_shape.DebugString()));
      ctx->set_output(0, out);
      return;
    }
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, plan.output_shape, &out));
    if (plan.output_empty) return;
    CUstream_st* stream = gpu->compute_stream();
    if (plan.zeros || plan.inflate) {
      OP_REQUIRES_OK(ctx, CudaStatus(cudaMemsetAsync(out->raw_data(), 0, out->TotalBytes(), stream),
                                     "cudaMemsetAsync"));
    }
    if (plan.zeros) return;
    if (plan.num_inputs == 1) {
      OP_REQUIRES_OK(ctx, RunPass(ctx, stream, plan.x.prepare, ctx->input(0), out));
      return;
    }
    Tensor x_buffer, y_buffer, result_buffer;
    const Tensor* x = nullptr;
    const Tensor* y = nullptr;
    OP_REQUIRES_OK(ctx, Prepare(ctx, stream, plan.x, &x_buffer, &x));
    OP_REQUIRES_OK(ctx, Prepare(ctx, stream, plan.y, &y_buffer, &y));
    Tensor* result = out;
    if (!plan.result_is_output) {
      // shape-safe: the product of the sizes of distinct output labels, at most the element
      // count of the output, whose shape MakePlan built with BuildTensorShape
      OP_REQUIRES_OK(ctx, ctx->allocate_temp(DataTypeToEnum<T>::value,
                                             TensorShape({plan.finish.NumKept()}), &result_buffer));
      result = &result_buffer;
    }
    OP_REQUIRES_OK(
        ctx, EnqueueGemm<T>(*gpu, ProductOf(plan), x->base<T>(), y->base<T>(), result->base<T>()));
    if (!plan.result_is_output) {
      OP_REQUIRES_OK(ctx, RunPass(ctx, stream, plan.finish, result_buffer, out));
    }
  }

 private:
  // The operand's matrices: the input itself when it is laid out so, else a pass into a temp.
  absl::Status Prepare(OpKernelContext* ctx, CUstream_st* stream, const einsum::Operand& op,
                       Tensor* buffer, const Tensor** data) {
    const Tensor& in = ctx->input(op.input);
    if (op.direct) {
      *data = &in;
      return absl::OkStatus();
    }
    // shape-safe: the product of the sizes of distinct labels of a non-empty input, at most
    // that input's element count
    RETURN_IF_ERROR(
        ctx->allocate_temp(DataTypeToEnum<T>::value, TensorShape({op.num_elements}), buffer));
    RETURN_IF_ERROR(RunPass(ctx, stream, op.prepare, in, buffer));
    *data = buffer;
    return absl::OkStatus();
  }

  // A plain gather by the strided copy; anything else by the pass kernel.
  absl::Status RunPass(OpKernelContext* ctx, CUstream_st* stream, const einsum::StridedPass& pass,
                       const Tensor& src, Tensor* dst) {
    if (pass.IsGather()) {
      StridedCopy(ctx, src, 0, pass.dims, pass.src_strides, dst);
      return ctx->status();
    }
    PassShape shape;
    RETURN_IF_ERROR(ToPassShape(pass, &shape));
    return LaunchStatus(LaunchStridedPass(type_, shape, src.raw_data(), dst->raw_data(), stream),
                        *this);
  }

  einsum::Equation equation_;
  ElementType type_ = ElementType::kFloat;
};

#define REGISTER_GPU_EINSUM(T) \
  REGISTER_KERNEL_BUILDER(Name("Einsum").Device(DEVICE_GPU).TypeConstraint<T>("T"), GpuEinsumOp<T>);
REGISTER_GPU_EINSUM(float)
REGISTER_GPU_EINSUM(half)
REGISTER_GPU_EINSUM(bfloat16)
#undef REGISTER_GPU_EINSUM

}  // namespace
}  // namespace cuda
}  // namespace sluice
