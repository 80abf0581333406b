// ReverseSequence on the CPU: for each slice b along batch_dim, the first seq_lengths[b]
// entries along seq_dim reversed, the rest copied.
//
// Checked as TensorFlow does, with its messages: batch_dim and seq_dim non-negative (at
// construction); seq_lengths a vector; the dims distinct and below the input's rank;
// seq_lengths as long as the batch dim, each in [0, dim(seq_dim)]; the rank between 2 and 5
// (TensorFlow's kernel handles no other). Elements move by size, so one kernel serves every
// dtype. The work is split over "rows": the dim(seq_dim) entries that share every other
// coordinate.
#include <cstdint>

#include "absl/container/inlined_vector.h"
#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/array/array_types.h"
#include "kernels/cpu/array/strided_copy.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

using array_internal::ArrayTypes;

class ReverseSequenceOp : public OpKernel {
 public:
  explicit ReverseSequenceOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("batch_dim", &batch_dim_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("seq_dim", &seq_dim_));
    OP_REQUIRES(ctx, batch_dim_ >= 0, errors::InvalidArgument("Invalid batch_dim ", batch_dim_));
    OP_REQUIRES(ctx, seq_dim_ >= 0, errors::InvalidArgument("Invalid seq_dim ", seq_dim_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const Tensor& seq_lengths = ctx->input(1);
    OP_REQUIRES(ctx, seq_lengths.dims() == 1,
                errors::InvalidArgument("seq_lengths must be 1-dim, not ", seq_lengths.dims()));
    OP_REQUIRES(ctx, batch_dim_ != seq_dim_,
                errors::InvalidArgument("batch_dim == seq_dim == ", seq_dim_));
    const int rank = input.dims();
    OP_REQUIRES(ctx, seq_dim_ < rank,
                errors::InvalidArgument("seq_dim must be < input rank", " ( ", seq_dim_, " vs. ",
                                        rank, ")"));
    OP_REQUIRES(ctx, batch_dim_ < rank,
                errors::InvalidArgument("batch_dim must be < input rank", " ( ", batch_dim_,
                                        " vs. ", rank, ")"));
    const int64_t batch = input.dim_size(batch_dim_);
    OP_REQUIRES(ctx, seq_lengths.NumElements() == batch,
                errors::InvalidArgument("Length of seq_lengths != input.dims(", batch_dim_, "), ",
                                        "(", seq_lengths.NumElements(), " vs. ", batch, ")"));
    IntegerValues lengths;
    OP_REQUIRES_OK(ctx, IntegerTensorValues(seq_lengths, &lengths));
    const int64_t seq = input.dim_size(seq_dim_);
    for (size_t b = 0; b < lengths.size(); ++b) {
      OP_REQUIRES(ctx, lengths[b] >= 0, errors::InvalidArgument("seq_lens(", b, ") < 0"));
      OP_REQUIRES(ctx, lengths[b] <= seq,
                  errors::InvalidArgument("seq_lens(", b, ") > input.dims(", seq_dim_, ")"));
    }
    OP_REQUIRES(ctx, rank >= 2 && rank <= 5,
                errors::InvalidArgument("ReverseSequenceOp : Unhandled input dimensions: ", rank));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, input.shape(), &output));
    const int64_t total = input.NumElements();
    if (total == 0) return;
    const auto strides = RowMajorStrides(input.shape());
    const int64_t seq_stride = strides[seq_dim_];
    const int64_t rows = total / seq;
    const int seq_dim = seq_dim_;
    const int batch_dim = batch_dim_;
    VisitByElementSize(input.dtype(), [&](auto tag) {
      using U = typename decltype(tag)::type;
      const U* in = ElementsAs<U>(input);
      U* out = MutableElementsAs<U>(output);
      const Eigen::TensorOpCost cost(sizeof(U) * seq, sizeof(U) * seq, seq);
      ParallelFor(ctx, rows, total, cost, [&](int64_t first, int64_t last) {
        for (int64_t row = first; row < last; ++row) {
          // The row's coordinates in every dim but seq_dim, innermost first.
          int64_t rest = row;
          int64_t base = 0;
          int64_t b = 0;
          for (int d = rank - 1; d >= 0; --d) {
            if (d == seq_dim) continue;
            const int64_t coord = rest % input.dim_size(d);
            rest /= input.dim_size(d);
            base += coord * strides[d];
            if (d == batch_dim) b = coord;
          }
          const int64_t len = lengths[b];
          for (int64_t s = 0; s < seq; ++s) {
            const int64_t from = s < len ? len - 1 - s : s;
            out[base + s * seq_stride] = in[base + from * seq_stride];
          }
        }
      });
    });
  }

 private:
  int32_t batch_dim_ = 0;
  int32_t seq_dim_ = 0;
};

REGISTER_KERNEL_BUILDER(Name("ReverseSequence")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", ArrayTypes())
                            .TypeConstraint("Tlen", {DT_INT32, DT_INT64}),
                        ReverseSequenceOp);

}  // namespace
}  // namespace sluice
