// NonMaxSuppression (iou_threshold an attr), NonMaxSuppressionV2 (a scalar input) and
// NonMaxSuppressionWithOverlaps (a precomputed [n, n] similarity matrix and a score
// threshold) on the CPU. The selection is nms::SelectByScore; V1 and V2 have no score
// threshold (every score above the type's lowest value, so neither NaN nor -inf, is a
// candidate). Every input is checked first, in TensorFlow's order and with its messages.
#include <cstdint>
#include <limits>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/image/nms_select.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

absl::Status CheckScalar(const Tensor& t, const char* name) {
  if (t.dims() == 0) return absl::OkStatus();
  return errors::InvalidArgument(name, " must be 0-D, got shape ", t.shape().DebugString());
}

// boxes [n, 4] and scores [n], with the messages of TensorFlow's box-form kernels.
absl::Status CheckBoxesAndScores(const Tensor& boxes, const Tensor& scores) {
  if (boxes.dims() != 2) {
    return errors::InvalidArgument("boxes must be 2-D", boxes.shape().DebugString(),
                                   " (Shape must be rank 2 but is rank ", boxes.dims(), ")");
  }
  if (boxes.dim_size(1) != 4) {
    return errors::InvalidArgument("boxes must have 4 columns (Dimension must be 4 but is ",
                                   boxes.dim_size(1), ")");
  }
  if (scores.dims() != 1) {
    return errors::InvalidArgument("scores must be 1-D", scores.shape().DebugString(),
                                   " (Shape must be rank 1 but is rank ", scores.dims(), ")");
  }
  if (scores.dim_size(0) != boxes.dim_size(0)) {
    return errors::InvalidArgument(
        "scores has incompatible shape (Dimensions must be equal, but are ", boxes.dim_size(0),
        " and ", scores.dim_size(0), ")");
  }
  if (boxes.dim_size(0) > std::numeric_limits<int32_t>::max()) {
    return errors::InvalidArgument("boxes has ", boxes.dim_size(0),
                                   " rows; selected_indices are int32");
  }
  return absl::OkStatus();
}

// The output size from the checked scalar max_output_size.
absl::Status MaxOutput(const Tensor& max_output_size, int64_t* max_output) {
  *max_output = max_output_size.base<int32_t>()[0];
  if (*max_output < 0) return errors::InvalidArgument("output size must be non-negative");
  return absl::OkStatus();
}

absl::Status WriteSelection(OpKernelContext* ctx, const nms::Selection& selection) {
  Tensor* out = nullptr;
  // shape-safe: one dim, a count of selected boxes
  RETURN_IF_ERROR(ctx->allocate_output(0, TensorShape({selection.count}), &out));
  std::copy(selection.indices.data(), selection.indices.data() + selection.count,
            out->base<int32_t>());
  return absl::OkStatus();
}

// Greedy NMS by IoU of boxes [n, 4] with scores [n], both of type T.
template <typename T>
absl::Status SelectByIou(OpKernelContext* ctx, const Tensor& boxes, const Tensor& scores,
                         int64_t max_output, T iou_threshold) {
  const T* box = boxes.base<T>();
  const auto iou = [box](int64_t i, int64_t j) {
    return nms::IntersectionOverUnion(box + 4 * i, box + 4 * j);
  };
  nms::Selection selection;
  RETURN_IF_ERROR(nms::SelectByScore<T>(ctx, scores.base<T>(), boxes.dim_size(0), max_output,
                                        iou_threshold, std::numeric_limits<T>::lowest(), iou,
                                        &selection));
  return WriteSelection(ctx, selection);
}

class NonMaxSuppressionOp : public OpKernel {
 public:
  explicit NonMaxSuppressionOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("iou_threshold", &iou_threshold_));
  }

  void Compute(OpKernelContext* ctx) override {
    OP_REQUIRES_OK(ctx, CheckScalar(ctx->input(2), "max_output_size"));
    OP_REQUIRES(ctx, iou_threshold_ >= 0 && iou_threshold_ <= 1,
                errors::InvalidArgument("iou_threshold must be in [0, 1]"));
    OP_REQUIRES_OK(ctx, CheckBoxesAndScores(ctx->input(0), ctx->input(1)));
    int64_t max_output = 0;
    OP_REQUIRES_OK(ctx, MaxOutput(ctx->input(2), &max_output));
    OP_REQUIRES_OK(
        ctx, SelectByIou<float>(ctx, ctx->input(0), ctx->input(1), max_output, iou_threshold_));
  }

 private:
  float iou_threshold_ = 0.5f;
};

