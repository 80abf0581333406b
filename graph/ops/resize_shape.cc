#include "graph/ops/resize_shape.h"

#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"

namespace sluice {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

absl::Status ResizeShape(InferenceContext* c) {
  ShapeHandle input;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 4, &input));
  ShapeHandle size;
  RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &size));
  DimensionHandle unused;
  RETURN_IF_ERROR(c->WithValue(c->Dim(size, 0), 2, &unused));
  DimensionHandle height = c->UnknownDim();
  DimensionHandle width = c->UnknownDim();
  const Tensor* size_tensor = c->input_tensor(1);
  if (size_tensor != nullptr) {
    if (size_tensor->dtype() != DT_INT32 || size_tensor->NumElements() != 2) {
      return errors::InvalidArgument("size must be a vector of 2 int32 values");
    }
    auto values = size_tensor->unaligned_flat<int32_t>();
    // -1 stands for an unknown size; other negatives are errors.
    for (int i = 0; i < 2; ++i) {
      if (values(i) < -1) {
        return errors::InvalidArgument("Dimension ", values(i), " must be >= 0");
      }
    }
    height = c->MakeDim(int64_t{values(0)});
    width = c->MakeDim(int64_t{values(1)});
  }
  c->set_output(0, c->MakeShape({c->Dim(input, 0), height, width, c->Dim(input, 3)}));
  return absl::OkStatus();
}

}  // namespace sluice
