#include "kernels/cpu/indexing/scatter_nd_plan.h"

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/types.h"
#include "kernels/cpu/indexing/gather_nd_plan.h"
#include "kernels/cpu/indexing/index_coordinates.h"

namespace sluice {
namespace {

// TensorFlow refuses updates into an empty output, and an empty update list with a nonempty
// one (or the reverse).
bool ValidEmptyOutput(int64_t outputs, int64_t indices, int64_t updates) {
  if (indices == 0 && updates == 0) return true;
  return outputs != 0 && indices != 0 && updates != 0;
}

// updates.shape must be indices.shape[:-1] + output[depth:].
absl::Status CheckUpdatesShape(const TensorShape& output, const Tensor& indices,
                               const Tensor& updates) {
  const int64_t outer = indices.dims() - 1;
  const int64_t depth = indices.dim_size(outer);
  if (updates.dims() < outer) {
    return errors::InvalidArgument("updates must have at least rank ", outer,
                                   " to match indices; got updates.shape ",
                                   updates.shape().DebugString());
  }
  for (int64_t i = 0; i < outer; ++i) {
    if (indices.dim_size(i) != updates.dim_size(i)) {
      return errors::InvalidArgument("Dimensions [0,", outer,
                                     ") of indices[shape=", indices.shape().DebugString(),
                                     "] must match dimensions [0,", outer,
                                     ") of updates[shape=", updates.shape().DebugString(), "]");
    }
  }
  const bool inner_rank_ok =
      depth <= output.dims() && updates.dims() - outer == output.dims() - depth;
  bool inner_ok = inner_rank_ok;
  for (int64_t i = 0; inner_ok && i + outer < updates.dims(); ++i) {
    inner_ok = updates.dim_size(i + outer) == output.dim_size(depth + i);
  }
  if (!inner_ok) {
    return errors::InvalidArgument("Dimensions [", depth, ",", output.dims(),
                                   ") of input[shape=", output.DebugString(),
                                   "] must match dimensions [", outer, ",", updates.dims(),
                                   ") of updates[shape=", updates.shape().DebugString(), "]");
  }
  return absl::OkStatus();
}

template <typename Index>
int64_t FillOffsets(const Index* idx, const ScatterNdPlan& plan, int64_t* offsets) {
  int64_t last_bad = -1;
  for (int64_t r = 0; r < plan.rows; ++r) {
    offsets[r] = IndexRowOffset(idx + r * plan.depth, plan);
    if (offsets[r] < 0) last_bad = r;
  }
  return last_bad;
}

}  // namespace

absl::Status PlanScatterNd(const TensorShape& output, int64_t output_count, const Tensor& indices,
                           const Tensor& updates, ScatterNdPlan* plan) {
  *plan = ScatterNdPlan();
  if (indices.dims() < 1) {
    return errors::InvalidArgument("Indices shape must have rank at least one. Found:",
                                   indices.shape().DebugString());
  }
  if (updates.dims() < 1) {
    return errors::InvalidArgument("Updates shape must have rank at least one. Found:",
                                   updates.shape().DebugString());
  }
  if (!ValidEmptyOutput(output_count, indices.NumElements(), updates.NumElements())) {
    return errors::InvalidArgument("Indices and updates specified for empty output shape");
  }
  RETURN_IF_ERROR(CheckUpdatesShape(output, indices, updates));
  if (output.dims() < 1) {
    return errors::InvalidArgument("Output must be at least 1-D, got shape: ",
                                   output.DebugString());
  }
  // TensorFlow reads a rank-1 indices as a batch of depth-1 indices in a second check, so
  // only the all-empty case passes both.
  if (indices.dims() == 1 && (indices.dim_size(0) != 0 || output.dim_size(0) != 0)) {
    return errors::InvalidArgument(
        "Must have updates.shape = indices.shape[:batch_dim] + params_shape[slice_dim:], got "
        "updates.shape: ",
        updates.shape().DebugString(), ", indices.shape: ", indices.shape().DebugString(),
        ", params_shape: ", output.DebugString());
  }
  const int64_t index_max = MaxIndexValue(indices.dtype());
  if (indices.NumElements() > index_max) {
    return errors::InvalidArgument("indices has too many elements for ",
                                   DataTypeString(indices.dtype()),
                                   " indexing: ", indices.NumElements(), " > ", index_max);
  }
  if (output.dim_size(0) > index_max) {
    return errors::InvalidArgument("params_shape[0] too large for ",
                                   DataTypeString(indices.dtype()),
                                   " indexing: ", output.dim_size(0), " > ", index_max);
  }
  const int64_t depth = indices.dims() == 1 ? 1 : indices.dim_size(indices.dims() - 1);
  for (int64_t d = depth; d < output.dims(); ++d) plan->slice *= output.dim_size(d);
  if (plan->slice > index_max) {
    return errors::InvalidArgument("slice size is too large for indexing: ", plan->slice, " > ",
                                   index_max);
  }
  if (indices.dims() == 1) return absl::OkStatus();  // empty: nothing to scatter
  // No updates means no rows to write (the emptiness check made indices empty too), however
  // many depth-0 index rows there are.
  if (updates.NumElements() == 0) return absl::OkStatus();
  plan->rows = indices.NumElements() / depth;
  if (depth > ScatterNdPlan::kMaxDepth) {
    return errors::InvalidArgument("Only indices.shape[-1] values between 1 and ",
                                   ScatterNdPlan::kMaxDepth,
                                   " are currently supported.  Requested rank: ", depth);
  }
  plan->depth = static_cast<int>(depth);
  for (int64_t k = depth - 1, stride = plan->slice; k >= 0; --k) {
    plan->dims[k] = output.dim_size(k);
    plan->strides[k] = stride;
    stride *= output.dim_size(k);
  }
  return absl::OkStatus();
}

int64_t ScatterNdOffsets(const Tensor& indices, const ScatterNdPlan& plan, int64_t* offsets) {
  if (indices.dtype() == DT_INT32) return FillOffsets(indices.base<int32_t>(), plan, offsets);
  return FillOffsets(indices.base<int64_t>(), plan, offsets);
}

std::string ScatterNdBadIndexMessage(const Tensor& indices, const ScatterNdPlan& plan, int64_t row,
                                     const TensorShape& output) {
  TensorShape rows_shape = indices.shape();
  rows_shape.RemoveLastDims(1);  // shape-safe: PlanScatterNd saw rank >= 2
  // Inline: plan.depth <= ScatterNdPlan::kMaxDepth entries.
  absl::InlinedVector<int64_t, ScatterNdPlan::kMaxDepth> bad;
  for (int k = 0; k < plan.depth; ++k) bad.push_back(IndexElement(indices, row * plan.depth + k));
  return absl::StrCat("indices", SliceDebugString(rows_shape, row), " = [",
                      absl::StrJoin(bad, ", "), "] does not index into shape ",
                      output.DebugString());
}

}  // namespace sluice
