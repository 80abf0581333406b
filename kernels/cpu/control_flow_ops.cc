// The v1 control-flow kernels. They only route values: which output a Switch takes, which
// live input a Merge forwards, and the identity of Enter, Exit, NextIteration and LoopCond.
// Frames, iterations and deadness are the frame executor's (runtime/executor/frame_executor.h):
// an output a kernel leaves unset is dead, and a Merge sees its dead inputs as absent
// (OpKernelContext::has_input). Ref inputs (the Ref* variants, ref graphs) are forwarded as
// refs. All of them are cheap and registered for every type on the CPU.
//
// They never read elements, so the same classes serve GPUs (TensorFlow's GPU registrations):
// a loop whose body runs on a GPU keeps its tensors there from iteration to iteration. What
// steers them is in host memory (Switch's pred, LoopCond, Merge's value_index, _SwitchN's
// index), as are int32 values, which GPUs keep on the host.
#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "kernels/cpu/array/array_types.h"
#include "runtime/framework/cancellation.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// Output `out` is input `in`, as a ref when the input is one.
void Forward(OpKernelContext* ctx, int in, int out) {
  if (ctx->input_is_ref(in)) {
    ctx->forward_ref_input_to_ref_output(in, out);
  } else {
    ctx->set_output(out, ctx->input(in));
  }
}

// Switch(data, pred): output 1 if pred else output 0 is data; the other is dead.
class SwitchOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  bool IsExpensive() override { return false; }
  void Compute(OpKernelContext* ctx) override {
    const Tensor& pred = ctx->input(1);
    OP_REQUIRES(ctx, pred.dims() == 0,
                errors::InvalidArgument("The second input must be a scalar, but it has shape ",
                                        pred.shape().DebugString()));
    Forward(ctx, 0, pred.scalar<bool>()() ? 1 : 0);
  }
};

// _SwitchN(data, output_index): output `output_index` is data, the others are dead; an index
// out of range takes the last output (Case's default branch).
class SwitchNOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  bool IsExpensive() override { return false; }
  void Compute(OpKernelContext* ctx) override {
    const Tensor& index = ctx->input(1);
    OP_REQUIRES(ctx, index.dims() == 0,
                errors::InvalidArgument("The second input must be a scalar, but it has shape ",
                                        index.shape().DebugString()));
    int32_t out = index.scalar<int32_t>()();
    if (out < 0 || out >= ctx->num_outputs()) out = ctx->num_outputs() - 1;
    Forward(ctx, 0, out);
  }
};

// Merge(inputs): forwards the one live input and its index.
class MergeOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  bool IsExpensive() override { return false; }
  void Compute(OpKernelContext* ctx) override {
    int live = -1;
    for (int i = 0; i < ctx->num_inputs(); ++i) {
      if (!ctx->has_input(i)) continue;
      OP_REQUIRES(ctx, live < 0,
                  errors::InvalidArgument("Merge can not have more than one valid input."));
      live = i;
    }
    OP_REQUIRES(ctx, live >= 0, errors::Internal("Merge ran without a live input"));
    Forward(ctx, live, 0);
    Tensor* index = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape({}), &index));
    index->scalar<int32_t>()() = live;
  }
};

// Enter, Exit, NextIteration and their Ref variants.
class ForwardOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  bool IsExpensive() override { return false; }
  void Compute(OpKernelContext* ctx) override { Forward(ctx, 0, 0); }
};

// LoopCond: the loop's predicate. A cancelled step stops here, so a loop that never ends
// stops at its next iteration.
class LoopCondOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  bool IsExpensive() override { return false; }
  void Compute(OpKernelContext* ctx) override {
    CancellationManager* cancellation = ctx->cancellation_manager();
    OP_REQUIRES(ctx, cancellation == nullptr || !cancellation->IsCancelled(),
                errors::Cancelled("Loop execution was cancelled."));
    const Tensor& pred = ctx->input(0);
    OP_REQUIRES(ctx, pred.dims() == 0,
                errors::InvalidArgument("LoopCond's input must be a scalar, but it has shape ",
                                        pred.shape().DebugString()));
    ctx->set_output(0, pred);
  }
};

class ControlTriggerOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  bool IsExpensive() override { return false; }
  void Compute(OpKernelContext*) override {}
};

// Abort: TensorFlow ends the process; a Sluice step fails with ABORTED instead (no input may
// end the process), and exit_without_error ends the step without an error.
class AbortOp : public OpKernel {
 public:
  explicit AbortOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("error_msg", &error_msg_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("exit_without_error", &exit_without_error_));
  }
  bool IsExpensive() override { return false; }
  void Compute(OpKernelContext* ctx) override {
    if (exit_without_error_) return;
    ctx->SetStatus(errors::Aborted("Abort_op intentional failure; ", error_msg_));
  }

 private:
  std::string error_msg_;
  bool exit_without_error_ = false;
};

