// OneHot on the CPU: output[..., d, ...] = on_value where indices[...] == d, else off_value,
// with the new depth dim inserted at `axis` (-1: last). Indices outside [0, depth), negative
// ones included, give a row of off_value, as in TensorFlow.
//
// The output is viewed as [prefix, depth, suffix] (prefix = indices dims before axis) and
// indices as [prefix, suffix] (one_hot_plan.h, shared with the GPU kernel). Values are written by
// element size (element_bytes.h), so one instantiation per (size, index dtype) serves every value
// dtype.
#include <algorithm>
#include <cstdint>

#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/indexing/one_hot_plan.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

template <typename U, typename Index>
void FillOneHot(OpKernelContext* ctx, const Index* indices, int64_t prefix, int64_t depth,
                int64_t suffix, const U& on, const U& off, U* out) {
  const int64_t rows = prefix * depth;
  const Eigen::TensorOpCost cost(suffix * sizeof(Index), suffix * sizeof(U), suffix);
  ParallelFor(ctx, rows, rows * suffix, cost, [&](int64_t first, int64_t last) {
    for (int64_t row = first; row < last; ++row) {
      const int64_t p = row / depth;
      const int64_t d = row % depth;
      const Index* in = indices + p * suffix;
      U* dst = out + row * suffix;
      for (int64_t s = 0; s < suffix; ++s) {
        dst[s] = static_cast<int64_t>(in[s]) == d ? on : off;
      }
    }
  });
}

class OneHotOp : public OpKernel {
 public:
  explicit OneHotOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("axis", &axis_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& indices = ctx->input(0);
    const Tensor& on_value = ctx->input(2);
    const Tensor& off_value = ctx->input(3);
    OneHotPlan plan;
    OP_REQUIRES_OK(ctx, PlanOneHot(indices, ctx->input(1), on_value, off_value, axis_, &plan));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, plan.output_shape, &output));
    if (plan.output_shape.num_elements() == 0) return;
    const int64_t prefix = plan.prefix;
    const int64_t depth_v = plan.depth;
    const int64_t suffix = plan.suffix;

    VisitIndexType(indices.dtype(), [&](auto index_tag) {
      using Index = typename decltype(index_tag)::type;
      VisitByElementSize(output->dtype(), [&](auto tag) {
        using U = typename decltype(tag)::type;
        FillOneHot<U, Index>(ctx, indices.base<Index>(), prefix, depth_v, suffix,
                             ElementsAs<U>(on_value)[0], ElementsAs<U>(off_value)[0],
                             MutableElementsAs<U>(output));
      });
    });
  }

 private:
  int64_t axis_ = -1;
};

// TensorFlow's CPU registrations: numbers, bool, string and resource handles.
constexpr DataType kOneHotTypes[] = {
#define SLUICE_ONE_HOT_TYPE(T) DataTypeToEnum<T>::value,
    SLUICE_CALL_NUMBER_TYPES(SLUICE_ONE_HOT_TYPE) SLUICE_CALL_bool(SLUICE_ONE_HOT_TYPE)
        SLUICE_CALL_string(SLUICE_ONE_HOT_TYPE)
#undef SLUICE_ONE_HOT_TYPE
            DT_RESOURCE};

REGISTER_KERNEL_BUILDER(
    Name("OneHot").Device(DEVICE_CPU).TypeConstraint("T", kOneHotTypes).HostMemory("depth"),
    OneHotOp);

}  // namespace
}  // namespace sluice
