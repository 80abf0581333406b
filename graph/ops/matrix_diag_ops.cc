// The diagonal ops: MatrixDiag{,V2,V3} build batches of matrices from diagonals,
// MatrixDiagPart{,V2,V3} read diagonals out of them, MatrixSetDiag{,V2,V3} replace them, and
// Diag/DiagPart do the same for a tensor seen as a square matrix of its own shape. tf.eye,
// tf.linalg.diag, diag_part, set_diag and trace emit the V3 ops.
//
// `k` names one diagonal (a scalar or a one-element vector) or a band [k0, k1] of them (0 the
// main diagonal, positive above it); a band's diagonals are stacked in a dimension of their
// own, from k1 down to k0, each padded to the longest. V2 aligns every diagonal to the left;
// V3's `align` says how superdiagonals and subdiagonals are aligned.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"

namespace sluice {
namespace {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

// The diagonal band of a known `k` (a scalar, or a vector of one or two elements), as the
// kernels read it; the values are int32 as in TensorFlow.
absl::Status ReadDiagBand(const Tensor& k, int32_t* lower, int32_t* upper) {
  if (k.dims() == 1 && (k.dim_size(0) < 1 || k.dim_size(0) > 2)) {
    return errors::InvalidArgument("diag_index must be a vector with one or two elements. It has ",
                                   k.dim_size(0), " elements.");
  }
  IntegerValues values;
  RETURN_IF_ERROR(IntegerTensorValues(k, &values));
  *lower = static_cast<int32_t>(values[0]);
  *upper = static_cast<int32_t>(values.back());
  if (*lower > *upper) {
    return errors::InvalidArgument("lower_diag_index is greater than upper_diag_index");
  }
  return absl::OkStatus();
}

// Both ends of the band must name a diagonal of a rows x cols matrix (0 always does, so that
// empty matrices have a main diagonal).
absl::Status CheckBandInMatrix(int64_t rows, int64_t cols, int32_t lower, int32_t upper) {
  if (lower != 0 && (-rows >= lower || lower >= cols)) {
    return errors::InvalidArgument("lower_diag_index is out of bound.");
  }
  if (upper != 0 && (-rows >= upper || upper >= cols)) {
    return errors::InvalidArgument("upper_diag_index is out of bound.");
  }
  return absl::OkStatus();
}

absl::Status MatrixDiagPartV2Shape(InferenceContext* c) {
  ShapeHandle input, k_shape, unused;
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(0), 2, &input));
  RETURN_IF_ERROR(c->WithRankAtMost(c->input(1), 1, &k_shape));
  RETURN_IF_ERROR(c->WithRank(c->input(2), 0, &unused));
  const Tensor* k = c->input_tensor(1);
  if (!c->RankKnown(input) || !c->FullyDefined(k_shape) || k == nullptr) {
    c->set_output(0, c->UnknownShape());
    return absl::OkStatus();
  }
  int32_t lower = 0, upper = 0;
  RETURN_IF_ERROR(ReadDiagBand(*k, &lower, &upper));
  const int32_t rank = c->Rank(input);
  const int64_t rows = c->Value(c->Dim(input, rank - 2));
  const int64_t cols = c->Value(c->Dim(input, rank - 1));
  int64_t max_diag_len = InferenceContext::kUnknownDim;
  if (rows != InferenceContext::kUnknownDim && cols != InferenceContext::kUnknownDim) {
    RETURN_IF_ERROR(CheckBandInMatrix(rows, cols, lower, upper));
    max_diag_len = std::min<int64_t>(rows + std::min(upper, 0), cols - std::max(lower, 0));
  }
  std::vector<DimensionHandle> dims;
  for (int i = 0; i < rank - 2; ++i) dims.push_back(c->Dim(input, i));
  if (lower < upper) dims.push_back(c->MakeDim(int64_t{upper} - lower + 1));
  dims.push_back(c->MakeDim(max_diag_len));
  c->set_output(0, c->MakeShape(dims));
  return absl::OkStatus();
}

