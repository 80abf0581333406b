// SparseSegmentSum/Mean/SqrtN and their WithNumSegments forms on the CPU: output row
// segment_ids[i] reduces data row indices[i], over runs of equal, sorted ids. Without
// num_segments the output has last id + 1 rows; rows no id names are 0. sparse_gradient
// only changes the gradient, not this op.
//
// The arithmetic is TensorFlow's CPU kernel's, order included, so results match bit for bit:
// half and bfloat16 rows are summed in float and rounded once at the end; a run of one row is
// copied; otherwise the first h rows (h = n mod 8 for n mod 8 in 2..7, 8 for 0, 9 for 1) are
// summed left to right and multiplied by 1 / n (Mean) or 1 / sqrt(n) (SqrtN) when n < 10,
// each later group of 8 rows is summed left to right and then added, and a run of n >= 10
// rows is divided by n or sqrt(n) at the end.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/scratch.h"
#include "kernels/cpu/segment/segment_ids.h"
#include "kernels/cpu/wrapping_arithmetic.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

enum class Scale { kNone, kMean, kSqrtN };

// The type TensorFlow accumulates T in.
template <typename T>
using Acc = std::conditional_t<std::is_same_v<T, half> || std::is_same_v<T, bfloat16>, float, T>;

// What a run of n rows is multiplied by (n < 10) or divided by (n >= 10).
template <typename A, Scale kScale>
A ScaleFor(int64_t n) {
  if constexpr (kScale == Scale::kMean) return static_cast<A>(n);
  if constexpr (kScale == Scale::kSqrtN) return static_cast<A>(std::sqrt(static_cast<double>(n)));
  return A(1);
}

// Reduces the rows rows[0, n) of x (each `cols` wide) into out, in TensorFlow's order.
template <typename T, Scale kScale>
void ReduceRun(const T* x, const int64_t* rows, int64_t n, int64_t cols, T* out) {
  using A = Acc<T>;
  if (n == 1) {
    std::copy_n(x + rows[0] * cols, cols, out);
    return;
  }
  const int64_t head = (n & 7) == 0 ? 8 : (n & 7) == 1 ? 9 : (n & 7);
  const A head_scale = n < 10 ? A(1) / ScaleFor<A, kScale>(n) : A(1);
  for (int64_t k = 0; k < cols; ++k) {
    A sum = static_cast<A>(x[rows[0] * cols + k]);
    for (int64_t i = 1; i < head; ++i)
      sum = WrappingAdd(sum, static_cast<A>(x[rows[i] * cols + k]));
    A acc = WrappingMul(sum, head_scale);
    for (int64_t g = head; g < n; g += 8) {
      A group = static_cast<A>(x[rows[g] * cols + k]);
      for (int64_t i = 1; i < 8; ++i) {
        group = WrappingAdd(group, static_cast<A>(x[rows[g + i] * cols + k]));
      }
      acc = WrappingAdd(acc, group);
    }
    if (n >= 10 && kScale != Scale::kNone) acc = acc / ScaleFor<A, kScale>(n);
    out[k] = static_cast<T>(acc);
  }
}

template <typename T, Scale kScale, bool kHasNumSegments>
class SparseSegmentReductionOp : public OpKernel {
 public:
  explicit SparseSegmentReductionOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& data = ctx->input(0);
    const Tensor& indices_t = ctx->input(1);
    const Tensor& ids_t = ctx->input(2);
    int64_t rows = -1;
    if (kHasNumSegments) {
      const Tensor& num_segments = ctx->input(3);
      OP_REQUIRES(ctx, num_segments.dims() == 0,
                  errors::InvalidArgument("num_segments should be a scalar, not shape ",
                                          num_segments.shape().DebugString()));
      OP_REQUIRES_OK(ctx, IntegerTensorScalar(num_segments, &rows));
      OP_REQUIRES(ctx, rows >= 0, errors::InvalidArgument("segment ids must be >= 0"));
    }
    OP_REQUIRES(ctx, indices_t.dims() == 1, errors::InvalidArgument("indices should be a vector."));
    OP_REQUIRES(ctx, ids_t.dims() == 1, errors::InvalidArgument("segment_ids should be a vector."));
    const int64_t n = indices_t.NumElements();
    OP_REQUIRES(ctx, n == ids_t.NumElements(),
                errors::InvalidArgument("segment_ids and indices should have same size."));
    OP_REQUIRES(ctx, data.dims() >= 1, errors::InvalidArgument("Shape must be at least rank 1"));

