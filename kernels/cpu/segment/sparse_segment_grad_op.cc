// The gradients of SparseSegmentSum/Mean/SqrtN on the CPU (what tf.gradients emits for them:
// embedding_lookup_sparse and feature columns' embeddings). Row indices[i] of the output gets
// row segment_ids[i] of grad, times 1 (Sum), 1 / n (Mean) or 1 / sqrt(n) (SqrtN) where n is
// how many entries name that segment (at least 1). The first version's output is dense, with
// output_dim0 rows and zeros where no index points; V2's has one row per distinct index, in
// increasing order, and returns those indices as sorted_unique_indices.
//
// The arithmetic is TensorFlow's CPU kernel's, order included: the scale is computed in double
// and rounded to the accumulating type (float for half and bfloat16, T otherwise); entries are
// taken in order, the first for a row stored (times the scale) and each later one added (after
// the same product), each operation rounded to the accumulating type, and half and bfloat16
// rows rounded to T once at the end. TensorFlow leaves the first version's output unwritten
// when there are no entries; Sluice writes zeros.
// The checks and messages are TensorFlow's, in its order: ranks and sizes, the output shape,
// then (unless the output or the entries are empty) the last segment id against grad's rows
// ("Invalid number of segments"), for Mean and SqrtN every segment id, then entry by entry
// the index and the segment id.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/scratch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

enum class Scale { kSum, kMean, kSqrtN };

// The entries' inputs, checked and widened to int64.
struct GradEntries {
  int64_t n = 0;            // entries (indices and segment ids)
  int64_t output_rows = 0;  // output_dim0 / dense_output_dim0
  ScratchArray<int64_t> indices;
  ScratchArray<int64_t> segments;
};

absl::Status ReadEntries(OpKernelContext* ctx, const char* dim0_name, GradEntries* e) {
  const Tensor& indices = ctx->input(1);
  const Tensor& segment_ids = ctx->input(2);
  const Tensor& dim0 = ctx->input(3);
  if (indices.dims() != 1) return errors::InvalidArgument("indices should be a vector.");
  if (segment_ids.dims() != 1) return errors::InvalidArgument("segment_ids should be a vector.");
  if (dim0.dims() != 0) return errors::InvalidArgument(dim0_name, " should be a scalar.");
  e->n = indices.NumElements();
  if (e->n != segment_ids.NumElements()) {
    return errors::InvalidArgument("segment_ids and indices should have same size.");
  }
  e->output_rows = dim0.base<int32_t>()[0];
  RETURN_IF_ERROR(e->indices.Allocate(ctx, e->n));
  RETURN_IF_ERROR(e->segments.Allocate(ctx, e->n));
  RETURN_IF_ERROR(WidenIntegerTensor(indices, e->indices.data()));
  return WidenIntegerTensor(segment_ids, e->segments.data());
}

// Each segment's scale (empty for Sum), after TensorFlow's checks of the segment ids that
// come before any entry is read.
template <Scale kScale>
absl::Status SegmentScales(const GradEntries& e, int64_t segments, DataType ids_dtype,
                           std::vector<double>* scales) {
  // The last id + 1 in the ids' own type, which wraps at its largest value.
  int64_t last_plus_one = e.segments[e.n - 1] + 1;
  if (ids_dtype == DT_INT32) {
    last_plus_one = static_cast<int32_t>(static_cast<uint32_t>(e.segments[e.n - 1]) + 1u);
  } else if (e.segments[e.n - 1] == INT64_MAX) {
    last_plus_one = INT64_MIN;
  }
  if (last_plus_one > segments) return errors::InvalidArgument("Invalid number of segments");
  if (kScale == Scale::kSum) return absl::OkStatus();
  // heap-ok: one scale per row of grad, as TensorFlow's kernel
  scales->assign(segments, 0.0);
  for (int64_t i = 0; i < e.n; ++i) {
    const int64_t id = e.segments[i];
    if (id < 0 || id >= segments) {
      return errors::InvalidArgument("Segment id ", id, " out of range [0, ", segments, ").");
    }
    (*scales)[id] += 1;
  }
  for (double& s : *scales) {
    s = kScale == Scale::kMean ? 1.0 / std::max(s, 1.0) : 1.0 / std::sqrt(std::max(s, 1.0));
  }
  return absl::OkStatus();
}

// The type TensorFlow accumulates T in.
template <typename T>
using Acc = std::conditional_t<std::is_same_v<T, half> || std::is_same_v<T, bfloat16>, float, T>;

// Adds an entry's scaled grad row into `row` (first: whether `row` is still unwritten).
template <typename T, typename A>
void AccumulateRow(const T* grad_row, A scale, bool first, int64_t cols, A* row) {
  const bool unit = scale == A(1);
  for (int64_t k = 0; k < cols; ++k) {
    const A x = static_cast<A>(grad_row[k]);
    const A v = unit ? x : x * scale;
    row[k] = first ? v : row[k] + v;
  }
}

