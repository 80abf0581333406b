#include "kernels/cpu/training/variable_inputs.h"

#include <algorithm>

#include "graph/core/element_bytes.h"
#include "graph/core/errors.h"
#include "proto/resource_handle.pb.h"
#include "runtime/framework/resource_mgr.h"

namespace sluice {

VariableInputs::VariableInputs(OpKernelContext* ctx, int count, DataType dtype, bool use_locking,
                               LookupErrors lookup_errors)
    : ctx_(ctx), count_(count) {
  DCHECK_LE(count, kMaxVariables);
  status_ = Init(dtype, use_locking, lookup_errors);
}

VariableInputs::~VariableInputs() {
  // Drop the views before unlocking: a later writer's copy-on-write test must not see them.
  for (int i = 0; i < count_; ++i) tensors_[i] = Tensor();
  for (int i = num_locked_ - 1; i >= 0; --i) locked_[i]->Unlock();
  for (int i = 0; i < count_; ++i) {
    if (vars_[i] != nullptr) vars_[i]->Unref();
  }
}

absl::Status VariableInputs::Init(DataType dtype, bool use_locking, LookupErrors lookup_errors) {
  resource_ = count_ > 0 && ctx_->input_dtype(0) == DT_RESOURCE;
  absl::Mutex* mutexes[kMaxVariables];
  for (int i = 0; i < count_; ++i) {
    if (!resource_) {
      mutexes[i] = ctx_->input_ref_mutex(i);
      continue;
    }
    ResourceHandleProto handle;
    absl::Status found = HandleFromInput(ctx_, i, &handle);
    if (found.ok()) found = LookupResource(ctx_, handle, &vars_[i]);
    if (!found.ok()) {
      return lookup_errors == LookupErrors::kAsIs ? found
                                                  : errors::Internal("Invalid variable reference.");
    }
    mutexes[i] = vars_[i]->mu();
  }

  if (resource_ || use_locking) {
    for (int i = 0; i < count_; ++i) {
      if (std::find(locked_, locked_ + num_locked_, mutexes[i]) == locked_ + num_locked_) {
        locked_[num_locked_++] = mutexes[i];
      }
    }
    std::sort(locked_, locked_ + num_locked_);
    for (int i = 0; i < num_locked_; ++i) locked_[i]->Lock();
  }

  const NodeDef& node = ctx_->op_kernel().def();
  for (int i = 0; i < count_; ++i) {
    if (resource_) {
      // The scatter ops check the dtype first, with TensorFlow's text (its training ops do not
      // check it at all).
      if (vars_[i]->dtype() != dtype && lookup_errors == LookupErrors::kAsIs) {
        return errors::InvalidArgument("DType of scatter resource and updates does not match.");
      }
      if (!vars_[i]->is_initialized) {
        return errors::FailedPrecondition("Attempting to use uninitialized value ", node.input(i));
      }
      if (vars_[i]->dtype() != dtype) {
        return errors::InvalidArgument("Variable ", node.input(i), " holds ",
                                       DataTypeString(vars_[i]->dtype()), " but ", node.op(),
                                       " updates ", DataTypeString(dtype));
      }
    } else {
      tensors_[i] = ctx_->mutable_input(i, /*lock_held=*/use_locking);
      if (!IsInitializedRef(tensors_[i])) {
        return errors::FailedPrecondition("Attempting to use uninitialized value ", node.input(i));
      }
      if (tensors_[i].dtype() != dtype) {
        return errors::InvalidArgument("Variable ", node.input(i), " holds ",
                                       DataTypeString(tensors_[i].dtype()), " but ", node.op(),
                                       " updates ", DataTypeString(dtype));
      }
    }
  }
  if (!resource_) return absl::OkStatus();

  // Copy-on-write, for every variable before taking any view: the same variable may come in
  // twice, and a view taken of it would make the second test see a shared buffer.
  for (int i = 0; i < count_; ++i) {
    Tensor* value = vars_[i]->tensor();
    if (value->RefCountIsOne()) continue;
    Tensor copy;
    RETURN_IF_ERROR(ctx_->allocate_temp(dtype, value->shape(), &copy));
    CopyTensorElements(*value, &copy);
    vars_[i]->SetValue(copy);
  }
  for (int i = 0; i < count_; ++i) tensors_[i] = *vars_[i]->tensor();
  return absl::OkStatus();
}

void VariableInputs::ForwardRef() {
  if (!resource_ && count_ > 0) ctx_->forward_ref_input_to_ref_output(0, 0);
}

}  // namespace sluice
