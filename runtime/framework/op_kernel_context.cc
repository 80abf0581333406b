// OpKernelContext: input access, output allocation and forwarding, and status for one
// kernel invocation.
#include "runtime/framework/op_kernel_context.h"

#include <utility>

#include "glog/logging.h"
#include "graph/core/errors.h"
#include "graph/op/node_def_util.h"
#include "runtime/framework/device_base.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {

DataType TensorValue::dtype() const {
  if (tensor == nullptr) return DT_INVALID;
  return is_ref() ? MakeRefType(tensor->dtype()) : tensor->dtype();
}

const Tensor& OpInputList::operator[](int i) const {
  CHECK_GE(i, 0);
  CHECK_LT(i, size());
  return ctx_->input(start_ + i);
}

Tensor* OpOutputList::operator[](int i) {
  CHECK_GE(i, 0);
  CHECK_LT(i, size());
  return ctx_->mutable_output(start_ + i);
}

DataType OpOutputList::expected_output_dtype(int i) const {
  CHECK_GE(i, 0);
  CHECK_LT(i, size());
  return ctx_->expected_output_dtype(start_ + i);
}

absl::Status OpOutputList::allocate(int i, const TensorShape& shape, Tensor** output) {
  CHECK_GE(i, 0);
  CHECK_LT(i, size());
  return ctx_->allocate_output(start_ + i, shape, output);
}

void OpOutputList::set(int i, const Tensor& tensor) {
  CHECK_GE(i, 0);
  CHECK_LT(i, size());
  ctx_->set_output(start_ + i, tensor);
}

OpKernelContext::OpKernelContext(Params* params)
    : params_(params),
      outputs_(params->op_kernel->num_outputs()),
      heap_output_tensors_(outputs_.size() > kInlineOutputs
                               ? std::make_unique<LazyTensor[]>(outputs_.size())
                               : nullptr),
      output_tensors_(heap_output_tensors_ != nullptr ? heap_output_tensors_.get()
                                                      : inline_output_tensors_) {
  CHECK(params_->device != nullptr) << "OpKernelContext needs a device";
  intra_op_threads_ = params_->device->eigen_cpu_threads();
}

OpKernelContext::~OpKernelContext() = default;

const Eigen::ThreadPoolDevice& OpKernelContext::eigen_cpu_device() const {
  const Eigen::ThreadPoolDevice* device = params_->device->eigen_cpu_device();
  CHECK(device != nullptr) << "Device " << params_->device->name()
                           << " has no Eigen ThreadPoolDevice";
  return *device;
}

template <>
const Eigen::ThreadPoolDevice& OpKernelContext::eigen_device() const {
  return eigen_cpu_device();
}

// Inputs ------------------------------------------------------------------------------------

DataType OpKernelContext::input_dtype(int index) const {
  CHECK_GE(index, 0);
  CHECK_LT(index, num_inputs());
  return params_->inputs[index].dtype();
}

bool OpKernelContext::input_is_ref(int index) const {
  CHECK_GE(index, 0);
  CHECK_LT(index, num_inputs());
  return params_->inputs[index].is_ref();
}

MemoryType OpKernelContext::input_memory_type(int index) const {
  CHECK_GE(index, 0);
  CHECK_LT(index, op_kernel().num_inputs());
  return op_kernel().input_memory_types()[index];
}

void OpKernelContext::BadInput(int index) const {
  CHECK_GE(index, 0);
  CHECK_LT(index, num_inputs()) << " kernel=" << op_kernel().name();
  LOG(FATAL) << "Check failed: !value.is_ref() input " << index << " of " << op_kernel().name()
             << " is a ref; use mutable_input";
}

absl::Status OpKernelContext::InputIndex(absl::string_view name, int* index) const {
  int start, stop;
  RETURN_IF_ERROR(op_kernel().InputRange(name, &start, &stop));
  if (stop != start + 1) {
    return errors::InvalidArgument("OpKernel used list-valued input name '", name,
                                   "' when single-valued input was expected");
  }
  *index = start;
  return absl::OkStatus();
}

absl::Status OpKernelContext::input(absl::string_view name, const Tensor** tensor) const {
  int index;
  RETURN_IF_ERROR(InputIndex(name, &index));
  if (params_->inputs[index].is_ref()) {
    return errors::InvalidArgument("OpKernel used ref input name '", name,
                                   "' when non-ref input was expected");
  }
  *tensor = params_->inputs[index].tensor;
  return absl::OkStatus();
}

absl::Status OpKernelContext::input_list(absl::string_view name, OpInputList* list) {
  int start, stop;
  RETURN_IF_ERROR(op_kernel().InputRange(name, &start, &stop));
  *list = OpInputList(this, start, stop);
  return absl::OkStatus();
}

Tensor OpKernelContext::mutable_input(int index, bool lock_held) {
  absl::Mutex* mu = input_ref_mutex(index);
  if (lock_held) return *params_->inputs[index].tensor;
  absl::ReaderMutexLock lock(mu);
  return *params_->inputs[index].tensor;
}

