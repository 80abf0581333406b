// SoftmaxCrossEntropyWithLogits and SparseSoftmaxCrossEntropyWithLogits on the CPU.
//
// Per example (row of logits [batch, classes]), as TensorFlow's Eigen kernel:
//   shifted = logits - max(logits)              (written into backprop)
//   sum     = sum(exp(shifted))
//   loss    = sum(labels * (log(sum) - shifted))   (sparse: log(sum) - shifted[label])
//   backprop = exp(shifted) / sum - labels          (sparse: minus one at the label)
// Every step is in T, so half and bfloat16 round after each operation as TensorFlow's do.
// Sums add in the order of Eigen's vectorised inner reduction in TensorFlow's AVX build
// (SumInPacketOrder). A row holding NaN or +inf, or only -inf, comes out NaN.
//
// The dense labels broadcast against the logits (numpy rules); the broadcast shape must be a
// matrix. Sparse labels must lie in [0, classes): TensorFlow's CPU kernel rejects the others.
#include <algorithm>
#include <cstdint>
#include <limits>

#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// The sum of x[0, n) in the order of Eigen's InnerMostDimReducer with packets of
// 32 bytes (TensorFlow's AVX build): four packet accumulators over blocks of four packets,
// folded into the first; the remaining whole packets into it; the tail summed on its own;
// then tail + (the packet's lanes folded in halves).
template <typename T>
T SumInPacketOrder(const T* x, int64_t n) {
  constexpr int kLanes = sizeof(T) >= 4 ? 32 / sizeof(T) : 8;
  T acc[4][kLanes];
  for (auto& packet : acc) std::fill(packet, packet + kLanes, T(0));
  int64_t start = 0;
  if (n >= 4 * kLanes) {
    const int64_t blocks_end = n / (4 * kLanes) * (4 * kLanes);
    for (; start < blocks_end; start += 4 * kLanes) {
      for (int p = 0; p < 4; ++p) {
        for (int l = 0; l < kLanes; ++l) acc[p][l] += x[start + p * kLanes + l];
      }
    }
    for (int p = 1; p < 4; ++p) {
      for (int l = 0; l < kLanes; ++l) acc[0][l] += acc[p][l];
    }
  }
  for (; start + kLanes <= n; start += kLanes) {
    for (int l = 0; l < kLanes; ++l) acc[0][l] += x[start + l];
  }
  T tail(0);
  for (; start < n; ++start) tail += x[start];
  for (int width = kLanes / 2; width >= 1; width /= 2) {
    for (int l = 0; l < width; ++l) acc[0][l] += acc[0][l + width];
  }
  return tail + acc[0][0];
}

// A [rows, cols] view of an input broadcast to the loss's matrix: element (r, c) is
// data[r * row_stride + c * col_stride], a stride 0 repeating a size-1 or missing dim.
template <typename T>
struct BroadcastMatrix {
  const T* data;
  int64_t row_stride;
  int64_t col_stride;
  T at(int64_t r, int64_t c) const { return data[r * row_stride + c * col_stride]; }
};

// Shifts row r of `logits` by its max into `shifted` and returns log(sum(exp(shifted))),
// leaving exp(shifted) in `exps`.
template <typename T>
T ShiftAndLogSumExp(const BroadcastMatrix<T>& logits, int64_t r, int64_t cols, T* shifted,
                    T* exps) {
  T max = -std::numeric_limits<T>::infinity();
  for (int64_t c = 0; c < cols; ++c) {
    const T v = logits.at(r, c);
    if (v > max) max = v;
  }
  for (int64_t c = 0; c < cols; ++c) shifted[c] = static_cast<T>(logits.at(r, c) - max);
  using Array = Eigen::Array<T, Eigen::Dynamic, 1>;
  Eigen::Map<Array>(exps, cols) = Eigen::Map<const Array>(shifted, cols).exp();
  return Eigen::numext::log(SumInPacketOrder(exps, cols));
}

