// BinaryOp<F>: the kernel behind every elementwise binary op with numpy broadcasting (AddV2,
// Sub, Mul, the divisions, Maximum, Pow, the comparisons, LogicalAnd, ...). An op is a
// functor F and one registration line:
//
//   template <typename T>
//   struct SubFunctor : CwiseFunctor<T> {
//     static T Apply(T a, T b) { return WrappingSub(a, b); }
//   };
//   SLUICE_REGISTER_BINARY("Sub", SubFunctor, float)  // BinaryOp<cwise::SubFunctor<float>>
//
// F supplies In and Out (the element types), Apply(In, In) -> Out, kCheck (a whole-operand
// check on y that TensorFlow reports as an error: integer division by zero, integers to
// negative powers) and kCycles (its cost per element, for the thread pool's cost model).
//
// Compute:
//  1. Same shapes, or one operand with a single element and no more dims than the other
//     (a scalar): one flat loop over the elements.
//  2. Otherwise a BroadcastPlan (broadcast.h): rows of contiguous elements with each
//     operand's stride 0 or 1 in the row, walked by a RowCursor. Incompatible shapes are
//     INVALID_ARGUMENT "Incompatible shapes: [2,3] vs. [4]", except for Equal/NotEqual with
//     incompatible_shape_error=false, which output a scalar false/true as TensorFlow does.
//  The output takes the buffer of an unshared input of the output's shape and dtype (element
//  i of that input is read before element i of the output is written, so this is safe).
//  Both loops split over the device's intra-op pool (ParallelFor) when large.
#ifndef SLUICE_KERNELS_CPU_CWISE_BINARY_OP_H_
#define SLUICE_KERNELS_CPU_CWISE_BINARY_OP_H_

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "kernels/cpu/cwise/broadcast.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sluice {

// What BinaryOp verifies about y before computing (only when the output is non-empty, as
// TensorFlow then reads every element of y).
enum class OperandCheck {
  kNone,
  kNonZeroDivisor,       // integer division and modulo
  kNonNegativeExponent,  // integer Pow
};

// Defaults for functors: same input and output type, no check, one cycle per element.
template <typename T, typename OutT = T>
struct CwiseFunctor {
  using In = T;
  using Out = OutT;
  static constexpr OperandCheck kCheck = OperandCheck::kNone;
  static constexpr int kCycles = 1;
};

// z[i] = F(x[i or 0], y[i or 0]) for i in [0, n); strides known at compile time so the loop
// vectorises.
template <typename F, bool kXVaries, bool kYVaries>
void BinaryRow(const typename F::In* x, const typename F::In* y, typename F::Out* z, int64_t n) {
  for (int64_t i = 0; i < n; ++i) z[i] = F::Apply(x[kXVaries ? i : 0], y[kYVaries ? i : 0]);
}

// Rows [k, k + run) of one run along the second-innermost merged dim: operand offsets
// advance by that dim's strides, the output by whole rows.
template <typename F, bool kXVaries, bool kYVaries>
void BinaryRun(const typename F::In* x, const typename F::In* y, typename F::Out* z, int64_t inner,
               int64_t run, int64_t x_step, int64_t y_step) {
  for (int64_t k = 0; k < run; ++k) {
    BinaryRow<F, kXVaries, kYVaries>(x + k * x_step, y + k * y_step, z + k * inner, inner);
  }
}

// Short rows where one operand repeats the same row (stride 0 along the second-innermost
// dim) and the other is contiguous across rows — BiasAdd, [N,H,W,C] * [C], [N,HW,C] *
// [N,1,C]: the repeated row is tiled `kTile` times into a buffer, so that kTile rows at a
// time are one contiguous, vectorisable loop instead of kTile tiny ones.
template <typename F>
bool BinaryTiledRun(const typename F::In* x, const typename F::In* y, typename F::Out* z,
                    int64_t inner, int64_t run, int64_t x_step, int64_t y_step) {
  using In = typename F::In;
  if constexpr (!std::is_trivially_copyable_v<In>) {
    return false;  // strings: copying them would cost more than it saves
  }
  constexpr int64_t kTileElements = 256;
  const bool x_repeats = x_step == 0 && y_step == inner;
  const bool y_repeats = y_step == 0 && x_step == inner;
  if (!(x_repeats || y_repeats) || inner * 4 > kTileElements) return false;
  const int64_t tile = kTileElements / inner;  // rows per tile
  In buffer[kTileElements];
  const In* row = x_repeats ? x : y;
  for (int64_t t = 0; t < tile; ++t) {
    for (int64_t i = 0; i < inner; ++i) buffer[t * inner + i] = row[i];
  }
  int64_t k = 0;
  for (; k + tile <= run; k += tile) {
    const int64_t offset = k * inner;
    if (x_repeats) {
      BinaryRow<F, true, true>(buffer, y + offset, z + offset, tile * inner);
    } else {
      BinaryRow<F, true, true>(x + offset, buffer, z + offset, tile * inner);
    }
  }
  const int64_t rest = (run - k) * inner;
  if (rest > 0) {
    const int64_t offset = k * inner;
    if (x_repeats) {
      BinaryRow<F, true, true>(buffer, y + offset, z + offset, rest);
    } else {
      BinaryRow<F, true, true>(x + offset, buffer, z + offset, rest);
    }
  }
  return true;
}

