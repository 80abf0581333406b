// The "shape_and_slices" strings of SaveV2 and RestoreV2, as TensorFlow's
// checkpoint::ParseShapeAndSlice reads them: "dim0 dim1 ... slice", the full tensor's shape
// (dims separated by single spaces) and then a TensorSlice: one extent per dim, separated by
// ':', each "-" (the whole dim) or "start,length". Shared by RestoreV2's shape function and the
// checkpoint kernels.
#ifndef SLUICE_GRAPH_OPS_SHAPE_AND_SLICE_SPEC_H_
#define SLUICE_GRAPH_OPS_SHAPE_AND_SLICE_SPEC_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "graph/core/tensor_shape.h"

namespace sluice {

struct ShapeAndSlice {
  TensorShape full_shape;
  // Per dim: the extent's start and length; length -1 is the whole dim (start 0).
  std::vector<int64_t> starts;
  std::vector<int64_t> lengths;
  // The slice's shape.
  TensorShape slice_shape;

  // True when every extent is the whole dim, or covers it.
  bool IsFull() const;
};

// INVALID_ARGUMENT (TensorFlow's texts) for fewer than two space-separated parts, a bad extent
// or a non-numerical or negative dim; INTERNAL (as TensorFlow) when the slice's rank differs
// from the shape's or an extent runs past its dim. REQUIRES: `spec` is not empty.
absl::Status ParseShapeAndSlice(absl::string_view spec, ShapeAndSlice* out);

}  // namespace sluice

#endif  // SLUICE_GRAPH_OPS_SHAPE_AND_SLICE_SPEC_H_