template <typename T, Scale kScale, bool kV2>
class SparseSegmentGradOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& grad = ctx->input(0);
    GradEntries e;
    OP_REQUIRES_OK(ctx, ReadEntries(ctx, kV2 ? "dense_output_dim0" : "output_dim0", &e));
    const int64_t dense_rows = e.output_rows;
    // V2's rows: the distinct indices, sorted (checked against dense_rows entry by entry).
    // heap-ok: one per entry, V2's output index
    std::vector<int64_t> unique;
    if (kV2 && dense_rows != 0) {
      unique.assign(e.indices.data(), e.indices.data() + e.n);
      std::sort(unique.begin(), unique.end());
      unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
    }
    TensorShape out_shape = grad.shape();
    OP_REQUIRES_OK(
        ctx, out_shape.SetDimWithStatus(0, kV2 ? static_cast<int64_t>(unique.size()) : dense_rows));
    OP_REQUIRES(ctx, dense_rows >= 0,
                errors::InvalidArgument("Expected a non-negative size, got ", dense_rows));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &out));
    if (kV2) {
      Tensor* sorted = nullptr;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(
                              1, TensorShape({static_cast<int64_t>(unique.size())}), &sorted));
      for (size_t j = 0; j < unique.size(); ++j) {
        if (sorted->dtype() == DT_INT32) {
          sorted->base<int32_t>()[j] = static_cast<int32_t>(unique[j]);
        } else {
          sorted->base<int64_t>()[j] = unique[j];
        }
      }
    }
    T* y = out->base<T>();
    std::fill_n(y, out->NumElements(), T(0));
    if (dense_rows == 0 || e.n == 0) return;
    using A = Acc<T>;
    ScratchArray<A> wide;
    A* acc = nullptr;
    if constexpr (std::is_same_v<A, T>) {
      acc = y;
    } else {
      OP_REQUIRES_OK(ctx, wide.Allocate(ctx, out->NumElements()));
      acc = wide.data();
      std::fill_n(acc, out->NumElements(), A(0));
    }

    const int64_t segments = grad.dim_size(0);
    const int64_t cols = segments == 0 ? 0 : grad.NumElements() / segments;
    std::vector<double> scales;
    OP_REQUIRES_OK(ctx, SegmentScales<kScale>(e, segments, ctx->input(2).dtype(), &scales));
    // heap-ok: one flag per output row
    std::vector<bool> written(out_shape.dim_size(0), false);
    const T* g = grad.base<T>();
    for (int64_t i = 0; i < e.n; ++i) {
      const int64_t index = e.indices[i];
      OP_REQUIRES(ctx, index >= 0 && index < dense_rows,
                  errors::InvalidArgument("Index ", index, " out of range [0, ", dense_rows, ")."));
      const int64_t id = e.segments[i];
      OP_REQUIRES(ctx, id >= 0 && id < segments,
                  errors::InvalidArgument("Segment id ", id, " out of range [0, ", segments, ")."));
      const int64_t row =
          kV2 ? std::lower_bound(unique.begin(), unique.end(), index) - unique.begin() : index;
      const A scale = kScale == Scale::kSum ? A(1) : static_cast<A>(scales[id]);
      AccumulateRow(g + id * cols, scale, !written[row], cols, acc + row * cols);
      written[row] = true;
    }
    if constexpr (!std::is_same_v<A, T>) {
      for (int64_t k = 0; k < out->NumElements(); ++k) y[k] = static_cast<T>(acc[k]);
    }
  }
};

#define REGISTER_INDICES(NAME, T, IDX, SEG, ...)                   \
  REGISTER_KERNEL_BUILDER(Name(NAME)                               \
                              .Device(DEVICE_CPU)                  \
                              .HostMemory("output_dim0")           \
                              .TypeConstraint<T>("T")              \
                              .TypeConstraint<IDX>("Tidx")         \
                              .TypeConstraint<SEG>("Tsegmentids"), \
                          __VA_ARGS__);
#define REGISTER_INDICES_V2(NAME, T, IDX, SEG, ...)                \
  REGISTER_KERNEL_BUILDER(Name(NAME)                               \
                              .Device(DEVICE_CPU)                  \
                              .HostMemory("dense_output_dim0")     \
                              .TypeConstraint<T>("T")              \
                              .TypeConstraint<IDX>("Tidx")         \
                              .TypeConstraint<SEG>("Tsegmentids"), \
                          __VA_ARGS__);
#define REGISTER_ALL_INDICES(REG, NAME, T, ...) \
  REG(NAME, T, int32_t, int32_t, __VA_ARGS__)   \
  REG(NAME, T, int32_t, int64_t, __VA_ARGS__)   \
  REG(NAME, T, int64_t, int32_t, __VA_ARGS__)   \
  REG(NAME, T, int64_t, int64_t, __VA_ARGS__)
#define REGISTER_GRADS(T)                                                  \
  REGISTER_ALL_INDICES(REGISTER_INDICES, "SparseSegmentSumGrad", T,        \
                       SparseSegmentGradOp<T, Scale::kSum, false>)         \
  REGISTER_ALL_INDICES(REGISTER_INDICES, "SparseSegmentMeanGrad", T,       \
                       SparseSegmentGradOp<T, Scale::kMean, false>)        \
  REGISTER_ALL_INDICES(REGISTER_INDICES, "SparseSegmentSqrtNGrad", T,      \
                       SparseSegmentGradOp<T, Scale::kSqrtN, false>)       \
  REGISTER_ALL_INDICES(REGISTER_INDICES_V2, "SparseSegmentSumGradV2", T,   \
                       SparseSegmentGradOp<T, Scale::kSum, true>)          \
  REGISTER_ALL_INDICES(REGISTER_INDICES_V2, "SparseSegmentMeanGradV2", T,  \
                       SparseSegmentGradOp<T, Scale::kMean, true>)         \
  REGISTER_ALL_INDICES(REGISTER_INDICES_V2, "SparseSegmentSqrtNGradV2", T, \
                       SparseSegmentGradOp<T, Scale::kSqrtN, true>)
SLUICE_CALL_FLOAT_TYPES(REGISTER_GRADS)

#undef REGISTER_GRADS
#undef REGISTER_ALL_INDICES
#undef REGISTER_INDICES_V2
#undef REGISTER_INDICES

}  // namespace
}  // namespace sluice