REGISTER_KERNEL_BUILDER(Name("Switch").Device(DEVICE_CPU), SwitchOp);
REGISTER_KERNEL_BUILDER(Name("RefSwitch").Device(DEVICE_CPU), SwitchOp);
REGISTER_KERNEL_BUILDER(Name("_SwitchN").Device(DEVICE_CPU), SwitchNOp);
REGISTER_KERNEL_BUILDER(Name("Merge").Device(DEVICE_CPU), MergeOp);
REGISTER_KERNEL_BUILDER(Name("RefMerge").Device(DEVICE_CPU), MergeOp);
REGISTER_KERNEL_BUILDER(Name("Enter").Device(DEVICE_CPU), ForwardOp);
REGISTER_KERNEL_BUILDER(Name("RefEnter").Device(DEVICE_CPU), ForwardOp);
REGISTER_KERNEL_BUILDER(Name("Exit").Device(DEVICE_CPU), ForwardOp);
REGISTER_KERNEL_BUILDER(Name("RefExit").Device(DEVICE_CPU), ForwardOp);
REGISTER_KERNEL_BUILDER(Name("NextIteration").Device(DEVICE_CPU), ForwardOp);
REGISTER_KERNEL_BUILDER(Name("RefNextIteration").Device(DEVICE_CPU), ForwardOp);
REGISTER_KERNEL_BUILDER(Name("LoopCond").Device(DEVICE_CPU), LoopCondOp);
REGISTER_KERNEL_BUILDER(Name("ControlTrigger").Device(DEVICE_CPU), ControlTriggerOp);
REGISTER_KERNEL_BUILDER(Name("Abort").Device(DEVICE_CPU), AbortOp);

// GPUs: values in device memory, except int32 and variants (the lists a loop carries), whose
// every input and output stays in host memory. Ref variants stay on the CPU (Sluice keeps ref
// variables there).
REGISTER_KERNEL_BUILDER(Name("Switch")
                            .Device(DEVICE_GPU)
                            .HostMemory("pred")
                            .TypeConstraint("T", array_internal::GpuArrayTypes()),
                        SwitchOp);
REGISTER_KERNEL_BUILDER(Name("Switch")
                            .Device(DEVICE_GPU)
                            .HostMemory("data")
                            .HostMemory("pred")
                            .HostMemory("output_false")
                            .HostMemory("output_true")
                            .TypeConstraint("T", {DT_INT32, DT_VARIANT}),
                        SwitchOp);
REGISTER_KERNEL_BUILDER(Name("_SwitchN")
                            .Device(DEVICE_GPU)
                            .HostMemory("output_index")
                            .TypeConstraint("T", array_internal::GpuArrayTypes()),
                        SwitchNOp);
REGISTER_KERNEL_BUILDER(Name("_SwitchN")
                            .Device(DEVICE_GPU)
                            .HostMemory("data")
                            .HostMemory("output_index")
                            .HostMemory("outputs")
                            .TypeConstraint("T", {DT_INT32, DT_VARIANT}),
                        SwitchNOp);
REGISTER_KERNEL_BUILDER(Name("Merge")
                            .Device(DEVICE_GPU)
                            .HostMemory("value_index")
                            .TypeConstraint("T", array_internal::GpuArrayTypes()),
                        MergeOp);
REGISTER_KERNEL_BUILDER(Name("Merge")
                            .Device(DEVICE_GPU)
                            .HostMemory("inputs")
                            .HostMemory("output")
                            .HostMemory("value_index")
                            .TypeConstraint("T", {DT_INT32, DT_VARIANT}),
                        MergeOp);
#define SLUICE_REGISTER_GPU_FORWARD(op)                                                 \
  REGISTER_KERNEL_BUILDER(                                                              \
      Name(op).Device(DEVICE_GPU).TypeConstraint("T", array_internal::GpuArrayTypes()), \
      ForwardOp);                                                                       \
  REGISTER_KERNEL_BUILDER(Name(op)                                                      \
                              .Device(DEVICE_GPU)                                       \
                              .HostMemory("data")                                       \
                              .HostMemory("output")                                     \
                              .TypeConstraint("T", {DT_INT32, DT_VARIANT}),             \
                          ForwardOp)
SLUICE_REGISTER_GPU_FORWARD("Enter");
SLUICE_REGISTER_GPU_FORWARD("Exit");
SLUICE_REGISTER_GPU_FORWARD("NextIteration");
#undef SLUICE_REGISTER_GPU_FORWARD
REGISTER_KERNEL_BUILDER(
    Name("LoopCond").Device(DEVICE_GPU).HostMemory("input").HostMemory("output"), LoopCondOp);
REGISTER_KERNEL_BUILDER(Name("ControlTrigger").Device(DEVICE_GPU), ControlTriggerOp);

}  // namespace
}  // namespace sluice
