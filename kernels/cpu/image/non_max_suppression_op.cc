// NonMaxSuppressionV3, V4 and V5 on the CPU, for float and half boxes and scores.
//
// The selection is TensorFlow's, step for step, so that the chosen indices and their order
// (ties included) are the same:
//  - candidates are the boxes whose score is > score_threshold (NaN scores never are), taken
//    from a priority queue by higher score, then lower index;
//  - each candidate is compared with the boxes already selected, newest first, by
//    intersection over union computed in float from the corners (either corner order; a box of
//    zero or negative area overlaps nothing);
//  - hard NMS (soft_nms_sigma == 0) drops a candidate whose IoU with a selected box exceeds
//    iou_threshold; soft NMS (V5, sigma > 0) multiplies its score by exp(-0.5 * iou^2 / sigma)
//    for each selected box, selects it if its score is unchanged, and otherwise queues it
//    again if the score is still above the threshold (each selected box decays it once);
//  - scores, thresholds and weights are of the box type T (half arithmetic rounds as in
//    TensorFlow), IoU is float.
// V4 and V5 can pad the outputs with zeros to max_output_size and report how many are valid.
// Every input is checked first, in TensorFlow's order and with its messages.
#include <algorithm>
#include <cstdint>
#include <limits>

#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/scratch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// The value of a float or half scalar (a threshold; T_threshold may differ from T) as T.
template <typename T>
T ScalarAs(const Tensor& t) {
  return t.dtype() == DT_HALF ? static_cast<T>(t.base<half>()[0])
                              : static_cast<T>(t.base<float>()[0]);
}

// Intersection over union of boxes i and j of `boxes` ([n, 4] corners), in float.
template <typename T>
float IntersectionOverUnion(const T* boxes, int64_t i, int64_t j) {
  const T* a = boxes + 4 * i;
  const T* b = boxes + 4 * j;
  const float a0 = static_cast<float>(a[0]), a1 = static_cast<float>(a[1]);
  const float a2 = static_cast<float>(a[2]), a3 = static_cast<float>(a[3]);
  const float b0 = static_cast<float>(b[0]), b1 = static_cast<float>(b[1]);
  const float b2 = static_cast<float>(b[2]), b3 = static_cast<float>(b[3]);
  const float ymin_a = Eigen::numext::mini(a0, a2), xmin_a = Eigen::numext::mini(a1, a3);
  const float ymax_a = Eigen::numext::maxi(a0, a2), xmax_a = Eigen::numext::maxi(a1, a3);
  const float ymin_b = Eigen::numext::mini(b0, b2), xmin_b = Eigen::numext::mini(b1, b3);
  const float ymax_b = Eigen::numext::maxi(b0, b2), xmax_b = Eigen::numext::maxi(b1, b3);
  const float area_a = (ymax_a - ymin_a) * (xmax_a - xmin_a);
  const float area_b = (ymax_b - ymin_b) * (xmax_b - xmin_b);
  if (area_a <= 0 || area_b <= 0) return 0.0f;
  const float inter_ymin = Eigen::numext::maxi(ymin_a, ymin_b);
  const float inter_xmin = Eigen::numext::maxi(xmin_a, xmin_b);
  const float inter_ymax = Eigen::numext::mini(ymax_a, ymax_b);
  const float inter_xmax = Eigen::numext::mini(xmax_a, xmax_b);
  const float inter = Eigen::numext::maxi(inter_ymax - inter_ymin, 0.0f) *
                      Eigen::numext::maxi(inter_xmax - inter_xmin, 0.0f);
  return inter / (area_a + area_b - inter);
}

// The selected boxes: indices[0, count) and their (possibly decayed) scores. Both arrays
// come from the allocator, sized for every box that could be selected.
template <typename T>
struct NmsResult {
  ScratchArray<int32_t> indices;
  ScratchArray<T> scores;
  int64_t count = 0;
};

template <typename T>
struct Candidate {
  int64_t box;
  T score;
  // Selected boxes [0, suppress_begin) have already decayed this candidate's score.
  int64_t suppress_begin;
};

