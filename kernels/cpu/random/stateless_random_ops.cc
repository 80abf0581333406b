// The stateless random ops: StatelessRandom{Uniform,Normal,UniformInt,UniformFullInt} and
// StatelessTruncatedNormal, seeded by a pair of integers, their V2 forms given a Philox key,
// counter and algorithm, and the ops that turn a seed into those (StatelessRandomGetKeyCounter,
// ...GetKeyCounterAlg, ...GetAlg). Outputs depend only on the inputs and are TensorFlow's bit
// for bit (the generator, layouts and conversions of philox.h and random_distributions.h).
#include <cstdint>
#include <type_traits>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/random/fill_random.h"
#include "kernels/cpu/random/philox.h"
#include "kernels/cpu/random/random_distributions.h"
#include "kernels/cpu/random/random_shape.h"
#include "kernels/cpu/random/stateless_seed.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace random {
namespace {

// TensorFlow's algorithm ids (rng_alg.h); only Philox runs on the CPU.
constexpr int kAlgPhilox = 1;
constexpr int kAlgAutoSelect = 3;

// The generator of a V2 op from its key, counter and alg inputs (1, 2 and 3).
absl::Status KeyCounterGenerator(OpKernelContext* ctx, Philox4x32* generator) {
  const Tensor& key = ctx->input(1);
  const Tensor& counter = ctx->input(2);
  const Tensor& alg = ctx->input(3);
  if (alg.dims() != 0) {
    return errors::InvalidArgument("input 3 (0-based) must have shape [], not ",
                                   alg.shape().DebugString());
  }
  int alg_id = alg.scalar<int32_t>()();
  if (alg_id == kAlgAutoSelect) alg_id = kAlgPhilox;
  if (key.dims() != 1 || key.dim_size(0) != 1) {
    return errors::InvalidArgument("key must have shape [1], not ", key.shape().DebugString(),
                                   ". (Note that batched keys are not supported yet.)");
  }
  // Philox reads two counter words. (TensorFlow 2.21 asks for at least `alg` words and so
  // reads past a one-word counter; Sluice refuses it.)
  if (counter.dims() != 1 || counter.dim_size(0) < 2) {
    return errors::InvalidArgument("counter must be a vector with length at least 2; got shape: ",
                                   counter.shape().DebugString(),
                                   ". (Note that batched counters are not supported yet.)");
  }
  if (alg_id != kAlgPhilox) {
    return errors::InvalidArgument("Unsupported algorithm id: ", alg_id);
  }
  const auto words = counter.flat<uint64_t>();
  *generator = Philox4x32::FromKeyCounter(key.flat<uint64_t>()(0), words(0), words(1));
  return absl::OkStatus();
}

// The bounds of a UniformInt op: scalars with minval < maxval.
template <typename T>
absl::Status IntegerBounds(const Tensor& minval, const Tensor& maxval, T* lo, T* hi) {
  if (minval.dims() != 0) {
    return errors::InvalidArgument("minval must be 0-D, got shape ", minval.shape().DebugString());
  }
  if (maxval.dims() != 0) {
    return errors::InvalidArgument("maxval must be 0-D, got shape ", maxval.shape().DebugString());
  }
  *lo = minval.scalar<T>()();
  *hi = maxval.scalar<T>()();
  if (!(*lo < *hi)) {
    return errors::InvalidArgument("Need minval < maxval, got ", *lo, " >= ", *hi);
  }
  return absl::OkStatus();
}

// Which inputs seed an op: a V1 op's seed pair (input 1), or a V2 op's key, counter and alg.
enum class Seeding { kSeedPair, kKeyCounterAlg };

template <Seeding kSeeding>
absl::Status Generator(OpKernelContext* ctx, Philox4x32* generator) {
  if constexpr (kSeeding == Seeding::kSeedPair)
    return StatelessSeedStream(ctx->input(1), generator);
  return KeyCounterGenerator(ctx, generator);
}

// StatelessRandomUniform/Normal, StatelessTruncatedNormal, StatelessRandomUniformFullInt and
// their V2 forms: the output shape, the seed, then the values (none for an empty output).
template <Seeding kSeeding, typename T, template <typename> class Distribution>
class StatelessRandomOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    TensorShape shape;
    OP_REQUIRES_OK(ctx, RandomOutputShape(ctx->input(0), &shape));
    Philox4x32 generator;
    // TensorFlow checks a V1 seed even for an empty output, but its V2 key and counter too.
    OP_REQUIRES_OK(ctx, Generator<kSeeding>(ctx, &generator));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &out));
    FillRandom(ctx, generator, Distribution<T>(), out->flat<T>().data(), out->NumElements());
  }
};

