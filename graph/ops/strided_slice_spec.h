// The meaning of a StridedSlice: which elements of an input of a given (partially known)
// shape the begin/end/strides vectors and the five masks select, and the resulting shape.
//
// This is TensorFlow's ValidateStridedSliceOp semantics, shared by StridedSlice's shape
// function and its kernel:
//  - the sparse spec (one entry per element of begin/end/strides) is expanded to a dense
//    spec with one entry per input dim: an ellipsis stands for as many full-range dims as
//    needed (one is implied at the end if none is given), new-axis entries consume no
//    input dim, shrink-axis entries select a single index;
//  - each dense dim's begin/end is made canonical (negative indices count from the end,
//    values are clamped, masked bounds take the full range in the stride's direction);
//  - processing_shape is the strided region per input dim; final_shape inserts a 1 for
//    each new axis and drops each shrunk axis.
// Unknown input dims give unknown result dims; begin/end may be unknown (nullptr), in which
// case only masked or shrunk dims have known sizes.
//
// Pure functions; errors are INVALID_ARGUMENT in TensorFlow's wording.
#ifndef SLUICE_GRAPH_OPS_STRIDED_SLICE_SPEC_H_
#define SLUICE_GRAPH_OPS_STRIDED_SLICE_SPEC_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/tensor.h"

namespace sluice {

// StridedSlice's bit-mask attrs; bit i refers to element i of begin/end/strides.
struct StridedSliceMasks {
  int32_t begin_mask = 0;
  int32_t end_mask = 0;
  int32_t ellipsis_mask = 0;
  int32_t new_axis_mask = 0;
  int32_t shrink_axis_mask = 0;
};

// Reads the five mask attrs through `ctx->GetAttr(name, int32_t*)`: a shape function's
// InferenceContext or a kernel's OpKernelConstruction.
template <typename AttrReader>
absl::Status ReadStridedSliceMasks(AttrReader* ctx, StridedSliceMasks* masks) {
  for (auto [name, mask] : {std::pair<const char*, int32_t*>{"begin_mask", &masks->begin_mask},
                            {"end_mask", &masks->end_mask},
                            {"ellipsis_mask", &masks->ellipsis_mask},
                            {"new_axis_mask", &masks->new_axis_mask},
                            {"shrink_axis_mask", &masks->shrink_axis_mask}}) {
    absl::Status s = ctx->GetAttr(name, mask);
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

struct StridedSliceSpec {
  // The strided region per input dim (-1: unknown).
  PartialTensorShape processing_shape;
  // The output's shape (-1: unknown).
  PartialTensorShape final_shape;
  // Per input dim, canonical bounds and stride; begin/end are meaningful only where the
  // dim and the begin/end values are known.
  std::vector<int64_t> begin;
  std::vector<int64_t> end;
  std::vector<int64_t> strides;
  // Fast paths for kernels: the slice is the whole input / has unit strides / is a
  // contiguous range of the first dim (each false unless established).
  bool is_identity = true;
  bool is_simple_slice = true;
  bool slice_dim0 = true;
};

// `begin` and `end` may be nullptr (values unknown); `input_shape` must have a known rank.
// The tensors are integer vectors of equal length (< 32, the width of the masks).
absl::Status ComputeStridedSliceSpec(const Tensor* begin, const Tensor* end, const Tensor& strides,
                                     const PartialTensorShape& input_shape,
                                     const StridedSliceMasks& masks, StridedSliceSpec* spec);

}  // namespace sluice

#endif  // SLUICE_GRAPH_OPS_STRIDED_SLICE_SPEC_H_
