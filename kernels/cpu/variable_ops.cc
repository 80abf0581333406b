// Ref (TF1) variables. VariableV2 keeps a Var in the session's ResourceMgr (keyed by its
// container/shared_name attrs, or its node name) and outputs a ref to the Var's tensor;
// Assign, AssignAdd and AssignSub write through such a ref and forward it;
// IsVariableInitialized reports whether it was ever assigned.
//
// Locking: Assign always writes under the ref's mutex (use_locking=false does not make it
// skip the lock, which costs nothing uncontended and keeps the ref's Tensor object from
// being replaced while another kernel copies it). AssignAdd/AssignSub with use_locking=false
// update the shared buffer without holding the mutex, as TensorFlow does ("Hogwild").
#include <string>

#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "runtime/framework/op_kernel.h"
#include "runtime/framework/resource_mgr.h"
#include "runtime/framework/resource_var.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sluice {
namespace {

class VariableOp : public OpKernel {
 public:
  explicit VariableOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("shape", &shape_));
    dtype_ = RemoveRefType(ctx->output_type(0));
    OP_REQUIRES(
        ctx, VisitElementType(dtype_, [](auto) {}),
        errors::Unimplemented("Variables of dtype ", DataTypeString(dtype_), " are not supported"));
  }

  void Compute(OpKernelContext* ctx) override {
    ResourceMgr* rm = ctx->resource_manager();
    OP_REQUIRES(ctx, rm != nullptr, errors::Internal("No resource manager for ", name()));
    std::string container, shared_name;
    OP_REQUIRES_OK(ctx, ResolveContainerAndName(*rm, def(), /*use_node_name_as_default=*/true,
                                                &container, &shared_name));
    Var* var = nullptr;
    OP_REQUIRES_OK(ctx, rm->LookupOrCreate<Var>(container, shared_name, &var, [this](Var** v) {
      *v = new Var(dtype_, shape_);
      return absl::OkStatus();
    }));
    // The manager keeps the Var (and so the ref) alive until its container is cleaned up.
    if (var->dtype() != dtype_) {
      ctx->CtxFailure(errors::InvalidArgument("Variable ", container, "/", shared_name, " holds ",
                                              DataTypeString(var->dtype()), " but ", name(),
                                              " declares ", DataTypeString(dtype_)));
    } else {
      ctx->set_output_ref(0, var->mu(), var->tensor());
    }
    var->Unref();
  }
  bool IsExpensive() override { return false; }

 private:
  PartialTensorShape shape_;
  DataType dtype_ = DT_INVALID;
};

class AssignOp : public OpKernel {
 public:
  explicit AssignOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("validate_shape", &validate_shape_));
    OP_REQUIRES(ctx, IsRefType(ctx->input_type(0)),
                errors::InvalidArgument("lhs input needs to be a ref type"));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& rhs = ctx->input(1);
    ctx->forward_ref_input_to_ref_output(0, 0);
    absl::MutexLock lock(ctx->input_ref_mutex(0));
    Tensor* lhs = ctx->mutable_output(0);
    if (lhs == nullptr) return;  // the forward failed; the context holds the error
    const bool initialized = IsInitializedRef(*lhs);
    // An uninitialized ref is normally a Var's, which knows its declared shape.
    Var* var = initialized ? nullptr : VarOfRef(lhs);
    if (validate_shape_) {
      if (initialized) {
        OP_REQUIRES(ctx, lhs->shape() == rhs.shape(), ShapeMismatch(lhs->shape(), rhs.shape()));
      } else if (var != nullptr) {
        OP_REQUIRES(ctx, var->declared_shape().IsCompatibleWith(rhs.shape()),
                    ShapeMismatch(var->declared_shape(), rhs.shape()));
      }
    }
    // Reuse the variable's buffer when the new value fits in it.
    if (initialized && lhs->NumElements() == rhs.NumElements()) {
      if (lhs->shape() != rhs.shape()) {
        Tensor reshaped;
        reshaped.CopyFrom(*lhs, rhs.shape());
        *lhs = reshaped;
      }
      CopyTensorElements(rhs, lhs);
      return;
    }
    // Otherwise adopt the value's buffer if no one else holds it, else copy it.
    Tensor value = rhs;
    if (!rhs.RefCountIsOne()) {
      OP_REQUIRES_OK(ctx, ctx->allocate_temp(rhs.dtype(), rhs.shape(), &value));
      CopyTensorElements(rhs, &value);
    }
    if (var != nullptr) {
      var->SetValue(value);
    } else {
      *lhs = value;
    }
  }

 private:
  static absl::Status ShapeMismatch(const PartialTensorShape& lhs, const TensorShape& rhs) {
    return errors::InvalidArgument("Assign requires shapes of both tensors to match. lhs shape= ",
                                   lhs.DebugString(), " rhs shape= ", rhs.DebugString());
  }

  bool validate_shape_ = true;
};

enum class UpdateOp { kAdd, kSub };

template <typename T, UpdateOp OP>
class DenseUpdateOp : public OpKernel {
 public:
  explicit DenseUpdateOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("use_locking", &use_locking_));
  }

  void Compute(OpKernelContext* ctx) override {
    ctx->forward_ref_input_to_ref_output(0, 0);
    if (use_locking_) {
      absl::MutexLock lock(ctx->input_ref_mutex(0));
      Update(ctx, /*lock_held=*/true);
    } else {
      Update(ctx, /*lock_held=*/false);
    }
  }

 private:
  void Update(OpKernelContext* ctx, bool lock_held) {
    Tensor params = ctx->mutable_input(0, lock_held);
    const Tensor& update = ctx->input(1);
    OP_REQUIRES(
        ctx, IsInitializedRef(params),
        errors::FailedPrecondition("Attempting to use uninitialized value ", def().input(0)));
    OP_REQUIRES(ctx, params.IsSameSize(update),
                errors::InvalidArgument("Parameters and update must be the same size"));
    auto out = params.flat<T>();
    if (OP == UpdateOp::kAdd) {
      out.device(ctx->eigen_cpu_device()) += update.flat<T>();
    } else {
      out.device(ctx->eigen_cpu_device()) -= update.flat<T>();
    }
  }

  bool use_locking_ = false;
};

class IsVariableInitializedOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext* ctx) override {
    const Tensor value = ctx->mutable_input(0, /*lock_held=*/false);
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({}), &output));
    output->scalar<bool>()() = IsInitializedRef(value);
  }
  bool IsExpensive() override { return false; }
};

REGISTER_KERNEL_BUILDER(Name("VariableV2").Device(DEVICE_CPU), VariableOp);
REGISTER_KERNEL_BUILDER(Name("Assign").Device(DEVICE_CPU), AssignOp);
REGISTER_KERNEL_BUILDER(Name("IsVariableInitialized").Device(DEVICE_CPU), IsVariableInitializedOp);

#define REGISTER_UPDATES(T)                                                            \
  REGISTER_KERNEL_BUILDER(Name("AssignAdd").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          DenseUpdateOp<T, UpdateOp::kAdd>);                           \
  REGISTER_KERNEL_BUILDER(Name("AssignSub").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          DenseUpdateOp<T, UpdateOp::kSub>);
SLUICE_CALL_NUMBER_TYPES(REGISTER_UPDATES)
#undef REGISTER_UPDATES

}  // namespace
}  // namespace sluice