    ScratchArray<int64_t> indices, ids;
    OP_REQUIRES_OK(ctx, indices.Allocate(ctx, n));
    OP_REQUIRES_OK(ctx, ids.Allocate(ctx, n));
    OP_REQUIRES_OK(ctx, WidenIntegerTensor(indices_t, indices.data()));
    OP_REQUIRES_OK(ctx, WidenIntegerTensor(ids_t, ids.data()));
    const int64_t last = n > 0 ? ids[n - 1] : 0;
    // TensorFlow bounds the last id by the indices' type, not the ids'.
    const int64_t limit = MaxIndexValue(indices_t.dtype());
    OP_REQUIRES(
        ctx, last < limit,
        errors::InvalidArgument("Last segment id must be < kintmax, got ", last, " limit ", limit));
    const int64_t last_plus_one = n > 0 ? segment::LastIdPlusOne(last, ids_t.dtype()) : 0;
    if (kHasNumSegments) {
      OP_REQUIRES(ctx, rows >= last_plus_one,
                  errors::InvalidArgument("segment ids must be < num_segments"));
    } else {
      rows = last_plus_one;
    }
    OP_REQUIRES(ctx, rows >= 0, errors::InvalidArgument("segment ids must be >= 0"));
    TensorShape out_shape = data.shape();
    OP_REQUIRES_OK(ctx, out_shape.SetDimWithStatus(0, rows));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &out));
    T* y = out->base<T>();
    if (n == 0) {
      std::fill_n(y, out->NumElements(), T(0));
      return;
    }
    OP_REQUIRES(ctx, rows > 0, errors::InvalidArgument("segment ids must be >= 0"));

    const int64_t data_rows = data.dim_size(0);
    const int64_t cols = out_shape.num_elements() / rows;
    const T* x = data.base<T>();
    int64_t filled = 0;  // output rows below this are written
    for (int64_t start = 0; start < n;) {
      segment::Run run;
      OP_REQUIRES_OK(ctx, segment::NextRun(ids.data(), n, start, rows, &run));
      std::fill(y + filled * cols, y + run.id * cols, T(0));
      for (int64_t i = run.start; i < run.end; ++i) {
        OP_REQUIRES(ctx, indices[i] >= 0 && indices[i] < data_rows,
                    errors::InvalidArgument("Bad: indices[", i, "] == ", indices[i],
                                            " out of range [0, ", data_rows, ")"));
      }
      ReduceRun<T, kScale>(x, indices.data() + run.start, run.end - run.start, cols,
                           y + run.id * cols);
      filled = run.id + 1;
      start = run.end;
    }
    std::fill(y + filled * cols, y + rows * cols, T(0));
  }
};

// One registration per (T, Tidx, Tsegmentids); the index types only change how the kernel
// reads its inputs, so they share one instantiation.
#define REGISTER_INDICES(NAME, T, IDX, SEG, ...)                   \
  REGISTER_KERNEL_BUILDER(Name(NAME)                               \
                              .Device(DEVICE_CPU)                  \
                              .TypeConstraint<T>("T")              \
                              .TypeConstraint<IDX>("Tidx")         \
                              .TypeConstraint<SEG>("Tsegmentids"), \
                          __VA_ARGS__);
#define REGISTER_ALL_INDICES(NAME, T, ...)                 \
  REGISTER_INDICES(NAME, T, int32_t, int32_t, __VA_ARGS__) \
  REGISTER_INDICES(NAME, T, int32_t, int64_t, __VA_ARGS__) \
  REGISTER_INDICES(NAME, T, int64_t, int32_t, __VA_ARGS__) \
  REGISTER_INDICES(NAME, T, int64_t, int64_t, __VA_ARGS__)

#define REGISTER_SUM(T)                                                                         \
  REGISTER_ALL_INDICES("SparseSegmentSum", T, SparseSegmentReductionOp<T, Scale::kNone, false>) \
  REGISTER_ALL_INDICES("SparseSegmentSumWithNumSegments", T,                                    \
                       SparseSegmentReductionOp<T, Scale::kNone, true>)
#define REGISTER_MEAN_SQRTN(T)                                                                     \
  REGISTER_ALL_INDICES("SparseSegmentMean", T, SparseSegmentReductionOp<T, Scale::kMean, false>)   \
  REGISTER_ALL_INDICES("SparseSegmentMeanWithNumSegments", T,                                      \
                       SparseSegmentReductionOp<T, Scale::kMean, true>)                            \
  REGISTER_ALL_INDICES("SparseSegmentSqrtN", T, SparseSegmentReductionOp<T, Scale::kSqrtN, false>) \
  REGISTER_ALL_INDICES("SparseSegmentSqrtNWithNumSegments", T,                                     \
                       SparseSegmentReductionOp<T, Scale::kSqrtN, true>)

SLUICE_CALL_REAL_NUMBER_TYPES(REGISTER_SUM)
SLUICE_CALL_FLOAT_TYPES(REGISTER_MEAN_SQRTN)

#undef REGISTER_MEAN_SQRTN
#undef REGISTER_SUM
#undef REGISTER_ALL_INDICES
#undef REGISTER_INDICES

}  // namespace
}  // namespace sluice
