// Resource (TF2) variables. VarHandleOp outputs a DT_RESOURCE handle naming a Var in the
// session's ResourceMgr; AssignVariableOp creates the Var on first use; ReadVariableOp,
// AssignAdd/SubVariableOp, VarIsInitializedOp and DestroyResourceOp look it up through the
// handle.
//
// Copy-on-write: ReadVariableOp outputs a tensor sharing the Var's buffer, so the updates
// (AssignAdd/SubVariableOp) first give the Var a private copy when its buffer is shared;
// readers never see a value change after they read it.
#include <atomic>
#include <string>

#include "absl/strings/str_cat.h"
#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "proto/resource_handle.pb.h"
#include "runtime/framework/op_kernel.h"
#include "runtime/framework/resource_mgr.h"
#include "runtime/framework/resource_var.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sluice {
namespace {

// The shared_name that asks for a fresh, unshared variable per handle (TensorFlow's
// ResourceHandle::ANONYMOUS_NAME).
constexpr char kAnonymousName[] = "cd2c89b7-88b7-44c8-ad83-06c2a9158347";

// Drops the caller's reference to a looked-up Var at scope exit.
class VarRef {
 public:
  VarRef() = default;
  ~VarRef() {
    if (var_ != nullptr) var_->Unref();
  }
  VarRef(const VarRef&) = delete;
  VarRef& operator=(const VarRef&) = delete;
  Var** out() { return &var_; }
  Var* operator->() const { return var_; }
  Var& operator*() const { return *var_; }

 private:
  Var* var_ = nullptr;
};

class VarHandleOp : public OpKernel {
 public:
  explicit VarHandleOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("container", &container_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("shared_name", &name_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dtype", &dtype_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("shape", &shape_));
    // The handle of the usual case (a named variable in the default container) is built
    // once here; Compute only shares its buffer.
    default_container_ = container_.empty() ? "localhost" : container_;
    if (name_ != kAnonymousName) {
      cached_ = Tensor(MakeHandle(ctx->device()->name(), default_container_, name_));
    }
  }

  void Compute(OpKernelContext* ctx) override {
    ResourceMgr* rm = ctx->resource_manager();
    const std::string& container =
        !container_.empty() || rm == nullptr ? default_container_ : rm->default_container();
    if (name_ != kAnonymousName && container == default_container_) {
      ctx->set_output(0, cached_);
      return;
    }
    const std::string name = name_ == kAnonymousName
                                 ? absl::StrCat("_AnonymousVar", anonymous_count_.fetch_add(1))
                                 : name_;
    ctx->set_output(0, Tensor(MakeHandle(ctx->device()->name(), container, name)));
  }
  bool IsExpensive() override { return false; }

 private:
  ResourceHandleProto MakeHandle(const std::string& device, const std::string& container,
                                 const std::string& name) const {
    const ResourceTypeIndex type = ResourceTypeIndex::Make<Var>();
    ResourceHandleProto handle;
    handle.set_device(device);
    handle.set_container(container);
    handle.set_name(name);
    handle.set_hash_code(type.hash_code);
    handle.set_maybe_type_name(type.name);
    ResourceHandleProto::DtypeAndShape* dtype_and_shape = handle.add_dtypes_and_shapes();
    dtype_and_shape->set_dtype(dtype_);
    shape_.AsProto(dtype_and_shape->mutable_shape());
    return handle;
  }

  std::string container_;
  std::string name_;
  DataType dtype_ = DT_INVALID;
  PartialTensorShape shape_;
  std::string default_container_;
  Tensor cached_;
  static std::atomic<int64_t> anonymous_count_;
};
std::atomic<int64_t> VarHandleOp::anonymous_count_{0};

// TensorFlow's error for a variable that cannot be read (missing or uninitialized).
absl::Status NotReadable(const ResourceHandleProto& handle, absl::string_view why) {
  return errors::FailedPrecondition(
      "Could not find variable ", handle.name(),
      ". This could mean that the variable has been deleted. In TF1, it can also mean the "
      "variable is uninitialized. Debug info: container=",
      handle.container(), ", status error message=", why);
}

class ReadVariableOp : public OpKernel {
 public:
  explicit ReadVariableOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dtype", &dtype_));
  }

