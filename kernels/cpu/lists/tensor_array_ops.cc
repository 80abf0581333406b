// TensorFlow 1's TensorArray ops (TensorArrayV3 and its Read/Write/Gather/Scatter/Concat/
// Split/Size/Close) on the CPU and GPUs, and TensorArrayGradV3 / TensorArrayGradWithShape
// on the CPU. Each array is a TensorArray resource in the step's container (tensor_array.h);
// the ops pass its DT_RESOURCE handle and a float "flow" scalar that only orders them in the
// graph.
#include <atomic>
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "kernels/cpu/array/array_types.h"
#include "kernels/cpu/lists/element_rows.h"
#include "kernels/cpu/lists/tensor_array.h"
#include "kernels/cpu/scratch.h"
#include "runtime/framework/op_kernel.h"
#include "runtime/framework/resource_mgr.h"

namespace sluice {
namespace {

// The TensorArray input 0's handle names, held for the kernel's run.
class ArrayRef {
 public:
  ~ArrayRef() {
    if (array_ != nullptr) array_->Unref();
  }
  absl::Status Lookup(OpKernelContext* ctx) {
    ResourceHandleProto handle;
    RETURN_IF_ERROR(HandleFromInput(ctx, 0, &handle));
    return LookupResource(ctx, handle, &array_);
  }
  TensorArray* operator->() const { return array_; }
  TensorArray& operator*() const { return *array_; }

 private:
  TensorArray* array_ = nullptr;
};

absl::Status ScalarIndex(const Tensor& t, const char* what, int64_t* value) {
  if (t.dims() != 0) {
    return errors::InvalidArgument(what, " must be a scalar, but has shape ",
                                   t.shape().DebugString());
  }
  return IntegerTensorScalar(t, value);
}

// The values of the integer vector `t` in scratch from ctx's allocator (their number is the
// graph's data).
absl::Status VectorValues(OpKernelContext* ctx, const Tensor& t, const char* what,
                          ScratchArray<int64_t>* values) {
  if (t.dims() != 1) {
    return errors::InvalidArgument(
        what, " must be a vector, but received shape: ", t.shape().DebugString());
  }
  return IntegerValuesOf(ctx, t, values);
}

absl::Status CheckDtype(const TensorArray& array, DataType requested) {
  if (array.dtype() != requested) {
    return errors::InvalidArgument("TensorArray dtype is ", DataTypeString(array.dtype()),
                                   " but Op requested dtype ", DataTypeString(requested), ".");
  }
  return absl::OkStatus();
}

// Write, Scatter and Split check the value's dtype before touching the array, as
// TensorFlow's kernels do.
absl::Status CheckWriteDtype(const TensorArray& array, DataType written) {
  if (array.dtype() != written) {
    return errors::InvalidArgument("TensorArray dtype is ", DataTypeString(array.dtype()),
                                   " but Op is trying to write dtype ", DataTypeString(written),
                                   ".");
  }
  return absl::OkStatus();
}

// Write, Scatter and Split pass their flow input on.
void ForwardFlow(OpKernelContext* ctx, int flow_input) {
  ctx->set_output(0, ctx->input(flow_input));
}

class TensorArrayOp : public OpKernel {
 public:
  explicit TensorArrayOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dtype", &options_.dtype));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("element_shape", &options_.element_shape));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dynamic_size", &options_.dynamic_size));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("clear_after_read", &options_.clear_after_read));
    OP_REQUIRES_OK(ctx,
                   ctx->GetAttr("identical_element_shapes", &options_.identical_element_shapes));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("tensor_array_name", &array_name_));
    if (array_name_.empty()) array_name_ = name();
  }
  void Compute(OpKernelContext* ctx) override {
    int64_t size;
    OP_REQUIRES_OK(ctx, ScalarIndex(ctx->input(0), "size", &size));
    OP_REQUIRES(ctx, size >= 0, errors::InvalidArgument("Size should be >= 0."));
    OP_REQUIRES_OK(ctx, CheckSlotCount(size));
    ScopedStepContainer* step = ctx->step_container();
    OP_REQUIRES(ctx, step != nullptr,
                errors::Internal("TensorArrayV3 needs a step container, and ", name(),
                                 " runs without one"));
    // One array per run (a TensorArrayV3 inside a loop makes one per iteration), named
    // uniquely in the process: kernels of different graphs may share a node name.
    static std::atomic<int64_t> next_id{0};
    const std::string unique =
        absl::StrCat(array_name_, "_", next_id.fetch_add(1, std::memory_order_relaxed));
    auto* array = new TensorArray(unique, size, options_);
    step->MarkUsed();
    const ResourceHandleProto handle = MakeResourceHandle<TensorArray>(ctx, step->name(), unique);
    OP_REQUIRES_OK(ctx, CreateResource(ctx, handle, array));
    ctx->set_output(0, Tensor(handle));
    // The flow is where the kernel's device keeps floats (a GPU's memory on a GPU).
    Tensor* flow;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape({}), &flow));
    OP_REQUIRES_OK(ctx, ZeroElements(ctx, flow, 0, 1));
  }

 private:
  TensorArray::Options options_;
  std::string array_name_;
};

