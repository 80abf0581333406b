// ScatterNd and TensorScatterUpdate/Add/Sub/Max/Min on the CPU. indices [..., depth] name
// slices of the output; updates holds one slice per index row. ScatterNd starts from zeros
// (empty strings) and adds, so duplicate rows accumulate (strings concatenate, bools or);
// the TensorScatter ops start from a copy of `tensor` and assign, add, subtract, or keep
// the max or min (a NaN already in the output stays, a NaN update is ignored, as Eigen's
// cwiseMax/cwiseMin in TensorFlow's kernel).
//
// Rows are applied one after another in index order, as TensorFlow's CPU kernel does, so
// float sums round identically and the last duplicate wins for Update. Validation is
// scatter_nd_plan.h's; an out-of-range row fails with TensorFlow's message naming the last
// such row, unless bad_indices_policy is "IGNORE", which skips it.
#include <algorithm>
#include <cstdint>
#include <string>

#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/indexing/scatter_nd_plan.h"
#include "kernels/cpu/scratch.h"
#include "kernels/cpu/wrapping_arithmetic.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

enum class ScatterKind { kAssign, kAdd, kSub, kMax, kMin };

// dst[i] = dst[i] (op) src[i] for one slice.
template <typename T, ScatterKind kKind>
void ApplySlice(const T* src, int64_t n, T* dst) {
  for (int64_t i = 0; i < n; ++i) {
    if constexpr (kKind == ScatterKind::kAssign) {
      dst[i] = src[i];
    } else if constexpr (kKind == ScatterKind::kAdd) {
      dst[i] = WrappingAdd(dst[i], src[i]);
    } else if constexpr (kKind == ScatterKind::kSub) {
      dst[i] = WrappingSub(dst[i], src[i]);
    } else if constexpr (kKind == ScatterKind::kMax) {
      if (dst[i] < src[i]) dst[i] = src[i];
    } else {
      if (src[i] < dst[i]) dst[i] = src[i];
    }
  }
}

// Reads bad_indices_policy: true for "IGNORE"; "", "DEFAULT" and "ERROR" fail on a bad row.
absl::Status IgnoreBadIndices(OpKernelConstruction* ctx, bool* ignore) {
  std::string policy;
  RETURN_IF_ERROR(ctx->GetAttr("bad_indices_policy", &policy));
  *ignore = policy == "IGNORE";
  if (!*ignore && !policy.empty() && policy != "DEFAULT" && policy != "ERROR") {
    return errors::InvalidArgument("Unknown bad indices handling attribute: ", policy);
  }
  return absl::OkStatus();
}

// Applies every good row of updates to *out (already holding the starting values).
template <typename T, ScatterKind kKind>
void Scatter(OpKernelContext* ctx, const Tensor& indices, const Tensor& updates,
             const ScatterNdPlan& plan, bool ignore_bad, const TensorShape& shape, Tensor* out) {
  if (plan.rows == 0) return;
  ScratchArray<int64_t> offsets;
  OP_REQUIRES_OK(ctx, offsets.Allocate(ctx, plan.rows));
  const int64_t bad = ScatterNdOffsets(indices, plan, offsets.data());
  OP_REQUIRES(ctx, bad < 0 || ignore_bad,
              errors::InvalidArgument(ScatterNdBadIndexMessage(indices, plan, bad, shape)));
  const T* src = updates.base<T>();
  T* dst = out->base<T>();
  for (int64_t r = 0; r < plan.rows; ++r) {
    if (offsets[r] < 0) continue;
    ApplySlice<T, kKind>(src + r * plan.slice, plan.slice, dst + offsets[r]);
  }
}

