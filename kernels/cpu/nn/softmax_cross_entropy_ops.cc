// SoftmaxCrossEntropyWithLogits and SparseSoftmaxCrossEntropyWithLogits on the CPU.
//
// Per example (row of logits [batch, classes]), as TensorFlow's Eigen kernel:
//   shifted = logits - max(logits)              (written into backprop)
//   sum     = sum(exp(shifted))
//   loss    = sum(labels * (log(sum) - shifted))   (sparse: log(sum) - shifted[label])
//   backprop = exp(shifted) / sum - labels          (sparse: minus one at the label)
// Every step is in T, so half and bfloat16 round after each operation as TensorFlow's do.
// Sums add in the order of Eigen's vectorised inner reduction in TensorFlow's AVX build
// (SumInTfOrder). A row holding NaN or +inf, or only -inf, comes out NaN.
//
// float, half and bfloat16 follow TensorFlow further, for its bits: exp and log are
// TensorFlow's (numerics/exp_float.h, log_float.h; in float for half and bfloat16, rounded,
// and their packets fold lanes in float), each in the form TensorFlow's evaluation gives the
// element: inside the row sums, the vector form but for each row's (or tree leaf's) last
// classes % 8; in the sparse backprop, the vector form but for the tensor's last total % 8,
// in the dense one the same per tile of TensorFlow's tiled evaluation (DenseBackpropExp); the
// dense log(sum) the vector form but for the last batch % 8 rows, the sparse one std::log.
//
// The dense labels broadcast against the logits (numpy rules); the broadcast shape must be a
// matrix. Sparse labels must lie in [0, classes): TensorFlow's CPU kernel rejects the others.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/parallel_for.h"
#include "numerics/exp_float.h"
#include "numerics/log_float.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// Elements per packet of TensorFlow's AVX build, and the leaf of Eigen's tree reduction of
// sums (in packets).
template <typename T>
constexpr int64_t kLanes = sizeof(T) >= 4 ? 32 / sizeof(T) : 8;
template <typename T>
constexpr int64_t kLeafSize = std::is_same_v<T, half>       ? 200
                              : std::is_same_v<T, bfloat16> ? 128
                                                            : 1024;

// The sum of x[0, n) in the order of Eigen's InnerMostDimReducer with packets of 32 bytes:
// four packet accumulators over blocks of four packets, folded into the first; the remaining
// whole packets into it; the tail summed on its own; then tail + (the packet's lanes folded
// in halves).
template <typename T>
T SumInPacketOrder(const T* x, int64_t n) {
  constexpr int64_t kL = kLanes<T>;
  T acc[4][kL];
  for (auto& packet : acc) std::fill(packet, packet + kL, T(0));
  int64_t start = 0;
  if (n >= 4 * kL) {
    const int64_t blocks_end = n / (4 * kL) * (4 * kL);
    for (; start < blocks_end; start += 4 * kL) {
      for (int p = 0; p < 4; ++p) {
        for (int64_t l = 0; l < kL; ++l) acc[p][l] += x[start + p * kL + l];
      }
    }
    for (int p = 1; p < 4; ++p) {
      for (int64_t l = 0; l < kL; ++l) acc[0][l] += acc[p][l];
    }
  }
  for (; start + kL <= n; start += kL) {
    for (int64_t l = 0; l < kL; ++l) acc[0][l] += x[start + l];
  }
  T tail(0);
  for (; start < n; ++start) tail += x[start];
  if constexpr (sizeof(T) == 2) {
    // half and bfloat16 packets fold their lanes in float and round once.
    float lanes[kL];
    for (int64_t l = 0; l < kL; ++l) lanes[l] = static_cast<float>(acc[0][l]);
    for (int64_t width = kL / 2; width >= 1; width /= 2) {
      for (int64_t l = 0; l < width; ++l) lanes[l] += lanes[l + width];
    }
    return static_cast<T>(tail + static_cast<T>(lanes[0]));
  } else {
    for (int64_t width = kL / 2; width >= 1; width /= 2) {
      for (int64_t l = 0; l < width; ++l) acc[0][l] += acc[0][l + width];
    }
    return tail + acc[0][0];
  }
}