// StatelessRandomUniformInt(V2): as above, with the bounds checked only for a non-empty
// output, as TensorFlow does.
template <Seeding kSeeding, typename T>
class StatelessRandomUniformIntOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    TensorShape shape;
    OP_REQUIRES_OK(ctx, RandomOutputShape(ctx->input(0), &shape));
    Philox4x32 generator;
    OP_REQUIRES_OK(ctx, Generator<kSeeding>(ctx, &generator));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &out));
    if (shape.num_elements() == 0) return;
    const int bounds = kSeeding == Seeding::kSeedPair ? 2 : 4;
    T lo, hi;
    OP_REQUIRES_OK(ctx, IntegerBounds(ctx->input(bounds), ctx->input(bounds + 1), &lo, &hi));
    FillRandom(ctx, generator, UniformInt<T>(lo, hi), out->flat<T>().data(), out->NumElements());
  }
};

// StatelessRandomGetKeyCounter(Alg): the key and counter the seed pair gives (and Philox).
class GetKeyCounterOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    Philox4x32 generator;
    OP_REQUIRES_OK(ctx, StatelessSeedStream(ctx->input(0), &generator));
    Tensor* key = nullptr;
    Tensor* counter = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({1}), &key));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape({2}), &counter));
    const Philox4x32::Key& k = generator.key();
    const Philox4x32::Block& c = generator.counter();
    key->flat<uint64_t>()(0) = uint64_t{k[1]} << 32 | k[0];
    counter->flat<uint64_t>()(0) = uint64_t{c[1]} << 32 | c[0];
    counter->flat<uint64_t>()(1) = uint64_t{c[3]} << 32 | c[2];
    if (ctx->num_outputs() == 3) {
      Tensor* alg = nullptr;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(2, TensorShape({}), &alg));
      alg->scalar<int32_t>()() = kAlgPhilox;
    }
  }
  bool IsExpensive() override { return false; }
};

class GetAlgOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    Tensor* alg = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({}), &alg));
    alg->scalar<int32_t>()() = kAlgPhilox;
  }
  bool IsExpensive() override { return false; }
};

#define SLUICE_REGISTER_REAL(T)                                                        \
  REGISTER_KERNEL_BUILDER(Name("StatelessRandomUniform")                               \
                              .Device(DEVICE_CPU)                                      \
                              .HostMemory("shape")                                     \
                              .HostMemory("seed")                                      \
                              .TypeConstraint<T>("dtype"),                             \
                          StatelessRandomOp<Seeding::kSeedPair, T, UniformReal>);      \
  REGISTER_KERNEL_BUILDER(Name("StatelessRandomNormal")                                \
                              .Device(DEVICE_CPU)                                      \
                              .HostMemory("shape")                                     \
                              .HostMemory("seed")                                      \
                              .TypeConstraint<T>("dtype"),                             \
                          StatelessRandomOp<Seeding::kSeedPair, T, Normal>);           \
  REGISTER_KERNEL_BUILDER(Name("StatelessTruncatedNormal")                             \
                              .Device(DEVICE_CPU)                                      \
                              .HostMemory("shape")                                     \
                              .HostMemory("seed")                                      \
                              .TypeConstraint<T>("dtype"),                             \
                          StatelessRandomOp<Seeding::kSeedPair, T, TruncatedNormal>);  \
  REGISTER_KERNEL_BUILDER(Name("StatelessRandomUniformV2")                             \
                              .Device(DEVICE_CPU)                                      \
                              .HostMemory("shape")                                     \
                              .HostMemory("alg")                                       \
                              .TypeConstraint<T>("dtype"),                             \
                          StatelessRandomOp<Seeding::kKeyCounterAlg, T, UniformReal>); \
  REGISTER_KERNEL_BUILDER(Name("StatelessRandomNormalV2")                              \
                              .Device(DEVICE_CPU)                                      \
                              .HostMemory("shape")                                     \
                              .HostMemory("alg")                                       \
                              .TypeConstraint<T>("dtype"),                             \
                          StatelessRandomOp<Seeding::kKeyCounterAlg, T, Normal>);      \
  REGISTER_KERNEL_BUILDER(Name("StatelessTruncatedNormalV2")                           \
                              .Device(DEVICE_CPU)                                      \
                              .HostMemory("shape")                                     \
                              .HostMemory("alg")                                       \
                              .TypeConstraint<T>("dtype"),                             \
                          StatelessRandomOp<Seeding::kKeyCounterAlg, T, TruncatedNormal>);
