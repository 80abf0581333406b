// SparseApplyOp<T, Rule>: the CPU kernel of a sparse training op, registered for both forms
// (SparseApply* on ref variables, ResourceSparseApply* on resource variables): grad holds
// rows for the rows of var (and its slots) that the vector `indices` names.
//
// A Rule describes one optimizer, as for ApplyOp (apply_op.h), plus:
//   static constexpr int kIndices;               // the indices input (grad is kIndices - 1)
//   static constexpr bool kGatherStyleIndexError;  // "indices[1] = 7 is not in [0, 5)"
//                                                  // rather than "Index 7 at offset 1 in
//                                                  // indices is out of range"
//   Step(const ApplyOptions&, OpKernelContext*, bool scalar_rows): TensorFlow evaluates some
//   updates differently when each row is one element (its scalar code path), and the step
//   follows it.
// Compute takes the variables (variable_inputs.h), runs the checks, checks every index
// before updating anything (TensorFlow's kernels for some ops update the rows before a bad
// index), then updates the rows in index order: a row named twice is updated twice, one
// after the other, as TensorFlow's serial loops do.
#ifndef SLUICE_KERNELS_CPU_TRAINING_SPARSE_APPLY_OP_H_
#define SLUICE_KERNELS_CPU_TRAINING_SPARSE_APPLY_OP_H_

#include <cstdint>

#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "kernels/cpu/training/apply_op.h"
#include "kernels/cpu/training/arg_checks.h"
#include "kernels/cpu/training/variable_inputs.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {

// Entry i of the int32 or int64 vector `indices`.
inline int64_t RowIndex(const Tensor& indices, int64_t i) {
  return indices.dtype() == DT_INT32 ? indices.base<int32_t>()[i] : indices.base<int64_t>()[i];
}

template <typename T, typename Rule>
class SparseApplyOp : public OpKernel {
 public:
  explicit SparseApplyOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("use_locking", &use_locking_));
    if (ctx->HasAttr("use_nesterov")) {
      OP_REQUIRES_OK(ctx, ctx->GetAttr("use_nesterov", &options_.use_nesterov));
    }
    if (ctx->HasAttr("update_slots")) {
      OP_REQUIRES_OK(ctx, ctx->GetAttr("update_slots", &options_.update_slots));
    }
    if (ctx->HasAttr("multiply_linear_by_lr")) {
      OP_REQUIRES_OK(ctx, ctx->GetAttr("multiply_linear_by_lr", &options_.multiply_linear_by_lr));
    }
  }

  void Compute(OpKernelContext* ctx) override {
    VariableInputs vars(ctx, Rule::kVars, DataTypeToEnum<T>::value, use_locking_,
                        LookupErrors::kInvalidReference);
    OP_REQUIRES_OK(ctx, vars.status());
    OP_REQUIRES_OK(ctx, CheckArgs(ctx, vars, Rule::kChecks, options_.multiply_linear_by_lr));
    const Tensor& indices = ctx->input(Rule::kIndices);
    const Tensor& var = vars.tensor(0);
    const int64_t n = indices.NumElements();
    if (n > 0) {
      // var has rows (its checks include kVarAtLeast1D), and with a valid index, some.
      OP_REQUIRES_OK(ctx, CheckRowIndices(indices, var.dim_size(0), Rule::kGatherStyleIndexError));
      const int64_t inner = var.NumElements() / var.dim_size(0);
      const typename Rule::template Step<T> step(options_, ctx, /*scalar_rows=*/inner == 1);
      T* v[Rule::kVars];
      for (int i = 0; i < Rule::kVars; ++i) v[i] = vars.tensor(i).template base<T>();
      const T* grad = ctx->input(Rule::kIndices - 1).template base<T>();
      for (int64_t i = 0; i < n; ++i) {
        const int64_t row = RowIndex(indices, i) * inner;
        for (int64_t j = 0; j < inner; ++j) step(v, grad[i * inner + j], row + j);
      }
    }
    vars.ForwardRef();
  }

 private:
  bool use_locking_ = false;
  ApplyOptions options_;
};

// Registers SparseApplyOp<T, Rule> for "SparseApply<name>" and "ResourceSparseApply<name>"
// (when the op has that form), for both index dtypes.
#define SLUICE_REGISTER_SPARSE_APPLY(name, T, Rule)                                           \
  REGISTER_KERNEL_BUILDER(Name("SparseApply" name).Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          SparseApplyOp<T, Rule>);                                            \
  SLUICE_REGISTER_RESOURCE_SPARSE_APPLY(name, T, Rule)
#define SLUICE_REGISTER_RESOURCE_SPARSE_APPLY(name, T, Rule)                      \
  REGISTER_KERNEL_BUILDER(                                                        \
      Name("ResourceSparseApply" name).Device(DEVICE_CPU).TypeConstraint<T>("T"), \
      SparseApplyOp<T, Rule>);

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_TRAINING_SPARSE_APPLY_OP_H_
