// Ops that join tensors along an axis (Concat, ConcatV2, Pack) or cut one apart (Unpack,
// Split, SplitV, and DynamicPartition, which cuts by a per-element partition index).
#include <cstdint>
#include <vector>

#include "absl/strings/str_join.h"
#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/size_arithmetic.h"
#include "graph/core/tensor.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"

namespace sluice {
namespace {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

// Reads the `axis` attr of Pack/Unpack, which must lie in [-rank, rank).
absl::Status PackAxis(InferenceContext* c, int32_t rank, int32_t* axis) {
  RETURN_IF_ERROR(c->GetAttr("axis", axis));
  if (*axis < -rank || *axis >= rank) {
    return errors::InvalidArgument("Invalid axis: ", *axis, "; must be in [", -rank, ",", rank,
                                   ")");
  }
  if (*axis < 0) *axis += rank;
  return absl::OkStatus();
}

// All values must agree; the output has a new dim of size N at `axis`.
absl::Status PackShape(InferenceContext* c) {
  ShapeHandle merged = c->input(c->num_inputs() - 1);
  for (int i = c->num_inputs() - 2; i >= 0; --i) {
    absl::Status s = c->Merge(c->input(i), merged, &merged);
    if (!s.ok()) {
      return errors::AppendToMessage(s, " From merging shape ", i, " with other shapes.");
    }
  }
  if (!c->RankKnown(merged)) {
    c->set_output(0, c->UnknownShape());
    return absl::OkStatus();
  }
  const int32_t rank = c->Rank(merged);
  int32_t axis;
  RETURN_IF_ERROR(PackAxis(c, rank + 1, &axis));
  std::vector<DimensionHandle> dims;
  for (int32_t i = 0; i < axis; ++i) dims.push_back(c->Dim(merged, i));
  dims.push_back(c->MakeDim(c->num_inputs()));
  for (int32_t i = axis; i < rank; ++i) dims.push_back(c->Dim(merged, i));
  c->set_output(0, c->MakeShape(dims));
  return absl::OkStatus();
}

// Every output is the input without `axis`, whose size must equal `num`.
absl::Status UnpackShape(InferenceContext* c) {
  ShapeHandle input = c->input(0);
  ShapeHandle out = c->UnknownShape();
  if (c->RankKnown(input)) {
    const int32_t rank = c->Rank(input);
    int32_t axis;
    RETURN_IF_ERROR(PackAxis(c, rank, &axis));
    DimensionHandle unused;
    RETURN_IF_ERROR(c->WithValue(c->Dim(input, axis), c->num_outputs(), &unused));
    std::vector<DimensionHandle> dims;
    for (int32_t i = 0; i < rank; ++i) {
      if (i != axis) dims.push_back(c->Dim(input, i));
    }
    out = c->MakeShape(dims);
  }
  for (int i = 0; i < c->num_outputs(); ++i) c->set_output(i, out);
  return absl::OkStatus();
}

absl::Status ConcatShapeFn(InferenceContext* c) {
  return shape_inference::ConcatShape(c, c->num_inputs() - 1);
}

// Every output is the input with the split dim divided by num_split.
absl::Status SplitShape(InferenceContext* c) {
  ShapeHandle input = c->input(1);
  DimensionHandle split_dim;
  RETURN_IF_ERROR(c->MakeDimForScalarInputWithNegativeIndexing(0, c->Rank(input), &split_dim));
  const int num_split = c->num_outputs();
  ShapeHandle out;
  if (!c->ValueKnown(split_dim)) {
    out = c->UnknownShapeOfRank(c->Rank(input));
  } else {
    const int64_t axis = c->Value(split_dim);
    RETURN_IF_ERROR(c->WithRankAtLeast(input, axis + 1, &input));
    DimensionHandle piece;
    absl::Status s = c->Divide(c->Dim(input, axis), num_split, /*evenly_divisible=*/true, &piece);
    if (!s.ok()) {
      return errors::AppendToMessage(
          s, " Number of ways to split should evenly divide the split dimension");
    }
    RETURN_IF_ERROR(c->ReplaceDim(input, axis, piece, &out));
  }
  for (int i = 0; i < num_split; ++i) c->set_output(i, out);
  return absl::OkStatus();
}

// SplitV with known sizes and axis gives each output its size (one -1 takes the rest).
// TensorFlow reads an unknown axis as -1, the last dim, and may then reject valid graphs;
// here an unknown axis leaves every dim of the outputs unknown instead.
absl::Status SplitVShape(InferenceContext* c) {
  ShapeHandle input = c->input(0);
  const int num_outputs = c->num_outputs();
  const int32_t rank = c->Rank(input);
  if (rank == InferenceContext::kUnknownRank) {
    for (int i = 0; i < num_outputs; ++i) c->set_output(i, c->UnknownShape());
    return absl::OkStatus();
  }
  if (rank == 0) return errors::InvalidArgument("Can't split scalars");
  DimensionHandle split_dim;
  RETURN_IF_ERROR(c->MakeDimForScalarInputWithNegativeIndexing(2, rank, &split_dim));
  const Tensor* size_splits = c->input_tensor(1);
  if (!c->ValueKnown(split_dim)) {
    for (int i = 0; i < num_outputs; ++i) c->set_output(i, c->UnknownShapeOfRank(rank));
    return absl::OkStatus();
  }
  const int64_t axis = c->Value(split_dim);
  if (size_splits == nullptr) {
    ShapeHandle out;
    RETURN_IF_ERROR(c->ReplaceDim(input, axis, c->UnknownDim(), &out));
    for (int i = 0; i < num_outputs; ++i) c->set_output(i, out);
    return absl::OkStatus();
  }
  if (size_splits->shape().dims() != 1) {
    return errors::InvalidArgument("size_splits must be a vector, got shape ",
                                   size_splits->shape().DebugString());
  }
  IntegerValues sizes;
  RETURN_IF_ERROR(IntegerTensorValues(*size_splits, &sizes));
  if (static_cast<int64_t>(sizes.size()) != num_outputs) {
    return errors::InvalidArgument("Length of size_splits should be equal to num_outputs");
  }
  int64_t total = 0;
  int fill_index = -1;
  for (int i = 0; i < num_outputs; ++i) {
    if (sizes[i] == -1) {
      if (fill_index >= 0) return errors::InvalidArgument("size_splits can only have one -1");
      fill_index = i;
    } else if (sizes[i] < 0) {
      return errors::InvalidArgument("Split size at index ", i, " must be >= 0. Got: ", sizes[i]);
    } else {
      const int64_t sum = AddWithoutOverflow(total, sizes[i]);
      if (sum < 0) {
        return errors::InvalidArgument("Split sizes overflow int64 at index ", i, " (", sizes[i],
                                       " added to ", total, ")");
      }
      total = sum;
    }
  }
  DimensionHandle axis_dim = c->Dim(input, axis);
  if (c->ValueKnown(axis_dim)) {
    const int64_t axis_size = c->Value(axis_dim);
    if (fill_index >= 0) {
      sizes[fill_index] = axis_size - total;
      if (sizes[fill_index] < 0) {
        return errors::InvalidArgument("Split size at index ", fill_index,
                                       " must be >= 0. Got: ", sizes[fill_index]);
      }
    } else if (total != axis_size) {
      return errors::InvalidArgument("can't split axis of size ", axis_size,
                                     " into pieces of size [", absl::StrJoin(sizes, ","), "]");
    }
  }
  for (int i = 0; i < num_outputs; ++i) {
    ShapeHandle out;
    RETURN_IF_ERROR(c->ReplaceDim(input, axis, c->MakeDim(sizes[i]), &out));
    c->set_output(i, out);
  }
  return absl::OkStatus();
}

// Each output is [?] + data's dims past the partitions' rank; data's shape must start with
// the partitions' shape.
absl::Status DynamicPartitionShape(InferenceContext* c) {
  ShapeHandle partitions = c->input(1);
  if (!c->RankKnown(partitions)) return shape_inference::UnknownShape(c);
  ShapeHandle unused;
  RETURN_IF_ERROR(c->MergePrefix(c->input(0), partitions, &unused, &unused));
  ShapeHandle suffix;
  RETURN_IF_ERROR(c->Subshape(c->input(0), c->Rank(partitions), &suffix));
  ShapeHandle out;
  RETURN_IF_ERROR(c->Concatenate(c->Vector(InferenceContext::kUnknownDim), suffix, &out));
  for (int i = 0; i < c->num_outputs(); ++i) c->set_output(i, out);
  return absl::OkStatus();
}

}  // namespace

// Concat takes the axis first and needs at least two values (ConcatV2 takes it last).
REGISTER_OP("Concat")
    .Input("concat_dim: int32")
    .Input("values: N * T")
    .Output("output: T")
    .Attr("N: int >= 2")
    .Attr("T: type")
    .SetShapeFn(ConcatShapeFn);

REGISTER_OP("ConcatV2")
    .Input("values: N * T")
    .Input("axis: Tidx")
    .Output("output: T")
    .Attr("N: int >= 2")
    .Attr("T: type")
    .Attr("Tidx: {int32, int64} = DT_INT32")
    .SetShapeFn(shape_inference::ConcatV2Shape);

REGISTER_OP("Pack")
    .Input("values: N * T")
    .Output("output: T")
    .Attr("N: int >= 1")
    .Attr("T: type")
    .Attr("axis: int = 0")
    .SetShapeFn(PackShape);

REGISTER_OP("Unpack")
    .Input("value: T")
    .Output("output: num * T")
    .Attr("num: int >= 0")
    .Attr("T: type")
    .Attr("axis: int = 0")
    .SetShapeFn(UnpackShape);

REGISTER_OP("Split")
    .Input("split_dim: int32")
    .Input("value: T")
    .Output("output: num_split * T")
    .Attr("num_split: int >= 1")
    .Attr("T: type")
    .SetShapeFn(SplitShape);

REGISTER_OP("SplitV")
    .Input("value: T")
    .Input("size_splits: Tlen")
    .Input("split_dim: int32")
    .Output("output: num_split * T")
    .Attr("num_split: int >= 1")
    .Attr("T: type")
    .Attr("Tlen: {int8, int32, int64} = DT_INT64")
    .SetShapeFn(SplitVShape);

// Output i holds, in order, the slices data[j...] whose partitions[j...] is i.
REGISTER_OP("DynamicPartition")
    .Input("data: T")
    .Input("partitions: int32")
    .Output("outputs: num_partitions * T")
    .Attr("num_partitions: int >= 1")
    .Attr("T: type")
    .SetShapeFn(DynamicPartitionShape);

}  // namespace sluice