absl::Status MatrixDiagV2Shape(InferenceContext* c) {
  ShapeHandle diag, k_shape, unused;
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(0), 1, &diag));
  RETURN_IF_ERROR(c->WithRankAtMost(c->input(1), 1, &k_shape));
  for (int i = 2; i <= 4; ++i) RETURN_IF_ERROR(c->WithRank(c->input(i), 0, &unused));
  const Tensor* k = c->input_tensor(1);
  if (!c->RankKnown(diag) || !c->FullyDefined(k_shape) || k == nullptr) {
    c->set_output(0, c->UnknownShape());
    return absl::OkStatus();
  }
  int32_t lower = 0, upper = 0;
  RETURN_IF_ERROR(ReadDiagBand(*k, &lower, &upper));
  const int32_t rank = c->Rank(diag);
  // As in TensorFlow, an unknown count of diagonals does not match the band either.
  if (lower < upper) {
    const int64_t num_diags = rank >= 2 ? c->Value(c->Dim(diag, rank - 2)) : -1;
    if (num_diags != int64_t{upper} - lower + 1) {
      return errors::InvalidArgument(
          "The number of rows of `diagonal` doesn't match the number of diagonals implied from "
          "`d_lower` and `d_upper`.");
    }
  }
  int64_t num_rows = -1, num_cols = -1;
  if (const Tensor* t = c->input_tensor(2)) RETURN_IF_ERROR(c->GetScalarFromTensor(t, &num_rows));
  if (const Tensor* t = c->input_tensor(3)) RETURN_IF_ERROR(c->GetScalarFromTensor(t, &num_cols));
  // TensorFlow computes the minimum sizes from the last dimension even when it is unknown.
  const int64_t max_diag_len = c->Value(c->Dim(diag, rank - 1));
  const int64_t min_rows = max_diag_len - std::min(upper, 0);
  const int64_t min_cols = max_diag_len + std::max(lower, 0);
  if (num_rows == -1 && num_cols == -1) num_rows = num_cols = std::max(min_rows, min_cols);
  if (num_rows == -1) {
    num_rows = min_rows;
  } else if (num_rows < min_rows) {
    return errors::InvalidArgument("num_rows is too small");
  }
  if (num_cols == -1) {
    num_cols = min_cols;
  } else if (num_cols < min_cols) {
    return errors::InvalidArgument("num_cols is too small.");
  }
  if (num_rows != min_rows && num_cols != min_cols) {
    return errors::InvalidArgument(
        "num_rows and num_cols are not consistent with lower_diag_index, upper_diag_index, and "
        "the length of the given diagonals.");
  }
  ShapeHandle out;
  if (lower == upper) {
    RETURN_IF_ERROR(c->ReplaceDim(diag, rank - 1, c->MakeDim(num_rows), &out));
    RETURN_IF_ERROR(c->Concatenate(out, c->Vector(num_cols), &out));
  } else {
    RETURN_IF_ERROR(c->ReplaceDim(diag, rank - 2, c->MakeDim(num_rows), &out));
    RETURN_IF_ERROR(c->ReplaceDim(out, rank - 1, c->MakeDim(num_cols), &out));
  }
  c->set_output(0, out);
  return absl::OkStatus();
}

