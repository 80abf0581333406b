// Multinomial (seeded by attrs) and StatelessMultinomial (by a seed pair): num_samples class
// indices per row of logits, drawn from the row's softmax by inverting its running sum.
//
// TensorFlow's layout: the run reserves 256 blocks per value of batch x num_samples (rounded up
// to 4, times 2), and the rows read one stream in order, two uint32s (one double) per sample.
// Rows are split over the intra-op pool here, each starting where that order puts it, so the
// values do not depend on the split. TensorFlow itself splits rows over threads once a batch's
// estimated cost passes Eigen's threshold (about 110k cycles: 50 x (num_samples x log2(classes)
// + classes) per row), and a thread then starts its first row at a different offset; Sluice
// always gives the single-thread values, which are TensorFlow's for a batch of one and for any
// batch under that threshold.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/random/guarded_stream.h"
#include "kernels/cpu/random/philox.h"
#include "kernels/cpu/random/random_distributions.h"
#include "kernels/cpu/random/stateless_seed.h"
#include "kernels/cpu/scratch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace random {
namespace {

// A stream read one uint32 at a time from `offset` uint32s past the start of `stream`.
SingleSamples SamplesFrom(Philox4x32* stream, uint64_t offset) {
  stream->Skip(offset / Philox4x32::kBlockSize);
  SingleSamples samples(stream);
  for (uint64_t i = 0; i < offset % Philox4x32::kBlockSize; ++i) samples();
  return samples;
}

template <typename T>
bool IsFinite(T value) {
  if constexpr (std::is_integral<T>::value) {
    return true;
  } else {
    return std::isfinite(static_cast<double>(value));
  }
}

// Writes row b's samples: `cdf` is scratch of num_classes doubles.
template <typename T, typename Out>
void SampleRow(const T* logits, int64_t num_classes, int64_t num_samples, SingleSamples* samples,
               double* cdf, Out* out) {
  T max = std::numeric_limits<T>::lowest();
  for (int64_t j = 0; j < num_classes; ++j) {
    if (IsFinite(logits[j])) max = std::max(max, logits[j]);
  }
  const double max_logit = static_cast<double>(max);
  // The running sum of exp(logit - max) over the finite logits; not normalized.
  double total = 0;
  for (int64_t j = 0; j < num_classes; ++j) {
    if (IsFinite(logits[j])) total += std::exp(static_cast<double>(logits[j]) - max_logit);
    cdf[j] = total;
  }
  for (int64_t s = 0; s < num_samples; ++s) {
    const uint32_t high = (*samples)();
    const uint32_t low = (*samples)();
    const double target = UniformDouble(high, low) * total;
    out[s] = static_cast<Out>(std::upper_bound(cdf, cdf + num_classes, target) - cdf);
  }
}

// The checks and the sampling both kernels share; `reserve(blocks)` gives the run's stream.
template <typename T, typename Out, typename Reserve>
void Sample(OpKernelContext* ctx, Reserve&& reserve) {
  const Tensor& logits = ctx->input(0);
  const Tensor& num_samples_t = ctx->input(1);
  OP_REQUIRES(ctx, logits.dims() == 2,
              errors::InvalidArgument("logits should be a matrix, got shape ",
                                      logits.shape().DebugString()));
  OP_REQUIRES(ctx, num_samples_t.dims() == 0,
              errors::InvalidArgument("num_samples should be a scalar, got shape ",
                                      num_samples_t.shape().DebugString()));
  const int32_t num_samples = num_samples_t.scalar<int32_t>()();
  OP_REQUIRES(ctx, num_samples >= 0,
              errors::InvalidArgument("num_samples should be non-negative, got ", num_samples));
  const int64_t batch = logits.dim_size(0);
  const int64_t num_classes = logits.dim_size(1);
  OP_REQUIRES(ctx, batch <= std::numeric_limits<int32_t>::max(),
              errors::InvalidArgument("batch_size cannot exceed max int"));
  OP_REQUIRES(ctx, num_classes <= std::numeric_limits<int32_t>::max(),
              errors::InvalidArgument("num_classes cannot exceed max int"));
  OP_REQUIRES(ctx, num_classes > 0,
              errors::InvalidArgument("num_classes should be positive, got ", num_classes));
  Tensor* out = nullptr;
  // shape-safe: both dims are checked non-negative and below 2^31, so their product fits
  OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({batch, num_samples}), &out));
  if (out->NumElements() == 0) return;

  // Two uint32s per sample, for num_samples rounded up to 4.
  const uint64_t reserved_outputs =
      static_cast<uint64_t>(batch) * ((static_cast<uint64_t>(num_samples) + 3) / 4 * 4 * 2);
  const Philox4x32 stream = reserve(reserved_outputs * 256);
  const T* logits_data = logits.flat<T>().data();
  Out* out_data = out->flat<Out>().data();
  const double row_cycles = 50.0 * (num_samples * std::log2(static_cast<double>(num_classes)) +
                                    static_cast<double>(num_classes));
  OP_REQUIRES_OK(ctx, ParallelForWithScratch<double>(
                          ctx, batch, batch * num_classes, Eigen::TensorOpCost(0, 0, row_cycles),
                          num_classes, [&](int64_t first, int64_t last, double* cdf) {
                            Philox4x32 own = stream;
                            SingleSamples samples =
                                SamplesFrom(&own, static_cast<uint64_t>(first) * num_samples * 2);
                            for (int64_t b = first; b < last; ++b) {
                              SampleRow(logits_data + b * num_classes, num_classes, num_samples,
                                        &samples, cdf, out_data + b * num_samples);
                            }
                          }));
}