SLUICE_CALL_FLOAT_TYPES(SLUICE_REGISTER_REAL)
#undef SLUICE_REGISTER_REAL

#define SLUICE_REGISTER_INT(T)                                                 \
  REGISTER_KERNEL_BUILDER(Name("StatelessRandomUniformInt")                    \
                              .Device(DEVICE_CPU)                              \
                              .HostMemory("shape")                             \
                              .HostMemory("seed")                              \
                              .HostMemory("minval")                            \
                              .HostMemory("maxval")                            \
                              .TypeConstraint<T>("dtype"),                     \
                          StatelessRandomUniformIntOp<Seeding::kSeedPair, T>); \
  REGISTER_KERNEL_BUILDER(Name("StatelessRandomUniformIntV2")                  \
                              .Device(DEVICE_CPU)                              \
                              .HostMemory("shape")                             \
                              .HostMemory("alg")                               \
                              .HostMemory("minval")                            \
                              .HostMemory("maxval")                            \
                              .TypeConstraint<T>("dtype"),                     \
                          StatelessRandomUniformIntOp<Seeding::kKeyCounterAlg, T>);
SLUICE_REGISTER_INT(int32_t)
SLUICE_REGISTER_INT(int64_t)
#undef SLUICE_REGISTER_INT

#define SLUICE_REGISTER_FULL_INT(T)                                                  \
  REGISTER_KERNEL_BUILDER(Name("StatelessRandomUniformFullInt")                      \
                              .Device(DEVICE_CPU)                                    \
                              .HostMemory("shape")                                   \
                              .HostMemory("seed")                                    \
                              .TypeConstraint<T>("dtype"),                           \
                          StatelessRandomOp<Seeding::kSeedPair, T, UniformFullInt>); \
  REGISTER_KERNEL_BUILDER(Name("StatelessRandomUniformFullIntV2")                    \
                              .Device(DEVICE_CPU)                                    \
                              .HostMemory("shape")                                   \
                              .HostMemory("alg")                                     \
                              .TypeConstraint<T>("dtype"),                           \
                          StatelessRandomOp<Seeding::kKeyCounterAlg, T, UniformFullInt>);
SLUICE_REGISTER_FULL_INT(int32_t)
SLUICE_REGISTER_FULL_INT(int64_t)
SLUICE_REGISTER_FULL_INT(uint32_t)
SLUICE_REGISTER_FULL_INT(uint64_t)
#undef SLUICE_REGISTER_FULL_INT

REGISTER_KERNEL_BUILDER(Name("StatelessRandomGetKeyCounter")
                            .Device(DEVICE_CPU)
                            .HostMemory("seed")
                            .HostMemory("key")
                            .HostMemory("counter"),
                        GetKeyCounterOp);
REGISTER_KERNEL_BUILDER(Name("StatelessRandomGetKeyCounterAlg")
                            .Device(DEVICE_CPU)
                            .HostMemory("seed")
                            .HostMemory("key")
                            .HostMemory("counter")
                            .HostMemory("alg"),
                        GetKeyCounterOp);
REGISTER_KERNEL_BUILDER(Name("StatelessRandomGetAlg").Device(DEVICE_CPU).HostMemory("alg"),
                        GetAlgOp);

}  // namespace
}  // namespace random
}  // namespace sluice
