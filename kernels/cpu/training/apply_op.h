// ApplyOp<T, Rule>: the CPU kernel of a dense training op, registered for both forms
// (Apply* on ref variables, ResourceApply* on resource variables).
//
// A Rule describes one optimizer:
//   static constexpr int kVars;                  // var and its slots: inputs [0, kVars)
//   static constexpr int kGrad;                  // the grad input
//   static constexpr ArgCheck kChecks[];         // TensorFlow's argument checks, in order
//   template <typename T> struct Step {
//     Step(const ApplyOptions&, OpKernelContext*);  // reads the (checked) scalar inputs
//     void operator()(T* const* v, T g, int64_t i) const;  // updates element i of v[0..]
//   };
// Compute takes the variables (VariableInputs: lookup, locks, copy-on-write), runs the
// checks, then the step over every element, split over the intra-op pool when large (each
// element's update is independent, so the result does not depend on the split), and for
// the ref form outputs the ref.
#ifndef SLUICE_KERNELS_CPU_TRAINING_APPLY_OP_H_
#define SLUICE_KERNELS_CPU_TRAINING_APPLY_OP_H_

#include <cstdint>

#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/training/arg_checks.h"
#include "kernels/cpu/training/variable_inputs.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {

// The attrs that change an update, where the op has them.
struct ApplyOptions {
  bool use_nesterov = false;
  bool update_slots = true;
  bool multiply_linear_by_lr = false;
};

// Scalar input i of the kernel. REQUIRES: checked to be a scalar of type T.
template <typename T>
T ScalarInput(OpKernelContext* ctx, int i) {
  return *ctx->input(i).base<T>();
}

template <typename T, typename Rule>
class ApplyOp : public OpKernel {
 public:
  explicit ApplyOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
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
    OP_REQUIRES_OK(ctx, CheckArgs(ctx, vars, Rule::kChecks));
    const typename Rule::template Step<T> step(options_, ctx);
    T* v[Rule::kVars];
    for (int i = 0; i < Rule::kVars; ++i) v[i] = vars.tensor(i).template base<T>();
    const T* grad = ctx->input(Rule::kGrad).template base<T>();
    const int64_t n = vars.tensor(0).NumElements();
    const Eigen::TensorOpCost cost(sizeof(T) * (Rule::kVars + 1), sizeof(T) * Rule::kVars,
                                   8 * Rule::kVars);
    ParallelFor(ctx, n, n, cost, [&](int64_t first, int64_t last) {
      for (int64_t i = first; i < last; ++i) step(v, grad[i], i);
    });
    vars.ForwardRef();
  }

 private:
  bool use_locking_ = false;
  ApplyOptions options_;
};

// Registers ApplyOp<T, Rule> for "Apply<name>" and "ResourceApply<name>" (when the op has
// that form).
#define SLUICE_REGISTER_APPLY(name, T, Rule)                                            \
  REGISTER_KERNEL_BUILDER(Name("Apply" name).Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          ApplyOp<T, Rule>);                                            \
  SLUICE_REGISTER_RESOURCE_APPLY(name, T, Rule)
#define SLUICE_REGISTER_RESOURCE_APPLY(name, T, Rule)                                           \
  REGISTER_KERNEL_BUILDER(Name("ResourceApply" name).Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          ApplyOp<T, Rule>);

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_TRAINING_APPLY_OP_H_