// Rows [first_row, last_row) of a broadcast, a run along the second-innermost merged dim at
// a time (the cursor's odometer costs more than a short row's arithmetic).
template <typename F>
void BinaryRows(const BroadcastPlan& plan, const typename F::In* x, const typename F::In* y,
                typename F::Out* z, int64_t first_row, int64_t last_row) {
  const int64_t inner = plan.inner();
  const bool xv = plan.inner_varies(0);
  const bool yv = plan.inner_varies(1);
  const int nd = static_cast<int>(plan.dims.size());
  const int64_t mid = nd >= 2 ? plan.dims[nd - 2] : 1;
  const int64_t x_step = nd >= 2 ? plan.strides[0][nd - 2] : 0;
  const int64_t y_step = nd >= 2 ? plan.strides[1][nd - 2] : 0;
  for (int64_t row = first_row; row < last_row;) {
    const RowCursor c(plan, row);
    const int64_t run = std::min(mid - row % mid, last_row - row);
    const typename F::In* xr = x + c.offset(0);
    const typename F::In* yr = y + c.offset(1);
    typename F::Out* zr = z + row * inner;
    if (xv && yv) {
      if (!BinaryTiledRun<F>(xr, yr, zr, inner, run, x_step, y_step)) {
        BinaryRun<F, true, true>(xr, yr, zr, inner, run, x_step, y_step);
      }
    } else if (xv) {
      BinaryRun<F, true, false>(xr, yr, zr, inner, run, x_step, y_step);
    } else {
      BinaryRun<F, false, true>(xr, yr, zr, inner, run, x_step, y_step);
    }
    row += run;
  }
}

// The error TensorFlow reports when y fails the check of op `op`: it words it by op name,
// and TruncateDiv/TruncateMod by zero fall through to an INTERNAL error there.
inline absl::Status OperandCheckError(absl::string_view op) {
  if (op == "Div" || op == "FloorDiv" || op == "FloorMod") {
    return errors::InvalidArgument("Integer division by zero");
  }
  if (op == "Pow") {
    return errors::InvalidArgument("Integers to negative integer powers are not allowed");
  }
  return errors::Internal(
      "Unexpected error in binary operator (only integer div and mod should have errors)");
}

// Sets TensorFlow's error on ctx and returns false when y fails F's check.
template <typename F>
bool CheckOperand(OpKernelContext* ctx, const Tensor& y) {
  using In = typename F::In;
  if constexpr (F::kCheck == OperandCheck::kNone) {
    return true;
  } else {
    const In* p = y.flat<In>().data();
    const int64_t n = y.NumElements();
    bool bad = false;
    for (int64_t i = 0; i < n; ++i) {
      if constexpr (F::kCheck == OperandCheck::kNonZeroDivisor) {
        bad |= p[i] == In(0);
      } else {
        bad |= p[i] < In(0);
      }
    }
    if (!bad) return true;
    ctx->SetStatus(OperandCheckError(ctx->op_kernel().type_string()));
    return false;
  }
}

template <typename F>
class BinaryOp : public OpKernel {
 public:
  using In = typename F::In;
  using Out = typename F::Out;