// TensorArrayGradV3 and TensorArrayGradWithShape: the gradient array of the array input 0
// names for the attr `source` (one per gradient computation: "gradients", "gradients_1"),
// made by the first run in a step and looked up by later ones (a backward while loop runs the
// op once per iteration).
class TensorArrayGradOp : public OpKernel {
 public:
  explicit TensorArrayGradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("source", &source_));
  }
  void Compute(OpKernelContext* ctx) override {
    ScopedStepContainer* step = ctx->step_container();
    OP_REQUIRES(ctx, step != nullptr,
                errors::Internal(type_string(), " needs a step container, and ", name(),
                                 " runs without one"));
    ArrayRef array;
    OP_REQUIRES_OK(ctx, array.Lookup(ctx));
    TensorShape shape_to_prepend;
    const bool with_shape = ctx->num_inputs() > 2;
    if (with_shape) OP_REQUIRES_OK(ctx, ShapeToPrepend(ctx->input(2), &shape_to_prepend));
    const std::string grad_name = absl::StrCat(array->name(), "@", source_);
    const ResourceHandleProto handle =
        MakeResourceHandle<TensorArray>(ctx, step->name(), grad_name);
    step->MarkUsed();
    TensorArray* gradient = nullptr;
    OP_REQUIRES_OK(
        ctx, LookupOrCreateResource<TensorArray>(ctx, handle, &gradient, [&](TensorArray** made) {
          return array->MakeGradient(grad_name, with_shape ? &shape_to_prepend : nullptr, made);
        }));
    gradient->Unref();
    ctx->set_output(0, Tensor(handle));
    Tensor* flow;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape({}), &flow));
    OP_REQUIRES_OK(ctx, ZeroElements(ctx, flow, 0, 1));
  }

 private:
  // TensorFlow reads the shape as tensor::MakeShape does: an int32 or int64 vector of dims
  // >= 0.
  static absl::Status ShapeToPrepend(const Tensor& t, TensorShape* shape) {
    if (t.dims() != 1 || (t.dtype() != DT_INT32 && t.dtype() != DT_INT64)) {
      return errors::InvalidArgument("shape must be a vector of {int32,int64}, got shape ",
                                     t.shape().DebugString());
    }
    if (t.NumElements() > TensorShape::kMaxDims) {
      return errors::InvalidArgument("Too many dimensions in tensor: ", t.NumElements());
    }
    IntegerValues dims;
    RETURN_IF_ERROR(IntegerTensorValues(t, &dims));
    return TensorShape::BuildTensorShape(dims, shape);
  }

  std::string source_;
};

class TensorArrayWriteOp : public OpKernel {
 public:
  explicit TensorArrayWriteOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}
  void Compute(OpKernelContext* ctx) override {
    ArrayRef array;
    OP_REQUIRES_OK(ctx, array.Lookup(ctx));
    int64_t index;
    OP_REQUIRES_OK(ctx, ScalarIndex(ctx->input(1), "index", &index));
    OP_REQUIRES_OK(ctx, CheckWriteDtype(*array, ctx->input(2).dtype()));
    OP_REQUIRES_OK(ctx, array->Write(ctx, index, ctx->input(2)));
    ForwardFlow(ctx, 3);
  }
};