template <typename T, typename Out>
class MultinomialOp : public OpKernel {
 public:
  explicit MultinomialOp(OpKernelConstruction* ctx) : OpKernel(ctx), stream_(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    Sample<T, Out>(ctx, [this](uint64_t blocks) { return stream_.ReserveBlocks(blocks); });
  }

 private:
  GuardedStream stream_;
};

template <typename T, typename Out>
class StatelessMultinomialOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    Philox4x32 stream;
    OP_REQUIRES_OK(ctx, StatelessSeedStream(ctx->input(2), &stream));
    Sample<T, Out>(ctx, [&stream](uint64_t) { return stream; });
  }
};

#define SLUICE_REGISTER(T)                                               \
  REGISTER_KERNEL_BUILDER(Name("Multinomial")                            \
                              .Device(DEVICE_CPU)                        \
                              .TypeConstraint<T>("T")                    \
                              .TypeConstraint("output_dtype", DT_INT32), \
                          MultinomialOp<T, int32_t>);                    \
  REGISTER_KERNEL_BUILDER(Name("Multinomial")                            \
                              .Device(DEVICE_CPU)                        \
                              .TypeConstraint<T>("T")                    \
                              .TypeConstraint("output_dtype", DT_INT64), \
                          MultinomialOp<T, int64_t>);                    \
  REGISTER_KERNEL_BUILDER(Name("StatelessMultinomial")                   \
                              .Device(DEVICE_CPU)                        \
                              .TypeConstraint<T>("T")                    \
                              .TypeConstraint("output_dtype", DT_INT32), \
                          StatelessMultinomialOp<T, int32_t>);           \
  REGISTER_KERNEL_BUILDER(Name("StatelessMultinomial")                   \
                              .Device(DEVICE_CPU)                        \
                              .TypeConstraint<T>("T")                    \
                              .TypeConstraint("output_dtype", DT_INT64), \
                          StatelessMultinomialOp<T, int64_t>);
SLUICE_CALL_FLOAT_TYPES(SLUICE_REGISTER)
#undef SLUICE_REGISTER

}  // namespace
}  // namespace random
}  // namespace sluice