absl::Mutex* OpKernelContext::input_ref_mutex(int index) const {
  CHECK(input_is_ref(index)) << "input " << index << " of " << op_kernel().name()
                             << " is not a ref";
  return params_->inputs[index].mutex_if_ref;
}

// Outputs -----------------------------------------------------------------------------------

DataType OpKernelContext::expected_output_dtype(int index) const {
  CHECK_GE(index, 0);
  CHECK_LT(index, num_outputs());
  return op_kernel().output_type(index);
}

MemoryType OpKernelContext::output_memory_type(int index) const {
  CHECK_GE(index, 0);
  CHECK_LT(index, num_outputs());
  return op_kernel().output_memory_types()[index];
}

Allocator* OpKernelContext::AllocatorFor(MemoryType memory_type) const {
  return memory_type == HOST_MEMORY ? params_->device->GetHostAllocator()
                                    : params_->device->GetAllocator();
}

absl::StatusOr<Tensor> OpKernelContext::AllocateTensor(DataType dtype, const TensorShape& shape,
                                                       MemoryType memory_type) const {
  Allocator* allocator = AllocatorFor(memory_type);
  absl::StatusOr<Tensor> tensor = Tensor::Allocate(allocator, dtype, shape);
  if (ABSL_PREDICT_FALSE(!tensor.ok())) {
    const std::string summary = allocator->MemorySummary();
    return errors::ResourceExhausted(
        "OOM when allocating tensor with shape", shape.DebugString(), " and type ",
        DataTypeString(dtype), " on ", params_->device->name(), " by allocator ", allocator->Name(),
        ": ", tensor.status().message(), summary.empty() ? "" : "; ", summary);
  }
  return tensor;
}

absl::Status OpKernelContext::allocate_output(int index, const TensorShape& shape,
                                              Tensor** output) {
  if (index < 0 || index >= num_outputs()) {
    return errors::Internal("allocate_output with bad index=", index,
                            " num_outputs=", num_outputs(), " kernel=", op_kernel().name());
  }
  const DataType dtype = op_kernel().output_type(index);
  if (IsRefType(dtype)) {
    return errors::Internal("allocate_output with ref type. index=", index,
                            " type=", DataTypeString(dtype), " kernel=", op_kernel().name());
  }
  if (outputs_[index].tensor != nullptr) {
    return errors::Internal("allocate_output on same index multiple times. index = ", index,
                            " kernel=", op_kernel().name());
  }
  absl::StatusOr<Tensor> allocated = AllocateTensor(dtype, shape, output_memory_type(index));
  if (ABSL_PREDICT_FALSE(!allocated.ok())) return allocated.status();
  *output = output_tensors_[index].Set(*std::move(allocated));
  outputs_[index] = TensorValue(*output);
  return absl::OkStatus();
}

absl::Status OpKernelContext::OutputIndex(absl::string_view name, int* index) const {
  int start, stop;
  RETURN_IF_ERROR(op_kernel().OutputRange(name, &start, &stop));
  if (stop != start + 1) {
    return errors::InvalidArgument("OpKernel used list-valued output name '", name,
                                   "' when single-valued output was expected");
  }
  *index = start;
  return absl::OkStatus();
}

absl::Status OpKernelContext::allocate_output(absl::string_view name, const TensorShape& shape,
                                              Tensor** output) {
  int index;
  RETURN_IF_ERROR(OutputIndex(name, &index));
  return allocate_output(index, shape, output);
}

bool OpKernelContext::forward_input_to_output_with_shape(int input_index, int output_index,
                                                         const TensorShape& shape,
                                                         Tensor** output) {
  CHECK_GE(input_index, 0);
  CHECK_LT(input_index, num_inputs());
  CHECK_GE(output_index, 0);
  CHECK_LT(output_index, num_outputs());
  const TensorValue& input = params_->inputs[input_index];
  // The kernel's type vectors are read directly: the indices are checked above, and the
  // accessors' own checks cost as much as the rest of this call (every elementwise kernel
  // makes it).
  const OpKernel& kernel = *params_->op_kernel;
  DCHECK_LT(input_index, kernel.num_inputs());
  const DataType output_dtype = kernel.output_type(output_index);
  // Shared buffers, the usual refusal (a tensor with several readers, a Const's value), are
  // tested first.
  if (input.tensor == nullptr || input.is_ref() || !input.tensor->RefCountIsOne() ||
      outputs_[output_index].tensor != nullptr || IsRefType(output_dtype) ||
      input.tensor->dtype() != output_dtype ||
      input.tensor->NumElements() != shape.num_elements() ||
      kernel.input_memory_types()[input_index] != kernel.output_memory_types()[output_index]) {
    return false;
  }
  // A copy shares the buffer; most forwards keep the input's shape, else it is replaced
  // (the element counts agree, checked above).
  Tensor* slot = output_tensors_[output_index].Set(*input.tensor);
  if (!slot->shape().IsSameSize(shape) && !slot->CopyFrom(*input.tensor, shape)) return false;
  outputs_[output_index] = TensorValue(slot);
  *output = slot;
  return true;
}

