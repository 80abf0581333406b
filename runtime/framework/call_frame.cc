// FunctionCallFrame: argument and result slots with TensorFlow's checks and messages.
#include "runtime/framework/call_frame.h"

#include <utility>

#include "graph/core/errors.h"

namespace sluice {

FunctionCallFrame::FunctionCallFrame(DataTypeSlice arg_types, DataTypeSlice ret_types)
    : arg_types_(arg_types.begin(), arg_types.end()),
      ret_types_(ret_types.begin(), ret_types.end()),
      retvals_(ret_types.size()) {}

FunctionCallFrame::~FunctionCallFrame() = default;

absl::Status FunctionCallFrame::SetArgs(std::vector<Tensor> args) {
  if (args.size() != arg_types_.size()) {
    return errors::InvalidArgument("Expects ", arg_types_.size(), " arguments, but ", args.size(),
                                   " is provided");
  }
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].dtype() != arg_types_[i]) {
      return errors::InvalidArgument("Expects arg[", i, "] to be ", DataTypeString(arg_types_[i]),
                                     " but ", DataTypeString(args[i].dtype()), " is provided");
    }
  }
  args_ = std::move(args);
  return absl::OkStatus();
}

absl::Status FunctionCallFrame::GetArg(int index, const Tensor** value) const {
  // args_ is empty until SetArgs succeeds, so an unset frame reports every index.
  if (index < 0 || static_cast<size_t>(index) >= args_.size()) {
    return errors::InvalidArgument("GetArg ", index, " is not within [0, ", args_.size(), ")");
  }
  *value = &args_[index];
  return absl::OkStatus();
}

absl::Status FunctionCallFrame::SetRetval(int index, const Tensor& value) {
  if (index < 0 || static_cast<size_t>(index) >= ret_types_.size()) {
    return errors::InvalidArgument("SetRetval ", index, " is not within [0, ", ret_types_.size(),
                                   ")");
  }
  if (value.dtype() != ret_types_[index]) {
    return errors::InvalidArgument("Expects ret[", index, "] to be ",
                                   DataTypeString(ret_types_[index]), ", but ",
                                   DataTypeString(value.dtype()), " is provided.");
  }
  absl::MutexLock lock(&mu_);
  Retval& slot = retvals_[index];
  if (slot.has_value) {
    return errors::Internal("Retval[", index, "] has already been set.");
  }
  slot.value = value;
  slot.has_value = true;
  return absl::OkStatus();
}

absl::Status FunctionCallFrame::ConsumeRetvals(std::vector<Tensor>* retvals) {
  retvals->clear();
  absl::MutexLock lock(&mu_);
  for (size_t i = 0; i < retvals_.size(); ++i) {
    if (!retvals_[i].has_value) {
      retvals->clear();
      return errors::InvalidArgument("Retval[", i, "] does not have value");
    }
  }
  retvals->reserve(retvals_.size());
  for (Retval& slot : retvals_) {
    retvals->push_back(std::move(slot.value));
    slot = Retval();
  }
  return absl::OkStatus();
}

}  // namespace sluice
