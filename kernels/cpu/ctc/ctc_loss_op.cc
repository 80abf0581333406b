// CTCLoss on the CPU: per batch row, the CTC loss of the row's label sequence given its logits
// ([max_time, batch, num_classes], the blank last) over its first sequence_length steps, and
// the loss's gradient w.r.t. the logits (zero past a row's length). The labels come as a
// SparseTensor whose indices must be in row-major order, one row of labels per batch row.
// TensorFlow's checks, in its order and with its messages; rows with no steps, and with
// ignore_longer_outputs_than_inputs rows whose label is longer than their steps, get loss 0.
//
// TensorFlow itself crashes on two inputs the checks let through; Sluice answers them:
// logits with no classes are INVALID_ARGUMENT, and a label of blanks only (no label kept)
// gets the loss of the all-blank path (TensorFlow writes outside its arrays there).
#include <algorithm>
#include <cstdint>
#include <limits>

#include "absl/types/span.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "kernels/cpu/ctc/ctc_loss.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/scratch.h"
#include "kernels/cpu/sparse/sparse_tensor_util.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

template <typename T>
class CTCLossOp : public OpKernel {
 public:
  explicit CTCLossOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("preprocess_collapse_repeated", &collapse_repeated_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("ctc_merge_repeated", &merge_repeated_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("ignore_longer_outputs_than_inputs", &ignore_longer_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& inputs = ctx->input(0);
    const Tensor& labels_indices = ctx->input(1);
    const Tensor& labels_values = ctx->input(2);
    const Tensor& sequence_length = ctx->input(3);
    OP_REQUIRES(ctx, inputs.dims() == 3, errors::InvalidArgument("inputs is not a 3-Tensor"));
    OP_REQUIRES(ctx, sequence_length.dims() == 1,
                errors::InvalidArgument("sequence_length is not a vector"));
    OP_REQUIRES(ctx, labels_indices.dims() == 2,
                errors::InvalidArgument("labels_indices is not a matrix"));
    OP_REQUIRES(ctx, labels_indices.dim_size(1) > 1,
                errors::InvalidArgument("labels_indices second dimension must be >= 1. Received ",
                                        labels_indices.dim_size(1)));
    OP_REQUIRES(ctx, labels_values.dims() == 1,
                errors::InvalidArgument("labels_values is not a vector"));
    const int64_t max_time = inputs.dim_size(0);
    OP_REQUIRES(ctx, max_time != 0,
                errors::InvalidArgument("Max time or first dimension of input cannot be 0."));
    const int64_t batch_size = inputs.dim_size(1);
    OP_REQUIRES(ctx, inputs.dim_size(2) <= std::numeric_limits<int>::max(),
                errors::InvalidArgument("num_classes cannot exceed max int"));
    const int num_classes = static_cast<int>(inputs.dim_size(2));
    OP_REQUIRES(ctx, sequence_length.dim_size(0) == batch_size,
                errors::InvalidArgument("len(sequence_length) != batch_size.  ",
                                        "len(sequence_length):  ", sequence_length.dim_size(0),
                                        " batch_size: ", batch_size));
    OP_REQUIRES(
        ctx, labels_indices.dim_size(0) == labels_values.dim_size(0),
        errors::InvalidArgument(
            "labels_indices and labels_values must contain the same number of rows, "
            "but saw shapes: ",
            labels_indices.shape().DebugString(), " vs. ", labels_values.shape().DebugString()));
    OP_REQUIRES(ctx, batch_size != 0, errors::InvalidArgument("batch_size must not be 0"));

    // The labels: a [batch, longest] SparseTensor in row-major order, so each batch row's
    // labels are one run of labels_values.
    OP_REQUIRES_OK(ctx, sparse::ValidateCreate(labels_indices, labels_values, 2));
    const int64_t nnz = labels_indices.dim_size(0);
    const int64_t* ix = labels_indices.flat<int64_t>().data();
    int64_t longest = 0;
    for (int64_t i = 0; i < nnz; ++i) {
      // A position of int64 max would wrap to the smallest int64 in TensorFlow: no maximum.
      const int64_t position = ix[2 * i + 1];
      if (position < std::numeric_limits<int64_t>::max()) longest = std::max(longest, position + 1);
    }
    const int64_t dense_shape[2] = {batch_size, longest};
    const absl::Status valid = sparse::ValidateIndicesOrdered(ix, nnz, 2, dense_shape);
    OP_REQUIRES(ctx, valid.ok(),
                errors::InvalidArgument("label SparseTensor is not valid: ", valid.message()));
    ScratchArray<int64_t> starts;  // batch row b's labels: [starts[b], starts[b + 1])
    OP_REQUIRES_OK(ctx, starts.Allocate(ctx, batch_size + 1));
    for (int64_t i = 0; i < nnz; ++i) ++starts[ix[2 * i] + 1];
    for (int64_t b = 0; b < batch_size; ++b) starts[b + 1] += starts[b];

    const int32_t* seq_len = sequence_length.flat<int32_t>().data();
    for (int64_t b = 0; b < batch_size; ++b) {
      OP_REQUIRES(ctx, seq_len[b] <= max_time,
                  errors::InvalidArgument("sequence_length(", b, ") <= ", max_time));
    }
    Tensor* loss = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, sequence_length.shape(), &loss));
    Tensor* gradient = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, inputs.shape(), &gradient));
    T* loss_out = loss->flat<T>().data();
    T* grad_out = gradient->flat<T>().data();
    std::fill(loss_out, loss_out + batch_size, T(0));
    std::fill(grad_out, grad_out + gradient->NumElements(), T(0));
    for (int64_t b = 0; b < batch_size; ++b) {
      OP_REQUIRES(ctx, seq_len[b] >= 0, errors::InvalidArgument("seq_len(", b, ") < 0"));
    }

    // Each row's kept labels (at most its label count) at kept[starts[b]...].
    ScratchArray<int32_t> kept;
    ScratchArray<int64_t> num_kept;
    OP_REQUIRES_OK(ctx, kept.Allocate(ctx, nnz));
    OP_REQUIRES_OK(ctx, num_kept.Allocate(ctx, batch_size));
    const int32_t* values = labels_values.flat<int32_t>().data();
    int64_t scratch_size = 0;
    bool any_computed = false;
    for (int64_t b = 0; b < batch_size; ++b) {
      const int64_t count = starts[b + 1] - starts[b];
      OP_REQUIRES_OK(ctx,
                     ctc::KeptLabels(absl::MakeConstSpan(values + starts[b], count), b, num_classes,
                                     collapse_repeated_, kept.data() + starts[b], &num_kept[b]));
      if (!ignore_longer_) {
        OP_REQUIRES(ctx, count <= seq_len[b],
                    errors::InvalidArgument(
                        "Not enough time for target transition sequence (required: ", count,
                        ", available: ", seq_len[b], ")", b,
                        "You can turn this error into a warning by using the flag "
                        "ignore_longer_outputs_than_inputs"));
      }
      if (Computed(b, count, seq_len)) {
        any_computed = true;
        scratch_size =
            std::max(scratch_size, ctc::LossScratchSize(seq_len[b], num_classes, num_kept[b]));
      }
    }
    OP_REQUIRES(ctx, !any_computed || num_classes > 0,
                errors::InvalidArgument("inputs has no classes: the last class is the blank"));

    const T* logits = inputs.flat<T>().data();
    const int64_t stride = batch_size * num_classes;
    auto compute = [&](int64_t first, int64_t last, T* scratch) {
      for (int64_t b = first; b < last; ++b) {
        const int64_t count = starts[b + 1] - starts[b];
        if (!Computed(b, count, seq_len)) continue;
        loss_out[b] =
            ctc::LossAndGradient<T>(logits + b * num_classes, stride, seq_len[b], num_classes,
                                    absl::MakeConstSpan(kept.data() + starts[b], num_kept[b]),
                                    merge_repeated_, scratch, grad_out + b * num_classes);
      }
    };
    OP_REQUIRES_OK(
        ctx, ParallelForWithScratch<T>(ctx, batch_size, inputs.NumElements(),
                                       Eigen::TensorOpCost(0, 0, 50.0 * max_time * num_classes),
                                       scratch_size, compute));
  }

 private:
  // Whether row b gets a loss: it has steps, and its label fits them unless it may not.
  bool Computed(int64_t b, int64_t label_count, const int32_t* seq_len) const {
    return seq_len[b] > 0 && !(ignore_longer_ && label_count > seq_len[b]);
  }

  bool collapse_repeated_ = false;
  bool merge_repeated_ = true;
  bool ignore_longer_ = false;
};

#define REGISTER_CPU(T) \
  REGISTER_KERNEL_BUILDER(Name("CTCLoss").Device(DEVICE_CPU).TypeConstraint<T>("T"), CTCLossOp<T>);
REGISTER_CPU(float)
REGISTER_CPU(double)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
