// BroadcastPlan: how up to three operands broadcast against each other (numpy rules, as in
// TensorFlow's BCast), reduced to the fewest loops that walk them.
//
// MakeBroadcastPlan right-aligns the shapes; each dim pair must be equal or contain a 1.
// Output dims of size 1 are dropped, and neighbouring dims along which every operand is
// broadcast (or not) alike are merged, so [8,4,5] + [4,5] is one loop of 20 over rows of 8,
// and [2,1,3] + [4,1] is [2,4,3] with x strides {3,0,1} and y strides {0,1,0}. Each operand
// gets an element stride per merged dim: 0 where it is broadcast.
//
// The output is then `rows()` rows of `inner()` contiguous elements. A RowCursor walks rows
// with an odometer over the outer dims and yields every operand's offset for the current
// row; in the innermost dim each operand's stride is 0 or 1, so row bodies vectorise.
//
// The plan is independent of the element type: it is built once per Compute and shared by
// every kernel in this package, so the templates instantiated per dtype hold only loops.
#ifndef SLUICE_KERNELS_CPU_CWISE_BROADCAST_H_
#define SLUICE_KERNELS_CPU_CWISE_BROADCAST_H_

#include <cstdint>

#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"
#include "graph/core/tensor_shape.h"

namespace sluice {

constexpr int kMaxBroadcastOperands = 3;

struct BroadcastPlan {
  using Dims = absl::InlinedVector<int64_t, 6>;

  TensorShape output_shape;
  int num_operands = 0;
  // Merged dims, outermost first; never empty (a single-element output is one dim of 1).
  Dims dims;
  // strides[k][d]: operand k's element stride along merged dim d (0 when broadcast).
  Dims strides[kMaxBroadcastOperands];

  int64_t inner() const { return dims.back(); }
  // 0 for an empty output.
  int64_t rows() const { return inner() == 0 ? 0 : output_shape.num_elements() / inner(); }
  // Whether operand k advances along the innermost dim (else it repeats one element).
  bool inner_varies(int k) const { return strides[k].back() != 0; }
};

// Fills `plan` for `shapes` (2 or 3 of them). Returns false when some dim pair is neither
// equal nor 1; the caller words the error, as TensorFlow's messages differ per op.
// Also false when the output shape would overflow int64 elements.
bool MakeBroadcastPlan(absl::Span<const TensorShape* const> shapes, BroadcastPlan* plan);

// Walks the rows of a plan from `first_row`, keeping each operand's element offset.
//   for (RowCursor c(plan, first); c.row() < last; c.Next()) body(c.row(), c.offset(0), ...);
class RowCursor {
 public:
  RowCursor(const BroadcastPlan& plan, int64_t first_row) : plan_(plan), row_(first_row) {
    const int outer = static_cast<int>(plan.dims.size()) - 1;
    // heap-ok: one per outer dim of the plan (rank <= 254)
    index_.assign(outer, 0);
    for (int k = 0; k < plan.num_operands; ++k) offset_[k] = 0;
    int64_t rest = first_row;
    for (int d = outer - 1; d >= 0; --d) {
      index_[d] = rest % plan.dims[d];
      rest /= plan.dims[d];
      for (int k = 0; k < plan.num_operands; ++k) offset_[k] += index_[d] * plan.strides[k][d];
    }
  }

  int64_t row() const { return row_; }
  int64_t offset(int k) const { return offset_[k]; }

  void Next() {
    ++row_;
    for (int d = static_cast<int>(index_.size()) - 1; d >= 0; --d) {
      for (int k = 0; k < plan_.num_operands; ++k) offset_[k] += plan_.strides[k][d];
      if (++index_[d] < plan_.dims[d]) return;
      for (int k = 0; k < plan_.num_operands; ++k) {
        offset_[k] -= plan_.strides[k][d] * plan_.dims[d];
      }
      index_[d] = 0;
    }
  }

 private:
  const BroadcastPlan& plan_;
  int64_t row_;
  BroadcastPlan::Dims index_;
  int64_t offset_[kMaxBroadcastOperands];
};

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_CWISE_BROADCAST_H_
