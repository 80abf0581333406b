// ResourceGather and ResourceGatherNd: Gather (GatherV2 with axis = batch_dims) and GatherNd
// with a resource variable as params. Embedding lookups in SavedModels read their tables this
// way, so these run for inference as much as for training.
//
// The variable is read under its mutex held shared for the whole gather, as TensorFlow does,
// rather than through a second reference to its buffer (which would make the next update of
// the variable copy it). Shapes, index ranges and errors are Gather's and GatherNd's
// (kernels/cpu/indexing/gather_plan.h, gather_nd_plan.h): "indices[1] = 7 is not in [0, 5)",
// "indices[0] = [3, 0] does not index into param shape [3,4]". A variable that does not exist
// is the lookup's NOT_FOUND, as in TensorFlow; one of another dtype than `dtype`,
// INVALID_ARGUMENT. Elements move by size: one instantiation per element size.
#include <algorithm>
#include <cstdint>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/mutex.h"
#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "kernels/cpu/indexing/gather_nd_plan.h"
#include "kernels/cpu/indexing/gather_plan.h"
#include "kernels/cpu/indexing/index_coordinates.h"
#include "kernels/cpu/parallel_for.h"
#include "proto/resource_handle.pb.h"
#include "runtime/framework/op_kernel.h"
#include "runtime/framework/resource_mgr.h"
#include "runtime/framework/resource_var.h"

namespace sluice {
namespace {

// The variable behind input 0, looked up and checked (initialized, of dtype `dtype`); the
// caller holds one reference and reads it under var->mu() held shared.
absl::Status LookUpVariable(OpKernelContext* ctx, DataType dtype, Var** var) {
  ResourceHandleProto handle;
  RETURN_IF_ERROR(HandleFromInput(ctx, 0, &handle));
  RETURN_IF_ERROR(LookupResource(ctx, handle, var));
  absl::ReaderMutexLock lock((*var)->mu());
  if (!(*var)->is_initialized) {
    return errors::FailedPrecondition("Attempting to use uninitialized value ",
                                      ctx->op_kernel().def().input(0));
  }
  if ((*var)->dtype() != dtype) {
    return errors::InvalidArgument("Trying to read variable with wrong dtype. Expected ",
                                   DataTypeString(dtype), " got ", DataTypeString((*var)->dtype()));
  }
  return absl::OkStatus();
}

class VariableRef {
 public:
  ~VariableRef() {
    if (var_ != nullptr) var_->Unref();
  }
  Var** out() { return &var_; }
  Var* get() const { return var_; }

 private:
  Var* var_ = nullptr;
};

class ResourceGatherOp : public OpKernel {
 public:
  explicit ResourceGatherOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("batch_dims", &batch_dims_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dtype", &dtype_));
  }

  void Compute(OpKernelContext* ctx) override {
    VariableRef var;
    OP_REQUIRES_OK(ctx, LookUpVariable(ctx, dtype_, var.out()));
    absl::ReaderMutexLock lock(var.get()->mu());
    const Tensor& params = *var.get()->tensor();
    const Tensor& indices = ctx->input(1);
    GatherPlan d;
    OP_REQUIRES_OK(ctx, PlanGather(params, indices, /*axis=*/nullptr, batch_dims_, &d));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, d.output_shape, &out));
    if (d.empty()) return;
    VisitIndexType(indices.dtype(), [&](auto index_tag) {
      using Index = typename decltype(index_tag)::type;
      const Index* idx = indices.base<Index>();
      for (int64_t i = 0; i < indices.NumElements(); ++i) {
        const int64_t v = static_cast<int64_t>(idx[i]);
        OP_REQUIRES(ctx, v >= 0 && v < d.gather_dim,
                    errors::InvalidArgument("indices", SliceDebugString(indices.shape(), i), " = ",
                                            v, " is not in [0, ", d.gather_dim, ")"));
      }
      VisitByElementSize(params.dtype(), [&](auto tag) {
        using U = typename decltype(tag)::type;
        const U* src = ElementsAs<U>(params);
        U* dst = MutableElementsAs<U>(out);
        // Output slice s is (batch, outer, i): params slice (batch, outer, indices[batch, i]).
        const int64_t slices = d.batch * d.outer * d.n;
        const Eigen::TensorOpCost cost(d.inner * sizeof(U), d.inner * sizeof(U), 1);
        ParallelFor(ctx, slices, slices * d.inner, cost, [&](int64_t first, int64_t last) {
          for (int64_t s = first; s < last; ++s) {
            const int64_t bo = s / d.n;
            const int64_t index = static_cast<int64_t>(idx[(bo / d.outer) * d.n + s % d.n]);
            std::copy_n(src + (bo * d.gather_dim + index) * d.inner, d.inner, dst + s * d.inner);
          }
        });
      });
    });
  }

