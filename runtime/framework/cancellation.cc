// CancellationManager: callbacks in a map under one mutex, run outside it on cancel.
#include "runtime/framework/cancellation.h"

#include <utility>

namespace sluice {

CancellationToken CancellationManager::get_cancellation_token() {
  absl::MutexLock lock(&mu_);
  return next_token_++;
}

bool CancellationManager::RegisterCallback(CancellationToken token,
                                           std::function<void()> callback) {
  absl::MutexLock lock(&mu_);
  if (is_cancelled_.load(std::memory_order_relaxed)) return false;
  callbacks_[token] = std::move(callback);
  return true;
}

bool CancellationManager::DeregisterCallback(CancellationToken token) {
  {
    absl::MutexLock lock(&mu_);
    if (!is_cancelled_.load(std::memory_order_relaxed)) {
      callbacks_.erase(token);
      return true;
    }
  }
  // The callbacks were taken out of the map by StartCancel; this one may be running now.
  callbacks_done_.WaitForNotification();
  return false;
}

bool CancellationManager::TryDeregisterCallback(CancellationToken token) {
  absl::MutexLock lock(&mu_);
  if (is_cancelled_.load(std::memory_order_relaxed)) return false;
  callbacks_.erase(token);
  return true;
}

void CancellationManager::StartCancel() {
  absl::flat_hash_map<CancellationToken, std::function<void()>> to_run;
  {
    absl::MutexLock lock(&mu_);
    if (is_cancelled_.load(std::memory_order_relaxed)) return;
    is_cancelled_.store(true, std::memory_order_release);
    to_run.swap(callbacks_);
  }
  // Outside the lock: a callback may register, deregister or query this manager.
  for (auto& entry : to_run) entry.second();
  callbacks_done_.Notify();
}

}  // namespace sluice
