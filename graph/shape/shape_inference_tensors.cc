// InferenceContext: shapes and dimensions read from the values of constant inputs ("shape
// tensors" such as Reshape's `shape`, scalar sizes such as Fill's dims entries or an axis).
// Values come from input_tensor(), which records the request so a graph-level caller can
// supply the value and run the shape function again.
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "graph/shape/shape_inference.h"

namespace sluice {
namespace shape_inference {
namespace {

// Shape tensors longer than this are refused rather than materialized as unknown dims.
constexpr int64_t kMaxShapeTensorLength = int64_t{1} << 25;

// Element `i` of an int32 or int64 tensor. REQUIRES: dtype checked, 0 <= i < NumElements().
int64_t IntegerAt(const Tensor& t, int64_t i) {
  if (t.dtype() == DT_INT32) return t.unaligned_flat<int32_t>()(i);
  return t.unaligned_flat<int64_t>()(i);
}

bool IsIndexType(DataType dtype) { return dtype == DT_INT32 || dtype == DT_INT64; }

absl::Status NotIndexTypeError(const Tensor& t) {
  return errors::InvalidArgument("Input tensor must be int32 or int64, but was ",
                                 DataTypeString(t.dtype()));
}

}  // namespace

absl::Status InferenceContext::MakeShapeFromShapeTensor(int input_idx, ShapeHandle* out) {
  ShapeHandle input_shape;
  RETURN_IF_ERROR(WithRank(input(input_idx), 1, &input_shape));
  request_input_tensor_as_partial_shape(input_idx);
  if (input_idx < static_cast<int>(input_tensors_as_shapes_.size()) &&
      RankKnown(input_tensors_as_shapes_[input_idx])) {
    *out = input_tensors_as_shapes_[input_idx];
    return absl::OkStatus();
  }
  const Tensor* t = input_tensor(input_idx);
  RETURN_IF_ERROR(MakeShapeFromTensor(t, input_shape, out));
  if (t != nullptr && ValidInput(input_idx)) {
    // Report the value as TensorFlow does, where graph construction hands constant shape
    // tensors to shape functions as partial shapes: "input[1] = [5,?]".
    if (static_cast<int>(input_tensors_as_shapes_.size()) <= input_idx) {
      input_tensors_as_shapes_.resize(input_idx + 1);
    }
    input_tensors_as_shapes_[input_idx] = *out;
  }
  return absl::OkStatus();
}

absl::Status InferenceContext::MakeShapeFromShapeTensorTreatScalarAsUnknownShape(int input_idx,
                                                                                 ShapeHandle* out) {
  ShapeHandle input_shape;
  RETURN_IF_ERROR(WithRankAtMost(input(input_idx), 1, &input_shape));
  request_input_tensor_as_partial_shape(input_idx);
  if (input_idx < static_cast<int>(input_tensors_as_shapes_.size()) &&
      RankKnown(input_tensors_as_shapes_[input_idx])) {
    *out = input_tensors_as_shapes_[input_idx];
    return absl::OkStatus();
  }
  const Tensor* t = input_tensor(input_idx);
  if (t == nullptr) {
    if (Rank(input_shape) == 0) return ReturnUnknownShape(out);
    return MakeShapeFromTensor(nullptr, input_shape, out);
  }
  if (t->dims() == 0) {
    if (!IsIndexType(t->dtype())) return NotIndexTypeError(*t);
    const int64_t value = IntegerAt(*t, 0);
    if (value != -1) {
      *out = ShapeHandle();
      return errors::InvalidArgument(
          "Input tensor must be rank 1, or if its rank 0 it must have value -1 (representing an "
          "unknown shape).  Saw value: ",
          value);
    }
    return ReturnUnknownShape(out);
  }
  return MakeShapeFromTensor(t, input_shape, out);
}

absl::Status InferenceContext::MakeShapeFromTensor(const Tensor* t, ShapeHandle tensor_shape,
                                                   ShapeHandle* out) {
  RETURN_IF_ERROR(WithRank(tensor_shape, 1, &tensor_shape));
  if (t == nullptr) {
    // The value is unknown, but its length may say how many dims there are.
    const DimensionHandle length = Dim(tensor_shape, 0);
    if (!ValueKnown(length)) return ReturnUnknownShape(out);
    if (Value(length) >= kMaxShapeTensorLength) {
      return errors::InvalidArgument("Cannot create a tensor with ", Value(length),
                                     " dimensions, as these would be more than maximum of ",
                                     kMaxShapeTensorLength);
    }
    std::vector<DimensionHandle> dims(Value(length));
    for (DimensionHandle& d : dims) d = UnknownDim();
    return ReturnCreatedShape(dims, out);
  }
  if (t->dims() != 1) {
    *out = ShapeHandle();
    return errors::InvalidArgument("Input tensor must be rank 1, but was rank ", t->dims(), ".",
                                   t->dims() == 0
                                       ? "If it is rank 0 rank 0 it must have statically known "
                                         "value -1 (representing an unknown shape). "
                                       : " ",
                                   "Saw tensor shape ", t->shape().DebugString());
  }
  if (!IsIndexType(t->dtype())) {
    *out = ShapeHandle();
    return NotIndexTypeError(*t);
  }
  std::vector<DimensionHandle> dims;
  dims.reserve(t->NumElements());
  for (int64_t i = 0; i < t->NumElements(); ++i) {
    const int64_t value = IntegerAt(*t, i);
    if (value < -1) {
      *out = ShapeHandle();
      return errors::InvalidArgument("Invalid value in tensor used for shape: ", value);
    }
    dims.push_back(MakeDim(value));
  }
  return ReturnCreatedShape(dims, out);
}

absl::Status InferenceContext::GetScalarFromTensor(const Tensor* t, int64_t* val) {
  if (t == nullptr) return errors::InvalidArgument("Scalar input must be known");
  if (t->dims() != 0) {
    return errors::InvalidArgument("Input must be scalar but has rank ", t->dims());
  }
  if (!IsIndexType(t->dtype())) {
    return errors::InvalidArgument("Scalar input must be int32 or int64.");
  }
  *val = IntegerAt(*t, 0);
  return absl::OkStatus();
}

absl::Status InferenceContext::GetScalarFromTensor(const Tensor* t, int64_t idx, int64_t* val) {
  if (t == nullptr) return errors::InvalidArgument("Tensor input must be known");
  if (t->dims() != 1) {
    return errors::InvalidArgument("Input must be 1D but has rank ", t->dims());
  }
  if (!IsIndexType(t->dtype())) {
    return errors::InvalidArgument("Tensor input must be int32 or int64.");
  }
  if (idx < 0 || idx >= t->NumElements()) {
    return errors::InvalidArgument("Invalid index ", idx, " for Tensor of size ", t->NumElements());
  }
  *val = IntegerAt(*t, idx);
  return absl::OkStatus();
}

absl::Status InferenceContext::MakeDimForScalarInput(int idx, DimensionHandle* out) {
  const Tensor* t = input_tensor(idx);
  if (t == nullptr) {
    *out = UnknownDim();
    return absl::OkStatus();
  }
  int64_t val;
  RETURN_IF_ERROR(GetScalarFromTensor(t, &val));
  if (val < 0) {
    return errors::InvalidArgument("Dimension size, given by scalar input ", idx,
                                   ", must be non-negative but is ", val);
  }
  *out = MakeDim(val);
  return absl::OkStatus();
}

absl::Status InferenceContext::MakeDimForScalarInputWithNegativeIndexing(int idx, int input_rank,
                                                                         DimensionHandle* out) {
  const Tensor* t = input_tensor(idx);
  if (t == nullptr) {
    *out = UnknownDim();
    return absl::OkStatus();
  }
  int64_t val;
  RETURN_IF_ERROR(GetScalarFromTensor(t, &val));
  if (val < 0 && input_rank < 0) {
    *out = UnknownDim();
    return absl::OkStatus();
  }
  const bool in_range = input_rank < 0 || (val >= -input_rank && val < input_rank);
  if (!in_range) {
    return errors::InvalidArgument("Dimension size, given by scalar input ", val,
                                   " must be in range [-", input_rank, ", ", input_rank, ")");
  }
  *out = MakeDim(val < 0 ? val + input_rank : val);
  return absl::OkStatus();
}

}  // namespace shape_inference
}  // namespace sluice
