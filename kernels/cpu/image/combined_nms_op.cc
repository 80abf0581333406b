// CombinedNonMaxSuppression on the CPU: per image and class, greedy NMS of the anchors'
// boxes by IoU; then per image the selections of all classes sorted by score, the best
// max_total_size kept (clipped to [0, 1] with clip_boxes) and the rest padded with zeros.
//
// TensorFlow's steps are followed exactly, ties included: each class's candidates come from
// a heap ordered by score alone (equal scores leave in the order std::priority_queue gives
// them), and each image's candidate slots (max_output_size_per_class per class, empty ones
// holding score -1 and class -1) are ordered by std::sort on score alone, so equal scores
// keep TensorFlow's arrangement. An empty slot may thus be output when real candidates score
// below -1 (a score_threshold below -1), as in TensorFlow.
#include <algorithm>
#include <cstdint>
#include <limits>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/image/nms_select.h"
#include "kernels/cpu/scratch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// A selected box of one class, or an empty slot (box -1).
struct Detection {
  int32_t box;
  float score;
  int32_t class_index;
  float coords[4];
};

struct HeapEntry {
  int32_t box;
  float score;
};

// The validated sizes and scalars.
struct CombinedArgs {
  int64_t batch = 0;
  int64_t anchors = 0;
  int64_t q = 0;
  int64_t classes = 0;
  int64_t max_per_class = 0;
  int64_t max_total = 0;
  float iou_threshold = 0;
  float score_threshold = 0;
};

absl::Status CheckScalar(const Tensor& t, const char* name) {
  if (t.dims() == 0) return absl::OkStatus();
  return errors::InvalidArgument(name, " must be 0-D, got shape ", t.shape().DebugString());
}

// TensorFlow's checks in its order. It reads the batch and class dims before checking the
// ranks; here a rank too small for them fails first with the same messages.
absl::Status ParseArgs(OpKernelContext* ctx, CombinedArgs* a) {
  const Tensor& boxes = ctx->input(0);
  const Tensor& scores = ctx->input(1);
  if (boxes.dims() == 0 || scores.dims() == 0 || boxes.dim_size(0) != scores.dim_size(0)) {
    return errors::InvalidArgument("boxes and scores must have same batch size");
  }
  RETURN_IF_ERROR(CheckScalar(ctx->input(2), "max_size_per_class"));
  a->max_per_class = ctx->input(2).base<int32_t>()[0];
  if (a->max_per_class <= 0) {
    return errors::InvalidArgument("max_size_per_class must be positive");
  }
  RETURN_IF_ERROR(CheckScalar(ctx->input(3), "max_total_size"));
  a->max_total = ctx->input(3).base<int32_t>()[0];
  if (a->max_total <= 0) return errors::InvalidArgument("max_total_size must be > 0");
  RETURN_IF_ERROR(CheckScalar(ctx->input(4), "iou_threshold"));
  a->iou_threshold = ctx->input(4).base<float>()[0];
  RETURN_IF_ERROR(CheckScalar(ctx->input(5), "score_threshold"));
  a->score_threshold = ctx->input(5).base<float>()[0];
  if (!(a->iou_threshold >= 0 && a->iou_threshold <= 1)) {
    return errors::InvalidArgument("iou_threshold must be in [0, 1]");
  }
  if (boxes.dims() != 4) {
    return errors::InvalidArgument("boxes must be 4-D", boxes.shape().DebugString());
  }
  if (scores.dims() != 3) {
    return errors::InvalidArgument("scores must be 3-D", scores.shape().DebugString());
  }
  a->batch = boxes.dim_size(0);
  a->anchors = boxes.dim_size(1);
  a->q = boxes.dim_size(2);
  a->classes = scores.dim_size(2);
  if (a->q != 1 && a->q != a->classes) {
    return errors::InvalidArgument("third dimension of boxes must be either 1 or num classes");
  }
  if (boxes.dim_size(3) != 4) return errors::InvalidArgument("boxes must have 4 columns");
  if (scores.dim_size(1) != a->anchors) {
    return errors::InvalidArgument("scores has incompatible shape");
  }
  if (a->anchors > std::numeric_limits<int32_t>::max()) {
    return errors::InvalidArgument("boxes has ", a->anchors, " anchors; at most 2^31 - 1");
  }
  return absl::OkStatus();
}

// NMS of one class of one image into slots[0, size_per_class) (unused slots untouched).
void SelectClass(const CombinedArgs& a, const float* boxes, const float* scores,
                 int64_t class_index, int64_t size_per_class, HeapEntry* heap, int32_t* selected,
                 Detection* slots) {
  const auto lower_score = [](const HeapEntry& x, const HeapEntry& y) { return x.score < y.score; };
  int64_t queued = 0;
  for (int64_t i = 0; i < a.anchors; ++i) {
    const float s = scores[i * a.classes + class_index];
    if (s > a.score_threshold) {
      heap[queued++] = HeapEntry{static_cast<int32_t>(i), s};
      std::push_heap(heap, heap + queued, lower_score);
    }
  }
  const int64_t box_class = a.q > 1 ? class_index : 0;
  const auto coords = [&](int64_t box) { return boxes + (box * a.q + box_class) * 4; };
  int64_t count = 0;
  while (count < size_per_class && queued > 0) {
    const HeapEntry next = heap[0];
    std::pop_heap(heap, heap + queued, lower_score);
    --queued;
    bool keep = true;
    for (int64_t j = count - 1; j >= 0; --j) {
      if (nms::IntersectionOverUnion(coords(next.box), coords(selected[j])) > a.iou_threshold) {
        keep = false;
        break;
      }
    }
    if (!keep) continue;
    const float* c = coords(next.box);
    slots[count] = Detection{
        next.box, next.score, static_cast<int32_t>(class_index), {c[0], c[1], c[2], c[3]}};
    selected[count++] = next.box;
  }
}

