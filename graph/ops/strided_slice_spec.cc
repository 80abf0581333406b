#include "graph/ops/strided_slice_spec.h"

#include <algorithm>
#include <array>

#include "absl/types/span.h"
#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"

namespace sluice {
namespace {

// Entries of DenseSpec::final_dims that are not input dims.
constexpr int kShrinkAxis = -1;
constexpr int kNewAxis = -2;

// Masks are 32 bits wide, so a spec has fewer than 32 entries.
constexpr int kMaxSparseDims = 31;

bool Bit(uint32_t mask, int i) { return (mask >> i) & 1u; }

// One entry per input dim, after expanding the ellipsis.
struct DenseSpec {
  explicit DenseSpec(int dims)
      : begin(dims, 0),
        end(dims, 0),
        strides(dims, 1),
        begin_mask(dims, false),
        end_mask(dims, false),
        shrink(dims, false) {}
  std::vector<int64_t> begin, end, strides;
  std::vector<bool> begin_mask, end_mask, shrink;
  // For each output dim: the input dim it comes from, or kNewAxis; kShrinkAxis entries
  // mark input dims that are dropped.
  std::vector<int> final_dims;
};

absl::Status ExpandToDense(const IntegerValues* begin, const IntegerValues* end,
                           const IntegerValues& strides, const StridedSliceMasks& masks,
                           DenseSpec* dense) {
  const int dense_dims = static_cast<int>(dense->begin.size());
  int sparse_dims = static_cast<int>(strides.size());
  uint32_t ellipsis_mask = static_cast<uint32_t>(masks.ellipsis_mask);
  const uint32_t new_axis_mask = static_cast<uint32_t>(masks.new_axis_mask);
  const uint32_t shrink_mask = static_cast<uint32_t>(masks.shrink_axis_mask);
  const uint32_t begin_mask = static_cast<uint32_t>(masks.begin_mask);
  const uint32_t end_mask = static_cast<uint32_t>(masks.end_mask);
  bool ellipsis_seen = false;
  int new_axes_after_ellipsis = 0;
  for (int i = 0; i < sparse_dims; ++i) {
    if (ellipsis_seen && Bit(new_axis_mask, i)) ++new_axes_after_ellipsis;
    if (Bit(ellipsis_mask, i)) ellipsis_seen = true;
  }
  // Without an ellipsis, the unmentioned trailing dims are taken whole.
  if (!ellipsis_seen) ellipsis_mask |= uint32_t{1} << sparse_dims++;

  int full_index = 0;
  for (int i = 0; i < sparse_dims; ++i) {
    if (Bit(ellipsis_mask, i)) {
      const int next_index =
          std::min(dense_dims - (sparse_dims - i) + 1 + new_axes_after_ellipsis, dense_dims);
      for (; full_index < next_index; ++full_index) {
        dense->begin_mask[full_index] = true;
        dense->end_mask[full_index] = true;
        dense->final_dims.push_back(full_index);
      }
    } else if (Bit(new_axis_mask, i)) {
      dense->final_dims.push_back(kNewAxis);
    } else {
      if (full_index == dense_dims) {
        return errors::InvalidArgument("Index out of range using input dim ", full_index,
                                       "; input has only ", dense_dims, " dims");
      }
      if (begin != nullptr) dense->begin[full_index] = (*begin)[i];
      if (end != nullptr) dense->end[full_index] = (*end)[i];
      dense->strides[full_index] = strides[i];
      dense->begin_mask[full_index] = Bit(begin_mask, i);
      dense->end_mask[full_index] = Bit(end_mask, i);
      if (Bit(shrink_mask, i)) {
        dense->shrink[full_index] = true;
        dense->final_dims.push_back(kShrinkAxis);
      } else {
        dense->final_dims.push_back(full_index);
      }
      ++full_index;
    }
  }
  return absl::OkStatus();
}

// The number of elements of [begin, end) taken with `stride`, or 0 for an empty range.
int64_t StridedLength(int64_t interval, int64_t stride) {
  if (interval == 0 || (interval < 0) != (stride < 0)) return 0;
  return interval / stride + (interval % stride != 0 ? 1 : 0);
}

// Makes dim i's bounds canonical and returns its strided length (-1: unknown).
absl::Status ProcessDim(int i, int64_t dim, bool bounds_known, DenseSpec* dense,
                        StridedSliceSpec* spec, int64_t* length) {
  int64_t& begin = dense->begin[i];
  int64_t& end = dense->end[i];
  const int64_t stride = dense->strides[i];
  const bool shrink = dense->shrink[i];
  if (stride == 0) return errors::InvalidArgument("strides[", i, "] must be non-zero");
  if (dim == -1) {
    *length = shrink ? 1 : -1;
    return absl::OkStatus();
  }
  if (shrink && stride <= 0) {
    return errors::InvalidArgument("only stride 1 allowed on non-range indexing.");
  }
  spec->is_simple_slice &= stride == 1;
  const bool fully_masked = dense->begin_mask[i] && dense->end_mask[i];
  if (bounds_known) {
    if (shrink) {
      // A single index: end is begin + 1, whatever `end` said (x[-1] has end 0).
      const int64_t index = begin < 0 ? dim + begin : begin;
      if (index < 0 || index >= dim) {
        return errors::InvalidArgument("slice index ", index, " of dimension ", i,
                                       " out of bounds.");
      }
      begin = index;
      end = index + 1;
    } else {
      // Valid positions run [0, dim] forwards and [-1, dim - 1] backwards.
      const std::array<int64_t, 2> valid = {stride > 0 ? 0 : -1, stride > 0 ? dim : dim - 1};
      auto canonical = [&](int64_t x, bool masked, bool is_end) {
        if (masked) return (stride > 0) == is_end ? valid[1] : valid[0];
        const int64_t forward = x < 0 ? dim + x : x;
        return std::clamp(forward, valid[0], valid[1]);
      };
      begin = canonical(begin, dense->begin_mask[i], /*is_end=*/false);
      end = canonical(end, dense->end_mask[i], /*is_end=*/true);
    }
    const bool whole_dim = stride == 1 && begin == 0 && end == dim;
    spec->is_identity &= whole_dim;
    spec->slice_dim0 &= (i == 0 && stride == 1) || whole_dim;
    *length = StridedLength(end - begin, stride);
  } else {
    spec->is_identity &= stride == 1 && fully_masked;
    spec->slice_dim0 &= (i == 0 && stride == 1) || fully_masked;
    if (shrink) {
      *length = 1;
    } else if (fully_masked) {
      *length = StridedLength(stride < 0 ? -dim : dim, stride);
    } else {
      *length = -1;
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ComputeStridedSliceSpec(const Tensor* begin, const Tensor* end, const Tensor& strides,
                                     const PartialTensorShape& input_shape,
                                     const StridedSliceMasks& masks, StridedSliceSpec* spec) {
  const int64_t n = strides.NumElements();
  auto is_spec_vector = [n](const Tensor* t) {
    return t == nullptr || (t->shape().dims() == 1 && t->NumElements() == n);
  };
  if (strides.shape().dims() != 1 || n > kMaxSparseDims || !is_spec_vector(begin) ||
      !is_spec_vector(end)) {
    return errors::InvalidArgument(
        "Expected begin, end, and strides to be 1D equal size tensors, but got shapes ",
        begin ? begin->shape().DebugString() : "unknown", ", ",
        end ? end->shape().DebugString() : "unknown", ", and ", strides.shape().DebugString(),
        " instead.");
  }
  const uint32_t ellipsis = static_cast<uint32_t>(masks.ellipsis_mask);
  if ((ellipsis & (ellipsis - 1)) != 0) {
    return errors::InvalidArgument("Multiple ellipses in slice spec not allowed");
  }
  if (input_shape.unknown_rank()) {
    return errors::InvalidArgument("StridedSlice needs an input of known rank");
  }
  IntegerValues begin_values, end_values, stride_values;
  if (begin != nullptr) RETURN_IF_ERROR(IntegerTensorValues(*begin, &begin_values));
  if (end != nullptr) RETURN_IF_ERROR(IntegerTensorValues(*end, &end_values));
  RETURN_IF_ERROR(IntegerTensorValues(strides, &stride_values));

  const int rank = input_shape.dims();
  DenseSpec dense(rank);
  RETURN_IF_ERROR(ExpandToDense(begin ? &begin_values : nullptr, end ? &end_values : nullptr,
                                stride_values, masks, &dense));
  *spec = StridedSliceSpec();
  const bool bounds_known = begin != nullptr && end != nullptr;
  std::vector<int64_t> processing(rank);
  for (int i = 0; i < rank; ++i) {
    RETURN_IF_ERROR(
        ProcessDim(i, input_shape.dim_size(i), bounds_known, &dense, spec, &processing[i]));
  }
  std::vector<int64_t> final_dims;
  for (int index : dense.final_dims) {
    if (index >= 0) {
      final_dims.push_back(processing[index]);
    } else if (index == kNewAxis) {
      final_dims.push_back(1);
    }
  }
  // New axes can take the result past TensorShape::kMaxDims: INVALID_ARGUMENT, not a CHECK.
  RETURN_IF_ERROR(PartialTensorShape::BuildPartialTensorShape(processing, &spec->processing_shape));
  RETURN_IF_ERROR(PartialTensorShape::BuildPartialTensorShape(final_dims, &spec->final_shape));
  spec->begin = std::move(dense.begin);
  spec->end = std::move(dense.end);
  spec->strides = std::move(dense.strides);
  return absl::OkStatus();
}

}  // namespace sluice