absl::Status MatrixSetDiagV2Shape(InferenceContext* c) {
  ShapeHandle input, diag, k_shape;
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(0), 2, &input));
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(1), 1, &diag));
  RETURN_IF_ERROR(c->WithRankAtMost(c->input(2), 1, &k_shape));
  int32_t lower = 0, upper = 0;
  const Tensor* k = c->input_tensor(2);
  const bool k_known = k != nullptr && c->FullyDefined(k_shape);
  if (k_known) RETURN_IF_ERROR(ReadDiagBand(*k, &lower, &upper));
  if (c->RankKnown(input)) {
    const int32_t rank = c->Rank(input);
    if (k_known) {
      RETURN_IF_ERROR(c->WithRank(c->input(1), lower == upper ? rank - 1 : rank, &diag));
    } else {
      RETURN_IF_ERROR(c->WithRankAtLeast(c->input(1), rank - 1, &diag));
      RETURN_IF_ERROR(c->WithRankAtMost(c->input(1), rank, &diag));
    }
    const int64_t rows = c->Value(c->Dim(input, rank - 2));
    const int64_t cols = c->Value(c->Dim(input, rank - 1));
    if (rows != InferenceContext::kUnknownDim && cols != InferenceContext::kUnknownDim) {
      RETURN_IF_ERROR(CheckBandInMatrix(rows, cols, lower, upper));
    }
  }
  ShapeHandle out = input;
  if (c->RankKnown(diag) && !c->FullyDefined(input)) {
    // The batch dimensions follow from the diagonal's; the matrix may be rectangular, so its
    // own two stay as the input has them.
    ShapeHandle prefix;
    RETURN_IF_ERROR(c->Subshape(diag, 0, lower == upper ? -1 : -2, &prefix));
    RETURN_IF_ERROR(c->Concatenate(prefix, c->UnknownShapeOfRank(2), &diag));
    RETURN_IF_ERROR(c->Merge(input, diag, &out));
  }
  c->set_output(0, out);
  return absl::OkStatus();
}

absl::Status MatrixDiagShape(InferenceContext* c) {
  ShapeHandle in;
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(0), 1, &in));
  if (!c->RankKnown(in)) {
    c->set_output(0, c->UnknownShape());
    return absl::OkStatus();
  }
  ShapeHandle out;
  RETURN_IF_ERROR(c->Concatenate(in, c->Vector(c->Dim(in, c->Rank(in) - 1)), &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

absl::Status MatrixDiagPartShape(InferenceContext* c) {
  ShapeHandle in;
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(0), 2, &in));
  if (!c->RankKnown(in)) {
    c->set_output(0, c->UnknownShape());
    return absl::OkStatus();
  }
  const int32_t rank = c->Rank(in);
  std::vector<DimensionHandle> dims;
  for (int i = 0; i < rank - 2; ++i) dims.push_back(c->Dim(in, i));
  DimensionHandle shorter;
  RETURN_IF_ERROR(c->Min(c->Dim(in, rank - 2), c->Dim(in, rank - 1), &shorter));
  dims.push_back(shorter);
  c->set_output(0, c->MakeShape(dims));
  return absl::OkStatus();
}

absl::Status MatrixSetDiagShape(InferenceContext* c) {
  ShapeHandle input, diag;
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(0), 2, &input));
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(1), 1, &diag));
  if (c->RankKnown(input)) RETURN_IF_ERROR(c->WithRank(c->input(1), c->Rank(input) - 1, &diag));
  DimensionHandle shorter;
  RETURN_IF_ERROR(c->Min(c->Dim(input, -2), c->Dim(input, -1), &shorter));
  RETURN_IF_ERROR(c->Merge(shorter, c->Dim(diag, -1), &shorter));
  ShapeHandle out = input;
  if (c->RankKnown(diag) && !c->FullyDefined(input)) {
    ShapeHandle prefix;
    RETURN_IF_ERROR(c->Subshape(diag, 0, -1, &prefix));
    RETURN_IF_ERROR(c->Concatenate(prefix, c->UnknownShapeOfRank(2), &diag));
    RETURN_IF_ERROR(c->Merge(input, diag, &out));
  }
  c->set_output(0, out);
  return absl::OkStatus();
}