template <typename T>
class ScatterNdOp : public OpKernel {
 public:
  explicit ScatterNdOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, IgnoreBadIndices(ctx, &ignore_bad_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& indices = ctx->input(0);
    const Tensor& updates = ctx->input(1);
    const Tensor& shape_t = ctx->input(2);
    OP_REQUIRES(ctx, shape_t.dims() == 1, errors::InvalidArgument("Shape must be a vector"));
    IntegerValues dims;
    OP_REQUIRES_OK(ctx, IntegerTensorValues(shape_t, &dims));
    TensorShape shape;
    OP_REQUIRES_OK(ctx, TensorShape::BuildTensorShape(dims, &shape));
    ScatterNdPlan plan;
    OP_REQUIRES_OK(ctx, PlanScatterNd(shape, shape_t.NumElements(), indices, updates, &plan));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &out));
    std::fill_n(out->base<T>(), out->NumElements(), T());
    Scatter<T, ScatterKind::kAdd>(ctx, indices, updates, plan, ignore_bad_, shape, out);
  }

 private:
  bool ignore_bad_ = false;
};

template <typename T, ScatterKind kKind>
class TensorScatterOp : public OpKernel {
 public:
  explicit TensorScatterOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, IgnoreBadIndices(ctx, &ignore_bad_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& tensor = ctx->input(0);
    const Tensor& indices = ctx->input(1);
    const Tensor& updates = ctx->input(2);
    ScatterNdPlan plan;
    OP_REQUIRES_OK(ctx,
                   PlanScatterNd(tensor.shape(), tensor.NumElements(), indices, updates, &plan));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({0}, 0, tensor.shape(), &out));
    if (out->base<T>() != tensor.base<T>()) {
      std::copy_n(tensor.base<T>(), tensor.NumElements(), out->base<T>());
    }
    Scatter<T, kKind>(ctx, indices, updates, plan, ignore_bad_, tensor.shape(), out);
  }

 private:
  bool ignore_bad_ = false;
};

// TensorFlow's CPU kernels take int32 and int64 indices (the OpDefs allow more).
#define REGISTER_WITH_INDEX(NAME, T, ...)                                                       \
  REGISTER_KERNEL_BUILDER(                                                                      \
      Name(NAME).Device(DEVICE_CPU).TypeConstraint<T>("T").TypeConstraint<int32_t>("Tindices"), \
      __VA_ARGS__);                                                                             \
  REGISTER_KERNEL_BUILDER(                                                                      \
      Name(NAME).Device(DEVICE_CPU).TypeConstraint<T>("T").TypeConstraint<int64_t>("Tindices"), \
      __VA_ARGS__);

#define REGISTER_SCATTER_ND(T)                        \
  REGISTER_WITH_INDEX("ScatterNd", T, ScatterNdOp<T>) \
  REGISTER_WITH_INDEX("TensorScatterUpdate", T, TensorScatterOp<T, ScatterKind::kAssign>)
#define REGISTER_ADD_SUB(T)                                                         \
  REGISTER_WITH_INDEX("TensorScatterAdd", T, TensorScatterOp<T, ScatterKind::kAdd>) \
  REGISTER_WITH_INDEX("TensorScatterSub", T, TensorScatterOp<T, ScatterKind::kSub>)
#define REGISTER_MIN_MAX(T)                                                         \
  REGISTER_WITH_INDEX("TensorScatterMax", T, TensorScatterOp<T, ScatterKind::kMax>) \
  REGISTER_WITH_INDEX("TensorScatterMin", T, TensorScatterOp<T, ScatterKind::kMin>)

SLUICE_CALL_NUMBER_TYPES(REGISTER_SCATTER_ND)
SLUICE_CALL_bool(REGISTER_SCATTER_ND) SLUICE_CALL_string(REGISTER_SCATTER_ND)
    SLUICE_CALL_NUMBER_TYPES(REGISTER_ADD_SUB) SLUICE_CALL_REAL_NUMBER_TYPES(REGISTER_MIN_MAX)

#undef REGISTER_MIN_MAX
#undef REGISTER_ADD_SUB
#undef REGISTER_SCATTER_ND
#undef REGISTER_WITH_INDEX

}  // namespace
}  // namespace sluice
