// Select and SelectV2 on the CPU: output[i] = condition[i] ? t[i] : e[i].
//
// Select (TensorFlow's rules): a scalar condition picks all of t or all of e (which must
// have the same shape); a vector condition with a t of higher rank picks rows of t/e by
// their first dim; otherwise condition, t and e must have one shape. SelectV2 broadcasts
// all three operands against each other (numpy rules).
//
// Every form runs as a three-operand BroadcastPlan (broadcast.h): Select's row-wise form is
// the condition reshaped to [n, 1, ..., 1]. The output takes the buffer of an unshared t or
// e of the output's shape. Dtypes: TensorFlow's CPU registrations less resource and variant.
#include <cstdint>
#include <string>

#include "absl/container/inlined_vector.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/cwise/broadcast.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sluice {
namespace {

// Rows [first_row, last_row) of z = c ? t : e under `plan` (operands c, t, e).
template <typename T>
void SelectRows(const BroadcastPlan& plan, const bool* c, const T* t, const T* e, T* z,
                int64_t first_row, int64_t last_row) {
  const int64_t inner = plan.inner();
  const int64_t cs = plan.inner_varies(0) ? 1 : 0;
  const int64_t ts = plan.inner_varies(1) ? 1 : 0;
  const int64_t es = plan.inner_varies(2) ? 1 : 0;
  for (RowCursor cur(plan, first_row); cur.row() < last_row; cur.Next()) {
    const bool* cr = c + cur.offset(0);
    const T* tr = t + cur.offset(1);
    const T* er = e + cur.offset(2);
    T* zr = z + cur.row() * inner;
    for (int64_t i = 0; i < inner; ++i) zr[i] = cr[i * cs] ? tr[i * ts] : er[i * es];
  }
}

// Computes output 0 of ctx as a select of cond (viewed with shape cond_shape), t and e.
// Sets INVALID_ARGUMENT `incompatible` when the shapes do not broadcast.
template <typename T>
void RunSelect(OpKernelContext* ctx, const Tensor& cond, const TensorShape& cond_shape,
               const Tensor& t, const Tensor& e, const absl::Status& incompatible) {
  BroadcastPlan plan;
  const TensorShape* shapes[] = {&cond_shape, &t.shape(), &e.shape()};
  if (!MakeBroadcastPlan(shapes, &plan)) {
    ctx->SetStatus(incompatible);
    return;
  }
  absl::InlinedVector<int, 2> candidates;
  if (t.shape() == plan.output_shape) candidates.push_back(1);
  if (e.shape() == plan.output_shape) candidates.push_back(2);
  Tensor* z = nullptr;
  OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output(candidates, 0, plan.output_shape, &z));
  const int64_t n = plan.output_shape.num_elements();
  if (n == 0) return;
  const bool* cp = cond.flat<bool>().data();
  const T* tp = t.flat<T>().data();
  const T* ep = e.flat<T>().data();
  T* zp = z->flat<T>().data();
  const Eigen::TensorOpCost row_cost(static_cast<double>(plan.inner() * (1 + sizeof(T))),
                                     static_cast<double>(plan.inner() * sizeof(T)),
                                     static_cast<double>(plan.inner()));
  ParallelFor(ctx, plan.rows(), n, row_cost, [&](int64_t first, int64_t last) {
    SelectRows<T>(plan, cp, tp, ep, zp, first, last);
  });
}

template <typename T>
class SelectOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& cond = ctx->input(0);
    const Tensor& t = ctx->input(1);
    const Tensor& e = ctx->input(2);
    if (cond.dims() == 0) {
      OP_REQUIRES(
          ctx, t.shape() == e.shape(),
          errors::InvalidArgument("'then' and 'else' must have the same size.  but received: ",
                                  t.shape().DebugString(), " vs. ", e.shape().DebugString()));
      ctx->set_output(0, cond.flat<bool>().data()[0] ? t : e);
      return;
    }
    if (cond.dims() == 1 && t.dims() != 1) {
      OP_REQUIRES(ctx, t.dims() >= 1,
                  errors::InvalidArgument("'then' must be at least a vector, but saw shape: ",
                                          t.shape().DebugString()));
      OP_REQUIRES(ctx, t.dim_size(0) == cond.NumElements(),
                  errors::InvalidArgument(
                      "Number of batches of 'then' must match size of 'cond', but saw: ",
                      t.dim_size(0), " vs. ", cond.NumElements()));
      OP_REQUIRES(
          ctx, t.shape() == e.shape(),
          errors::InvalidArgument("'then' and 'else' must have the same size.  but received: ",
                                  t.shape().DebugString(), " vs. ", e.shape().DebugString()));
      // Rows of t and e by their first dim: the condition as [n, 1, ..., 1].
      // heap-ok: one per dim of the input (rank <= 254)
      absl::InlinedVector<int64_t, 6> dims(t.dims(), 1);
      dims[0] = cond.NumElements();
      TensorShape cond_shape;
      OP_REQUIRES_OK(ctx, TensorShape::BuildTensorShape(dims, &cond_shape));
      RunSelect<T>(ctx, cond, cond_shape, t, e, absl::OkStatus());
      return;
    }
    for (int i = 1; i < 3; ++i) {
      const Tensor& in = ctx->input(i);
      OP_REQUIRES(ctx, cond.shape() == in.shape(),
                  errors::InvalidArgument(
                      "Inputs to operation ", name(), " of type ", type_string(),
                      " must have the same size and shape.  Input 0: ", cond.shape().DebugString(),
                      " != input ", i, ": ", in.shape().DebugString()));
    }
    RunSelect<T>(ctx, cond, cond.shape(), t, e, absl::OkStatus());
  }
};

template <typename T>
class SelectV2Op : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& cond = ctx->input(0);
    const Tensor& t = ctx->input(1);
    const Tensor& e = ctx->input(2);
    RunSelect<T>(ctx, cond, cond.shape(), t, e,
                 errors::InvalidArgument("condition ", cond.shape().DebugString(), ", then ",
                                         t.shape().DebugString(), ", and else ",
                                         e.shape().DebugString(), " must be broadcastable"));
  }
};

#define REGISTER_SELECT(T)                                                                        \
  REGISTER_KERNEL_BUILDER(Name("Select").Device(DEVICE_CPU).TypeConstraint<T>("T"), SelectOp<T>); \
  REGISTER_KERNEL_BUILDER(Name("SelectV2").Device(DEVICE_CPU).TypeConstraint<T>("T"),             \
                          SelectV2Op<T>);
SLUICE_CALL_NUMBER_TYPES(REGISTER_SELECT)
SLUICE_CALL_bool(REGISTER_SELECT) SLUICE_CALL_string(REGISTER_SELECT)
#undef REGISTER_SELECT

}  // namespace
}  // namespace sluice
