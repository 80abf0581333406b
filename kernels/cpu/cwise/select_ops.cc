// Select and SelectV2 on the CPU: output[i] = condition[i] ? t[i] : e[i].
//
// Select (TensorFlow's rules): a scalar condition picks all of t or all of e (which must
// have the same shape); a vector condition with a t of higher rank picks rows of t/e by
// their first dim; otherwise condition, t and e must have one shape. SelectV2 broadcasts
// all three operands against each other (numpy rules).
//
// Every form runs as a three-operand BroadcastPlan (broadcast.h), planned by select_plan.h
// (shared with the GPU kernels); a scalar Select condition forwards t or e. The output takes the
// buffer of an unshared t or e of the output's shape. Dtypes: TensorFlow's CPU registrations less
// resource and variant.
#include <cstdint>
#include <string>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/cwise/broadcast.h"
#include "kernels/cpu/cwise/select_plan.h"
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

// Computes output 0 of ctx as a select of cond, t and e under `plan`.
template <typename T>
void RunSelect(OpKernelContext* ctx, const BroadcastPlan& plan, const Tensor& cond, const Tensor& t,
               const Tensor& e) {
  Tensor* z = nullptr;
  OP_REQUIRES_OK(ctx, ForwardOrAllocateSelectOutput(ctx, plan, &z));
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

// Select and SelectV2 (the op's name tells them apart: PlanSelect).
template <typename T>
class SelectOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& cond = ctx->input(0);
    const Tensor& t = ctx->input(1);
    const Tensor& e = ctx->input(2);
    BroadcastPlan plan;
    OP_REQUIRES_OK(ctx,
                   PlanSelect(type_string(), name(), cond.shape(), t.shape(), e.shape(), &plan));
    if (cond.dims() == 0 && type_string() == "Select") {
      ctx->set_output(0, cond.flat<bool>().data()[0] ? t : e);
      return;
    }
    RunSelect<T>(ctx, plan, cond, t, e);
  }
};

#define REGISTER_SELECT(T)                                                                        \
  REGISTER_KERNEL_BUILDER(Name("Select").Device(DEVICE_CPU).TypeConstraint<T>("T"), SelectOp<T>); \
  REGISTER_KERNEL_BUILDER(Name("SelectV2").Device(DEVICE_CPU).TypeConstraint<T>("T"), SelectOp<T>);
SLUICE_CALL_NUMBER_TYPES(REGISTER_SELECT)
SLUICE_CALL_bool(REGISTER_SELECT) SLUICE_CALL_string(REGISTER_SELECT)
#undef REGISTER_SELECT

}  // namespace
}  // namespace sluice
