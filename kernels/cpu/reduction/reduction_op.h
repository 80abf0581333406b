// ReductionOp<T, R>: the kernel of Sum, Mean, Prod, Max, Min, All and Any on the CPU.
//
// Inputs: `input` (T) and `reduction_indices` (int32 or int64, any shape: the dims to fold);
// attr keep_dims. The plan (reduction_plan.h) validates the axes; when it folds nothing the
// output is the input itself, reshaped (TensorFlow forwards it too). Otherwise each pass
// reduces into the reducer's accumulation type and a last step converts (Mean: divides) into
// the output; when no conversion is needed the last pass writes the output directly.
#ifndef SLUICE_KERNELS_CPU_REDUCTION_REDUCTION_OP_H_
#define SLUICE_KERNELS_CPU_REDUCTION_REDUCTION_OP_H_

#include <cstdint>
#include <type_traits>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/reduction/reduce_loops.h"
#include "kernels/cpu/reduction/reduction_plan.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace reduction {

template <typename T, template <typename> class Reducer>
class ReductionOp : public OpKernel {
 public:
  explicit ReductionOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("keep_dims", &keep_dims_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    ReductionPlan plan;
    OP_REQUIRES_OK(ctx, MakeReductionPlan(input.shape(), ctx->input(1), keep_dims_, &plan));
    if (plan.passes().empty()) {
      Tensor output;
      OP_REQUIRES(ctx, output.CopyFrom(input, plan.output_shape()),
                  errors::Internal("Error during reduction copy."));
      ctx->set_output(0, output);
      return;
    }
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, plan.output_shape(), &output));
    if (output->NumElements() == 0) return;
    OP_REQUIRES_OK(ctx, Reduce(ctx, input, plan, output));
  }

 private:
  using R = Reducer<T>;
  using Acc = typename R::Acc;
  static constexpr bool kWritesOutputDirectly = std::is_same_v<Acc, T> && !R::kFinalizes;

  static absl::Status Reduce(OpKernelContext* ctx, const Tensor& input, const ReductionPlan& plan,
                             Tensor* output) {
    const auto& passes = plan.passes();
    Tensor previous;
    Tensor current;
    for (size_t k = 0; k < passes.size(); ++k) {
      const ReductionPass& p = passes[k];
      Acc* dst;
      if (kWritesOutputDirectly && k + 1 == passes.size()) {
        dst = reinterpret_cast<Acc*>(output->base<T>());
      } else {
        // shape-safe: outer and inner are products of disjoint groups of the input's dims
        RETURN_IF_ERROR(ctx->allocate_temp(DataTypeToEnum<Acc>::value,
                                           TensorShape({p.outer * p.inner}), &current));
        dst = current.base<Acc>();
      }
      if (k == 0) {
        RETURN_IF_ERROR((ReducePass<T, R>(ctx, input.base<T>(), dst, p)));
      } else {
        RETURN_IF_ERROR((ReducePass<Acc, R>(ctx, previous.base<Acc>(), dst, p)));
      }
      previous = current;
    }
    if constexpr (!kWritesOutputDirectly) {
      const Acc* acc = previous.base<Acc>();
      T* out = output->base<T>();
      const int64_t count = plan.reduced_count();
      const int64_t n = output->NumElements();
      ParallelFor(ctx, n, n, Eigen::TensorOpCost(sizeof(Acc), sizeof(T), 1),
                  [&](int64_t first, int64_t last) {
                    for (int64_t i = first; i < last; ++i) out[i] = R::Finalize(acc[i], count);
                  });
    }
    return absl::OkStatus();
  }

  bool keep_dims_ = false;
};

}  // namespace reduction
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_REDUCTION_REDUCTION_OP_H_