class TensorArrayReadOp : public OpKernel {
 public:
  explicit TensorArrayReadOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dtype", &dtype_));
  }
  void Compute(OpKernelContext* ctx) override {
    ArrayRef array;
    OP_REQUIRES_OK(ctx, array.Lookup(ctx));
    OP_REQUIRES_OK(ctx, CheckDtype(*array, dtype_));
    int64_t index;
    OP_REQUIRES_OK(ctx, ScalarIndex(ctx->input(1), "index", &index));
    Tensor value;
    OP_REQUIRES_OK(ctx, array->Read(ctx, index, &value));
    ctx->set_output(0, value);
  }

 private:
  DataType dtype_;
};

class TensorArrayGatherOp : public OpKernel {
 public:
  explicit TensorArrayGatherOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dtype", &dtype_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("element_shape", &element_shape_));
  }
  void Compute(OpKernelContext* ctx) override {
    ArrayRef array;
    OP_REQUIRES_OK(ctx, array.Lookup(ctx));
    OP_REQUIRES_OK(ctx, CheckDtype(*array, dtype_));
    ScratchArray<int64_t> indices;
    OP_REQUIRES_OK(ctx, VectorValues(ctx, ctx->input(1), "indices", &indices));
    Tensor value;
    OP_REQUIRES_OK(ctx, array->Gather(ctx, indices.span(), element_shape_, &value));
    ctx->set_output(0, value);
  }

 private:
  DataType dtype_;
  PartialTensorShape element_shape_;
};

class TensorArrayScatterOp : public OpKernel {
 public:
  explicit TensorArrayScatterOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}
  void Compute(OpKernelContext* ctx) override {
    ArrayRef array;
    OP_REQUIRES_OK(ctx, array.Lookup(ctx));
    OP_REQUIRES_OK(ctx, CheckWriteDtype(*array, ctx->input(2).dtype()));
    ScratchArray<int64_t> indices;
    OP_REQUIRES_OK(ctx, VectorValues(ctx, ctx->input(1), "indices", &indices));
    OP_REQUIRES_OK(ctx, array->Scatter(ctx, indices.span(), ctx->input(2)));
    ForwardFlow(ctx, 3);
  }
};

class TensorArrayConcatOp : public OpKernel {
 public:
  explicit TensorArrayConcatOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dtype", &dtype_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("element_shape_except0", &element_shape_except0_));
  }
  void Compute(OpKernelContext* ctx) override {
    ArrayRef array;
    OP_REQUIRES_OK(ctx, array.Lookup(ctx));
    OP_REQUIRES_OK(ctx, CheckDtype(*array, dtype_));
    Tensor value;
    Tensor lengths;
    OP_REQUIRES_OK(ctx, array->Concat(ctx, element_shape_except0_, &value, &lengths));
    ctx->set_output(0, value);
    ctx->set_output(1, lengths);
  }

 private:
  DataType dtype_;
  PartialTensorShape element_shape_except0_;
};

class TensorArraySplitOp : public OpKernel {
 public:
  explicit TensorArraySplitOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}
  void Compute(OpKernelContext* ctx) override {
    ArrayRef array;
    OP_REQUIRES_OK(ctx, array.Lookup(ctx));
    OP_REQUIRES_OK(ctx, CheckWriteDtype(*array, ctx->input(1).dtype()));
    ScratchArray<int64_t> lengths;
    OP_REQUIRES_OK(ctx, VectorValues(ctx, ctx->input(2), "lengths", &lengths));
    OP_REQUIRES_OK(ctx, array->Split(ctx, ctx->input(1), lengths.span()));
    ForwardFlow(ctx, 3);
  }
};

class TensorArraySizeOp : public OpKernel {
 public:
  explicit TensorArraySizeOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}
  void Compute(OpKernelContext* ctx) override {
    ArrayRef array;
    OP_REQUIRES_OK(ctx, array.Lookup(ctx));
    int64_t size;
    OP_REQUIRES_OK(ctx, array->Size(&size));
    ctx->set_output(0, Tensor(static_cast<int32_t>(size)));
  }
};

