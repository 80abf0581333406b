// The CTC loss of one sequence and its gradient, as TensorFlow's CTCLoss computes them: the
// logits of each step are turned into probabilities by a softmax, the forward (alpha) and
// backward (beta) variables of Graves' recursions are run in log space over the label with
// blanks around and between its labels (l'), the loss is -log p(label | logits) and the
// gradient w.r.t. the logits is softmax - (posterior occupancy of each class). With
// ctc_merge_repeated false a label may not stay on itself across steps, so "a a" needs no blank
// between its two a's but every label takes exactly one step. An impossible label (p = 0) has
// loss +inf and the softmax as its gradient, as in TensorFlow.
#ifndef SLUICE_KERNELS_CPU_CTC_CTC_LOSS_H_
#define SLUICE_KERNELS_CPU_CTC_CTC_LOSS_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/types/span.h"

namespace sluice {
namespace ctc {

// The label of batch row `b` after TensorFlow's checks: with collapse_repeated, equal
// consecutive labels kept once; a label >= num_classes - 1 (the blank) ends the sequence, and a
// non-blank label after it is an error, as is a negative one. Writes the kept labels to `out`
// (room for labels.size()) and their count to `*kept`.
absl::Status KeptLabels(absl::Span<const int32_t> labels, int64_t b, int num_classes,
                        bool collapse_repeated, int32_t* out, int64_t* kept);

// Scratch elements LossAndGradient needs for `steps` steps, `num_classes` classes and a label
// of `num_labels` kept labels.
int64_t LossScratchSize(int64_t steps, int num_classes, int64_t num_labels);

// The loss of one sequence of `steps` >= 1 steps whose logits of step t start at
// logits + t * stride, for the kept labels `labels` (the blank is num_classes - 1). Writes the
// gradient of step t to gradient + t * stride and returns the loss. `scratch` holds
// LossScratchSize elements.
template <typename T>
T LossAndGradient(const T* logits, int64_t stride, int64_t steps, int num_classes,
                  absl::Span<const int32_t> labels, bool merge_repeated, T* scratch, T* gradient);

}  // namespace ctc
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_CTC_CTC_LOSS_H_
