// LocalRendezvous: per-key FIFOs of pending sends or pending receives, in hashed buckets.
//
// Send: if the key's queue holds receives, pop the oldest and run it with the value
// (outside the lock); else append the value. RecvAsync: the mirror image. The abort check
// happens under the bucket's lock, so an item is either swept by StartAbort (which marks the
// rendezvous aborted before sweeping) or rejected: none is stranded.
#include "runtime/framework/local_rendezvous.h"

#include <utility>
#include <vector>

#include "absl/hash/hash.h"

namespace sluice {

LocalRendezvous::~LocalRendezvous() {
  // Most steps never send: their buckets are empty and need no locking to prove it.
  if (!used_.load(std::memory_order_acquire)) return;
  FailPending(absl::CancelledError("LocalRendezvous deleted"));
}

LocalRendezvous::Bucket& LocalRendezvous::BucketFor(const std::string& key) {
  return buckets_[absl::Hash<std::string>()(key) % kNumBuckets];
}

absl::Status LocalRendezvous::status() const {
  if (!aborted_.load(std::memory_order_acquire)) return absl::OkStatus();
  absl::MutexLock lock(&status_mu_);
  return status_;
}

absl::Status LocalRendezvous::Send(const ParsedKey& key, const Args& args, const Tensor& value,
                                   bool is_dead) {
  used_.store(true, std::memory_order_release);
  Bucket& bucket = BucketFor(key.full_key);
  DoneWithArgsCallback waiter;
  {
    absl::MutexLock lock(&bucket.mu);
    if (aborted_.load(std::memory_order_acquire)) return status();
    auto it = bucket.table.find(key.full_key);
    if (it == bucket.table.end() || it->second.holds_sends) {
      if (it == bucket.table.end()) {
        it = bucket.table.emplace(key.full_key, Queue()).first;
        it->second.holds_sends = true;
      }
      it->second.items.push_back(Item{args, value, is_dead, nullptr});
      return absl::OkStatus();
    }
    auto& waiters = it->second.items;
    waiter = std::move(waiters.front().done);
    waiters.erase(waiters.begin());
    if (waiters.empty()) bucket.table.erase(it);
  }
  waiter(absl::OkStatus(), args, value, is_dead);
  return absl::OkStatus();
}

void LocalRendezvous::RecvAsync(const ParsedKey& key, DoneWithArgsCallback done) {
  used_.store(true, std::memory_order_release);
  Bucket& bucket = BucketFor(key.full_key);
  Item sent;
  {
    absl::MutexLock lock(&bucket.mu);
    if (aborted_.load(std::memory_order_acquire)) {
      sent.done = std::move(done);
    } else {
      auto it = bucket.table.find(key.full_key);
      if (it == bucket.table.end() || !it->second.holds_sends) {
        if (it == bucket.table.end()) it = bucket.table.emplace(key.full_key, Queue()).first;
        it->second.items.push_back(Item{Args(), Tensor(), false, std::move(done)});
        return;
      }
      auto& values = it->second.items;
      sent = std::move(values.front());
      values.erase(values.begin());
      if (values.empty()) bucket.table.erase(it);
    }
  }
  // Callbacks run outside the bucket's lock.
  if (sent.done != nullptr) {
    sent.done(status(), Args(), Tensor(), false);
  } else {
    done(absl::OkStatus(), sent.args, sent.value, sent.is_dead);
  }
}

void LocalRendezvous::StartAbort(const absl::Status& status) {
  {
    absl::MutexLock lock(&status_mu_);
    if (!status_.ok()) return;
    status_ = status.ok() ? absl::InternalError("Rendezvous aborted with an OK status") : status;
    aborted_.store(true, std::memory_order_release);
  }
  FailPending(this->status());
}

void LocalRendezvous::FailPending(const absl::Status& status) {
  for (Bucket& bucket : buckets_) {
    absl::flat_hash_map<std::string, Queue> table;
    {
      absl::MutexLock lock(&bucket.mu);
      table.swap(bucket.table);
    }
    for (auto& entry : table) {
      if (entry.second.holds_sends) continue;
      for (Item& item : entry.second.items) item.done(status, Args(), Tensor(), false);
    }
  }
}

}  // namespace sluice
