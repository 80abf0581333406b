// CallableRegistry: a session's callables (Session::MakeCallable), by handle.
//
// A callable is a step signature made once and run many times by handle: its feeds, fetches
// and targets, the devices its feeds and fetches live on, and the RunOptions each run uses. Handles
// count up from 0 and are never reused; the errors are TensorFlow's DirectSession's
// (INVALID_ARGUMENT "No such callable handle: N" for a handle never made, "Attempted to run
// callable after handle was released: N" for one released). Thread safety: every method may be
// called from any thread.
#ifndef SLUICE_RUNTIME_SESSION_CALLABLES_H_
#define SLUICE_RUNTIME_SESSION_CALLABLES_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "proto/config.pb.h"
#include "runtime/session/direct_session_executors.h"

namespace sluice {

class Device;

struct CallableSpec {
  std::vector<std::string> feeds;
  std::vector<std::string> fetches;
  std::vector<std::string> targets;
  RunOptions run_options;
  // Feeds and fetches off the host CPU.
  CallFrameDevices devices;
  // The devices a run synchronises before returning (fetch_skip_sync false): those holding
  // fetches, not owned.
  std::vector<Device*> sync_after_run;
};

class CallableRegistry {
 public:
  int64_t Add(CallableSpec spec);
  absl::Status Get(int64_t handle, std::shared_ptr<const CallableSpec>* spec) const;
  absl::Status Release(int64_t handle);

 private:
  mutable absl::Mutex mu_;
  int64_t next_handle_ ABSL_GUARDED_BY(mu_) = 0;
  absl::flat_hash_map<int64_t, std::shared_ptr<const CallableSpec>> callables_ ABSL_GUARDED_BY(mu_);
};

}  // namespace sluice

#endif  // SLUICE_RUNTIME_SESSION_CALLABLES_H_
