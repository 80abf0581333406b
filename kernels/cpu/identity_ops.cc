// The identity family: Identity, StopGradient, PreventGradient, PlaceholderWithDefault
// (whose kernel runs only when the placeholder is not fed), GuaranteeConst and IdentityN
// forward their inputs without copying; Snapshot gives a value no one else can see change,
// copying unless the input's buffer is unshared; DeepCopy always copies.
//
// Forwarding never reads elements, so the same kernels serve GPUs: values in device memory,
// except int32, which GPUs keep in host memory (TensorFlow's registrations).
#include <cstring>

#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

class IdentityOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext* ctx) override { ctx->set_output(0, ctx->input(0)); }
  bool IsExpensive() override { return false; }
};

class IdentityNOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext* ctx) override {
    for (int i = 0; i < ctx->num_inputs(); ++i) ctx->set_output(i, ctx->input(i));
  }
  bool IsExpensive() override { return false; }
};

template <typename T>
class SnapshotOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({0}, 0, input.shape(), &output));
    if (!output->SharesBufferWith(input) && input.NumElements() > 0) {
      std::memcpy(output->raw_data(), input.raw_data(), input.NumElements() * sizeof(T));
    }
  }
};

// tf.guarantee_const: an identity, refused for a resource handle (TensorFlow's message), whose
// variable's value may change.
class GuaranteeConstOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext* ctx) override {
    OP_REQUIRES(ctx, ctx->input(0).dtype() != DT_RESOURCE,
                errors::InvalidArgument("Input tensor cannot be a resource variable handle."));
    ctx->set_output(0, ctx->input(0));
  }
  bool IsExpensive() override { return false; }
};

// A new output buffer from the device's allocator, element by element (graph/core/element_bytes.h:
// strings, resources and variants included).
class DeepCopyOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    Tensor* y = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, x.shape(), &y));
    if (x.NumElements() == 0) return;
    const bool copied = VisitByElementSize(x.dtype(), [&](auto unit) {
      using U = typename decltype(unit)::type;
      CopyUnits(ElementsAs<U>(x), MutableElementsAs<U>(y), x.NumElements());
    });
    OP_REQUIRES(ctx, copied,
                errors::Unimplemented("DeepCopy cannot copy ", DataTypeString(x.dtype())));
  }
};

REGISTER_KERNEL_BUILDER(Name("Identity").Device(DEVICE_CPU), IdentityOp);
REGISTER_KERNEL_BUILDER(Name("GuaranteeConst").Device(DEVICE_CPU), GuaranteeConstOp);
REGISTER_KERNEL_BUILDER(Name("DeepCopy").Device(DEVICE_CPU), DeepCopyOp);
REGISTER_KERNEL_BUILDER(Name("StopGradient").Device(DEVICE_CPU), IdentityOp);
REGISTER_KERNEL_BUILDER(Name("PreventGradient").Device(DEVICE_CPU), IdentityOp);
REGISTER_KERNEL_BUILDER(Name("PlaceholderWithDefault").Device(DEVICE_CPU), IdentityOp);
REGISTER_KERNEL_BUILDER(Name("IdentityN").Device(DEVICE_CPU), IdentityNOp);

#define REGISTER_GPU_IDENTITY(T)                                                                   \
  REGISTER_KERNEL_BUILDER(Name("Identity").Device(DEVICE_GPU).TypeConstraint<T>("T"), IdentityOp); \
  REGISTER_KERNEL_BUILDER(Name("StopGradient").Device(DEVICE_GPU).TypeConstraint<T>("T"),          \
                          IdentityOp);
REGISTER_GPU_IDENTITY(float)
REGISTER_GPU_IDENTITY(half)
REGISTER_GPU_IDENTITY(bfloat16)
REGISTER_GPU_IDENTITY(double)
REGISTER_GPU_IDENTITY(int64_t)
REGISTER_GPU_IDENTITY(bool)
#undef REGISTER_GPU_IDENTITY
// Every dtype, as TensorFlow registers it: the outputs are the inputs' buffers wherever they
// live (Keras' custom-gradient wrappers put an IdentityN after GPU activations).
REGISTER_KERNEL_BUILDER(Name("IdentityN").Device(DEVICE_GPU), IdentityNOp);
// int32 and variants (lists) stay in host memory on GPUs.
REGISTER_KERNEL_BUILDER(Name("Identity")
                            .Device(DEVICE_GPU)
                            .HostMemory("input")
                            .HostMemory("output")
                            .TypeConstraint("T", {DT_INT32, DT_VARIANT}),
                        IdentityOp);

#define REGISTER_SNAPSHOT(T)                                                          \
  REGISTER_KERNEL_BUILDER(Name("Snapshot").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          SnapshotOp<T>);
SLUICE_CALL_POD_TYPES(REGISTER_SNAPSHOT)
#undef REGISTER_SNAPSHOT

}  // namespace
}  // namespace sluice
