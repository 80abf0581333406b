// UnsortedSegmentSum/Prod/Max/Min on the CPU. segment_ids has the shape of a prefix of data;
// data's element group i (data[i, ...] over the dims past segment_ids') is folded into output
// row segment_ids[i]. The output is [num_segments] + data.shape[rank(segment_ids):]; rows no
// group reaches hold the reducer's identity (0, 1, lowest, highest). Negative ids are dropped,
// as TensorFlow's CPU kernel does; an id >= num_segments is INVALID_ARGUMENT naming it, checked
// over all ids before any output row changes (and not at all when data is empty, as
// TensorFlow's). num_segments is cast to the segment ids' type first, as TensorFlow does.
#include <algorithm>
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/indexing/index_coordinates.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/scratch.h"
#include "kernels/cpu/segment/segment_reducers.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

bool StartsWith(const TensorShape& shape, const TensorShape& prefix) {
  if (prefix.dims() > shape.dims()) return false;
  for (int i = 0; i < prefix.dims(); ++i) {
    if (shape.dim_size(i) != prefix.dim_size(i)) return false;
  }
  return true;
}

// num_segments as TensorFlow reads it: cast to the ids' integer type.
int64_t OutputRows(int64_t num_segments, DataType ids_dtype) {
  switch (ids_dtype) {
    case DT_INT16:
      return static_cast<int16_t>(num_segments);
    case DT_INT32:
      return static_cast<int32_t>(num_segments);
    default:
      return num_segments;
  }
}

template <typename T, typename Reducer>
class UnsortedSegmentReductionOp : public OpKernel {
 public:
  explicit UnsortedSegmentReductionOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& data = ctx->input(0);
    const Tensor& ids = ctx->input(1);
    const Tensor& num_segments = ctx->input(2);
    OP_REQUIRES(ctx, num_segments.dims() == 0,
                errors::InvalidArgument("num_segments should be a scalar, not shape ",
                                        num_segments.shape().DebugString()));
    OP_REQUIRES(ctx, StartsWith(data.shape(), ids.shape()),
                errors::InvalidArgument(
                    "data.shape = ", data.shape().DebugString(),
                    " does not start with segment_ids.shape = ", ids.shape().DebugString()));
    int64_t requested = 0;
    OP_REQUIRES_OK(ctx, IntegerTensorScalar(num_segments, &requested));
    const int64_t rows = OutputRows(requested, ids.dtype());
    OP_REQUIRES(ctx, rows >= 0,
                errors::InvalidArgument("Input num_segments == ", rows, " must not be negative."));
    TensorShape out_shape;
    OP_REQUIRES_OK(ctx, out_shape.AddDimWithStatus(rows));
    for (int d = ids.dims(); d < data.dims(); ++d) {
      OP_REQUIRES_OK(ctx, out_shape.AddDimWithStatus(data.dim_size(d)));
    }
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &out));
    T* y = out->base<T>();
    std::fill_n(y, out->NumElements(), Reducer::Identity());
    if (data.NumElements() == 0) return;

    const int64_t n = ids.NumElements();  // > 0: data is not empty and starts with ids' shape
    const int64_t inner = data.NumElements() / n;
    ScratchArray<int64_t> segment;
    OP_REQUIRES_OK(ctx, segment.Allocate(ctx, n));
    OP_REQUIRES_OK(ctx, WidenIntegerTensor(ids, segment.data()));
    for (int64_t i = 0; i < n; ++i) {
      OP_REQUIRES(ctx, segment[i] < rows,
                  errors::InvalidArgument("segment_ids", SliceDebugString(ids.shape(), i), " = ",
                                          segment[i], " is out of range [0, ", rows, ")"));
    }
    // Split over output rows, as TensorFlow's kernel: each block scans every id and folds
    // only its own rows, so each row still sees its groups in input order.
    const T* x = data.base<T>();
    const int64_t* seg = segment.data();
    const int64_t per_row = std::max<int64_t>(1, n / std::max<int64_t>(rows, 1));
    const Eigen::TensorOpCost cost(sizeof(T) * inner * per_row, sizeof(T) * inner,
                                   5 * inner * per_row + n);
    ParallelFor(ctx, rows, data.NumElements(), cost, [&](int64_t first, int64_t last) {
      for (int64_t i = 0; i < n; ++i) {
        if (seg[i] < first || seg[i] >= last) continue;
        T* acc = y + seg[i] * inner;
        const T* group = x + i * inner;
        for (int64_t k = 0; k < inner; ++k) Reducer::Apply(group[k], acc + k);
      }
    });
  }
};

#define REGISTER_WITH_INDEX(NAME, T, INDEX, ...)                 \
  REGISTER_KERNEL_BUILDER(Name(NAME)                             \
                              .Device(DEVICE_CPU)                \
                              .TypeConstraint<T>("T")            \
                              .TypeConstraint<INDEX>("Tindices") \
                              .HostMemory("num_segments"),       \
                          __VA_ARGS__);

#define REGISTER_SUM_PROD(T)                                           \
  REGISTER_WITH_INDEX("UnsortedSegmentSum", T, int16_t,                \
                      UnsortedSegmentReductionOp<T, segment::Sum<T>>)  \
  REGISTER_WITH_INDEX("UnsortedSegmentSum", T, int32_t,                \
                      UnsortedSegmentReductionOp<T, segment::Sum<T>>)  \
  REGISTER_WITH_INDEX("UnsortedSegmentSum", T, int64_t,                \
                      UnsortedSegmentReductionOp<T, segment::Sum<T>>)  \
  REGISTER_WITH_INDEX("UnsortedSegmentProd", T, int32_t,               \
                      UnsortedSegmentReductionOp<T, segment::Prod<T>>) \
  REGISTER_WITH_INDEX("UnsortedSegmentProd", T, int64_t,               \
                      UnsortedSegmentReductionOp<T, segment::Prod<T>>)
#define REGISTER_MAX_MIN(T)                                           \
  REGISTER_WITH_INDEX("UnsortedSegmentMax", T, int32_t,               \
                      UnsortedSegmentReductionOp<T, segment::Max<T>>) \
  REGISTER_WITH_INDEX("UnsortedSegmentMax", T, int64_t,               \
                      UnsortedSegmentReductionOp<T, segment::Max<T>>) \
  REGISTER_WITH_INDEX("UnsortedSegmentMin", T, int32_t,               \
                      UnsortedSegmentReductionOp<T, segment::Min<T>>) \
  REGISTER_WITH_INDEX("UnsortedSegmentMin", T, int64_t,               \
                      UnsortedSegmentReductionOp<T, segment::Min<T>>)

SLUICE_CALL_NUMBER_TYPES(REGISTER_SUM_PROD)
SLUICE_CALL_REAL_NUMBER_TYPES(REGISTER_MAX_MIN)

#undef REGISTER_MAX_MIN
#undef REGISTER_SUM_PROD
#undef REGISTER_WITH_INDEX

}  // namespace
}  // namespace sluice
