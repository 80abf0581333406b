// The greedy box selection of TensorFlow's single-class non-max suppression kernels
// (NonMaxSuppression, V2, WithOverlaps), over any similarity of two boxes, and the
// intersection over union that the box forms use.
//
// SelectByScore follows TensorFlow's loop step for step, so that the chosen indices, their
// order and ties match: candidates are the boxes whose score is > score_threshold (NaN
// scores never are), taken from a max-heap by higher score, then lower index; each is
// compared with the boxes already selected, newest first; a similarity above the threshold
// drops it. A similarity that is NaN neither drops it nor lets it through: its score becomes
// 0 and it is queued again if 0 still passes the score threshold, to be compared then only
// with boxes selected later (TensorFlow's suppression weight, 0 for such a similarity).
#ifndef SLUICE_KERNELS_CPU_IMAGE_NMS_SELECT_H_
#define SLUICE_KERNELS_CPU_IMAGE_NMS_SELECT_H_

#include <algorithm>
#include <cstdint>

#include "absl/status/status.h"
#include "graph/core/errors.h"
#include "kernels/cpu/scratch.h"
#include "runtime/framework/op_kernel.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sluice {
namespace nms {

// Intersection over union of boxes a and b (4 corners each, in either order), in float; a
// box of zero or negative area overlaps nothing.
template <typename T>
float IntersectionOverUnion(const T* a, const T* b) {
  using Eigen::numext::maxi;
  using Eigen::numext::mini;
  const float a0 = static_cast<float>(a[0]), a1 = static_cast<float>(a[1]);
  const float a2 = static_cast<float>(a[2]), a3 = static_cast<float>(a[3]);
  const float b0 = static_cast<float>(b[0]), b1 = static_cast<float>(b[1]);
  const float b2 = static_cast<float>(b[2]), b3 = static_cast<float>(b[3]);
  const float ymin_a = mini(a0, a2), xmin_a = mini(a1, a3);
  const float ymax_a = maxi(a0, a2), xmax_a = maxi(a1, a3);
  const float ymin_b = mini(b0, b2), xmin_b = mini(b1, b3);
  const float ymax_b = maxi(b0, b2), xmax_b = maxi(b1, b3);
  const float area_a = (ymax_a - ymin_a) * (xmax_a - xmin_a);
  const float area_b = (ymax_b - ymin_b) * (xmax_b - xmin_b);
  if (area_a <= 0 || area_b <= 0) return 0.0f;
  const float inter = maxi(mini(ymax_a, ymax_b) - maxi(ymin_a, ymin_b), 0.0f) *
                      maxi(mini(xmax_a, xmax_b) - maxi(xmin_a, xmin_b), 0.0f);
  return inter / (area_a + area_b - inter);
}

// The selected box indices, in selection order: indices[0, count).
struct Selection {
  ScratchArray<int32_t> indices;
  int64_t count = 0;
};

// Selects at most max_output of num_boxes boxes (see the file comment). similarity(i, j)
// returns a float; scores and thresholds are of type T (half arithmetic rounds as
// TensorFlow's). RESOURCE_EXHAUSTED when the allocator refuses the queue or the result.
template <typename T, typename Similarity>
absl::Status SelectByScore(OpKernelContext* ctx, const T* scores, int64_t num_boxes,
                           int64_t max_output, T threshold, T score_threshold,
                           const Similarity& similarity, Selection* result) {
  struct Candidate {
    int64_t box;
    T score;
    // Selected boxes [0, suppress_begin) have already been compared with this candidate.
    int64_t suppress_begin;
  };
  const auto lower_priority = [](const Candidate& a, const Candidate& b) {
    return (a.score == b.score && a.box > b.box) || a.score < b.score;
  };
  // The heap algorithms driven as std::priority_queue drives them, so equal candidates come
  // out in the same order. A pop precedes every re-queue, so num_boxes slots suffice.
  ScratchArray<Candidate> heap;
  RETURN_IF_ERROR(heap.Allocate(ctx, num_boxes));
  Candidate* const queue = heap.data();
  int64_t queued = 0;
  const auto push = [&](const Candidate& c) {
    queue[queued++] = c;
    std::push_heap(queue, queue + queued, lower_priority);
  };
  RETURN_IF_ERROR(result->indices.Allocate(ctx, std::min(max_output, num_boxes)));
  result->count = 0;
  for (int64_t i = 0; i < num_boxes; ++i) {
    if (scores[i] > score_threshold) push(Candidate{i, scores[i], 0});
  }
  while (result->count < max_output && queued > 0) {
    Candidate next = queue[0];
    const T original_score = next.score;
    std::pop_heap(queue, queue + queued, lower_priority);
    --queued;
    bool suppressed = false;
    for (int64_t j = result->count - 1; j >= next.suppress_begin; --j) {
      const T s = static_cast<T>(similarity(next.box, result->indices[j]));
      // The weight is 1 up to the threshold, else 0 (NaN included).
      next.score = static_cast<T>(next.score * (s <= threshold ? T(1) : T(0)));
      if (s > threshold) {
        suppressed = true;
        break;
      }
      if (next.score <= score_threshold) break;
    }
    next.suppress_begin = result->count;
    if (suppressed) continue;
    if (next.score == original_score) {
      result->indices[result->count++] = static_cast<int32_t>(next.box);
    } else if (next.score > score_threshold) {
      push(next);
    }
  }
  return absl::OkStatus();
}

}  // namespace nms
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_IMAGE_NMS_SELECT_H_