class TensorArrayCloseOp : public OpKernel {
 public:
  explicit TensorArrayCloseOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}
  void Compute(OpKernelContext* ctx) override {
    ArrayRef array;
    OP_REQUIRES_OK(ctx, array.Lookup(ctx));
    array->Close();
  }
};

REGISTER_KERNEL_BUILDER(Name("TensorArrayV3").Device(DEVICE_CPU), TensorArrayOp);
REGISTER_KERNEL_BUILDER(Name("TensorArrayWriteV3").Device(DEVICE_CPU), TensorArrayWriteOp);
REGISTER_KERNEL_BUILDER(Name("TensorArrayReadV3").Device(DEVICE_CPU), TensorArrayReadOp);
REGISTER_KERNEL_BUILDER(Name("TensorArrayGatherV3").Device(DEVICE_CPU), TensorArrayGatherOp);
REGISTER_KERNEL_BUILDER(Name("TensorArrayScatterV3").Device(DEVICE_CPU), TensorArrayScatterOp);
REGISTER_KERNEL_BUILDER(Name("TensorArrayConcatV3").Device(DEVICE_CPU), TensorArrayConcatOp);
REGISTER_KERNEL_BUILDER(Name("TensorArraySplitV3").Device(DEVICE_CPU), TensorArraySplitOp);
REGISTER_KERNEL_BUILDER(Name("TensorArraySizeV3").Device(DEVICE_CPU), TensorArraySizeOp);
REGISTER_KERNEL_BUILDER(Name("TensorArrayCloseV3").Device(DEVICE_CPU), TensorArrayCloseOp);
REGISTER_KERNEL_BUILDER(Name("TensorArrayGradV3").Device(DEVICE_CPU), TensorArrayGradOp);
REGISTER_KERNEL_BUILDER(Name("TensorArrayGradWithShape").Device(DEVICE_CPU), TensorArrayGradOp);

// GPUs, with TensorFlow's memory types (the gradient ops stay on the CPU: a gradient array adds
// up its writes on the host): the array (a resource) and the integer arguments in
// host memory, the values and the flow in device memory, for the dtypes a GPU keeps there
// (arrays of other dtypes stay on the CPU: the placer keeps a resource's ops together).
#define SLUICE_ARRAY_ON_GPU(op, type_attr) \
  Name(op).Device(DEVICE_GPU).TypeConstraint(type_attr, array_internal::GpuArrayTypes())
REGISTER_KERNEL_BUILDER(SLUICE_ARRAY_ON_GPU("TensorArrayV3", "dtype").HostMemory("size"),
                        TensorArrayOp);
REGISTER_KERNEL_BUILDER(SLUICE_ARRAY_ON_GPU("TensorArrayWriteV3", "T").HostMemory("index"),
                        TensorArrayWriteOp);
REGISTER_KERNEL_BUILDER(SLUICE_ARRAY_ON_GPU("TensorArrayReadV3", "dtype").HostMemory("index"),
                        TensorArrayReadOp);
REGISTER_KERNEL_BUILDER(SLUICE_ARRAY_ON_GPU("TensorArrayGatherV3", "dtype").HostMemory("indices"),
                        TensorArrayGatherOp);
REGISTER_KERNEL_BUILDER(SLUICE_ARRAY_ON_GPU("TensorArrayScatterV3", "T").HostMemory("indices"),
                        TensorArrayScatterOp);
REGISTER_KERNEL_BUILDER(SLUICE_ARRAY_ON_GPU("TensorArrayConcatV3", "dtype").HostMemory("lengths"),
                        TensorArrayConcatOp);
REGISTER_KERNEL_BUILDER(SLUICE_ARRAY_ON_GPU("TensorArraySplitV3", "T").HostMemory("lengths"),
                        TensorArraySplitOp);
#undef SLUICE_ARRAY_ON_GPU
REGISTER_KERNEL_BUILDER(Name("TensorArraySizeV3").Device(DEVICE_GPU).HostMemory("size"),
                        TensorArraySizeOp);
REGISTER_KERNEL_BUILDER(Name("TensorArrayCloseV3").Device(DEVICE_GPU), TensorArrayCloseOp);

}  // namespace
}  // namespace sluice
