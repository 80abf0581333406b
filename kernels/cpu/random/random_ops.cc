// The stateful random ops: RandomUniform, RandomStandardNormal, TruncatedNormal and
// RandomUniformInt. Each kernel owns a GuardedStream; a run reserves 256 blocks per output, as
// TensorFlow's, so a node seeded by the graph gives TensorFlow's values on every run.
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/random/fill_random.h"
#include "kernels/cpu/random/guarded_stream.h"
#include "kernels/cpu/random/philox.h"
#include "kernels/cpu/random/random_distributions.h"
#include "kernels/cpu/random/random_shape.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace random {
namespace {

template <typename T, template <typename> class Distribution>
class RandomOp : public OpKernel {
 public:
  explicit RandomOp(OpKernelConstruction* ctx) : OpKernel(ctx), stream_(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    TensorShape shape;
    OP_REQUIRES_OK(ctx, RandomOutputShape(ctx->input(0), &shape));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &out));
    const int64_t n = out->NumElements();
    FillRandom(ctx, stream_.ReserveForOutputs(n), Distribution<T>(), out->flat<T>().data(), n);
  }

 private:
  GuardedStream stream_;
};

template <typename T>
class RandomUniformIntOp : public OpKernel {
 public:
  explicit RandomUniformIntOp(OpKernelConstruction* ctx) : OpKernel(ctx), stream_(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& minval = ctx->input(1);
    const Tensor& maxval = ctx->input(2);
    OP_REQUIRES(
        ctx, minval.dims() == 0,
        errors::InvalidArgument("minval must be 0-D, got shape ", minval.shape().DebugString()));
    OP_REQUIRES(
        ctx, maxval.dims() == 0,
        errors::InvalidArgument("maxval must be 0-D, got shape ", maxval.shape().DebugString()));
    TensorShape shape;
    OP_REQUIRES_OK(ctx, RandomOutputShape(ctx->input(0), &shape));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &out));
    // An empty output takes no samples and has no bounds to check, as in TensorFlow.
    const int64_t n = out->NumElements();
    if (n == 0) return;
    const T lo = minval.scalar<T>()();
    const T hi = maxval.scalar<T>()();
    OP_REQUIRES(ctx, lo < hi,
                errors::InvalidArgument("Need minval < maxval, got ", lo, " >= ", hi));
    FillRandom(ctx, stream_.ReserveForOutputs(n), UniformInt<T>(lo, hi), out->flat<T>().data(), n);
  }

 private:
  GuardedStream stream_;
};

#define SLUICE_REGISTER_REAL(T)                                                                  \
  REGISTER_KERNEL_BUILDER(                                                                       \
      Name("RandomUniform").Device(DEVICE_CPU).HostMemory("shape").TypeConstraint<T>("dtype"),   \
      RandomOp<T, UniformReal>);                                                                 \
  REGISTER_KERNEL_BUILDER(Name("RandomStandardNormal")                                           \
                              .Device(DEVICE_CPU)                                                \
                              .HostMemory("shape")                                               \
                              .TypeConstraint<T>("dtype"),                                       \
                          RandomOp<T, Normal>);                                                  \
  REGISTER_KERNEL_BUILDER(                                                                       \
      Name("TruncatedNormal").Device(DEVICE_CPU).HostMemory("shape").TypeConstraint<T>("dtype"), \
      RandomOp<T, TruncatedNormal>);
SLUICE_CALL_FLOAT_TYPES(SLUICE_REGISTER_REAL)
#undef SLUICE_REGISTER_REAL

#define SLUICE_REGISTER_INT(T)                            \
  REGISTER_KERNEL_BUILDER(Name("RandomUniformInt")        \
                              .Device(DEVICE_CPU)         \
                              .HostMemory("shape")        \
                              .HostMemory("minval")       \
                              .HostMemory("maxval")       \
                              .TypeConstraint<T>("Tout"), \
                          RandomUniformIntOp<T>);
SLUICE_REGISTER_INT(int32_t)
SLUICE_REGISTER_INT(int64_t)
#undef SLUICE_REGISTER_INT

}  // namespace
}  // namespace random
}  // namespace sluice
