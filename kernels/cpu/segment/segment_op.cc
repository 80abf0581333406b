// SegmentSum/Mean/Prod/Max/Min on the CPU: data's rows reduced over runs of equal, sorted
// segment_ids (a vector as long as data's first dim). The output has last id + 1 rows; rows
// no id names are 0 (1 for Prod), as TensorFlow's kernel leaves them (unlike the unsorted
// ops' identities).
//
// A run of one row is copied. A longer run folds its rows in order from the reduction's
// start value (segment_reducers.h), as Eigen's reduction over the rows does in TensorFlow's
// kernel; Mean then divides the sum by the row count in T. For Sum and Prod, Eigen reduces a
// run of 16 or more rows differently in the columns it vectorises (the first
// cols - cols % P, P being the AVX packet TensorFlow's build uses for T): four accumulators
// take rows 4j, 4j+1, 4j+2, 4j+3, are combined in order, and the rows past the last multiple
// of four are added after; Sluice repeats that order. Eigen's vectorised columns keep
// the accumulator on NaN where its scalar ones keep the row, so for Max/Min with NaN in a
// run of several rows TensorFlow's answer depends on the column; Sluice always takes the
// scalar rule (the fixture leaves those cases out).
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/scratch.h"
#include "kernels/cpu/segment/segment_ids.h"
#include "kernels/cpu/segment/segment_reducers.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// Divides a run's sum by its row count, converted to T as TensorFlow's MeanReducer does.
// An integer T too narrow for the count can make the divisor 0, where TensorFlow's kernel
// would trap; the sum is left as it is.
template <typename T>
void DivideByCount(int64_t count, int64_t cols, T* row) {
  const T divisor = static_cast<T>(count);
  if constexpr (std::is_integral_v<T>) {
    if (divisor == T(0)) return;
  }
  for (int64_t k = 0; k < cols; ++k) row[k] = row[k] / divisor;
}

// Elements per Eigen packet in TensorFlow's CPU build (AVX) for the float types, whose
// rounding depends on the order; 1 (no packets) where any order gives the same answer.
template <typename T>
constexpr int64_t kTfPacketSize = 1;
template <>
constexpr int64_t kTfPacketSize<float> = 8;
template <>
constexpr int64_t kTfPacketSize<double> = 4;
template <>
constexpr int64_t kTfPacketSize<half> = 8;
template <>
constexpr int64_t kTfPacketSize<bfloat16> = 8;
template <>
constexpr int64_t kTfPacketSize<complex64> = 4;
template <>
constexpr int64_t kTfPacketSize<complex128> = 2;

// Folds rows [0, n) (each `cols` wide, n >= 2) into acc as Eigen's reduction over the first
// dim does in TensorFlow's kernel (see the file comment).
template <typename T, typename Reducer, bool kPacketOrder>
void ReduceRows(const T* x, int64_t n, int64_t cols, T* acc) {
  const int64_t packet_cols = kPacketOrder && n >= 16 ? cols - cols % kTfPacketSize<T> : 0;
  const int64_t unrolled = n / 4 * 4;
  for (int64_t k = 0; k < packet_cols; ++k) {
    T part[4] = {Reducer::Identity(), Reducer::Identity(), Reducer::Identity(),
                 Reducer::Identity()};
    for (int64_t r = 0; r < unrolled; r += 4) {
      for (int p = 0; p < 4; ++p) Reducer::Apply(x[(r + p) * cols + k], &part[p]);
    }
    for (int p = 1; p < 4; ++p) Reducer::Apply(part[p], &part[0]);
    for (int64_t r = unrolled; r < n; ++r) Reducer::Apply(x[r * cols + k], &part[0]);
    acc[k] = part[0];
  }
  for (int64_t k = packet_cols; k < cols; ++k) acc[k] = Reducer::First(x[k]);
  for (int64_t r = 1; r < n; ++r) {
    const T* row = x + r * cols;
    for (int64_t k = packet_cols; k < cols; ++k) Reducer::Apply(row[k], acc + k);
  }
}

