#include "graph/ops/shape_and_slice_spec.h"

#include <limits>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "graph/core/errors.h"

namespace sluice {

namespace {

std::string SliceDebugString(const ShapeAndSlice& s) {
  std::vector<std::string> parts;
  for (size_t d = 0; d < s.starts.size(); ++d) {
    parts.push_back(s.lengths[d] == -1 ? "-" : absl::StrCat(s.starts[d], ",", s.lengths[d]));
  }
  return absl::StrJoin(parts, ":");
}

}  // namespace

bool ShapeAndSlice::IsFull() const {
  for (size_t d = 0; d < lengths.size(); ++d) {
    if (lengths[d] == -1) continue;
    if (starts[d] != 0 || lengths[d] != full_shape.dim_size(static_cast<int>(d))) return false;
  }
  return true;
}

absl::Status ParseShapeAndSlice(absl::string_view spec, ShapeAndSlice* out) {
  std::vector<absl::string_view> splits = absl::StrSplit(spec, ' ');
  if (splits.size() < 2) {
    return errors::InvalidArgument("Need least two elements in shape_and_slice specification: ",
                                   spec);
  }
  out->starts.clear();
  out->lengths.clear();
  const absl::string_view slice = splits.back();
  for (absl::string_view item : absl::StrSplit(slice, ':', absl::SkipEmpty())) {
    int64_t start = 0, length = -1;
    if (item != "-") {
      std::vector<absl::string_view> sl = absl::StrSplit(item, ',', absl::SkipEmpty());
      if (sl.size() != 2 || !absl::SimpleAtoi(sl[0], &start) || !absl::SimpleAtoi(sl[1], &length)) {
        return errors::InvalidArgument("Expected a pair of numbers or '-' but got '", item,
                                       "': string = ", slice);
      }
      if (start < 0 || length <= 0) {
        return errors::InvalidArgument(
            "Expected non-negative start and positive length but got start = ", start,
            ", length = ", length, ": string = ", slice);
      }
      if (start > std::numeric_limits<int64_t>::max() - length) {
        return errors::InvalidArgument("Extent end exceeds the maximum possible size: string = ",
                                       slice);
      }
    }
    out->starts.push_back(start);
    out->lengths.push_back(length);
  }
  splits.pop_back();
  out->full_shape = TensorShape();
  for (absl::string_view s : splits) {
    int64_t dim = 0;
    if (!absl::SimpleAtoi(s, &dim)) {
      return errors::InvalidArgument("Non numerical dimension in shape_and_slice: ", spec);
    }
    RETURN_IF_ERROR(out->full_shape.AddDimWithStatus(dim));
  }
  if (out->full_shape.dims() != static_cast<int>(out->starts.size())) {
    return errors::Internal("Mismatching ranks: shape = ", out->full_shape.DebugString(),
                            ", slice = ", SliceDebugString(*out));
  }
  out->slice_shape = TensorShape();
  for (int d = 0; d < out->full_shape.dims(); ++d) {
    if (out->lengths[d] == -1) {
      RETURN_IF_ERROR(out->slice_shape.AddDimWithStatus(out->full_shape.dim_size(d)));
    } else if (out->starts[d] + out->lengths[d] <= out->full_shape.dim_size(d)) {
      RETURN_IF_ERROR(out->slice_shape.AddDimWithStatus(out->lengths[d]));
    } else {
      return errors::Internal("Extent in dimension ", d,
                              " out of bounds: shape = ", out->full_shape.DebugString(),
                              ", slice = ", SliceDebugString(*out));
    }
  }
  return absl::OkStatus();
}

}  // namespace sluice
