// Gather, GatherV2, GatherNd, Select, SelectV2 and OneHot on GPUs: the CPU kernels' shape
// checks and plans (kernels/cpu/indexing/gather_plan.h, gather_nd_plan.h and one_hot_plan.h,
// kernels/cpu/cwise/select_plan.h), then one launch that moves elements by size
// (array_copies.cu), so every dtype a GPU holds is served.
//
// Gather's and GatherNd's indices are in device memory (TensorFlow's registration), where the
// host cannot range-check them: a bad index gives zeros in its output slice, as TensorFlow's
// GPU kernels do, where the CPU kernels fail with INVALID_ARGUMENT. Select's condition is in
// device memory too, so a scalar condition is a broadcast rather than a host-side choice of t
// or e; OneHot reads its on and off values on the device.
#include <cstdint>
#include <string>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "kernels/cpu/array/array_types.h"
#include "kernels/cpu/cwise/select_plan.h"
#include "kernels/cpu/indexing/gather_nd_plan.h"
#include "kernels/cpu/indexing/gather_plan.h"
#include "kernels/cpu/indexing/one_hot_plan.h"
#include "kernels/cuda/array_launch.h"
#include "kernels/cuda/gpu_kernel_util.h"
#include "kernels/cuda/strided_view.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace cuda {
namespace {

class GpuGatherOp : public OpKernel {
 public:
  explicit GpuGatherOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    if (ctx->HasAttr("batch_dims")) {
      OP_REQUIRES_OK(ctx, ctx->GetAttr("batch_dims", &batch_dims_));
    }
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& params = ctx->input(0);
    const Tensor& indices = ctx->input(1);
    GatherPlan plan;
    OP_REQUIRES_OK(ctx,
                   PlanGather(params, indices, ctx->num_inputs() == 3 ? &ctx->input(2) : nullptr,
                              batch_dims_, &plan));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, plan.output_shape, &out));
    if (plan.empty()) return;
    CUstream_st* stream = ComputeStream(ctx);
    if (stream == nullptr) return;
    const GatherView view =
        MakeGatherView(plan.batch, plan.outer, plan.gather_dim, plan.n, plan.inner);
    const bool launched =
        LaunchGather(DataTypeSize(params.dtype()), DataTypeSize(indices.dtype()), params.raw_data(),
                     indices.raw_data(), out->raw_data(), view, stream);
    OP_REQUIRES_OK(ctx, LaunchStatus(launched, *this));
  }

 private:
  int32_t batch_dims_ = 0;
};

constexpr DataType kGatherIndexTypes[] = {DT_INT32, DT_INT64};

REGISTER_KERNEL_BUILDER(Name("Gather")
                            .Device(DEVICE_GPU)
                            .TypeConstraint("Tparams", array_internal::GpuArrayTypes())
                            .TypeConstraint("Tindices", kGatherIndexTypes),
                        GpuGatherOp);
REGISTER_KERNEL_BUILDER(Name("GatherV2")
                            .Device(DEVICE_GPU)
                            .HostMemory("axis")
                            .TypeConstraint("Tparams", array_internal::GpuArrayTypes())
                            .TypeConstraint("Tindices", kGatherIndexTypes),
                        GpuGatherOp);

class GpuGatherNdOp : public OpKernel {
 public:
  explicit GpuGatherNdOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string policy;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("bad_indices_policy", &policy));
    // A GPU cannot fail on a bad index it does not see; it gives zeros (IGNORE) by default.
    OP_REQUIRES(ctx, policy.empty() || policy == "DEFAULT" || policy == "IGNORE",
                errors::InvalidArgument(policy == "ERROR"
                                            ? "ERROR bad_indices_policy is not supported on GPU"
                                            : "Unknown bad indices handling attribute: ",
                                        policy == "ERROR" ? "" : policy));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& params = ctx->input(0);
    const Tensor& indices = ctx->input(1);
    GatherNdPlan plan;
    OP_REQUIRES_OK(ctx, PlanGatherNd(params, indices, &plan));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, plan.output_shape, &out));
    if (plan.rows == 0 || plan.slice == 0) return;
    GatherNdView view;
    view.depth = plan.depth;
    for (int k = 0; k < plan.depth; ++k) {
      view.dims[k] = plan.dims[k];
      view.strides[k] = plan.strides[k];
    }
    view.slice = plan.slice;
    view.num_elements = plan.rows * plan.slice;
    CUstream_st* stream = ComputeStream(ctx);
    if (stream == nullptr) return;
    const bool launched =
        LaunchGatherNd(DataTypeSize(params.dtype()), DataTypeSize(indices.dtype()),
                       params.raw_data(), indices.raw_data(), out->raw_data(), view, stream);
    OP_REQUIRES_OK(ctx, LaunchStatus(launched, *this));
  }
};

