// ReductionPlan: which dims of an input a reduction op (Sum, Mean, Max, ...) folds away, in
// the form the reduction loops consume.
//
// MakeReductionPlan validates the axes tensor exactly as TensorFlow does (each entry in
// [-rank, rank), no dim named twice, any shape of int32/int64 tensor) and then collapses the
// input's shape: dims of size 1 are dropped and neighbouring dims that are both kept or both
// reduced are merged, leaving an alternating list such as [kept, reduced, kept]. The loops
// reduce the innermost reduced group first, one [outer, reduced, inner] pass at a time
// (passes()). A plan with no passes is an identity: the output is the input, reshaped.
#ifndef SLUICE_KERNELS_CPU_REDUCTION_REDUCTION_PLAN_H_
#define SLUICE_KERNELS_CPU_REDUCTION_REDUCTION_PLAN_H_

#include <cstdint>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"

namespace sluice {

// One pass: out[o, i] = reduce over r of in[o, r, i], for an input viewed as
// [outer, reduced, inner] (row-major).
struct ReductionPass {
  int64_t outer = 1;
  int64_t reduced = 1;
  int64_t inner = 1;
};

class ReductionPlan {
 public:
  // The output's shape: the input's with reduced dims removed, or set to 1 with keep_dims.
  const TensorShape& output_shape() const { return output_shape_; }
  // How many input elements fold into each output element (the product of the reduced dims;
  // 0 when one of them is empty).
  int64_t reduced_count() const { return reduced_count_; }
  // The passes, innermost reduced group first; each pass's input is the previous output.
  const absl::InlinedVector<ReductionPass, 2>& passes() const { return passes_; }

 private:
  friend absl::Status MakeReductionPlan(const TensorShape&, const Tensor&, bool, ReductionPlan*);
  TensorShape output_shape_;
  int64_t reduced_count_ = 1;
  absl::InlinedVector<ReductionPass, 2> passes_;
};

// Plans the reduction of `input` over the dims listed in `axes` (int32 or int64, any
// shape). INVALID_ARGUMENT "Invalid reduction dimension (3 for input with 2 dimension(s)"
// for an entry out of range and "Invalid reduction arguments: Axes contains duplicate
// dimension: 0" for a dim named twice (TensorFlow's texts).
absl::Status MakeReductionPlan(const TensorShape& input, const Tensor& axes, bool keep_dims,
                               ReductionPlan* plan);

// Reads a scalar index tensor of int16, int32 or int64 (the axis / dimension / k inputs).
// REQUIRES: `t` has one element of one of those dtypes (callers check the shape first).
int64_t ScalarIndexValue(const Tensor& t);

// ArgMax/ArgMin's view of their input: the scalar `dimension` (in [-rank, rank), naming a
// non-empty dim, TensorFlow's checks and messages) splits the input into [outer, reduced,
// inner]; the output is the input's shape without that dim.
struct ArgReduction {
  TensorShape output_shape;
  ReductionPass pass;
};
absl::Status MakeArgReduction(const Tensor& input, const Tensor& dimension, ArgReduction* arg);

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_REDUCTION_REDUCTION_PLAN_H_