// The broadcast shape of the logits and labels (numpy rules) in *out, or false.
bool BroadcastShape(const TensorShape& a, const TensorShape& b, TensorShape* out) {
  const int rank = std::max(a.dims(), b.dims());
  *out = TensorShape();
  for (int i = 0; i < rank; ++i) {
    const int ia = a.dims() - rank + i;
    const int ib = b.dims() - rank + i;
    const int64_t da = ia >= 0 ? a.dim_size(ia) : 1;
    const int64_t db = ib >= 0 ? b.dim_size(ib) : 1;
    if (da != db && da != 1 && db != 1) return false;
    // shape-safe: a dim of one of the two input shapes
    out->AddDim(da == 1 ? db : da);
  }
  return true;
}

// The view of `t` (rank <= 2, broadcastable to [rows, cols]).
template <typename T>
BroadcastMatrix<T> ViewAs(const Tensor& t) {
  const int64_t cols = t.dims() >= 1 ? t.dim_size(t.dims() - 1) : 1;
  const int64_t rows = t.dims() == 2 ? t.dim_size(0) : 1;
  return BroadcastMatrix<T>{t.base<T>(), rows == 1 ? 0 : cols, cols == 1 ? 0 : 1};
}

template <typename T>
class SoftmaxCrossEntropyOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& logits = ctx->input(0);
    const Tensor& labels = ctx->input(1);
    TensorShape shape = logits.shape();
    if (logits.shape() != labels.shape()) {
      OP_REQUIRES(ctx, BroadcastShape(logits.shape(), labels.shape(), &shape),
                  errors::InvalidArgument("logits and labels must be broadcastable: logits_size=",
                                          logits.shape().DebugString(),
                                          " labels_size=", labels.shape().DebugString()));
    }
    OP_REQUIRES(ctx, shape.dims() == 2,
                errors::InvalidArgument("logits and labels must be either 2-dimensional, or "
                                        "broadcasted to be 2-dimensional"));
    const int64_t rows = shape.dim_size(0);
    const int64_t cols = shape.dim_size(1);
    Tensor* loss = nullptr;
    // shape-safe: the first dim of a valid broadcast shape
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({rows}), &loss));
    Tensor* backprop = nullptr;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({0}, 1, shape, &backprop));
    if (rows == 0) return;
    const BroadcastMatrix<T> x = ViewAs<T>(logits);
    const BroadcastMatrix<T> y = ViewAs<T>(labels);
    T* const loss_out = loss->base<T>();
    T* const grad_out = backprop->base<T>();
    const Eigen::TensorOpCost row_cost(cols * 2.0 * sizeof(T), cols * sizeof(T), cols * 30.0);
    // Per block: exp(shifted) and the loss terms of one row.
    OP_REQUIRES_OK(
        ctx, ParallelForWithScratch<T>(
                 ctx, rows, rows * cols, row_cost, 2 * cols,
                 [&](int64_t first, int64_t last, T* scratch) {
                   T* const exps = scratch;
                   T* const terms = scratch + cols;
                   for (int64_t r = first; r < last; ++r) {
                     T* const shifted = grad_out + r * cols;
                     const T log_sum = ShiftAndLogSumExp(x, r, cols, shifted, exps);
                     for (int64_t c = 0; c < cols; ++c) {
                       terms[c] = static_cast<T>(y.at(r, c) * static_cast<T>(log_sum - shifted[c]));
                     }
                     loss_out[r] = SumInPacketOrder(terms, cols);
                     const T sum = SumInPacketOrder(exps, cols);
                     for (int64_t c = 0; c < cols; ++c) {
                       shifted[c] = static_cast<T>(static_cast<T>(exps[c] / sum) - y.at(r, c));
                     }
                   }
                 }));
  }
};

// "Received a label value of <bad> which is outside the valid range of [0, classes)." with
// the labels, as TensorFlow reports it; the list stops after 1000 values.
template <typename Index>
absl::Status CheckLabels(const Index* labels, int64_t n, int64_t classes) {
  const Index* bad = std::find_if(labels, labels + n, [classes](Index v) {
    return v < 0 || static_cast<int64_t>(v) >= classes;
  });
  if (bad == labels + n) return absl::OkStatus();
  std::string values;
  const int64_t shown = std::min<int64_t>(n, 1000);
  for (int64_t i = 0; i < shown; ++i) absl::StrAppend(&values, i ? " " : "", labels[i]);
  if (shown < n) values += "...";
  return errors::InvalidArgument("Received a label value of ", *bad,
                                 " which is outside the valid range of [0, ", classes,
                                 ").  Label values: ", values);
}

