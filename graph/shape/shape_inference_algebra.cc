// InferenceContext's shape algebra: rank checks, merging and relaxing, slicing and
// concatenating shapes, and overflow-checked dimension arithmetic. Semantics and error
// wording are TensorFlow's.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "graph/core/errors.h"
#include "graph/core/tensor_shape.h"
#include "graph/shape/shape_inference.h"

namespace sluice {
namespace shape_inference {
namespace {

constexpr int64_t kMaxRank = std::numeric_limits<int32_t>::max();

}  // namespace

// ---- Rank and value checks -------------------------------------------------------------

absl::Status InferenceContext::WithRank(ShapeHandle shape, int64_t rank, ShapeHandle* out) {
  if (rank > kMaxRank) return errors::InvalidArgument("Rank cannot exceed kint32max");
  const int32_t existing = Rank(shape);
  if (existing == rank) {
    *out = shape;
    return absl::OkStatus();
  }
  if (existing == kUnknownRank && rank >= 0) {
    // No tensor can have more dims; refusing keeps a hostile rank from exhausting memory.
    if (rank > TensorShape::kMaxDims) {
      *out = ShapeHandle();
      return errors::InvalidArgument("Rank ", rank, " exceeds the maximum of ",
                                     TensorShape::kMaxDims);
    }
    *out = UnknownShapeOfRank(rank);
    return absl::OkStatus();
  }
  *out = ShapeHandle();
  return errors::InvalidArgument("Shape must be rank ", rank, " but is rank ", existing);
}

absl::Status InferenceContext::WithRankAtLeast(ShapeHandle shape, int64_t rank, ShapeHandle* out) {
  if (rank > kMaxRank) return errors::InvalidArgument("Rank cannot exceed kint32max");
  const int32_t existing = Rank(shape);
  if (existing >= rank || existing == kUnknownRank) {
    *out = shape;
    return absl::OkStatus();
  }
  *out = ShapeHandle();
  return errors::InvalidArgument("Shape must be at least rank ", rank, " but is rank ", existing);
}

absl::Status InferenceContext::WithRankAtMost(ShapeHandle shape, int64_t rank, ShapeHandle* out) {
  if (rank > kMaxRank) return errors::InvalidArgument("Rank cannot exceed kint32max");
  const int32_t existing = Rank(shape);
  if (existing <= rank || existing == kUnknownRank) {
    *out = shape;
    return absl::OkStatus();
  }
  *out = ShapeHandle();
  return errors::InvalidArgument("Shape must be at most rank ", rank, " but is rank ", existing);
}

absl::Status InferenceContext::WithValue(DimensionHandle dim, int64_t value, DimensionHandle* out) {
  const int64_t existing = Value(dim);
  if (existing == value) {
    *out = dim;
    return absl::OkStatus();
  }
  if (existing == kUnknownDim) {
    *out = MakeDim(value);
    return absl::OkStatus();
  }
  *out = DimensionHandle();
  return errors::InvalidArgument("Dimension must be ", value, " but is ", existing);
}

// ---- Merge and relax -------------------------------------------------------------------

absl::Status InferenceContext::Merge(DimensionHandle d0, DimensionHandle d1, DimensionHandle* out) {
  if (d0.SameHandle(d1) || !ValueKnown(d1)) {
    *out = d0;
  } else if (!ValueKnown(d0)) {
    *out = d1;
  } else if (Value(d0) == Value(d1)) {
    *out = d0;
  } else {
    *out = DimensionHandle();
    return errors::InvalidArgument("Dimensions must be equal, but are ", Value(d0), " and ",
                                   Value(d1));
  }
  return absl::OkStatus();
}

absl::Status InferenceContext::Merge(ShapeHandle s0, ShapeHandle s1, ShapeHandle* out) {
  if (s0.SameHandle(s1) || !RankKnown(s1)) {
    *out = s0;
    return absl::OkStatus();
  }
  if (!RankKnown(s0)) {
    *out = s1;
    return absl::OkStatus();
  }
  const int32_t rank = Rank(s0);
  if (rank != Rank(s1)) {
    *out = ShapeHandle();
    return errors::InvalidArgument("Shapes must be equal rank, but are ", rank, " and ", Rank(s1));
  }
  // Reuse s0 (or s1) when it already carries everything the other knows.
  bool return_s0 = true;
  bool return_s1 = true;
  for (int i = 0; i < rank; ++i) {
    const DimensionHandle d0 = DimKnownRank(s0, i);
    const DimensionHandle d1 = DimKnownRank(s1, i);
    if (d0.SameHandle(d1)) continue;
    const int64_t v0 = Value(d0);
    const int64_t v1 = Value(d1);
    if (v0 == kUnknownDim) {
      if (v1 != kUnknownDim) return_s0 = false;
    } else if (v1 == kUnknownDim) {
      return_s1 = false;
    } else if (v0 != v1) {
      *out = ShapeHandle();
      return errors::InvalidArgument("Dimension ", i, " in both shapes must be equal, but are ", v0,
                                     " and ", v1, ". Shapes are ", DebugString(s0), " and ",
                                     DebugString(s1), ".");
    }
  }
  if (return_s0 || return_s1) {
    *out = return_s0 ? s0 : s1;
    return absl::OkStatus();
  }
  std::vector<DimensionHandle> dims(rank);
  for (int i = 0; i < rank; ++i) {
    RETURN_IF_ERROR(Merge(DimKnownRank(s0, i), DimKnownRank(s1, i), &dims[i]));
  }
  return ReturnCreatedShape(dims, out);
}

absl::Status InferenceContext::MergePrefix(ShapeHandle s, ShapeHandle prefix, ShapeHandle* s_out,
                                           ShapeHandle* prefix_out) {
  if (!RankKnown(prefix) || !RankKnown(s)) {
    *s_out = s;
    *prefix_out = prefix;
    return absl::OkStatus();
  }
  *s_out = *prefix_out = ShapeHandle();
  const int32_t rank = Rank(prefix);
  RETURN_IF_ERROR(WithRankAtLeast(s, rank, &s));
  std::vector<DimensionHandle> dims(rank);
  for (int i = 0; i < rank; ++i) {
    RETURN_IF_ERROR(Merge(DimKnownRank(s, i), DimKnownRank(prefix, i), &dims[i]));
  }
  *prefix_out = MakeShape(dims);
  for (int i = rank; i < Rank(s); ++i) dims.push_back(DimKnownRank(s, i));
  *s_out = MakeShape(dims);
  return absl::OkStatus();
}

void InferenceContext::Relax(DimensionHandle d0, DimensionHandle d1, DimensionHandle* out) {
  if (d0.SameHandle(d1)) {
    *out = d0;
  } else if (!ValueKnown(d1)) {
    *out = d1;
  } else if (ValueKnown(d0) && Value(d0) == Value(d1)) {
    *out = d0;
  } else {
    *out = UnknownDim();
  }
}

void InferenceContext::Relax(ShapeHandle s0, ShapeHandle s1, ShapeHandle* out) {
  if (s0.SameHandle(s1)) {
    *out = s0;
    return;
  }
  if (!RankKnown(s1) || !s0.IsSet()) {
    *out = s1;
    return;
  }
  const int32_t rank = Rank(s0);
  if (rank != Rank(s1)) {
    *out = UnknownShape();
    return;
  }
  bool return_s0 = true;
  for (int i = 0; i < rank && return_s0; ++i) {
    const DimensionHandle d0 = DimKnownRank(s0, i);
    const DimensionHandle d1 = DimKnownRank(s1, i);
    if (d0.SameHandle(d1)) continue;
    if (!ValueKnown(d0) || !ValueKnown(d1) || Value(d0) != Value(d1)) return_s0 = false;
  }
  if (return_s0) {
    *out = s0;
    return;
  }
  std::vector<DimensionHandle> dims(rank);
  for (int i = 0; i < rank; ++i) Relax(DimKnownRank(s0, i), DimKnownRank(s1, i), &dims[i]);
  *out = MakeShape(dims);
}

// ---- Slicing and joining shapes --------------------------------------------------------

absl::Status InferenceContext::Subshape(ShapeHandle s, int64_t start, ShapeHandle* out) {
  return Subshape(s, start, std::numeric_limits<int64_t>::max(), 1, out);
}

absl::Status InferenceContext::Subshape(ShapeHandle s, int64_t start, int64_t end,
                                        ShapeHandle* out) {
  return Subshape(s, start, end, 1, out);
}

absl::Status InferenceContext::Subshape(ShapeHandle s, int64_t start_in, int64_t end_in,
                                        int64_t stride, ShapeHandle* out) {
  const int32_t rank = Rank(s);
  const bool whole =
      start_in == 0 && stride == 1 &&
      ((RankKnown(s) && end_in >= rank) || end_in == std::numeric_limits<int64_t>::max());
  if (whole) {
    *out = s;
    return absl::OkStatus();
  }
  if (!RankKnown(s)) return ReturnUnknownShape(out);
  if (stride == 0) {
    *out = ShapeHandle();
    return errors::InvalidArgument("Subshape stride must be non-zero");
  }
  int64_t start = std::min<int64_t>(start_in, rank);
  int64_t end = std::min<int64_t>(end_in, rank);
  if (stride < 0 && start == rank) --start;
  if (start < 0) {
    start += rank;
    if (start < 0) {
      *out = ShapeHandle();
      return errors::InvalidArgument("Subshape start out of bounds: ", start_in,
                                     ", for shape with rank ", rank);
    }
  }
  if (end < 0) {
    end += rank;
    if (end < 0) {
      *out = ShapeHandle();
      return errors::InvalidArgument("Subshape end out of bounds: ", end_in,
                                     ", for shape with rank ", rank);
    }
  }
  if (stride > 0 && start > end) {
    *out = ShapeHandle();
    return errors::InvalidArgument("Subshape must have computed start <= end, but is ", start,
                                   " and ", end, " (computed from start ", start_in, " and end ",
                                   end_in, " over shape with rank ", rank, ")");
  }
  if (stride < 0 && start < end) {
    *out = ShapeHandle();
    return errors::InvalidArgument(
        "Subshape must have computed start >= end since stride is negative, but is ", start,
        " and ", end, " (computed from start ", start_in, " and end ", end_in,
        " over shape with rank ", rank, " and stride", stride, ")");
  }
  std::vector<DimensionHandle> dims;
  for (int64_t i = start; stride > 0 ? i < end : i > end; i += stride) {
    dims.push_back(DimKnownRank(s, i));
  }
  return ReturnCreatedShape(dims, out);
}

absl::Status InferenceContext::Concatenate(ShapeHandle s1, ShapeHandle s2, ShapeHandle* out) {
  if (!RankKnown(s1) || !RankKnown(s2)) return ReturnUnknownShape(out);
  std::vector<DimensionHandle> dims = s1.ptr_->dims_;
  dims.insert(dims.end(), s2.ptr_->dims_.begin(), s2.ptr_->dims_.end());
  return ReturnCreatedShape(dims, out);
}

absl::Status InferenceContext::ReplaceDim(ShapeHandle s, int64_t dim_index_in,
                                          DimensionHandle new_dim, ShapeHandle* out) {
  if (!RankKnown(s)) return ReturnUnknownShape(out);
  const int64_t rank = Rank(s);
  const int64_t dim_index = dim_index_in < 0 ? dim_index_in + rank : dim_index_in;
  if (dim_index < 0 || dim_index >= rank) {
    *out = ShapeHandle();
    return errors::InvalidArgument("Out of range dim_index ", dim_index_in, " for shape with ",
                                   rank, " dimensions");
  }
  std::vector<DimensionHandle> dims = s.ptr_->dims_;
  dims[dim_index] = new_dim;
  return ReturnCreatedShape(dims, out);
}

// ---- Dimension arithmetic --------------------------------------------------------------

absl::Status InferenceContext::Add(DimensionHandle first, DimensionOrConstant second,
                                   DimensionHandle* out) {
  const int64_t a = Value(first);
  const int64_t b = Value(second);
  if (a == 0) {
    *out = MakeDim(second);
  } else if (b == 0) {
    *out = first;
  } else if (a == kUnknownDim || b == kUnknownDim) {
    *out = UnknownDim();
  } else {
    int64_t sum;
    if (__builtin_add_overflow(a, b, &sum) || sum < 0) {
      return errors::InvalidArgument("Dimension size overflow from adding ", a, " and ", b);
    }
    *out = MakeDim(sum);
  }
  return absl::OkStatus();
}

absl::Status InferenceContext::Subtract(DimensionHandle first, DimensionOrConstant second,
                                        DimensionHandle* out) {
  const int64_t a = Value(first);
  const int64_t b = Value(second);
  if (b == 0) {
    *out = first;
  } else if (a == kUnknownDim || b == kUnknownDim) {
    *out = UnknownDim();
  } else {
    int64_t difference;
    if (__builtin_sub_overflow(a, b, &difference) || difference < 0) {
      return errors::InvalidArgument("Negative dimension size caused by subtracting ", b, " from ",
                                     a);
    }
    *out = MakeDim(difference);
  }
  return absl::OkStatus();
}

absl::Status InferenceContext::Multiply(DimensionHandle first, DimensionOrConstant second,
                                        DimensionHandle* out) {
  const int64_t a = Value(first);
  const int64_t b = Value(second);
  if (a == 0) {
    *out = first;
  } else if (b == 0) {
    *out = MakeDim(second);
  } else if (a == 1) {
    *out = MakeDim(second);
  } else if (b == 1) {
    *out = first;
  } else if (a == kUnknownDim || b == kUnknownDim) {
    *out = UnknownDim();
  } else {
    int64_t product;
    if (__builtin_mul_overflow(a, b, &product) || product < 0) {
      return errors::InvalidArgument("Negative dimension size caused by overflow when multiplying ",
                                     a, " and ", b);
    }
    *out = MakeDim(product);
  }
  return absl::OkStatus();
}

absl::Status InferenceContext::Divide(DimensionHandle dividend, DimensionOrConstant divisor,
                                      bool evenly_divisible, DimensionHandle* out) {
  const int64_t divisor_value = Value(divisor);
  if (divisor_value == 1) {
    *out = dividend;
  } else if (!ValueKnown(dividend) || (divisor.dim.IsSet() && !ValueKnown(divisor.dim))) {
    *out = UnknownDim();
  } else {
    const int64_t v = Value(dividend);
    if (divisor_value <= 0) {
      return errors::InvalidArgument("Divisor must be positive but is ", divisor_value);
    }
    if (evenly_divisible && (v % divisor_value) != 0) {
      return errors::InvalidArgument("Dimension size must be evenly divisible by ", divisor_value,
                                     " but is ", v);
    }
    *out = MakeDim(v / divisor_value);
  }
  return absl::OkStatus();
}

absl::Status InferenceContext::Min(DimensionHandle first, DimensionOrConstant second,
                                   DimensionHandle* out) {
  const int64_t a = Value(first);
  const int64_t b = Value(second);
  if (a == 0) {
    *out = first;
  } else if (b == 0) {
    *out = MakeDim(second);
  } else if (a == kUnknownDim || b == kUnknownDim) {
    *out = UnknownDim();
  } else {
    *out = a <= b ? first : MakeDim(second);
  }
  return absl::OkStatus();
}

absl::Status InferenceContext::Max(DimensionHandle first, DimensionOrConstant second,
                                   DimensionHandle* out) {
  const int64_t a = Value(first);
  const int64_t b = Value(second);
  if (a == kUnknownDim || b == kUnknownDim) {
    *out = UnknownDim();
  } else {
    *out = a >= b ? first : MakeDim(second);
  }
  return absl::OkStatus();
}

}  // namespace shape_inference
}  // namespace sluice
