#include "kernels/cpu/lists/stack.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"

namespace sluice {

Stack::Stack(std::string name, DataType elem_type, int64_t max_size)
    : name_(std::move(name)), elem_type_(elem_type), max_size_(max_size) {}

std::string Stack::DebugString() const { return absl::StrCat("Stack[", name_, "]"); }

absl::Status Stack::CheckOpenLocked() const {
  if (closed_) return errors::InvalidArgument("Stack[", name_, "] has already been closed.");
  return absl::OkStatus();
}

absl::Status Stack::Push(const Tensor& value) {
  absl::MutexLock lock(&mu_);
  RETURN_IF_ERROR(CheckOpenLocked());
  if (max_size_ >= 0 && static_cast<int64_t>(tensors_.size()) >= max_size_) {
    return errors::InvalidArgument("Stack[", name_, "] overflowed its max_size (", max_size_, ")");
  }
  tensors_.push_back(value);
  return absl::OkStatus();
}

absl::Status Stack::Pop(Tensor* value) {
  absl::MutexLock lock(&mu_);
  RETURN_IF_ERROR(CheckOpenLocked());
  if (tensors_.empty()) {
    return errors::InvalidArgument("Stack[", name_, "] is empty when calling Pop().");
  }
  *value = std::move(tensors_.back());
  tensors_.pop_back();
  return absl::OkStatus();
}

void Stack::Close() {
  absl::MutexLock lock(&mu_);
  tensors_.clear();
  closed_ = true;
}

}  // namespace sluice