// Greedy (soft-)NMS over boxes [num_boxes, 4] and scores [num_boxes]; at most max_output.
// RESOURCE_EXHAUSTED when the allocator refuses the candidate queue or the result.
template <typename T>
absl::Status SelectBoxes(OpKernelContext* ctx, const T* boxes, const T* scores, int64_t num_boxes,
                         int64_t max_output, T iou_threshold, T score_threshold, T soft_nms_sigma,
                         NmsResult<T>* result) {
  const auto lower_priority = [](const Candidate<T>& a, const Candidate<T>& b) {
    return (a.score == b.score && a.box > b.box) || a.score < b.score;
  };
  // A max-heap of candidates in an array of num_boxes, driven by the heap algorithms exactly
  // as std::priority_queue drives them (push_heap after appending, pop_heap before removing
  // the last), so the order of equal candidates is the same. Each box is queued at most once
  // at a time (a pop precedes every re-queue), so num_boxes slots suffice.
  ScratchArray<Candidate<T>> heap;
  RETURN_IF_ERROR(heap.Allocate(ctx, num_boxes));
  Candidate<T>* const queue = heap.data();
  int64_t queued = 0;
  const auto push = [&](const Candidate<T>& c) {
    queue[queued++] = c;
    std::push_heap(queue, queue + queued, lower_priority);
  };
  // No more boxes can be selected than there are boxes.
  const int64_t max_selected = std::min(max_output, num_boxes);
  RETURN_IF_ERROR(result->indices.Allocate(ctx, max_selected));
  RETURN_IF_ERROR(result->scores.Allocate(ctx, max_selected));
  result->count = 0;
  for (int64_t i = 0; i < num_boxes; ++i) {
    if (scores[i] > score_threshold) push(Candidate<T>{i, scores[i], 0});
  }
  const bool soft = soft_nms_sigma > T(0);
  const T scale = soft ? static_cast<T>(T(-0.5) / soft_nms_sigma) : T(0);
  const auto weight = [&](T iou) -> T {
    const T w = Eigen::numext::exp<T>(static_cast<T>(static_cast<T>(scale * iou) * iou));
    return soft || iou <= iou_threshold ? w : T(0);
  };

  while (result->count < max_output && queued > 0) {
    Candidate<T> next = queue[0];
    const T original_score = next.score;
    std::pop_heap(queue, queue + queued, lower_priority);
    --queued;
    bool hard_suppressed = false;
    for (int64_t j = result->count - 1; j >= next.suppress_begin; --j) {
      const T iou = static_cast<T>(IntersectionOverUnion(boxes, next.box, result->indices[j]));
      next.score = static_cast<T>(next.score * weight(iou));
      if (!soft && iou > iou_threshold) {
        hard_suppressed = true;
        break;
      }
      if (next.score <= score_threshold) break;
    }
    next.suppress_begin = result->count;
    if (hard_suppressed) continue;
    if (next.score == original_score) {
      result->indices[result->count] = static_cast<int32_t>(next.box);
      result->scores[result->count] = next.score;
      ++result->count;
    } else if (next.score > score_threshold) {
      push(next);
    }
  }
  return absl::OkStatus();
}

// The validated inputs (V5's soft_nms_sigma stays 0 for V3 and V4).
template <typename T>
struct NmsArgs {
  const T* boxes = nullptr;
  const T* scores = nullptr;
  int64_t num_boxes = 0;
  int64_t max_output = 0;
  T iou_threshold = T(0);
  T score_threshold = T(0);
  T soft_nms_sigma = T(0);
};