// Eigen's tree over a row too long for one leaf: halves split at a packet boundary of the
// flat index (`first` is the row's flat index), each reduced the same way; a leaf is
// leaf(offset in the row, count).
template <typename T, typename Leaf>
T TreeSum(int64_t first, int64_t offset, int64_t n, const Leaf& leaf) {
  constexpr int64_t kL = kLanes<T>;
  if (n <= kL * kLeafSize<T>) return leaf(offset, n);
  const int64_t flat = first + offset;
  const int64_t split = kL * ((flat + (n + 1) / 2 + kL - 1) / kL);
  const int64_t left = std::min(split - flat, n);
  T sum = static_cast<T>(T(0) + TreeSum<T>(first, offset, left, leaf));
  if (left < n) sum = static_cast<T>(sum + TreeSum<T>(first, offset + left, n - left, leaf));
  return sum;
}

// The sum of a row x[0, n) at flat index `first`, in TensorFlow's order.
template <typename T>
T SumInTfOrder(const T* x, int64_t first, int64_t n) {
  return TreeSum<T>(first, 0, n, [x](int64_t offset, int64_t count) {
    return SumInPacketOrder(x + offset, count);
  });
}

// exps[0, n) = exp(shifted[0, n)) for elements [flat, flat + n) of a tensor of `total`
// (float: TensorFlow's exp, the scalar form for the tensor's last total % 8; half and
// bfloat16: the same in float, rounded; double: Eigen's).
template <typename T>
void Exp(const T* shifted, T* exps, int64_t n, int64_t flat, int64_t total) {
  if constexpr (std::is_same_v<T, float>) {
    numerics::ExpFloat(shifted, exps, n, flat, total);
  } else if constexpr (sizeof(T) == 2) {
    constexpr int64_t kChunk = 256;  // a multiple of the packet, so tails stay the tensor's
    float buffer[kChunk];
    for (int64_t begin = 0; begin < n; begin += kChunk) {
      const int64_t count = std::min(kChunk, n - begin);
      for (int64_t i = 0; i < count; ++i) buffer[i] = static_cast<float>(shifted[begin + i]);
      numerics::ExpFloat(buffer, buffer, count, flat + begin, total);
      for (int64_t i = 0; i < count; ++i) exps[begin + i] = static_cast<T>(buffer[i]);
    }
  } else {
    using Array = Eigen::Array<T, Eigen::Dynamic, 1>;
    Eigen::Map<Array>(exps, n) = Eigen::Map<const Array>(shifted, n).exp();
  }
}

// exps[0, cols) = exp(shifted[0, cols)) for row r of the dense backprop [rows, cols], as
// TensorFlow's tiled evaluation of that expression gives them: its cost model makes tiles of
// kDenseTile elements, ceil(kDenseTile / cols) whole rows when a row fits (the last tile
// holding what remains), else pieces of kDenseTile of one row; each tile takes the scalar
// form for its last size % 8 elements (measured on TensorFlow 2.21; float only, other types
// as Exp over the whole tensor).
constexpr int64_t kDenseTile = 4507;

template <typename T>
void DenseBackpropExp(const T* shifted, T* exps, int64_t r, int64_t rows, int64_t cols) {
  if constexpr (std::is_same_v<T, float>) {
    if (cols == 0) return;
    if (cols > kDenseTile) {
      for (int64_t begin = 0; begin < cols; begin += kDenseTile) {
        const int64_t n = std::min(kDenseTile, cols - begin);
        numerics::ExpFloat(shifted + begin, exps + begin, n, 0, n);
      }
      return;
    }
    const int64_t tile_rows = (kDenseTile + cols - 1) / cols;
    const int64_t tile_first = r / tile_rows * tile_rows;
    const int64_t tile_size = (std::min(tile_first + tile_rows, rows) - tile_first) * cols;
    numerics::ExpFloat(shifted, exps, cols, (r - tile_first) * cols, tile_size);
  } else {
    Exp(shifted, exps, cols, r * cols, rows * cols);
  }
}

