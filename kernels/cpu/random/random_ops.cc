// The stateful random ops: RandomUniform, RandomStandardNormal, TruncatedNormal and
// RandomUniformInt. Each kernel owns a Philox stream started from its seed attrs (random seeds
// when both are 0, as in TensorFlow). A run takes the stream as it stands and moves it on by
// 256 blocks per output, so runs never share samples, and a node seeded by the graph gives
// TensorFlow's values on its first run and on every run after.
#include <cstdint>
#include <random>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/random/fill_random.h"
#include "kernels/cpu/random/philox.h"
#include "kernels/cpu/random/random_distributions.h"
#include "kernels/cpu/random/random_shape.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace random {
namespace {

// A kernel's stream, shared by concurrent runs of the kernel.
class GuardedStream {
 public:
  explicit GuardedStream(OpKernelConstruction* ctx) {
    int64_t seed = 0, seed2 = 0;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("seed", &seed));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("seed2", &seed2));
    if (seed == 0 && seed2 == 0) {
      std::random_device entropy;
      seed = static_cast<int64_t>(uint64_t{entropy()} << 32 | entropy());
      seed2 = static_cast<int64_t>(uint64_t{entropy()} << 32 | entropy());
    }
    stream_ = Philox4x32::FromSeedPair(static_cast<uint64_t>(seed), static_cast<uint64_t>(seed2));
  }

  // The stream for a run of `outputs` values; the kernel's stream moves past it.
  Philox4x32 Reserve(int64_t outputs) {
    absl::MutexLock lock(&mu_);
    const Philox4x32 reserved = stream_;
    stream_.Skip(static_cast<uint64_t>(outputs) * 256);
    return reserved;
  }

 private:
  absl::Mutex mu_;
  Philox4x32 stream_ ABSL_GUARDED_BY(mu_);
};

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
    FillRandom(ctx, stream_.Reserve(n), Distribution<T>(), out->flat<T>().data(), n);
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
    FillRandom(ctx, stream_.Reserve(n), UniformInt<T>(lo, hi), out->flat<T>().data(), n);
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
