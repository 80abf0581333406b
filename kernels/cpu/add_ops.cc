// Add and AddV2 on the CPU: z = x + y elementwise, with numpy broadcasting (TensorFlow's
// semantics; the two ops differ only in graph-level flags and Add's string support, which
// is not registered here).
//
// Algorithm:
//  1. Same shapes, or one operand with a single element and no more dims than the other
//     (a scalar): one flat loop, reusing an unshared input's buffer for the output.
//  2. Otherwise a broadcast plan: right-align the shapes, check each dim pair is equal or
//     has a 1 (else INVALID_ARGUMENT "Incompatible shapes: [2,3] vs. [4]"), drop output dims
//     of size 1, merge neighbouring dims that broadcast alike, and give each operand a
//     stride per merged dim (0 where it is broadcast). The output is then rows of the
//     innermost merged dim, walked with an odometer over the outer dims.
// Both loops split over the device's Eigen ThreadPoolDevice when the tensor is large.
// The broadcasting is written once over flat indices rather than with Eigen's broadcast
// expressions, which would be instantiated per rank and per dtype and dominate compile time.
//
// Signed integers wrap on overflow as in TensorFlow (the addition is done unsigned, so it is
// defined behaviour).
#include <algorithm>
#include <cstdint>
#include <initializer_list>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "graph/errors.h"
#include "graph/tensor.h"
#include "graph/tensor_shape.h"
#include "graph/types.h"
#include "runtime/device_base.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/wrapping_add.h"
#include "runtime/op_kernel.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sluice {
namespace {

// The merged dims of a broadcast and each operand's element stride in them (0: broadcast).
struct BroadcastPlan {
  TensorShape output_shape;
  absl::InlinedVector<int64_t, 6> dims;
  absl::InlinedVector<int64_t, 6> x_strides;
  absl::InlinedVector<int64_t, 6> y_strides;
};

absl::Status MakeBroadcastPlan(const TensorShape& x, const TensorShape& y,
                               BroadcastPlan* plan) {
  const int rank = std::max(x.dims(), y.dims());
  absl::InlinedVector<int64_t, 6> out_dims;
  // Per output dim (outermost first): size, and whether x / y are broadcast along it.
  absl::InlinedVector<int64_t, 6> sizes;
  absl::InlinedVector<bool, 6> x_bcast;
  absl::InlinedVector<bool, 6> y_bcast;
  for (int i = 0; i < rank; ++i) {
    const int xi = i - (rank - x.dims());
    const int yi = i - (rank - y.dims());
    const int64_t xd = xi < 0 ? 1 : x.dim_size(xi);
    const int64_t yd = yi < 0 ? 1 : y.dim_size(yi);
    if (xd != yd && xd != 1 && yd != 1) {
      return errors::InvalidArgument("Incompatible shapes: ", x.DebugString(), " vs. ",
                                     y.DebugString());
    }
    const int64_t d = xd == 1 ? yd : xd;
    out_dims.push_back(d);
    if (d == 1) continue;  // contributes nothing to the iteration
    const bool xb = xd == 1;
    const bool yb = yd == 1;
    if (!sizes.empty() && x_bcast.back() == xb && y_bcast.back() == yb) {
      sizes.back() *= d;
    } else {
      sizes.push_back(d);
      x_bcast.push_back(xb);
      y_bcast.push_back(yb);
    }
  }
  if (sizes.empty()) {  // every dim is 1: one element, neither operand broadcast
    sizes.push_back(1);
    x_bcast.push_back(false);
    y_bcast.push_back(false);
  }
  RETURN_IF_ERROR(TensorShape::BuildTensorShape(out_dims, &plan->output_shape));
  const size_t n = sizes.size();
  plan->dims.assign(sizes.begin(), sizes.end());
  plan->x_strides.assign(n, 0);
  plan->y_strides.assign(n, 0);
  int64_t x_step = 1;
  int64_t y_step = 1;
  for (size_t k = n; k-- > 0;) {
    if (!x_bcast[k]) {
      plan->x_strides[k] = x_step;
      x_step *= sizes[k];
    }
    if (!y_bcast[k]) {
      plan->y_strides[k] = y_step;
      y_step *= sizes[k];
    }
  }
  return absl::OkStatus();
}

// z[i] = x[i * XS] + y[i * YS] for one row; strides are 0 or 1 and known at compile time so
// the loop vectorizes.
template <typename T, int XS, int YS>
void AddRow(const T* x, const T* y, T* z, int64_t n) {
  for (int64_t i = 0; i < n; ++i) z[i] = WrappingAdd(x[i * XS], y[i * YS]);
}

template <typename T>
void AddRows(const BroadcastPlan& plan, const T* x, const T* y, T* z, int64_t first_row,
             int64_t last_row) {
  const int outer = static_cast<int>(plan.dims.size()) - 1;
  const int64_t inner = plan.dims[outer];
  const int64_t xs = plan.x_strides[outer];
  const int64_t ys = plan.y_strides[outer];
  // The odometer over the outer dims, started at first_row.
  absl::InlinedVector<int64_t, 6> index(outer, 0);
  int64_t x_off = 0;
  int64_t y_off = 0;
  for (int64_t k = outer - 1, rest = first_row; k >= 0; --k) {
    index[k] = rest % plan.dims[k];
    rest /= plan.dims[k];
    x_off += index[k] * plan.x_strides[k];
    y_off += index[k] * plan.y_strides[k];
  }
  for (int64_t row = first_row; row < last_row; ++row) {
    T* out = z + row * inner;
    if (xs != 0 && ys != 0) {
      AddRow<T, 1, 1>(x + x_off, y + y_off, out, inner);
    } else if (xs != 0) {
      AddRow<T, 1, 0>(x + x_off, y + y_off, out, inner);
    } else {
      AddRow<T, 0, 1>(x + x_off, y + y_off, out, inner);
    }
    for (int k = outer - 1; k >= 0; --k) {
      x_off += plan.x_strides[k];
      y_off += plan.y_strides[k];
      if (++index[k] < plan.dims[k]) break;
      x_off -= plan.x_strides[k] * plan.dims[k];
      y_off -= plan.y_strides[k] * plan.dims[k];
      index[k] = 0;
    }
  }
}

template <typename T>
class AddOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    const Tensor& y = ctx->input(1);
    if (x.shape() == y.shape()) {
      ComputeFlat(ctx, x, y, x.shape(), {0, 1}, /*x_scalar=*/false, /*y_scalar=*/false);
    } else if (y.NumElements() == 1 && y.dims() <= x.dims()) {
      ComputeFlat(ctx, x, y, x.shape(), {0}, /*x_scalar=*/false, /*y_scalar=*/true);
    } else if (x.NumElements() == 1 && x.dims() <= y.dims()) {
      ComputeFlat(ctx, x, y, y.shape(), {1}, /*x_scalar=*/true, /*y_scalar=*/false);
    } else {
      ComputeBroadcast(ctx, x, y);
    }
  }

 private:
  static Eigen::TensorOpCost ElementCost() {
    return Eigen::TensorOpCost(2 * sizeof(T), sizeof(T), 1);
  }

  void ComputeFlat(OpKernelContext* ctx, const Tensor& x, const Tensor& y,
                   const TensorShape& shape, std::initializer_list<int> candidates,
                   bool x_scalar, bool y_scalar) {
    Tensor* z = nullptr;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output(candidates, 0, shape, &z));
    const int64_t n = shape.num_elements();
    if (n == 0) return;
    const T* xp = x.flat<T>().data();
    const T* yp = y.flat<T>().data();
    T* zp = z->flat<T>().data();
    ParallelFor(ctx, n, n, ElementCost(), [=](int64_t first, int64_t last) {
      if (y_scalar) {
        const T b = yp[0];
        for (int64_t i = first; i < last; ++i) zp[i] = WrappingAdd(xp[i], b);
      } else if (x_scalar) {
        const T a = xp[0];
        for (int64_t i = first; i < last; ++i) zp[i] = WrappingAdd(a, yp[i]);
      } else {
        for (int64_t i = first; i < last; ++i) zp[i] = WrappingAdd(xp[i], yp[i]);
      }
    });
  }

  void ComputeBroadcast(OpKernelContext* ctx, const Tensor& x, const Tensor& y) {
    BroadcastPlan plan;
    OP_REQUIRES_OK(ctx, MakeBroadcastPlan(x.shape(), y.shape(), &plan));
    // The output may take x's (y's) buffer only when it has x's (y's) shape: then that
    // operand is never broadcast and element i is read before it is written.
    absl::InlinedVector<int, 2> candidates;
    if (plan.output_shape == x.shape()) candidates.push_back(0);
    if (plan.output_shape == y.shape()) candidates.push_back(1);
    Tensor* z = nullptr;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output(candidates, 0, plan.output_shape,
                                                              &z));
    const int64_t n = plan.output_shape.num_elements();
    if (n == 0) return;
    const T* xp = x.flat<T>().data();
    const T* yp = y.flat<T>().data();
    T* zp = z->flat<T>().data();
    const int64_t inner = plan.dims.back();
    const int64_t rows = n / inner;
    const Eigen::TensorOpCost row_cost = ElementCost() * static_cast<double>(inner);
    ParallelFor(ctx, rows, n, row_cost, [&](int64_t first, int64_t last) {
      AddRows<T>(plan, xp, yp, zp, first, last);
    });
  }
};

#define REGISTER_ADD(T)                                                                  \
  REGISTER_KERNEL_BUILDER(Name("Add").Device(DEVICE_CPU).TypeConstraint<T>("T"), AddOp<T>); \
  REGISTER_KERNEL_BUILDER(Name("AddV2").Device(DEVICE_CPU).TypeConstraint<T>("T"), AddOp<T>);
SLUICE_CALL_FLOAT_TYPES(REGISTER_ADD)
SLUICE_CALL_int32(REGISTER_ADD)
SLUICE_CALL_int64(REGISTER_ADD)
#undef REGISTER_ADD

}  // namespace
}  // namespace sluice
