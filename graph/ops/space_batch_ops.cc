// Ops that move blocks of the spatial dims into the batch dim and back: SpaceToBatchND
// (zero-padding first) and BatchToSpaceND (cropping after). TensorFlow rewrites a dilated
// convolution as SpaceToBatchND -> convolution -> BatchToSpaceND.
#include <cstdint>
#include <vector>

#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/tensor.h"
#include "graph/op/op_registry.h"
#include "graph/shape/shape_inference.h"

namespace sluice {
namespace {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

// The values of a known integer argument, which must have `count` elements.
absl::Status KnownValues(const Tensor& t, int64_t count, const char* name, IntegerValues* out) {
  RETURN_IF_ERROR(IntegerTensorValues(t, out));
  if (static_cast<int64_t>(out->size()) != count) {
    return errors::InvalidArgument(name, " must have ", count, " elements, got ", out->size());
  }
  return absl::OkStatus();
}

// TensorFlow's SpaceToBatchShapeHelper (space_to_batch) and BatchToSpaceShapeHelper: input 0
// is [batch] + M spatial dims + the rest, input 1 the block shape [M] (its size must be
// known), input 2 the [M, 2] paddings or crops. The batch is multiplied (divided, exactly)
// by each block size; each spatial dim becomes (dim + pads) / block, exactly, or
// dim * block - crops.
absl::Status SpaceBatchShape(InferenceContext* c, bool space_to_batch) {
  const ShapeHandle block_shape_shape = c->input(1);
  if (c->Rank(block_shape_shape) != 1) {
    return errors::InvalidArgument("block_shape must have rank 1.");
  }
  const DimensionHandle num_block_dims_handle = c->Dim(block_shape_shape, 0);
  if (!c->ValueKnown(num_block_dims_handle)) {
    return errors::InvalidArgument("block_shape must have known size.");
  }
  const int64_t num_block_dims = c->Value(num_block_dims_handle);
  ShapeHandle input;
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(0), num_block_dims + 1, &input));
  ShapeHandle amounts_shape;
  RETURN_IF_ERROR(c->Merge(c->input(2), c->Matrix(num_block_dims, 2), &amounts_shape));

  DimensionHandle batch = c->Dim(input, 0);
  const Tensor* block_shape_t = c->input_tensor(1);
  IntegerValues block_shape;
  if (block_shape_t != nullptr) {
    RETURN_IF_ERROR(KnownValues(*block_shape_t, num_block_dims, "block_shape", &block_shape));
    for (int64_t dim = 0; dim < num_block_dims; ++dim) {
      const int64_t block = block_shape[dim];
      if (block < 1) return errors::InvalidArgument("block_shape must be positive");
      if (!c->ValueKnown(batch)) {
        batch = c->UnknownDim();
      } else if (space_to_batch) {
        RETURN_IF_ERROR(c->Multiply(batch, block, &batch));
      } else {
        RETURN_IF_ERROR(c->Divide(batch, block, /*evenly_divisible=*/true, &batch));
      }
    }
  } else if (num_block_dims > 0) {
    batch = c->UnknownDim();
  }

  std::vector<DimensionHandle> dims{batch};
  dims.resize(num_block_dims + 1, c->UnknownDim());
  const Tensor* amounts_t = c->input_tensor(2);
  if (amounts_t != nullptr) {
    IntegerValues amounts;
    RETURN_IF_ERROR(KnownValues(*amounts_t, 2 * num_block_dims,
                                space_to_batch ? "paddings" : "crops", &amounts));
    for (int64_t dim = 0; dim < num_block_dims; ++dim) {
      const int64_t start = amounts[2 * dim];
      const int64_t end = amounts[2 * dim + 1];
      if (start < 0 || end < 0) {
        return errors::InvalidArgument(space_to_batch ? "paddings" : "crops",
                                       " cannot be negative");
      }
      if (block_shape_t == nullptr) continue;
      DimensionHandle size;
      if (space_to_batch) {
        RETURN_IF_ERROR(c->Add(c->Dim(input, dim + 1), start, &size));
        RETURN_IF_ERROR(c->Add(size, end, &size));
        RETURN_IF_ERROR(
            c->Divide(size, block_shape[dim], /*evenly_divisible=*/true, &dims[dim + 1]));
      } else {
        RETURN_IF_ERROR(c->Multiply(c->Dim(input, dim + 1), block_shape[dim], &size));
        RETURN_IF_ERROR(c->Subtract(size, start, &size));
        RETURN_IF_ERROR(c->Subtract(size, end, &dims[dim + 1]));
      }
    }
  }
  ShapeHandle rest;
  RETURN_IF_ERROR(c->Subshape(input, 1 + num_block_dims, &rest));
  ShapeHandle out;
  RETURN_IF_ERROR(c->Concatenate(c->MakeShape(dims), rest, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

absl::Status SpaceToBatchNDShape(InferenceContext* c) { return SpaceBatchShape(c, true); }
absl::Status BatchToSpaceNDShape(InferenceContext* c) { return SpaceBatchShape(c, false); }

}  // namespace

REGISTER_OP("SpaceToBatchND")
    .Input("input: T")
    .Input("block_shape: Tblock_shape")
    .Input("paddings: Tpaddings")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tblock_shape: {int32, int64} = DT_INT32")
    .Attr("Tpaddings: {int32, int64} = DT_INT32")
    .SetShapeFn(SpaceToBatchNDShape);

REGISTER_OP("BatchToSpaceND")
    .Input("input: T")
    .Input("block_shape: Tblock_shape")
    .Input("crops: Tcrops")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tblock_shape: {int32, int64} = DT_INT32")
    .Attr("Tcrops: {int32, int64} = DT_INT32")
    .SetShapeFn(BatchToSpaceNDShape);

}  // namespace sluice
