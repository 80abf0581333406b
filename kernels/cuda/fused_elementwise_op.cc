// `_FusedElementwise` on a GPU, float32, float16 and bfloat16: the node's program runs as one
// kernel (fused_elementwise.cu) instead of one launch and one round trip to memory per op.
// Each op is its own GPU kernel's functor, so values are the unfused GPU graph's.
//
// Checks are the CPU kernel's (kernels/cpu/cwise/fused_elementwise_plan.h): the program's
// attrs, inputs that broadcast as a scalar, trailing dims or leading dims, unary ops only on
// values of the output's shape. The program (elementwise_program_builder.h) travels as a
// launch argument of fixed size: programs of more than kMaxElementwiseSteps ops are
// UNIMPLEMENTED here (the fusion pass writes none; a hand-written one runs on the CPU).
#include <string>
#include <vector>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "graph/ops/fused_elementwise_spec.h"
#include "kernels/cpu/cwise/fused_elementwise_plan.h"
#include "kernels/cuda/cwise_launch.h"
#include "kernels/cuda/elementwise_program_builder.h"
#include "kernels/cuda/fused_elementwise_launch.h"
#include "kernels/cuda/gpu_kernel_util.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace cuda {
namespace {

class GpuFusedElementwiseOp : public OpKernel {
 public:
  explicit GpuFusedElementwiseOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    num_inputs_ = ctx->num_inputs();
    OP_REQUIRES_OK(ctx, ReadFusedElementwiseProgram(ctx, &steps_));
    OP_REQUIRES_OK(ctx, ToElementType(ctx->output_type(0), &type_));
    OP_REQUIRES_OK(ctx, BuildElementwiseProgram(steps_, num_inputs_, &program_));
  }

  void Compute(OpKernelContext* ctx) override {
    CUstream_st* stream = ComputeStream(ctx);
    if (stream == nullptr) return;
    // heap-ok: one per input of the node
    std::vector<const TensorShape*> shapes(num_inputs_);
    for (int i = 0; i < num_inputs_; ++i) shapes[i] = &ctx->input(i).shape();
    std::vector<ElementwiseInputLayout> layouts;
    OP_REQUIRES_OK(ctx, ElementwiseLayouts(name(), shapes, &layouts));
    const TensorShape& out_shape = ctx->input(0).shape();
    OP_REQUIRES_OK(ctx, CheckUnaryOperands(name(), steps_, shapes, out_shape));
    ElementwiseProgram program = program_;
    std::vector<int> forwardable;
    for (int i = 0; i < num_inputs_; ++i) {
      SetElementwiseInput(i, layouts[i], ctx->input(i).raw_data(), &program);
      if (layouts[i].kind == ElementwiseInputLayout::kFull) forwardable.push_back(i);
    }
    // An output over an input of its shape: each element is read before it is written.
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output(forwardable, 0, out_shape, &out));
    if (out->NumElements() == 0) return;
    OP_REQUIRES_OK(ctx, LaunchStatus(LaunchFusedElementwise(type_, program, out->NumElements(),
                                                            out->raw_data(), stream),
                                     *this));
  }

 private:
  int num_inputs_ = 0;
  std::vector<FusedElementwiseStep> steps_;
  ElementType type_ = ElementType::kFloat;
  ElementwiseProgram program_;  // without the inputs, which each call fills in
};

REGISTER_KERNEL_BUILDER(
    Name("_FusedElementwise").Device(DEVICE_GPU).TypeConstraint("T", FloatTypes()),
    GpuFusedElementwiseOp);

}  // namespace
}  // namespace cuda
}  // namespace sluice