template <typename T, typename Reducer, bool kMean>
class SegmentReductionOp : public OpKernel {
 public:
  explicit SegmentReductionOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& data = ctx->input(0);
    const Tensor& ids_t = ctx->input(1);
    OP_REQUIRES(ctx, data.dims() >= 1, errors::InvalidArgument("input must be at least rank 1"));
    OP_REQUIRES(ctx, ids_t.dims() == 1, errors::InvalidArgument("segment_ids should be a vector."));
    const int64_t n = ids_t.NumElements();
    OP_REQUIRES(
        ctx, n == data.dim_size(0),
        errors::InvalidArgument("segment_ids should be the same size as dimension 0 of input."));
    ScratchArray<int64_t> ids;
    OP_REQUIRES_OK(ctx, ids.Allocate(ctx, n));
    OP_REQUIRES_OK(ctx, WidenIntegerTensor(ids_t, ids.data()));
    const int64_t rows = n > 0 ? segment::LastIdPlusOne(ids[n - 1], ids_t.dtype()) : 0;
    OP_REQUIRES(ctx, rows >= 0, errors::InvalidArgument("segment ids must be >= 0"));
    TensorShape out_shape = data.shape();
    OP_REQUIRES_OK(ctx, out_shape.SetDimWithStatus(0, rows));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &out));
    if (n == 0) return;

    const int64_t cols = data.NumElements() / n;
    const T gap = std::is_same_v<Reducer, segment::Prod<T>> ? T(1) : T(0);
    const T* x = data.base<T>();
    T* y = out->base<T>();
    int64_t filled = 0;  // rows below this are written
    for (int64_t start = 0; start < n;) {
      segment::Run run;
      OP_REQUIRES_OK(ctx, segment::NextRun(ids.data(), n, start, rows, &run));
      std::fill(y + filled * cols, y + run.id * cols, gap);
      T* acc = y + run.id * cols;
      const T* first = x + run.start * cols;
      if (run.end - run.start == 1) {
        std::copy_n(first, cols, acc);
      } else {
        // Eigen's MeanReducer has state, which keeps its columns in row order; Max and Min
        // give the same answer in any order (NaN aside).
        constexpr bool kPacketOrder = !kMean && (std::is_same_v<Reducer, segment::Sum<T>> ||
                                                 std::is_same_v<Reducer, segment::Prod<T>>);
        ReduceRows<T, Reducer, kPacketOrder>(first, run.end - run.start, cols, acc);
        if constexpr (kMean) DivideByCount(run.end - run.start, cols, acc);
      }
      filled = run.id + 1;
      start = run.end;
    }
  }
};

#define REGISTER_SEGMENT(NAME, T, ...)                                                          \
  REGISTER_KERNEL_BUILDER(                                                                      \
      Name(NAME).Device(DEVICE_CPU).TypeConstraint<T>("T").TypeConstraint<int32_t>("Tindices"), \
      __VA_ARGS__);                                                                             \
  REGISTER_KERNEL_BUILDER(                                                                      \
      Name(NAME).Device(DEVICE_CPU).TypeConstraint<T>("T").TypeConstraint<int64_t>("Tindices"), \
      __VA_ARGS__);

#define REGISTER_NUMBER(T)                                                         \
  REGISTER_SEGMENT("SegmentSum", T, SegmentReductionOp<T, segment::Sum<T>, false>) \
  REGISTER_SEGMENT("SegmentMean", T, SegmentReductionOp<T, segment::Sum<T>, true>) \
  REGISTER_SEGMENT("SegmentProd", T, SegmentReductionOp<T, segment::Prod<T>, false>)
#define REGISTER_REAL(T)                                                           \
  REGISTER_SEGMENT("SegmentMax", T, SegmentReductionOp<T, segment::Max<T>, false>) \
  REGISTER_SEGMENT("SegmentMin", T, SegmentReductionOp<T, segment::Min<T>, false>)

SLUICE_CALL_NUMBER_TYPES(REGISTER_NUMBER)
SLUICE_CALL_REAL_NUMBER_TYPES(REGISTER_REAL)

#undef REGISTER_REAL
#undef REGISTER_NUMBER
#undef REGISTER_SEGMENT

}  // namespace
}  // namespace sluice