// Reads and checks the inputs of NonMaxSuppressionV<version> in TensorFlow's order, with its
// messages (V3's also name the expected rank of max_output_size and iou_threshold).
template <typename T>
absl::Status ParseNmsArgs(OpKernelContext* ctx, int version, NmsArgs<T>* args) {
  const Tensor& boxes = ctx->input(0);
  const Tensor& scores = ctx->input(1);
  const Tensor& max_output_size = ctx->input(2);
  const Tensor& iou_threshold = ctx->input(3);
  const Tensor& score_threshold = ctx->input(4);
  const std::string v3_rank = version == 3 ? absl::StrCat(" (Shape must be rank 0 but is rank ",
                                                          max_output_size.dims(), ")")
                                           : "";
  if (max_output_size.dims() != 0) {
    return errors::InvalidArgument("max_output_size must be 0-D, got shape ",
                                   max_output_size.shape().DebugString(), v3_rank);
  }
  if (iou_threshold.dims() != 0) {
    return errors::InvalidArgument(
        "iou_threshold must be 0-D, got shape ", iou_threshold.shape().DebugString(),
        version == 3
            ? absl::StrCat(" (Shape must be rank 0 but is rank ", iou_threshold.dims(), ")")
            : "");
  }
  args->iou_threshold = ScalarAs<T>(iou_threshold);
  if (!(args->iou_threshold >= T(0) && args->iou_threshold <= T(1))) {
    return errors::InvalidArgument("iou_threshold must be in [0, 1]");
  }
  if (score_threshold.dims() != 0) {
    return errors::InvalidArgument("score_threshold must be 0-D, got shape ",
                                   score_threshold.shape().DebugString());
  }
  args->score_threshold = ScalarAs<T>(score_threshold);
  if (version == 5) {
    const Tensor& sigma = ctx->input(5);
    if (sigma.dims() != 0) {
      return errors::InvalidArgument("soft_nms_sigma must be 0-D, got shape ",
                                     sigma.shape().DebugString());
    }
    args->soft_nms_sigma = ScalarAs<T>(sigma);
    if (!(args->soft_nms_sigma >= T(0))) {
      return errors::InvalidArgument("soft_nms_sigma_val must be >= 0");
    }
  }
  if (boxes.dims() != 2) {
    return errors::InvalidArgument("boxes must be 2-D", boxes.shape().DebugString(),
                                   " (Shape must be rank 2 but is rank ", boxes.dims(), ")");
  }
  args->num_boxes = boxes.dim_size(0);
  if (boxes.dim_size(1) != 4) {
    return errors::InvalidArgument("boxes must have 4 columns (Dimension must be 4 but is ",
                                   boxes.dim_size(1), ")");
  }
  if (scores.dims() != 1) {
    return errors::InvalidArgument("scores must be 1-D", scores.shape().DebugString(),
                                   " (Shape must be rank 1 but is rank ", scores.dims(), ")");
  }
  if (scores.dim_size(0) != args->num_boxes) {
    return errors::InvalidArgument(
        "scores has incompatible shape (Dimensions must be equal, but are ", args->num_boxes,
        " and ", scores.dim_size(0), ")");
  }
  if (args->num_boxes > std::numeric_limits<int32_t>::max()) {
    return errors::InvalidArgument("boxes has ", args->num_boxes,
                                   " rows; selected_indices are int32");
  }
  args->max_output = max_output_size.base<int32_t>()[0];
  if (args->max_output < 0) return errors::InvalidArgument("output size must be non-negative");
  args->boxes = boxes.base<T>();
  args->scores = scores.base<T>();
  return absl::OkStatus();
}

// V3: selected_indices. V4: selected_indices, valid_outputs. V5: selected_indices,
// selected_scores, valid_outputs.
template <typename T, int kVersion>
class NonMaxSuppressionOp : public OpKernel {
 public:
  explicit NonMaxSuppressionOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    if (kVersion >= 4) {
      OP_REQUIRES_OK(ctx, ctx->GetAttr("pad_to_max_output_size", &pad_to_max_output_size_));
    }
  }

  void Compute(OpKernelContext* ctx) override {
    NmsArgs<T> args;
    OP_REQUIRES_OK(ctx, ParseNmsArgs<T>(ctx, kVersion, &args));
    NmsResult<T> result;
    OP_REQUIRES_OK(ctx, SelectBoxes<T>(ctx, args.boxes, args.scores, args.num_boxes,
                                       args.max_output, args.iou_threshold, args.score_threshold,
                                       args.soft_nms_sigma, &result));
    const int32_t num_valid = static_cast<int32_t>(result.count);
    const int64_t length = pad_to_max_output_size_ ? args.max_output : num_valid;
    Tensor* indices = nullptr;
    // shape-safe: one dim, length >= 0 (max_output checked non-negative, num_valid a count)
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({length}), &indices));
    int32_t* out_indices = indices->base<int32_t>();
    for (int64_t i = 0; i < length; ++i) out_indices[i] = i < num_valid ? result.indices[i] : 0;
    int next_output = 1;
    if (kVersion == 5) {
      Tensor* scores = nullptr;
      // shape-safe: the same length as selected_indices above
      OP_REQUIRES_OK(ctx, ctx->allocate_output(next_output++, TensorShape({length}), &scores));
      T* out_scores = scores->base<T>();
      for (int64_t i = 0; i < length; ++i) out_scores[i] = i < num_valid ? result.scores[i] : T(0);
    }
    if (kVersion >= 4) {
      Tensor* valid = nullptr;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(next_output, TensorShape({}), &valid));
      valid->base<int32_t>()[0] = num_valid;
    }
  }

 private:
  bool pad_to_max_output_size_ = false;
};

#define REGISTER_CPU(T)                                                                          \
  REGISTER_KERNEL_BUILDER(Name("NonMaxSuppressionV3").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          NonMaxSuppressionOp<T, 3>);                                            \
  REGISTER_KERNEL_BUILDER(Name("NonMaxSuppressionV4").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          NonMaxSuppressionOp<T, 4>);                                            \
  REGISTER_KERNEL_BUILDER(Name("NonMaxSuppressionV5").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          NonMaxSuppressionOp<T, 5>);
REGISTER_CPU(float)
REGISTER_CPU(half)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
