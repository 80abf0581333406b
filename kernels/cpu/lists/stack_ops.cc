// TensorFlow's stack ops on the CPU: StackV2 makes a Stack (stack.h) in the step's container
// and outputs its DT_RESOURCE handle; StackPushV2 pushes its input and passes it on,
// StackPopV2 pops, StackCloseV2 closes. The swap_memory attr of StackPushV2 (TensorFlow moves
// pushed GPU tensors to host memory under memory pressure) is read and has no effect here:
// these kernels hold host tensors.
#include <atomic>
#include <cstdint>
#include <limits>
#include <string>

#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "kernels/cpu/lists/stack.h"
#include "runtime/framework/op_kernel.h"
#include "runtime/framework/resource_mgr.h"

namespace sluice {
namespace {

// The Stack input 0's handle names, held for the kernel's run.
class StackRef {
 public:
  ~StackRef() {
    if (stack_ != nullptr) stack_->Unref();
  }
  absl::Status Lookup(OpKernelContext* ctx) {
    ResourceHandleProto handle;
    RETURN_IF_ERROR(HandleFromInput(ctx, 0, &handle));
    return LookupResource(ctx, handle, &stack_);
  }
  Stack* operator->() const { return stack_; }

 private:
  Stack* stack_ = nullptr;
};

class StackOp : public OpKernel {
 public:
  explicit StackOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("elem_type", &elem_type_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("stack_name", &stack_name_));
    if (stack_name_.empty()) stack_name_ = name();
  }
  void Compute(OpKernelContext* ctx) override {
    const Tensor& max_size = ctx->input(0);
    OP_REQUIRES(ctx, max_size.dims() == 0,
                errors::InvalidArgument("Stack size must be a scalar, but had shape: ",
                                        max_size.shape().DebugString()));
    int64_t value;
    OP_REQUIRES_OK(ctx, IntegerTensorScalar(max_size, &value));
    // A negative max_size means no bound: TensorFlow's int32 maximum.
    const int64_t bound = value >= 0 ? value : std::numeric_limits<int32_t>::max();
    ScopedStepContainer* step = ctx->step_container();
    OP_REQUIRES(
        ctx, step != nullptr,
        errors::Internal("StackV2 needs a step container, and ", name(), " runs without one"));
    // One stack per run (a StackV2 inside a loop makes one per iteration), named uniquely in
    // the process, as TensorFlow names them: kernels of different graphs may share a node name.
    static std::atomic<int64_t> next_id{0};
    const std::string unique =
        absl::StrCat(stack_name_, "_", next_id.fetch_add(1, std::memory_order_relaxed));
    step->MarkUsed();
    const ResourceHandleProto handle = MakeResourceHandle<Stack>(ctx, step->name(), unique);
    OP_REQUIRES_OK(ctx, CreateResource(ctx, handle, new Stack(unique, elem_type_, bound)));
    ctx->set_output(0, Tensor(handle));
  }

 private:
  DataType elem_type_;
  std::string stack_name_;
};

class StackPushOp : public OpKernel {
 public:
  explicit StackPushOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    bool swap_memory;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("swap_memory", &swap_memory));
  }
  void Compute(OpKernelContext* ctx) override {
    StackRef stack;
    OP_REQUIRES_OK(ctx, stack.Lookup(ctx));
    const Tensor& value = ctx->input(1);
    // TensorFlow's message names the dtypes by their enum numbers.
    OP_REQUIRES(ctx, value.dtype() == stack->elem_type(),
                errors::InvalidArgument("Must have type ", static_cast<int>(stack->elem_type()),
                                        " but got ", static_cast<int>(value.dtype())));
    OP_REQUIRES_OK(ctx, stack->Push(value));
    ctx->set_output(0, value);
  }
  bool IsExpensive() override { return false; }
};

class StackPopOp : public OpKernel {
 public:
  explicit StackPopOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}
  void Compute(OpKernelContext* ctx) override {
    StackRef stack;
    OP_REQUIRES_OK(ctx, stack.Lookup(ctx));
    Tensor value;
    OP_REQUIRES_OK(ctx, stack->Pop(&value));
    // A value of another dtype than elem_type is refused here with TensorFlow's INTERNAL error.
    ctx->set_output(0, value);
  }
  bool IsExpensive() override { return false; }
};

class StackCloseOp : public OpKernel {
 public:
  explicit StackCloseOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}
  void Compute(OpKernelContext* ctx) override {
    StackRef stack;
    OP_REQUIRES_OK(ctx, stack.Lookup(ctx));
    stack->Close();
  }
  bool IsExpensive() override { return false; }
};

REGISTER_KERNEL_BUILDER(Name("StackV2").Device(DEVICE_CPU), StackOp);
REGISTER_KERNEL_BUILDER(Name("StackPushV2").Device(DEVICE_CPU), StackPushOp);
REGISTER_KERNEL_BUILDER(Name("StackPopV2").Device(DEVICE_CPU), StackPopOp);
REGISTER_KERNEL_BUILDER(Name("StackCloseV2").Device(DEVICE_CPU), StackCloseOp);

}  // namespace
}  // namespace sluice