  explicit BinaryOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    if (ctx->HasAttr("incompatible_shape_error")) {
      OP_REQUIRES_OK(ctx, ctx->GetAttr("incompatible_shape_error", &incompatible_shape_error_));
    }
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    const Tensor& y = ctx->input(1);
    if (x.shape() == y.shape()) {
      ComputeFlat<true, true>(ctx, x, y, x.shape());
    } else if (y.NumElements() == 1 && y.dims() <= x.dims()) {
      ComputeFlat<true, false>(ctx, x, y, x.shape());
    } else if (x.NumElements() == 1 && x.dims() <= y.dims()) {
      ComputeFlat<false, true>(ctx, x, y, y.shape());
    } else {
      ComputeBroadcast(ctx, x, y);
    }
  }

 private:
  static Eigen::TensorOpCost ElementCost() {
    return Eigen::TensorOpCost(2 * sizeof(In), sizeof(Out), F::kCycles);
  }

  // Output `shape`, from an input's buffer when one of that shape and dtype is unshared.
  Tensor* AllocateOutput(OpKernelContext* ctx, const Tensor& x, const Tensor& y,
                         const TensorShape& shape) {
    int candidates[2] = {0, 0};
    size_t num_candidates = 0;
    if (std::is_same_v<In, Out>) {
      if (x.shape() == shape) candidates[num_candidates++] = 0;
      if (y.shape() == shape) candidates[num_candidates++] = 1;
    }
    Tensor* z = nullptr;
    const absl::Status s = ctx->forward_input_or_allocate_output(
        absl::Span<const int>(candidates, num_candidates), 0, shape, &z);
    if (!s.ok()) {
      ctx->SetStatus(s);
      return nullptr;
    }
    return z;
  }

  template <bool kXVaries, bool kYVaries>
  void ComputeFlat(OpKernelContext* ctx, const Tensor& x, const Tensor& y,
                   const TensorShape& shape) {
    const int64_t n = shape.num_elements();
    if (n > 0 && !CheckOperand<F>(ctx, y)) return;
    Tensor* z = AllocateOutput(ctx, x, y, shape);
    if (z == nullptr || n == 0) return;
    const In* xp = x.flat<In>().data();
    const In* yp = y.flat<In>().data();
    Out* zp = z->flat<Out>().data();
    ParallelFor(ctx, n, n, ElementCost(), [=](int64_t first, int64_t last) {
      BinaryRow<F, kXVaries, kYVaries>(xp + (kXVaries ? first : 0), yp + (kYVaries ? first : 0),
                                       zp + first, last - first);
    });
  }

  void ComputeBroadcast(OpKernelContext* ctx, const Tensor& x, const Tensor& y) {
    BroadcastPlan plan;
    const TensorShape* shapes[] = {&x.shape(), &y.shape()};
    if (!MakeBroadcastPlan(shapes, &plan)) {
      if constexpr (std::is_same_v<Out, bool>) {
        if (!incompatible_shape_error_) {
          Tensor* z = nullptr;
          OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({}), &z));
          z->flat<bool>().data()[0] = type_string() == "NotEqual";
          return;
        }
      }
      ctx->SetStatus(errors::InvalidArgument("Incompatible shapes: ", x.shape().DebugString(),
                                             " vs. ", y.shape().DebugString()));
      return;
    }
    const int64_t n = plan.output_shape.num_elements();
    if (n > 0 && !CheckOperand<F>(ctx, y)) return;
    Tensor* z = AllocateOutput(ctx, x, y, plan.output_shape);
    if (z == nullptr || n == 0) return;
    const In* xp = x.flat<In>().data();
    const In* yp = y.flat<In>().data();
    Out* zp = z->flat<Out>().data();
    const Eigen::TensorOpCost row_cost = ElementCost() * static_cast<double>(plan.inner());
    ParallelFor(ctx, plan.rows(), n, row_cost,
                [&](int64_t first, int64_t last) { BinaryRows<F>(plan, xp, yp, zp, first, last); });
  }

  // Equal/NotEqual only: whether incompatible shapes are an error (else a scalar result).
  bool incompatible_shape_error_ = true;
};

}  // namespace sluice

// Registers BinaryOp<Functor<T>> as op `op`'s CPU kernel for T.
#define SLUICE_REGISTER_BINARY(op, Functor, T)                                \
  REGISTER_KERNEL_BUILDER(Name(op).Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          ::sluice::BinaryOp<::sluice::cwise::Functor<T>>);

// The int32 kernel of `op` on GPUs, computing on the host from host memory (TensorFlow's
// registrations: GPUs keep int32 in host memory). Shape and loop-counter arithmetic then stays
// on the GPU device with no copy, and a while loop's counter, its predicate and its body run in
// one partition. With no intra-op pool on a GPU device, ParallelFor runs inline.
#define SLUICE_REGISTER_BINARY_INT32_ON_GPU(op, Functor)     \
  REGISTER_KERNEL_BUILDER(Name(op)                           \
                              .Device(DEVICE_GPU)            \
                              .HostMemory("x")               \
                              .HostMemory("y")               \
                              .HostMemory("z")               \
                              .TypeConstraint<int32_t>("T"), \
                          ::sluice::BinaryOp<::sluice::cwise::Functor<int32_t>>)

#endif  // SLUICE_KERNELS_CPU_CWISE_BINARY_OP_H_
