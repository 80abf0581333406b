// CTCGreedyDecoder on the CPU: best-path decoding. At each step of a sequence the class of the
// largest logit is taken (the first of equal maxima, as TensorFlow's scan); blanks are dropped,
// and with merge_repeated a class equal to the previous step's is dropped too (so "A A - A"
// gives "A A"). The score of a sequence is minus the sum of those largest logits (not a
// log-softmax: TensorFlow's definition). blank_index counts from the end when negative.
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "kernels/cpu/ctc/ctc_decoder_util.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

template <typename T>
class CTCGreedyDecoderOp : public OpKernel {
 public:
  explicit CTCGreedyDecoderOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("merge_repeated", &merge_repeated_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("blank_index", &blank_index_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& inputs = ctx->input(0);
    const Tensor& sequence_length = ctx->input(1);
    ctc::DecoderDims dims;
    OP_REQUIRES_OK(ctx, ctc::ValidateDecoderInputs(inputs, sequence_length, &dims));
    Tensor* log_probability = nullptr;
    // shape-safe: the logits' batch dim
    OP_REQUIRES_OK(ctx,
                   ctx->allocate_output(3, TensorShape({dims.batch_size, 1}), &log_probability));
    const int num_classes = dims.num_classes;
    const int64_t blank = blank_index_ < 0 ? num_classes + blank_index_ : blank_index_;
    OP_REQUIRES(ctx, blank >= 0 && blank < num_classes,
                errors::InvalidArgument("blank_index expected to be between ", -num_classes,
                                        " and ", num_classes - 1, " but was ", blank_index_));
    ctc::DecodedPaths decoded;
    OP_REQUIRES_OK(ctx, decoded.Allocate(ctx, 1, dims.batch_size, dims.max_time));

    const T* logits = inputs.flat<T>().data();
    const int32_t* lengths = sequence_length.flat<int32_t>().data();
    T* scores = log_probability->flat<T>().data();
    const int64_t batch_size = dims.batch_size;
    const bool merge_repeated = merge_repeated_;
    auto decode = [&](int64_t first, int64_t last) {
      for (int64_t b = first; b < last; ++b) {
        int32_t* labels = decoded.Labels(0, b);
        int64_t n = 0;
        T score = T(0);
        int previous = -1;
        for (int64_t t = 0; t < lengths[b]; ++t) {
          const T* row = logits + (t * batch_size + b) * num_classes;
          int best = 0;
          for (int c = 1; c < num_classes; ++c) {
            if (row[c] > row[best]) best = c;
          }
          score += -row[best];
          if (best != blank && !(merge_repeated && best == previous)) labels[n++] = best;
          previous = best;
        }
        scores[b] = score;
        decoded.Length(0, b) = n;
      }
    };
    ParallelFor(ctx, batch_size, inputs.NumElements(),
                Eigen::TensorOpCost(0, 0, 2.0 * dims.max_time * num_classes), decode);
    OP_REQUIRES_OK(ctx, decoded.Output(ctx));
  }

 private:
  bool merge_repeated_ = false;
  int64_t blank_index_ = -1;
};

#define REGISTER_CPU(T)                                                                       \
  REGISTER_KERNEL_BUILDER(Name("CTCGreedyDecoder").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          CTCGreedyDecoderOp<T>);
REGISTER_CPU(float)
REGISTER_CPU(double)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