template <typename T, typename Index>
class SparseSoftmaxCrossEntropyOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& logits = ctx->input(0);
    const Tensor& labels = ctx->input(1);
    OP_REQUIRES(ctx, logits.dims() == 2,
                errors::InvalidArgument("logits must be 2-D, but got shape ",
                                        logits.shape().DebugString()));
    OP_REQUIRES(ctx, labels.dims() == 1,
                errors::InvalidArgument("labels must be 1-D, but got shape ",
                                        labels.shape().DebugString()));
    OP_REQUIRES(
        ctx, logits.dim_size(0) == labels.dim_size(0),
        errors::InvalidArgument(
            "logits and labels must have the same first dimension, got logits shape ",
            logits.shape().DebugString(), " and labels shape ", labels.shape().DebugString()));
    OP_REQUIRES(ctx, logits.dim_size(1) > 0,
                errors::InvalidArgument("Must have at least one class, but got logits shape ",
                                        logits.shape().DebugString()));
    const int64_t rows = logits.dim_size(0);
    const int64_t cols = logits.dim_size(1);
    const Index* label = labels.base<Index>();
    OP_REQUIRES_OK(ctx, CheckLabels(label, rows, cols));
    Tensor* loss = nullptr;
    // shape-safe: the logits' first dim
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({rows}), &loss));
    Tensor* backprop = nullptr;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({0}, 1, logits.shape(), &backprop));
    if (rows == 0) return;
    const BroadcastMatrix<T> x{logits.base<T>(), cols, 1};
    T* const loss_out = loss->base<T>();
    T* const grad_out = backprop->base<T>();
    const Eigen::TensorOpCost row_cost(cols * sizeof(T), cols * sizeof(T), cols * 25.0);
    // Per block: exp(shifted) of one row.
    OP_REQUIRES_OK(
        ctx, ParallelForWithScratch<T>(
                 ctx, rows, rows * cols, row_cost, cols, [&](int64_t first, int64_t last, T* exps) {
                   for (int64_t r = first; r < last; ++r) {
                     T* const shifted = grad_out + r * cols;
                     const T log_sum = ShiftAndLogSumExp(x, r, cols, shifted, exps);
                     const int64_t target = static_cast<int64_t>(label[r]);
                     loss_out[r] = static_cast<T>(log_sum - shifted[target]);
                     const T sum = SumInPacketOrder(exps, cols);
                     for (int64_t c = 0; c < cols; ++c) {
                       shifted[c] = static_cast<T>(exps[c] / sum);
                     }
                     shifted[target] = static_cast<T>(shifted[target] - T(1));
                   }
                 }));
  }
};

#define REGISTER_CPU(T)                                                                \
  REGISTER_KERNEL_BUILDER(                                                             \
      Name("SoftmaxCrossEntropyWithLogits").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
      SoftmaxCrossEntropyOp<T>);                                                       \
  REGISTER_KERNEL_BUILDER(Name("SparseSoftmaxCrossEntropyWithLogits")                  \
                              .Device(DEVICE_CPU)                                      \
                              .TypeConstraint<T>("T")                                  \
                              .TypeConstraint<int32_t>("Tlabels"),                     \
                          SparseSoftmaxCrossEntropyOp<T, int32_t>);                    \
  REGISTER_KERNEL_BUILDER(Name("SparseSoftmaxCrossEntropyWithLogits")                  \
                              .Device(DEVICE_CPU)                                      \
                              .TypeConstraint<T>("T")                                  \
                              .TypeConstraint<int64_t>("Tlabels"),                     \
                          SparseSoftmaxCrossEntropyOp<T, int64_t>);
SLUICE_CALL_FLOAT_TYPES(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