  void Compute(OpKernelContext* ctx) override {
    ResourceHandleProto handle;
    OP_REQUIRES_OK(ctx, HandleFromInput(ctx, 0, &handle));
    VarRef var;
    const absl::Status found = LookupResource(ctx, handle, var.out());
    OP_REQUIRES(ctx, found.ok(), NotReadable(handle, found.message()));
    absl::ReaderMutexLock lock(var->mu());
    OP_REQUIRES(ctx, var->is_initialized,
                NotReadable(handle, absl::StrCat("Variable ", handle.container(), "/",
                                                 handle.name(), " is uninitialized.")));
    OP_REQUIRES(
        ctx, var->dtype() == dtype_,
        errors::InvalidArgument("Trying to read variable with wrong dtype. Expected ",
                                DataTypeString(dtype_), " got ", DataTypeString(var->dtype())));
    ctx->set_output(0, *var->tensor());
  }

 private:
  DataType dtype_ = DT_INVALID;
};

absl::Status CheckVarDtype(const Var& var, DataType dtype) {
  if (var.dtype() == dtype) return absl::OkStatus();
  return errors::InvalidArgument("Trying to assign variable with wrong dtype. Expected ",
                                 DataTypeString(var.dtype()), " got ", DataTypeString(dtype));
}

class AssignVariableOp : public OpKernel {
 public:
  explicit AssignVariableOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dtype", &dtype_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("validate_shape", &validate_shape_));
  }

  void Compute(OpKernelContext* ctx) override {
    ResourceHandleProto handle;
    OP_REQUIRES_OK(ctx, HandleFromInput(ctx, 0, &handle));
    const Tensor& value = ctx->input(1);
    VarRef var;
    OP_REQUIRES_OK(ctx, LookupOrCreateResource<Var>(ctx, handle, var.out(), [this](Var** v) {
                     *v = new Var(dtype_);
                     return absl::OkStatus();
                   }));
    OP_REQUIRES_OK(ctx, CheckVarDtype(*var, dtype_));
    absl::MutexLock lock(var->mu());
    Tensor* current = var->tensor();
    if (validate_shape_ && var->is_initialized) {
      OP_REQUIRES(ctx, current->shape() == value.shape(),
                  errors::InvalidArgument(
                      "Trying to assign to variable with tensor with wrong shape. Expected ",
                      current->shape().DebugString(), " got ", value.shape().DebugString()));
    }
    // Adopt the value's buffer when no one else holds it; else copy into the Var's own
    // buffer if it fits and is unshared; else into a new one.
    if (value.RefCountIsOne()) {
      var->SetValue(value);
    } else if (var->is_initialized && current->RefCountIsOne() &&
               current->shape() == value.shape()) {
      CopyTensorElements(value, current);
    } else {
      Tensor copy;
      OP_REQUIRES_OK(ctx, ctx->allocate_temp(dtype_, value.shape(), &copy));
      CopyTensorElements(value, &copy);
      var->SetValue(copy);
    }
  }

 private:
  DataType dtype_ = DT_INVALID;
  bool validate_shape_ = false;
};

enum class UpdateOp { kAdd, kSub };

template <typename T, UpdateOp OP>
class AssignUpdateVariableOp : public OpKernel {
 public:
  explicit AssignUpdateVariableOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dtype", &dtype_));
  }

  void Compute(OpKernelContext* ctx) override {
    ResourceHandleProto handle;
    OP_REQUIRES_OK(ctx, HandleFromInput(ctx, 0, &handle));
    const Tensor& value = ctx->input(1);
    VarRef var;
    OP_REQUIRES_OK(ctx, LookupResource(ctx, handle, var.out()));
    OP_REQUIRES_OK(ctx, CheckVarDtype(*var, dtype_));
    absl::MutexLock lock(var->mu());
    OP_REQUIRES(
        ctx, var->is_initialized,
        errors::FailedPrecondition("Attempting to use uninitialized value ", handle.name()));
    Tensor* current = var->tensor();
    OP_REQUIRES(
        ctx, current->shape() == value.shape(),
        errors::InvalidArgument("Cannot update variable with shape ",
                                current->shape().DebugString(), " using a Tensor with shape ",
                                value.shape().DebugString(), ", shapes must be equal."));
    if (!current->RefCountIsOne()) {
      Tensor copy;
      OP_REQUIRES_OK(ctx, ctx->allocate_temp(dtype_, current->shape(), &copy));
      CopyTensorElements(*current, &copy);
      var->SetValue(copy);
    }
    auto out = current->flat<T>();
    if (OP == UpdateOp::kAdd) {
      out.device(ctx->eigen_cpu_device()) += value.flat<T>();
    } else {
      out.device(ctx->eigen_cpu_device()) -= value.flat<T>();
    }
  }

 private:
  DataType dtype_ = DT_INVALID;
};

class VarIsInitializedOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext* ctx) override {
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({}), &output));
    ResourceHandleProto handle;
    OP_REQUIRES_OK(ctx, HandleFromInput(ctx, 0, &handle));
    VarRef var;
    bool initialized = false;
    if (LookupResource(ctx, handle, var.out()).ok()) {
      absl::ReaderMutexLock lock(var->mu());
      initialized = var->is_initialized;
    }
    output->scalar<bool>()() = initialized;
  }
};

class DestroyResourceOp : public OpKernel {
 public:
  explicit DestroyResourceOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("ignore_lookup_error", &ignore_lookup_error_));
  }

  void Compute(OpKernelContext* ctx) override {
    ResourceHandleProto handle;
    OP_REQUIRES_OK(ctx, HandleFromInput(ctx, 0, &handle));
    const absl::Status status = DeleteResource(ctx, handle);
    if (ignore_lookup_error_ && absl::IsNotFound(status)) return;
    OP_REQUIRES_OK(ctx, status);
  }

 private:
  bool ignore_lookup_error_ = true;
};

// DisableCopyOnRead: TensorFlow turns off the copy on read its sparse updates put a variable
// in, so a save reads the variable's own buffer. Sluice's variables have no such mode; what is
// left is TensorFlow's lookup, whose failure (no such variable) is ReadVariableOp's
// FAILED_PRECONDITION "Could not find variable ...".
class DisableCopyOnReadOp : public OpKernel {
 public:
  explicit DisableCopyOnReadOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    ResourceHandleProto handle;
    OP_REQUIRES_OK(ctx, HandleFromInput(ctx, 0, &handle));
    VarRef var;
    const absl::Status found = LookupResource(ctx, handle, var.out());
    OP_REQUIRES(ctx, found.ok(), NotReadable(handle, found.message()));
  }

  bool IsExpensive() override { return false; }
};

REGISTER_KERNEL_BUILDER(Name("VarHandleOp").Device(DEVICE_CPU), VarHandleOp);
REGISTER_KERNEL_BUILDER(Name("DisableCopyOnRead").Device(DEVICE_CPU), DisableCopyOnReadOp);
REGISTER_KERNEL_BUILDER(Name("ReadVariableOp").Device(DEVICE_CPU), ReadVariableOp);
REGISTER_KERNEL_BUILDER(Name("AssignVariableOp").Device(DEVICE_CPU), AssignVariableOp);
REGISTER_KERNEL_BUILDER(Name("VarIsInitializedOp").Device(DEVICE_CPU), VarIsInitializedOp);
REGISTER_KERNEL_BUILDER(Name("DestroyResourceOp").Device(DEVICE_CPU), DestroyResourceOp);

#define REGISTER_UPDATES(T)                                                      \
  REGISTER_KERNEL_BUILDER(                                                       \
      Name("AssignAddVariableOp").Device(DEVICE_CPU).TypeConstraint<T>("dtype"), \
      AssignUpdateVariableOp<T, UpdateOp::kAdd>);                                \
  REGISTER_KERNEL_BUILDER(                                                       \
      Name("AssignSubVariableOp").Device(DEVICE_CPU).TypeConstraint<T>("dtype"), \
      AssignUpdateVariableOp<T, UpdateOp::kSub>);
SLUICE_CALL_NUMBER_TYPES(REGISTER_UPDATES)
#undef REGISTER_UPDATES

}  // namespace
}  // namespace sluice