absl::Status OpKernelContext::forward_input_or_allocate_output(
    absl::Span<const int> candidate_input_indices, int output_index, const TensorShape& shape,
    Tensor** output, int* forwarded_input) {
  for (int input_index : candidate_input_indices) {
    if (forward_input_to_output_with_shape(input_index, output_index, shape, output)) {
      if (forwarded_input != nullptr) *forwarded_input = input_index;
      return absl::OkStatus();
    }
  }
  if (forwarded_input != nullptr) *forwarded_input = -1;
  return allocate_output(output_index, shape, output);
}

namespace {

bool AllArgumentsInHostMemory(const OpKernel& kernel) {
  for (MemoryType t : kernel.input_memory_types()) {
    if (t != HOST_MEMORY) return false;
  }
  for (MemoryType t : kernel.output_memory_types()) {
    if (t != HOST_MEMORY) return false;
  }
  return true;
}

}  // namespace

absl::Status OpKernelContext::allocate_temp(DataType dtype, const TensorShape& shape,
                                            Tensor* out_temp) {
  // A kernel whose arguments are all in host memory is host code (the CPU's, registered for
  // a GPU with HostMemory everywhere, as int32 shape arithmetic is): its scratch must be host
  // memory too, which the host writes. A CPU device's two allocators are one.
  const MemoryType memory_type =
      AllArgumentsInHostMemory(op_kernel()) ? HOST_MEMORY : DEVICE_MEMORY;
  absl::StatusOr<Tensor> allocated = AllocateTensor(dtype, shape, memory_type);
  if (!allocated.ok()) return allocated.status();
  *out_temp = *std::move(allocated);
  return absl::OkStatus();
}

void OpKernelContext::set_output(int index, const Tensor& tensor) {
  CHECK_GE(index, 0);
  CHECK_LT(index, num_outputs());
  const DataType expected = op_kernel().output_type(index);
  CHECK(!IsRefType(expected)) << "set_output on ref output " << index << " of "
                              << op_kernel().name() << "; use set_output_ref";
  CHECK(outputs_[index].tensor == nullptr)
      << "output " << index << " of " << op_kernel().name() << " set twice";
  if (tensor.dtype() != expected) {
    SetStatus(errors::Internal("Output ", index, " of type ", DataTypeString(tensor.dtype()),
                               " does not match declared output type ", DataTypeString(expected),
                               " for node ", FormatNodeDefForError(op_kernel().def())));
    return;
  }
  outputs_[index] = TensorValue(output_tensors_[index].Set(tensor));
}

absl::Status OpKernelContext::set_output(absl::string_view name, const Tensor& tensor) {
  int index;
  RETURN_IF_ERROR(OutputIndex(name, &index));
  set_output(index, tensor);
  return absl::OkStatus();
}

void OpKernelContext::set_output_ref(int index, absl::Mutex* mu, Tensor* tensor_for_ref) {
  CHECK_GE(index, 0);
  CHECK_LT(index, num_outputs());
  const DataType expected = op_kernel().output_type(index);
  CHECK(IsRefType(expected)) << "set_output_ref on non-ref output " << index << " of "
                             << op_kernel().name();
  CHECK(mu != nullptr && tensor_for_ref != nullptr);
  if (tensor_for_ref->dtype() != RemoveRefType(expected)) {
    SetStatus(errors::Internal("Output ", index, " of type ",
                               DataTypeString(MakeRefType(tensor_for_ref->dtype())),
                               " does not match declared output type ", DataTypeString(expected),
                               " for node ", FormatNodeDefForError(op_kernel().def())));
    return;
  }
  outputs_[index] = TensorValue(mu, tensor_for_ref);
}

void OpKernelContext::forward_ref_input_to_ref_output(int input_index, int output_index) {
  absl::Mutex* mu = input_ref_mutex(input_index);
  set_output_ref(output_index, mu, params_->inputs[input_index].tensor);
}

absl::Status OpKernelContext::output_list(absl::string_view name, OpOutputList* list) {
  int start, stop;
  RETURN_IF_ERROR(op_kernel().OutputRange(name, &start, &stop));
  *list = OpOutputList(this, start, stop);
  return absl::OkStatus();
}

Tensor* OpKernelContext::mutable_output(int index) {
  CHECK_GE(index, 0);
  CHECK_LT(index, num_outputs());
  return outputs_[index].tensor;
}

// Status ------------------------------------------------------------------------------------

void OpKernelContext::SetStatus(const absl::Status& status) { status_.Update(status); }

void OpKernelContext::CtxFailure(const absl::Status& status) {
  VLOG(1) << status;
  SetStatus(status);
}

void OpKernelContext::CtxFailure(const char* file, int line, const absl::Status& status) {
  VLOG(1) << OpRequiresFailedMessage(file, line, status);
  SetStatus(status);
}

void OpKernelContext::CtxFailureWithWarning(const absl::Status& status) {
  LOG(WARNING) << status;
  SetStatus(status);
}

void OpKernelContext::CtxFailureWithWarning(const char* file, int line,
                                            const absl::Status& status) {
  LOG(WARNING) << OpRequiresFailedMessage(file, line, status);
  SetStatus(status);
}

}  // namespace sluice