 private:
  int32_t batch_dims_ = 0;
  DataType dtype_ = DT_INVALID;
};

class ResourceGatherNdOp : public OpKernel {
 public:
  explicit ResourceGatherNdOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dtype", &dtype_));
  }

  void Compute(OpKernelContext* ctx) override {
    VariableRef var;
    OP_REQUIRES_OK(ctx, LookUpVariable(ctx, dtype_, var.out()));
    absl::ReaderMutexLock lock(var.get()->mu());
    const Tensor& params = *var.get()->tensor();
    const Tensor& indices = ctx->input(1);
    GatherNdPlan plan;
    OP_REQUIRES_OK(ctx, PlanGatherNd(params, indices, &plan));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, plan.output_shape, &out));
    if (plan.rows == 0) return;
    VisitIndexType(indices.dtype(), [&](auto index_tag) {
      using Index = typename decltype(index_tag)::type;
      const Index* idx = indices.base<Index>();
      const int64_t depth = plan.depth;
      for (int64_t r = 0; r < plan.rows; ++r) {
        if (IndexRowOffset(idx + r * depth, plan) >= 0) continue;
        TensorShape rows_shape = indices.shape();
        rows_shape.RemoveLastDims(1);  // shape-safe: indices has rank >= 1 (checked)
        // heap-ok: indices.shape[-1] entries, at most GatherNdPlan::kMaxDepth (checked)
        absl::InlinedVector<int64_t, 8> bad(idx + r * depth, idx + (r + 1) * depth);
        OP_REQUIRES(
            ctx, false,
            errors::InvalidArgument("indices", SliceDebugString(rows_shape, r), " = [",
                                    absl::StrJoin(bad, ", "), "] does not index into param shape ",
                                    params.shape().DebugString(), ", node name: ", name()));
      }
      if (plan.slice == 0) return;
      VisitByElementSize(params.dtype(), [&](auto tag) {
        using U = typename decltype(tag)::type;
        const U* src = ElementsAs<U>(params);
        U* dst = MutableElementsAs<U>(out);
        const int64_t slice = plan.slice;
        const Eigen::TensorOpCost cost(slice * sizeof(U), slice * sizeof(U), depth);
        ParallelFor(ctx, plan.rows, plan.rows * slice, cost, [&](int64_t first, int64_t last) {
          for (int64_t r = first; r < last; ++r) {
            std::copy_n(src + IndexRowOffset(idx + r * depth, plan), slice, dst + r * slice);
          }
        });
      });
    });
  }

 private:
  DataType dtype_ = DT_INVALID;
};

// TensorFlow's CPU dtypes: every type a variable holds here (numbers, bool, string, the
// quantized types for ResourceGather).
constexpr DataType kGatherTypes[] = {
#define SLUICE_TYPE(T) DataTypeToEnum<T>::value,
    SLUICE_CALL_NUMBER_TYPES(SLUICE_TYPE) SLUICE_CALL_bool(SLUICE_TYPE)
        SLUICE_CALL_string(SLUICE_TYPE) SLUICE_CALL_QUANTIZED_TYPES(SLUICE_TYPE)
#undef SLUICE_TYPE
};
constexpr DataType kGatherNdTypes[] = {
#define SLUICE_TYPE(T) DataTypeToEnum<T>::value,
    SLUICE_CALL_NUMBER_TYPES(SLUICE_TYPE) SLUICE_CALL_bool(SLUICE_TYPE)
        SLUICE_CALL_string(SLUICE_TYPE)
#undef SLUICE_TYPE
};

REGISTER_KERNEL_BUILDER(
    Name("ResourceGather").Device(DEVICE_CPU).TypeConstraint("dtype", kGatherTypes),
    ResourceGatherOp);
REGISTER_KERNEL_BUILDER(
    Name("ResourceGatherNd").Device(DEVICE_CPU).TypeConstraint("dtype", kGatherNdTypes),
    ResourceGatherNdOp);

}  // namespace
}  // namespace sluice