REGISTER_KERNEL_BUILDER(Name("GatherNd")
                            .Device(DEVICE_GPU)
                            .TypeConstraint("Tparams", array_internal::GpuArrayTypes())
                            .TypeConstraint("Tindices", kGatherIndexTypes),
                        GpuGatherNdOp);

// Select and SelectV2 (PlanSelect tells them apart by the op's name).
class GpuSelectOp : public OpKernel {
 public:
  using OpKernel::OpKernel;

  void Compute(OpKernelContext* ctx) override {
    const Tensor& cond = ctx->input(0);
    const Tensor& t = ctx->input(1);
    const Tensor& e = ctx->input(2);
    BroadcastPlan plan;
    OP_REQUIRES_OK(ctx,
                   PlanSelect(type_string(), name(), cond.shape(), t.shape(), e.shape(), &plan));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ForwardOrAllocateSelectOutput(ctx, plan, &out));
    if (plan.output_shape.num_elements() == 0) return;
    const int rank = static_cast<int>(plan.dims.size());
    const int64_t* strides[3] = {plan.strides[0].data(), plan.strides[1].data(),
                                 plan.strides[2].data()};
    SelectView view;
    OP_REQUIRES(
        ctx, MakeSelectView(plan.dims.data(), strides, rank, &view),
        errors::Unimplemented(type_string(), " on a GPU broadcasts at most ", SelectView::kMaxDims,
                              " dims that cannot be merged; got ", rank));
    CUstream_st* stream = ComputeStream(ctx);
    if (stream == nullptr) return;
    const bool launched = LaunchSelect(DataTypeSize(t.dtype()), cond.flat<bool>().data(),
                                       t.raw_data(), e.raw_data(), out->raw_data(), view, stream);
    OP_REQUIRES_OK(ctx, LaunchStatus(launched, *this));
  }
};

REGISTER_KERNEL_BUILDER(
    Name("Select").Device(DEVICE_GPU).TypeConstraint("T", array_internal::GpuArrayTypes()),
    GpuSelectOp);
REGISTER_KERNEL_BUILDER(
    Name("SelectV2").Device(DEVICE_GPU).TypeConstraint("T", array_internal::GpuArrayTypes()),
    GpuSelectOp);

class GpuOneHotOp : public OpKernel {
 public:
  explicit GpuOneHotOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("axis", &axis_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& indices = ctx->input(0);
    const Tensor& on_value = ctx->input(2);
    const Tensor& off_value = ctx->input(3);
    OneHotPlan plan;
    OP_REQUIRES_OK(ctx, PlanOneHot(indices, ctx->input(1), on_value, off_value, axis_, &plan));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, plan.output_shape, &out));
    if (plan.output_shape.num_elements() == 0) return;
    CUstream_st* stream = ComputeStream(ctx);
    if (stream == nullptr) return;
    const bool launched =
        LaunchOneHot(DataTypeSize(out->dtype()), DataTypeSize(indices.dtype()), indices.raw_data(),
                     on_value.raw_data(), off_value.raw_data(), out->raw_data(), plan.prefix,
                     plan.depth, plan.suffix, stream);
    OP_REQUIRES_OK(ctx, LaunchStatus(launched, *this));
  }

 private:
  int64_t axis_ = -1;
};

// Indices int32 and int64 in device memory; depth in host memory (TensorFlow's registration).
REGISTER_KERNEL_BUILDER(Name("OneHot")
                            .Device(DEVICE_GPU)
                            .HostMemory("depth")
                            .TypeConstraint("T", array_internal::GpuArrayTypes())
                            .TypeConstraint("TI", kGatherIndexTypes),
                        GpuOneHotOp);

}  // namespace
}  // namespace cuda
}  // namespace sluice
