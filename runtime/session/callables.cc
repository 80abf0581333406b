#include "runtime/session/callables.h"

#include <utility>

#include "graph/core/errors.h"

namespace sluice {

int64_t CallableRegistry::Add(CallableSpec spec) {
  absl::MutexLock lock(&mu_);
  const int64_t handle = next_handle_++;
  callables_.emplace(handle, std::make_shared<const CallableSpec>(std::move(spec)));
  return handle;
}

absl::Status CallableRegistry::Get(int64_t handle,
                                   std::shared_ptr<const CallableSpec>* spec) const {
  absl::MutexLock lock(&mu_);
  if (handle < 0 || handle >= next_handle_) {
    return errors::InvalidArgument("No such callable handle: ", handle);
  }
  auto it = callables_.find(handle);
  if (it == callables_.end()) {
    return errors::InvalidArgument("Attempted to run callable after handle was released: ", handle);
  }
  *spec = it->second;
  return absl::OkStatus();
}

absl::Status CallableRegistry::Release(int64_t handle) {
  absl::MutexLock lock(&mu_);
  if (handle < 0 || handle >= next_handle_) {
    return errors::InvalidArgument("No such callable handle: ", handle);
  }
  callables_.erase(handle);
  return absl::OkStatus();
}

}  // namespace sluice