absl::Status DiagShape(InferenceContext* c) {
  ShapeHandle in, out;
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(0), 1, &in));
  RETURN_IF_ERROR(c->Concatenate(in, in, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

absl::Status DiagPartShape(InferenceContext* c) {
  ShapeHandle in = c->input(0);
  if (!c->RankKnown(in)) {
    c->set_output(0, c->UnknownShape());
    return absl::OkStatus();
  }
  const int32_t rank = c->Rank(in);
  if (rank % 2 != 0 || rank <= 0) {
    return errors::InvalidArgument("Input must have even and non-zero rank, input rank is ", rank);
  }
  const int32_t half = rank / 2;
  std::vector<DimensionHandle> dims(half);
  for (int i = 0; i < half; ++i) {
    RETURN_IF_ERROR(c->Merge(c->Dim(in, i), c->Dim(in, i + half), &dims[i]));
  }
  c->set_output(0, c->MakeShape(dims));
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("MatrixDiag")
    .Input("diagonal: T")
    .Output("output: T")
    .Attr("T: type")
    .SetShapeFn(MatrixDiagShape);

REGISTER_OP("MatrixDiagV2")
    .Input("diagonal: T")
    .Input("k: int32")
    .Input("num_rows: int32")
    .Input("num_cols: int32")
    .Input("padding_value: T")
    .Output("output: T")
    .Attr("T: type")
    .SetShapeFn(MatrixDiagV2Shape);

REGISTER_OP("MatrixDiagV3")
    .Input("diagonal: T")
    .Input("k: int32")
    .Input("num_rows: int32")
    .Input("num_cols: int32")
    .Input("padding_value: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("align: {'LEFT_RIGHT', 'RIGHT_LEFT', 'LEFT_LEFT', 'RIGHT_RIGHT'} = 'RIGHT_LEFT'")
    .SetShapeFn(MatrixDiagV2Shape);

REGISTER_OP("MatrixDiagPart")
    .Input("input: T")
    .Output("diagonal: T")
    .Attr("T: type")
    .SetShapeFn(MatrixDiagPartShape);

REGISTER_OP("MatrixDiagPartV2")
    .Input("input: T")
    .Input("k: int32")
    .Input("padding_value: T")
    .Output("diagonal: T")
    .Attr("T: type")
    .SetShapeFn(MatrixDiagPartV2Shape);

REGISTER_OP("MatrixDiagPartV3")
    .Input("input: T")
    .Input("k: int32")
    .Input("padding_value: T")
    .Output("diagonal: T")
    .Attr("T: type")
    .Attr("align: {'LEFT_RIGHT', 'RIGHT_LEFT', 'LEFT_LEFT', 'RIGHT_RIGHT'} = 'RIGHT_LEFT'")
    .SetShapeFn(MatrixDiagPartV2Shape);

REGISTER_OP("MatrixSetDiag")
    .Input("input: T")
    .Input("diagonal: T")
    .Output("output: T")
    .Attr("T: type")
    .SetShapeFn(MatrixSetDiagShape);

REGISTER_OP("MatrixSetDiagV2")
    .Input("input: T")
    .Input("diagonal: T")
    .Input("k: int32")
    .Output("output: T")
    .Attr("T: type")
    .SetShapeFn(MatrixSetDiagV2Shape);

REGISTER_OP("MatrixSetDiagV3")
    .Input("input: T")
    .Input("diagonal: T")
    .Input("k: int32")
    .Output("output: T")
    .Attr("T: type")
    .Attr("align: {'LEFT_RIGHT', 'RIGHT_LEFT', 'LEFT_LEFT', 'RIGHT_RIGHT'} = 'RIGHT_LEFT'")
    .SetShapeFn(MatrixSetDiagV2Shape);

REGISTER_OP("Diag")
    .Input("diagonal: T")
    .Output("output: T")
    .Attr("T: {bfloat16, half, float, double, int32, int64, complex64, complex128}")
    .SetShapeFn(DiagShape);

REGISTER_OP("DiagPart")
    .Input("input: T")
    .Output("diagonal: T")
    .Attr("T: {bfloat16, half, float, double, int32, int64, complex64, complex128}")
    .SetShapeFn(DiagPartShape);

}  // namespace sluice
