// Sum, Mean, Prod, Max and Min on GPUs for float, half and bfloat16, over any axes, with
// keep_dims. The axes (reduction_indices, int32 or int64) stay in host memory, as TensorFlow
// registers them, and are validated by the CPU kernel's plan (kernels/cpu/reduction/
// reduction_plan.h), so errors and output shapes are the CPU's. Each of the plan's passes runs
// on the device (reduction_ops.cu), accumulating in float: passes before the last write float
// temporaries, and the last writes the output (Mean divides there by the number of elements
// folded). A plan with no passes forwards the input, reshaped; empty outputs launch nothing.
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/reduction/reduction_plan.h"
#include "kernels/cuda/gpu_kernel_util.h"
#include "kernels/cuda/reduction_launch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace cuda {
namespace {

template <ReduceKind kOp, bool kMean>
class GpuReductionOp : public OpKernel {
 public:
  explicit GpuReductionOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ToElementType(input_type(0), &type_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("keep_dims", &keep_dims_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    ReductionPlan plan;
    OP_REQUIRES_OK(ctx, MakeReductionPlan(input.shape(), ctx->input(1), keep_dims_, &plan));
    if (plan.passes().empty()) {
      Tensor output;
      OP_REQUIRES(ctx, output.CopyFrom(input, plan.output_shape()),
                  errors::Internal("Error during reduction copy."));
      ctx->set_output(0, output);
      return;
    }
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, plan.output_shape(), &output));
    if (output->NumElements() == 0) return;
    CUstream_st* stream = ComputeStream(ctx);
    if (stream == nullptr) return;

    const auto& passes = plan.passes();
    const void* in = input.raw_data();
    ElementType in_type = type_;
    Tensor previous;  // holds `in` after the first pass
    for (size_t k = 0; k < passes.size(); ++k) {
      const ReductionPass& p = passes[k];
      const bool last = k + 1 == passes.size();
      Tensor current;
      void* out = output->raw_data();
      if (!last) {
        // shape-safe: outer and inner are products of disjoint groups of the input's dims
        OP_REQUIRES_OK(ctx,
                       ctx->allocate_temp(DT_FLOAT, TensorShape({p.outer * p.inner}), &current));
        out = current.raw_data();
      }
      Tensor scratch;
      const int64_t scratch_elements = ReduceScratchElements(p.outer, p.reduced, p.inner);
      if (scratch_elements > 0) {
        // shape-safe: under 2^26 (chunks only for fewer than 2^15 outputs, at most 2048 each)
        OP_REQUIRES_OK(ctx,
                       ctx->allocate_temp(DT_FLOAT, TensorShape({scratch_elements}), &scratch));
      }
      const bool launched = LaunchReducePass(
          kOp, in_type, in, last ? type_ : ElementType::kFloat, out, p.outer, p.reduced, p.inner,
          kMean && last, static_cast<float>(plan.reduced_count()),
          scratch_elements > 0 ? static_cast<float*>(scratch.raw_data()) : nullptr, stream);
      OP_REQUIRES_OK(ctx, LaunchStatus(launched, *this));
      // Temporaries released here (scratch now, `previous` when replaced) may be handed out
      // again at once: the device allocator serves the compute stream, which runs this pass's
      // work before any work enqueued later.
      previous = current;
      in = current.raw_data();
      in_type = ElementType::kFloat;
    }
  }

 private:
  ElementType type_ = ElementType::kFloat;
  bool keep_dims_ = false;
};

#define REGISTER_GPU(op, ...)                                    \
  REGISTER_KERNEL_BUILDER(Name(op)                               \
                              .Device(DEVICE_GPU)                \
                              .TypeConstraint("T", FloatTypes()) \
                              .HostMemory("reduction_indices"),  \
                          __VA_ARGS__);

REGISTER_GPU("Sum", GpuReductionOp<ReduceKind::kSum, false>)
REGISTER_GPU("Mean", GpuReductionOp<ReduceKind::kSum, true>)
REGISTER_GPU("Prod", GpuReductionOp<ReduceKind::kProd, false>)
REGISTER_GPU("Max", GpuReductionOp<ReduceKind::kMax, false>)
REGISTER_GPU("Min", GpuReductionOp<ReduceKind::kMin, false>)

#undef REGISTER_GPU

}  // namespace
}  // namespace cuda
}  // namespace sluice