template <typename T>
class NonMaxSuppressionV2Op : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    OP_REQUIRES_OK(ctx, CheckScalar(ctx->input(2), "max_output_size"));
    const Tensor& threshold = ctx->input(3);
    OP_REQUIRES_OK(ctx, CheckScalar(threshold, "iou_threshold"));
    // T_threshold may be half or float; the comparison is in T.
    const T iou_threshold = threshold.dtype() == DT_HALF
                                ? static_cast<T>(threshold.base<half>()[0])
                                : static_cast<T>(threshold.base<float>()[0]);
    OP_REQUIRES(ctx, iou_threshold >= T(0) && iou_threshold <= T(1),
                errors::InvalidArgument("iou_threshold must be in [0, 1]"));
    OP_REQUIRES_OK(ctx, CheckBoxesAndScores(ctx->input(0), ctx->input(1)));
    int64_t max_output = 0;
    OP_REQUIRES_OK(ctx, MaxOutput(ctx->input(2), &max_output));
    OP_REQUIRES_OK(ctx,
                   SelectByIou<T>(ctx, ctx->input(0), ctx->input(1), max_output, iou_threshold));
  }
};

class NonMaxSuppressionWithOverlapsOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& overlaps = ctx->input(0);
    const Tensor& scores = ctx->input(1);
    OP_REQUIRES_OK(ctx, CheckScalar(ctx->input(2), "max_output_size"));
    OP_REQUIRES_OK(ctx, CheckScalar(ctx->input(3), "overlap_threshold"));
    OP_REQUIRES_OK(ctx, CheckScalar(ctx->input(4), "score_threshold"));
    OP_REQUIRES(ctx, overlaps.dims() == 2,
                errors::InvalidArgument("overlaps must be 2-D", overlaps.shape().DebugString()));
    const int64_t n = overlaps.dim_size(0);
    OP_REQUIRES(ctx, overlaps.dim_size(1) == n,
                errors::InvalidArgument("overlaps must be square", overlaps.shape().DebugString()));
    OP_REQUIRES(ctx, scores.dims() == 1,
                errors::InvalidArgument("scores must be 1-D", scores.shape().DebugString(),
                                        " (Shape must be rank 1 but is rank ", scores.dims(), ")"));
    OP_REQUIRES(
        ctx, scores.dim_size(0) == n,
        errors::InvalidArgument("scores has incompatible shape (Dimensions must be equal, but are ",
                                n, " and ", scores.dim_size(0), ")"));
    OP_REQUIRES(ctx, n <= std::numeric_limits<int32_t>::max(),
                errors::InvalidArgument("overlaps has ", n, " rows; selected_indices are int32"));
    int64_t max_output = 0;
    OP_REQUIRES_OK(ctx, MaxOutput(ctx->input(2), &max_output));
    const float* matrix = overlaps.base<float>();
    const auto overlap = [matrix, n](int64_t i, int64_t j) { return matrix[i * n + j]; };
    nms::Selection selection;
    OP_REQUIRES_OK(ctx,
                   nms::SelectByScore<float>(ctx, scores.base<float>(), n, max_output,
                                             ctx->input(3).base<float>()[0],
                                             ctx->input(4).base<float>()[0], overlap, &selection));
    OP_REQUIRES_OK(ctx, WriteSelection(ctx, selection));
  }
};

REGISTER_KERNEL_BUILDER(Name("NonMaxSuppression").Device(DEVICE_CPU), NonMaxSuppressionOp);
REGISTER_KERNEL_BUILDER(Name("NonMaxSuppressionV2").Device(DEVICE_CPU).TypeConstraint<float>("T"),
                        NonMaxSuppressionV2Op<float>);
REGISTER_KERNEL_BUILDER(Name("NonMaxSuppressionV2").Device(DEVICE_CPU).TypeConstraint<half>("T"),
                        NonMaxSuppressionV2Op<half>);
REGISTER_KERNEL_BUILDER(Name("NonMaxSuppressionWithOverlaps").Device(DEVICE_CPU),
                        NonMaxSuppressionWithOverlapsOp);

}  // namespace
}  // namespace sluice
