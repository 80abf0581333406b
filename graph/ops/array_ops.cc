// Ops that rearrange or describe a tensor's shape without looking at its elements:
// reshaping, squeezing, expanding, transposing, reversing (whole axes or per-batch prefixes),
// broadcasting, filling, the shape-describing ops Shape/ShapeN/Size/Rank/Where, and Unique.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/tensor.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"

namespace sluice {
namespace {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;
using shape_inference::UnchangedShape;

// The product of the known dims of `s` and the index of its one unknown dim (-1 if none).
// Returns false when `s` has more than one unknown dim.
bool KnownElementsAndUnknownDim(InferenceContext* c, ShapeHandle s, DimensionHandle* known,
                                int32_t* unknown_index, absl::Status* status) {
  *known = c->NumElements(s);
  *unknown_index = -1;
  if (c->ValueKnown(*known)) return true;
  *known = c->MakeDim(1);
  for (int32_t i = 0; i < c->Rank(s); ++i) {
    DimensionHandle dim = c->Dim(s, i);
    if (!c->ValueKnown(dim)) {
      if (*unknown_index >= 0) return false;
      *unknown_index = i;
    } else {
      *status = c->Multiply(*known, dim, known);
      if (!status->ok()) return false;
    }
  }
  return true;
}

// The output is the shape tensor's value. When input and output each have at most one
// unknown dim, the element counts pin it down: a fully known input fixes the output's
// unknown dim (the -1), a fully known output checks the input's, and equal known parts
// make the two unknown dims the same.
absl::Status ReshapeShape(InferenceContext* c) {
  ShapeHandle in = c->input(0);
  ShapeHandle out;
  RETURN_IF_ERROR(c->MakeShapeFromShapeTensor(1, &out));
  if (!c->RankKnown(out) || !c->RankKnown(in)) {
    c->set_output(0, out);
    return absl::OkStatus();
  }
  absl::Status status;
  DimensionHandle out_known, in_known;
  int32_t out_unknown = -1, in_unknown = -1;
  const bool out_ok = KnownElementsAndUnknownDim(c, out, &out_known, &out_unknown, &status);
  RETURN_IF_ERROR(status);
  const bool in_ok = out_ok && KnownElementsAndUnknownDim(c, in, &in_known, &in_unknown, &status);
  RETURN_IF_ERROR(status);
  if (out_ok && in_ok) {
    const int64_t in_elems = c->Value(in_known);
    const int64_t out_elems = c->Value(out_known);
    if (in_unknown < 0 && out_unknown < 0) {
      if (in_elems != out_elems) {
        return errors::InvalidArgument("Cannot reshape a tensor with ", in_elems,
                                       " elements to shape ", c->DebugString(out), " (", out_elems,
                                       " elements)");
      }
    } else if (in_unknown < 0 && out_elems > 0) {
      DimensionHandle inferred;
      RETURN_IF_ERROR(c->Divide(in_known, out_elems, /*evenly_divisible=*/true, &inferred));
      RETURN_IF_ERROR(c->ReplaceDim(out, out_unknown, inferred, &out));
    } else if (in_unknown >= 0 && out_unknown < 0 && in_elems != 0) {
      DimensionHandle inferred;
      RETURN_IF_ERROR(c->Divide(out_known, in_elems, /*evenly_divisible=*/true, &inferred));
      DimensionHandle unused;
      RETURN_IF_ERROR(c->Merge(c->Dim(in, in_unknown), inferred, &unused));
    } else if (in_unknown >= 0 && out_unknown >= 0 && in_elems == out_elems) {
      RETURN_IF_ERROR(c->ReplaceDim(out, out_unknown, c->Dim(in, in_unknown), &out));
    }
  }
  c->set_output(0, out);
  return absl::OkStatus();
}

// Removes the listed size-1 dims, or with no list every dim known to be 1 (then an unknown
// dim makes the result unknown, since it may or may not be squeezed).
absl::Status SqueezeShape(InferenceContext* c) {
  ShapeHandle input = c->input(0);
  if (!c->RankKnown(input)) {
    c->set_output(0, c->UnknownShape());
    return absl::OkStatus();
  }
  const int32_t rank = c->Rank(input);
  std::vector<int32_t> squeeze_dims;
  RETURN_IF_ERROR(c->GetAttr("squeeze_dims", &squeeze_dims));
  std::vector<bool> squeeze(rank, false);
  for (size_t i = 0; i < squeeze_dims.size(); ++i) {
    const int32_t d = squeeze_dims[i];
    if (d < -rank || d >= rank) {
      return errors::InvalidArgument("squeeze_dims[", i, "] not in [", -rank, ",", rank, ").");
    }
    squeeze[d < 0 ? d + rank : d] = true;
  }
  std::vector<DimensionHandle> dims;
  for (int32_t i = 0; i < rank; ++i) {
    DimensionHandle dim = c->Dim(input, i);
    if (!c->ValueKnown(dim)) {
      if (squeeze[i]) continue;  // assumed to be 1 at run time
      if (squeeze_dims.empty()) {
        c->set_output(0, c->UnknownShape());
        return absl::OkStatus();
      }
    } else if (c->Value(dim) == 1) {
      if (squeeze[i] || squeeze_dims.empty()) continue;
    } else if (squeeze[i]) {
      return errors::InvalidArgument("Can not squeeze dim[", i,
                                     "], expected a dimension of 1, got ", c->Value(dim));
    }
    dims.push_back(dim);
  }
  c->set_output(0, c->MakeShape(dims));
  return absl::OkStatus();
}

// Inserts a 1 at `dim`, which ranges over [-rank-1, rank].
absl::Status ExpandDimsShape(InferenceContext* c) {
  ShapeHandle input = c->input(0);
  const Tensor* dim_t = c->input_tensor(1);
  if (dim_t != nullptr && dim_t->NumElements() != 1) {
    return errors::InvalidArgument("'dim' input must be a tensor with a single value");
  }
  if (dim_t == nullptr || !c->RankKnown(input)) {
    c->set_output(0, c->UnknownShape());
    return absl::OkStatus();
  }
  int64_t dim;
  RETURN_IF_ERROR(IntegerTensorScalar(*dim_t, &dim));
  const int32_t rank = c->Rank(input);
  const int64_t min_dim = -1 - static_cast<int64_t>(rank);
  if (dim < min_dim || dim > rank) {
    return errors::InvalidArgument("dim ", dim, " not in the interval [", min_dim, ", ", rank,
                                   "].");
  }
  if (dim < 0) dim += rank + 1;
  ShapeHandle front, back, out;
  RETURN_IF_ERROR(c->Subshape(input, 0, dim, &front));
  RETURN_IF_ERROR(c->Subshape(input, dim, &back));
  RETURN_IF_ERROR(c->Concatenate(front, c->Vector(1), &out));
  RETURN_IF_ERROR(c->Concatenate(out, back, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

// Shape and ShapeN: one vector per input, as long as the input's rank.
absl::Status ShapeOfInputsShape(InferenceContext* c) {
  for (int i = 0; i < c->num_inputs(); ++i) {
    const int32_t rank = c->Rank(c->input(i));
    c->set_output(i,
                  c->Vector(rank == InferenceContext::kUnknownRank ? InferenceContext::kUnknownDim
                                                                   : int64_t{rank}));
  }
  return absl::OkStatus();
}

absl::Status FillShape(InferenceContext* c) {
  ShapeHandle unused;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 1, &unused));
  RETURN_IF_ERROR(c->WithRank(c->input(1), 0, &unused));
  const Tensor* dims = c->input_tensor(0);
  if (dims != nullptr) {
    IntegerValues values;
    RETURN_IF_ERROR(IntegerTensorValues(*dims, &values));
    for (int64_t v : values) {
      if (v < 0) return errors::InvalidArgument("Fill dimensions must be >= 0");
    }
  }
  ShapeHandle out;
  RETURN_IF_ERROR(c->MakeShapeFromShapeTensor(0, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

// The output is the `shape` input; input dims > 1 must match it (broadcasting only turns
// 1s, and missing leading dims, into the target size).
absl::Status BroadcastToShape(InferenceContext* c) {
  ShapeHandle unused;
  RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &unused));
  ShapeHandle out;
  RETURN_IF_ERROR(c->MakeShapeFromShapeTensor(1, &out));
  ShapeHandle in = c->input(0);
  if (!c->RankKnown(out) || !c->RankKnown(in)) {
    c->set_output(0, out);
    return absl::OkStatus();
  }
  const int32_t out_rank = c->Rank(out);
  RETURN_IF_ERROR(c->WithRankAtMost(in, out_rank, &in));
  const int32_t in_rank = c->Rank(in);
  for (int32_t i = 1; i <= in_rank; ++i) {
    DimensionHandle in_dim = c->Dim(in, in_rank - i);
    if (c->Value(in_dim) <= 1) continue;
    DimensionHandle out_dim = c->Dim(out, out_rank - i);
    RETURN_IF_ERROR(c->Merge(in_dim, out_dim, &out_dim));
    RETURN_IF_ERROR(c->ReplaceDim(out, out_rank - i, out_dim, &out));
  }
  c->set_output(0, out);
  return absl::OkStatus();
}

// Where returns the coordinates of the true elements: [num_true, rank].
absl::Status WhereShape(InferenceContext* c) {
  const int32_t rank = c->Rank(c->input(0));
  c->set_output(0, c->Matrix(InferenceContext::kUnknownDim, rank == InferenceContext::kUnknownRank
                                                                ? InferenceContext::kUnknownDim
                                                                : int64_t{rank}));
  return absl::OkStatus();
}

// The rank comes from the input or from perm's length; dims from a known perm, whose
// entries may be negative (counting from the end) as in TensorFlow.
absl::Status TransposeShape(InferenceContext* c) {
  ShapeHandle input = c->input(0);
  ShapeHandle perm_shape = c->input(1);
  const Tensor* perm = c->input_tensor(1);
  DimensionHandle perm_length = c->NumElements(perm_shape);
  if (!c->RankKnown(input) && !c->ValueKnown(perm_length) && perm == nullptr) {
    c->set_output(0, c->UnknownShape());
    return absl::OkStatus();
  }
  int64_t rank;
  if (c->RankKnown(input)) {
    rank = c->Rank(input);
  } else if (c->ValueKnown(perm_length)) {
    rank = c->Value(perm_length);
  } else {
    rank = perm->NumElements();
  }
  // A one-element perm fits a scalar as well as a vector, and leaves either unchanged.
  if (!c->RankKnown(input) && rank < 2) {
    c->set_output(0, input);
    return absl::OkStatus();
  }
  RETURN_IF_ERROR(c->WithRank(input, rank, &input));
  RETURN_IF_ERROR(c->WithRank(perm_shape, 1, &perm_shape));
  RETURN_IF_ERROR(c->WithValue(perm_length, rank, &perm_length));
  std::vector<DimensionHandle> dims(rank);
  if (perm != nullptr) {
    IntegerValues values;
    RETURN_IF_ERROR(IntegerTensorValues(*perm, &values));
    if (static_cast<int64_t>(values.size()) != rank) {
      return errors::InvalidArgument("perm must have ", rank, " elements, got ", values.size());
    }
    for (int64_t i = 0; i < rank; ++i) {
      if (values[i] >= rank || values[i] < -rank) {
        return errors::InvalidArgument("perm dim ", values[i], " is out of range of input rank ",
                                       rank);
      }
      dims[i] = c->Dim(input, values[i]);
    }
  } else {
    for (auto& dim : dims) dim = c->UnknownDim();
  }
  c->set_output(0, c->MakeShape(dims));
  return absl::OkStatus();
}

// The output is the input; known axes are checked for range and duplicates.
absl::Status ReverseV2Shape(InferenceContext* c) {
  ShapeHandle input = c->input(0);
  ShapeHandle unused;
  RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &unused));
  if (c->Rank(input) > 8) {
    return errors::InvalidArgument("reverse does not work on tensors with more than 8 dimensions");
  }
  const Tensor* axis_t = c->input_tensor(1);
  if (axis_t != nullptr && c->RankKnown(input)) {
    const int32_t rank = c->Rank(input);
    IntegerValues axes;
    RETURN_IF_ERROR(IntegerTensorValues(*axis_t, &axes));
    std::vector<bool> seen(rank, false);
    for (size_t i = 0; i < axes.size(); ++i) {
      const int64_t axis = axes[i] < 0 ? axes[i] + rank : axes[i];
      if (axis < 0 || axis >= rank) {
        return errors::InvalidArgument("'axis'[", i, "] = ", axes[i], " is out of valid range [0, ",
                                       rank - 1, "]");
      }
      if (seen[axis]) {
        return errors::InvalidArgument("axis ", axis, " specified more than once.");
      }
      seen[axis] = true;
    }
  }
  c->set_output(0, input);
  return absl::OkStatus();
}

// seq_lengths is a vector as long as the batch dim; the output is the input. Negative dims
// count from the end here; the kernel refuses them.
absl::Status ReverseSequenceShape(InferenceContext* c) {
  ShapeHandle input = c->input(0);
  ShapeHandle seq_lengths;
  RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &seq_lengths));
  int64_t seq_dim;
  RETURN_IF_ERROR(c->GetAttr("seq_dim", &seq_dim));
  int64_t batch_dim;
  RETURN_IF_ERROR(c->GetAttr("batch_dim", &batch_dim));
  if (!c->RankKnown(input)) return shape_inference::UnknownShape(c);
  const int32_t rank = c->Rank(input);
  if (batch_dim >= rank) {
    return errors::InvalidArgument("batch_dim must be < input rank: ", batch_dim, " vs. ", rank);
  }
  if (seq_dim >= rank) {
    return errors::InvalidArgument("seq_dim must be < input rank: ", seq_dim, " vs. ", rank);
  }
  DimensionHandle batch = c->Dim(input, batch_dim);
  RETURN_IF_ERROR(c->Merge(batch, c->Dim(seq_lengths, 0), &batch));
  ShapeHandle out;
  RETURN_IF_ERROR(c->ReplaceDim(input, batch_dim, batch, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

// y has unknown length; idx is shaped like x, which must be a vector.
absl::Status UniqueShape(InferenceContext* c) {
  c->set_output(0, c->Vector(InferenceContext::kUnknownDim));
  c->set_output(1, c->input(0));
  ShapeHandle unused;
  return c->WithRank(c->input(0), 1, &unused);
}

// y keeps x's rank (its dims unknown). idx is as long as x's dim `axis` when the axis tensor
// is known ([] means x is a vector, [a] the dim a, negative counting from the end), else a
// vector of unknown length.
absl::Status UniqueV2Shape(InferenceContext* c) {
  ShapeHandle input = c->input(0);
  c->set_output(0, c->RankKnown(input) ? c->UnknownShapeOfRank(c->Rank(input)) : c->UnknownShape());
  const Tensor* axis_t = c->input_tensor(1);
  if (axis_t == nullptr || !c->RankKnown(input)) {
    c->set_output(1, c->Vector(InferenceContext::kUnknownDim));
    return absl::OkStatus();
  }
  if (c->Rank(c->input(1)) != 1) return errors::InvalidArgument("axis expects a 1D vector.");
  IntegerValues axes;
  RETURN_IF_ERROR(IntegerTensorValues(*axis_t, &axes));
  if (axes.empty()) {
    if (c->Rank(input) != 1) return errors::InvalidArgument("x expects a 1D vector.");
    c->set_output(1, input);
    return absl::OkStatus();
  }
  if (axes.size() > 1) {
    return errors::InvalidArgument("axis does not support input tensors larger than 1 elements.");
  }
  const int64_t rank = c->Rank(input);
  if (axes[0] < -rank || axes[0] >= rank) {
    return errors::InvalidArgument("axis expects to be in the range [", -rank, ", ", rank, ")");
  }
  c->set_output(1, c->Vector(c->Dim(input, axes[0] < 0 ? axes[0] + rank : axes[0])));
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("Reshape")
    .Input("tensor: T")
    .Input("shape: Tshape")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tshape: {int32, int64} = DT_INT32")
    .SetShapeFn(ReshapeShape);

REGISTER_OP("Squeeze")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("squeeze_dims: list(int) >= 0 = []")
    .SetShapeFn(SqueezeShape);

REGISTER_OP("ExpandDims")
    .Input("input: T")
    .Input("dim: Tdim")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tdim: {int32, int64} = DT_INT32")
    .SetShapeFn(ExpandDimsShape);

REGISTER_OP("Shape")
    .Input("input: T")
    .Output("output: out_type")
    .Attr("T: type")
    .Attr("out_type: {int32, int64} = DT_INT32")
    .SetShapeFn(ShapeOfInputsShape);

REGISTER_OP("ShapeN")
    .Input("input: N * T")
    .Output("output: N * out_type")
    .Attr("N: int >= 1")
    .Attr("T: type")
    .Attr("out_type: {int32, int64} = DT_INT32")
    .SetShapeFn(ShapeOfInputsShape);

REGISTER_OP("Size")
    .Input("input: T")
    .Output("output: out_type")
    .Attr("T: type")
    .Attr("out_type: {int32, int64} = DT_INT32")
    .SetShapeFn(shape_inference::ScalarShape);

REGISTER_OP("Rank")
    .Input("input: T")
    .Output("output: int32")
    .Attr("T: type")
    .SetShapeFn(shape_inference::ScalarShape);

REGISTER_OP("Fill")
    .Input("dims: index_type")
    .Input("value: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("index_type: {int32, int64} = DT_INT32")
    .SetShapeFn(FillShape);

REGISTER_OP("ZerosLike").Input("x: T").Output("y: T").Attr("T: type").SetShapeFn(UnchangedShape);

REGISTER_OP("OnesLike")
    .Input("x: T")
    .Output("y: T")
    .Attr(
        "T: {bfloat16, half, float, double, int8, uint8, int16, uint16, int32, uint32, "
        "int64, uint64, complex64, complex128, bool}")
    .SetShapeFn(UnchangedShape);

REGISTER_OP("BroadcastTo")
    .Input("input: T")
    .Input("shape: Tidx")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tidx: {int32, int64} = DT_INT32")
    .SetShapeFn(BroadcastToShape);

REGISTER_OP("Where")
    .Input("input: T")
    .Output("index: int64")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, "
        "qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64, "
        "bool} = DT_BOOL")
    .SetShapeFn(WhereShape);

REGISTER_OP("Transpose")
    .Input("x: T")
    .Input("perm: Tperm")
    .Output("y: T")
    .Attr("T: type")
    .Attr("Tperm: {int32, int64} = DT_INT32")
    .SetShapeFn(TransposeShape);

// Transpose that also conjugates complex elements (tf.transpose(conjugate=True),
// tf.linalg.adjoint); other types are transposed unchanged.
REGISTER_OP("ConjugateTranspose")
    .Input("x: T")
    .Input("perm: Tperm")
    .Output("y: T")
    .Attr("T: type")
    .Attr("Tperm: {int32, int64} = DT_INT32")
    .SetShapeFn(TransposeShape);

REGISTER_OP("ReverseV2")
    .Input("tensor: T")
    .Input("axis: Tidx")
    .Output("output: T")
    .Attr("Tidx: {int32, int64} = DT_INT32")
    .Attr(
        "T: {uint8, int8, uint16, int16, int32, uint32, int64, uint64, bool, bfloat16, "
        "half, float, double, complex64, complex128, string}")
    .SetShapeFn(ReverseV2Shape);

// Reverses the first seq_lengths[i] entries along seq_dim of each slice i along batch_dim.
REGISTER_OP("ReverseSequence")
    .Input("input: T")
    .Input("seq_lengths: Tlen")
    .Output("output: T")
    .Attr("seq_dim: int")
    .Attr("batch_dim: int = 0")
    .Attr("T: type")
    .Attr("Tlen: {int32, int64} = DT_INT64")
    .SetShapeFn(ReverseSequenceShape);

// The distinct elements of a vector in order of first occurrence, and for each element the
// index of its value in y.
REGISTER_OP("Unique")
    .Input("x: T")
    .Output("y: T")
    .Output("idx: out_idx")
    .Attr("T: type")
    .Attr("out_idx: {int32, int64} = DT_INT32")
    .SetShapeFn(UniqueShape);

// Unique of the slices along `axis` (a vector of zero or one element; none means x is a
// vector).
REGISTER_OP("UniqueV2")
    .Input("x: T")
    .Input("axis: Taxis")
    .Output("y: T")
    .Output("idx: out_idx")
    .Attr("T: type")
    .Attr("Taxis: {int32, int64} = DT_INT64")
    .Attr("out_idx: {int32, int64} = DT_INT32")
    .SetShapeFn(UniqueV2Shape);

}  // namespace sluice
