// CancellationManager: TensorFlow's cancellation of a step (or of anything with waiters).
//
// Whoever waits on something that may never come (a _Recv, a queue) registers a callback
// that wakes it; StartCancel runs every registered callback once. The usual pattern:
//
//   CancellationToken token = cm->get_cancellation_token();
//   if (!cm->RegisterCallback(token, [state] { state->Wake(CANCELLED); })) {
//     ... already cancelled: fail now, the callback will never run ...
//   }
//   ... later, when the wait ended normally ...
//   cm->TryDeregisterCallback(token);   // or DeregisterCallback to also wait for it
//
// Contract:
//  - Callbacks run on the thread that calls StartCancel, outside the manager's lock, in no
//    particular order; a callback may call IsCancelled and TryDeregisterCallback but must
//    not call DeregisterCallback for a token of this manager (it would wait for itself).
//  - StartCancel is idempotent: later and concurrent calls return at once.
//  - IsCancelled is true from the moment StartCancel begins (unlike TensorFlow, which sets
//    it after the last callback ran; callers polling it should stop as early as possible).
//  - A callback registered after StartCancel began is rejected (RegisterCallback returns
//    false) and never runs.
// Thread safety: every method may be called from any thread.
#ifndef SLUICE_RUNTIME_FRAMEWORK_CANCELLATION_H_
#define SLUICE_RUNTIME_FRAMEWORK_CANCELLATION_H_

#include <atomic>
#include <cstdint>
#include <functional>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"

namespace sluice {

using CancellationToken = int64_t;

class CancellationManager {
 public:
  // A token no callback is registered under.
  static constexpr CancellationToken kInvalidToken = -1;

  CancellationManager() = default;
  // REQUIRES: no callback is running (StartCancel, if started, has returned).
  ~CancellationManager() = default;

  CancellationManager(const CancellationManager&) = delete;
  CancellationManager& operator=(const CancellationManager&) = delete;

  // A new token, distinct from every other one of this manager.
  CancellationToken get_cancellation_token();

  // Registers `callback` under `token` (from get_cancellation_token, used once). Returns
  // false, and drops the callback without running it, if cancellation has started.
  bool RegisterCallback(CancellationToken token, std::function<void()> callback);

  // Removes the callback of `token`. Returns true if it was removed before it could run
  // (or was never registered); false if cancellation started, in which case this waits
  // until every callback has finished. Must not be called from a callback of this manager.
  bool DeregisterCallback(CancellationToken token);

  // Like DeregisterCallback, but never waits: false means the callback may be running or
  // about to run. Safe from within callbacks.
  bool TryDeregisterCallback(CancellationToken token);

  // Runs every registered callback once, on this thread. Idempotent.
  void StartCancel();

  // True once StartCancel has begun.
  bool IsCancelled() const { return is_cancelled_.load(std::memory_order_acquire); }

 private:
  // Readable without the lock on hot paths; written under mu_.
  std::atomic<bool> is_cancelled_{false};
  // Notified when StartCancel has run every callback.
  absl::Notification callbacks_done_;

  absl::Mutex mu_;
  CancellationToken next_token_ ABSL_GUARDED_BY(mu_) = 0;
  absl::flat_hash_map<CancellationToken, std::function<void()>> callbacks_ ABSL_GUARDED_BY(mu_);
};

}  // namespace sluice

#endif  // SLUICE_RUNTIME_FRAMEWORK_CANCELLATION_H_
