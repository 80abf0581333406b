// LocalRendezvous: the in-process Rendezvous, one per step.
//
// A table from key to a FIFO of either pending values (sends that came first) or pending
// waiters (receives that came first), never both. The table is split into a few buckets by
// the key's hash, each with its own mutex, so concurrent transfers of a step rarely contend.
// Callbacks run on the sender's thread (value arrived for a waiting Recv), the receiver's
// thread (value was already there) or the aborting thread, never under a bucket's lock.
//
// Destroying it with Recvs still pending runs them with CANCELLED "LocalRendezvous deleted"
// (so no waiter is lost); values never received are dropped.
// Ownership: owns the pending values (sharing their buffers) and the pending callbacks.
// Thread safety: as Rendezvous. The destructor must not race with other calls.
#ifndef SLUICE_RUNTIME_FRAMEWORK_LOCAL_RENDEZVOUS_H_
#define SLUICE_RUNTIME_FRAMEWORK_LOCAL_RENDEZVOUS_H_

#include <array>
#include <atomic>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "graph/core/tensor.h"
#include "runtime/framework/rendezvous.h"

namespace sluice {

class LocalRendezvous : public Rendezvous {
 public:
  LocalRendezvous() = default;
  ~LocalRendezvous() override;

  LocalRendezvous(const LocalRendezvous&) = delete;
  LocalRendezvous& operator=(const LocalRendezvous&) = delete;

  using Rendezvous::RecvAsync;
  using Rendezvous::Send;
  absl::Status Send(const ParsedKey& key, const Args& args, const Tensor& value,
                    bool is_dead) override;
  void RecvAsync(const ParsedKey& key, DoneWithArgsCallback done) override;
  void StartAbort(const absl::Status& status) override;

  // OK until aborted, then the abort status.
  absl::Status status() const;

 private:
  // A pending send (args, value, is_dead) or a pending receive (done).
  struct Item {
    Args args;
    Tensor value;
    bool is_dead = false;
    DoneWithArgsCallback done;
  };
  // The pending items of one key; all sends or all receives.
  struct Queue {
    bool holds_sends = false;
    absl::InlinedVector<Item, 1> items;
  };
  struct Bucket {
    absl::Mutex mu;
    absl::flat_hash_map<std::string, Queue> table ABSL_GUARDED_BY(mu);
  };
  static constexpr int kNumBuckets = 8;

  Bucket& BucketFor(const std::string& key);
  // Empties every bucket, running pending receives with `status` outside the locks.
  void FailPending(const absl::Status& status);

  std::array<Bucket, kNumBuckets> buckets_;
  // Lets Send/Recv skip the status lock until an abort happened.
  std::atomic<bool> aborted_{false};
  // Set by the first Send or RecvAsync; the destructor has nothing to sweep before.
  std::atomic<bool> used_{false};
  mutable absl::Mutex status_mu_;
  absl::Status status_ ABSL_GUARDED_BY(status_mu_);
};

}  // namespace sluice

#endif  // SLUICE_RUNTIME_FRAMEWORK_LOCAL_RENDEZVOUS_H_