class CombinedNonMaxSuppressionOp : public OpKernel {
 public:
  explicit CombinedNonMaxSuppressionOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("pad_per_class", &pad_per_class_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("clip_boxes", &clip_boxes_));
  }

  void Compute(OpKernelContext* ctx) override {
    CombinedArgs a;
    OP_REQUIRES_OK(ctx, ParseArgs(ctx, &a));
    const int64_t size_per_class = std::min(a.max_per_class, a.anchors);
    const int64_t slots_per_image = size_per_class * a.classes;
    const int64_t per_image =
        pad_per_class_ ? std::min(a.max_total, a.max_per_class * a.classes) : a.max_total;
    Tensor* valid = nullptr;
    // shape-safe: the boxes' first dim
    OP_REQUIRES_OK(ctx, ctx->allocate_output(3, TensorShape({a.batch}), &valid));
    Tensor* out_boxes = nullptr;
    Tensor* out_scores = nullptr;
    Tensor* out_classes = nullptr;
    TensorShape scores_shape;
    OP_REQUIRES_OK(ctx, scores_shape.AddDimWithStatus(a.batch));
    OP_REQUIRES_OK(ctx, scores_shape.AddDimWithStatus(per_image));
    TensorShape boxes_shape = scores_shape;
    OP_REQUIRES_OK(ctx, boxes_shape.AddDimWithStatus(4));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, boxes_shape, &out_boxes));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, scores_shape, &out_scores));
    OP_REQUIRES_OK(ctx, ctx->allocate_output(2, scores_shape, &out_classes));
    ScratchArray<HeapEntry> heap;
    OP_REQUIRES_OK(ctx, heap.Allocate(ctx, a.anchors));
    ScratchArray<int32_t> selected;
    OP_REQUIRES_OK(ctx, selected.Allocate(ctx, size_per_class));
    ScratchArray<Detection> slots;
    OP_REQUIRES_OK(ctx, slots.Allocate(ctx, slots_per_image));
    const float* boxes = ctx->input(0).base<float>();
    const float* scores = ctx->input(1).base<float>();
    for (int64_t b = 0; b < a.batch; ++b) {
      std::fill(slots.begin(), slots.end(), Detection{-1, -1.0f, -1, {0, 0, 0, 0}});
      for (int64_t c = 0; c < a.classes; ++c) {
        SelectClass(a, boxes + b * a.anchors * a.q * 4, scores + b * a.anchors * a.classes, c,
                    size_per_class, heap.data(), selected.data(),
                    slots.data() + c * size_per_class);
      }
      valid->base<int32_t>()[b] = static_cast<int32_t>(WriteImage(
          slots.data(), slots_per_image, per_image, a.max_total,
          out_boxes->base<float>() + b * per_image * 4, out_scores->base<float>() + b * per_image,
          out_classes->base<float>() + b * per_image));
    }
  }

 private:
  // Sorts one image's slots and writes its detections; returns how many are valid.
  int64_t WriteImage(Detection* slots, int64_t num_slots, int64_t per_image, int64_t max_total,
                     float* boxes, float* scores, float* classes) const {
    std::sort(slots, slots + num_slots,
              [](const Detection& x, const Detection& y) { return x.score > y.score; });
    const int64_t filled =
        std::count_if(slots, slots + num_slots, [](const Detection& d) { return d.box > -1; });
    const int64_t count = std::min(filled, pad_per_class_ ? per_image : max_total);
    for (int64_t i = 0; i < per_image; ++i) {
      if (i >= count) {
        std::fill(boxes + 4 * i, boxes + 4 * i + 4, 0.0f);
        scores[i] = 0.0f;
        classes[i] = 0.0f;
        continue;
      }
      const Detection& d = slots[i];
      for (int k = 0; k < 4; ++k) {
        boxes[4 * i + k] = clip_boxes_ ? std::max(std::min(d.coords[k], 1.0f), 0.0f) : d.coords[k];
      }
      scores[i] = d.score;
      classes[i] = static_cast<float>(d.class_index);
    }
    return count;
  }

  bool pad_per_class_ = false;
  bool clip_boxes_ = true;
};

REGISTER_KERNEL_BUILDER(Name("CombinedNonMaxSuppression").Device(DEVICE_CPU),
                        CombinedNonMaxSuppressionOp);

}  // namespace
}  // namespace sluice