// sum(exp(shifted[0, n))) of a row at flat index `first`, as TensorFlow's reduction takes
// the exps: each leaf a tensor of its own (its last count % 8 in the scalar form).
template <typename T>
T ExpSum(const T* shifted, T* exps, int64_t first, int64_t n) {
  return TreeSum<T>(first, 0, n, [shifted, exps](int64_t offset, int64_t count) {
    Exp(shifted + offset, exps + offset, count, 0, count);
    return SumInPacketOrder(exps + offset, count);
  });
}

// log(sum) of row r of `rows`, as the dense kernel's log over the rows' sums gives it
// (float, half, bfloat16: TensorFlow's log in float, the scalar form for the last
// rows % 8; double: Eigen's).
template <typename T>
T RowLog(T sum, int64_t r, int64_t rows) {
  if constexpr (std::is_same_v<T, double>) {
    return Eigen::numext::log(sum);
  } else {
    const float x = static_cast<float>(sum);
    float log_sum;
    numerics::LogFloat(&x, &log_sum, 1, r, rows);
    return static_cast<T>(log_sum);
  }
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

// Shifts row r of `logits` by its max into `shifted`.
template <typename T>
void ShiftByMax(const BroadcastMatrix<T>& logits, int64_t r, int64_t cols, T* shifted) {
  T max = -std::numeric_limits<T>::infinity();
  for (int64_t c = 0; c < cols; ++c) {
    const T v = logits.at(r, c);
    if (v > max) max = v;
  }
  for (int64_t c = 0; c < cols; ++c) shifted[c] = static_cast<T>(logits.at(r, c) - max);
}

// Row r of the dense loss and its gradient `grad` (cols values); `scratch` holds 2 * cols.
template <typename T>
void DenseRow(const BroadcastMatrix<T>& x, const BroadcastMatrix<T>& y, int64_t r, int64_t rows,
              int64_t cols, T* grad, T* loss, T* scratch) {
  T* const exps = scratch;
  T* const terms = scratch + cols;
  ShiftByMax(x, r, cols, grad);
  const T sum = ExpSum(grad, exps, r * cols, cols);
  const T log_sum = RowLog(sum, r, rows);
  for (int64_t c = 0; c < cols; ++c) {
    terms[c] = static_cast<T>(y.at(r, c) * static_cast<T>(log_sum - grad[c]));
  }
  *loss = SumInTfOrder(terms, r * cols, cols);
  DenseBackpropExp(grad, exps, r, rows, cols);
  for (int64_t c = 0; c < cols; ++c) {
    grad[c] = static_cast<T>(static_cast<T>(exps[c] / sum) - y.at(r, c));
  }
}

// Row r of the sparse loss (label `target`, checked) and its gradient; `exps` holds cols.
template <typename T>
void SparseRow(const BroadcastMatrix<T>& x, int64_t target, int64_t r, int64_t rows, int64_t cols,
               T* grad, T* loss, T* exps) {
  ShiftByMax(x, r, cols, grad);
  const T sum = ExpSum(grad, exps, r * cols, cols);
  // TensorFlow's loss generator takes the log of each row's sum on its own (std::log).
  *loss = static_cast<T>(Eigen::numext::log(sum) - grad[target]);
  Exp(grad, exps, cols, r * cols, rows * cols);
  for (int64_t c = 0; c < cols; ++c) grad[c] = static_cast<T>(exps[c] / sum);
  grad[target] = static_cast<T>(grad[target] - T(1));
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
    OP_REQUIRES_OK(ctx, ParallelForWithScratch<T>(ctx, rows, rows * cols, row_cost, 2 * cols,
                                                  [&](int64_t first, int64_t last, T* scratch) {
                                                    for (int64_t r = first; r < last; ++r) {
                                                      DenseRow(x, y, r, rows, cols,
                                                               grad_out + r * cols, loss_out + r,
                                                               scratch);
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
    OP_REQUIRES_OK(ctx, ParallelForWithScratch<T>(ctx, rows, rows * cols, row_cost, cols,
                                                  [&](int64_t first, int64_t last, T* exps) {
                                                    for (int64_t r = first; r < last; ++r) {
                                                      SparseRow(x, static_cast<int64_t>(label[r]),
                                                                r, rows, cols, grad_out + r * cols,
                                                                loss_out + r, exps);
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
