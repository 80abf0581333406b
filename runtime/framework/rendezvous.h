// Rendezvous: where a producer hands a tensor to a consumer identified by a key.
//
// Keys are TensorFlow's: "src_device;src_incarnation;dst_device;tensor_name;frame_id:iter"
// with the incarnation as 16 lower-case hex digits, e.g.
//   "/job:localhost/replica:0/task:0/device:CPU:0;00000000000000ab;
//    /job:localhost/replica:0/task:0/device:CPU:1;edge_5_a;0:0"
// (one line), built by the _Send/_Recv kernels from the attrs that partitioning gives them.
//
// Guarantees (TensorFlow's):
//  - Send never blocks: the value waits in the rendezvous until a Recv takes it.
//  - RecvAsync never blocks: `done` runs when the value arrives (possibly at once, on the
//    caller's thread, or later on the sender's thread), or with the abort status.
//  - Values sent under the same key are received in the order sent, one per Recv.
//  - StartAbort(status) wakes every pending Recv with `status` (which must not be OK), drops
//    the values not yet received, and makes every later Send and Recv fail with it.
//  - Callbacks never run under the rendezvous' own locks, so a callback may call back in.
// Thread safety: every method may be called from any thread.
#ifndef SLUICE_RUNTIME_FRAMEWORK_RENDEZVOUS_H_
#define SLUICE_RUNTIME_FRAMEWORK_RENDEZVOUS_H_

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "graph/core/tensor.h"

namespace sluice {

class DeviceBase;

class Rendezvous {
 public:
  // A key split into its parts; full_key is the whole string.
  struct ParsedKey {
    std::string full_key;
    std::string src_device;
    uint64_t src_incarnation = 0;
    std::string dst_device;
    std::string edge_name;
    std::string frame_iter;
  };

  // The key's string, in the format above.
  static std::string CreateKey(const std::string& src_device, uint64_t src_incarnation,
                               const std::string& dst_device, const std::string& name,
                               const std::string& frame_iter);

  // Splits `key` into *out. A key has exactly five ';'-separated parts: device names that
  // parse (graph/core/device_name.h), a hex incarnation of at most 16 digits, and non-empty
  // tensor name and frame:iter. INVALID_ARGUMENT "Invalid rendezvous key: <key>" otherwise.
  static absl::Status ParseKey(absl::string_view key, ParsedKey* out);

  // Where a sent value's bytes are: in `device`'s own memory (a GPU's), or in host memory
  // when `device` is null (every CPU device's values, and a GPU's HostMemory ones). A
  // receiver that needs them elsewhere copies them (runtime/framework/device_copy.h).
  struct Args {
    DeviceBase* device = nullptr;
  };

  // `value` is valid only during the call (copy it to keep it: copies share the buffer).
  // On a non-OK status, value is empty and is_dead false.
  using DoneCallback =
      std::function<void(const absl::Status& status, const Tensor& value, bool is_dead)>;
  // As DoneCallback, with where the value lives (the sender's Args; default on errors).
  using DoneWithArgsCallback = std::function<void(const absl::Status& status, const Args& sent,
                                                  const Tensor& value, bool is_dead)>;

  virtual ~Rendezvous() = default;

  // Hands `value` (sharing its buffer) to the first pending or next Recv of `key`. `is_dead`
  // marks a value from an untaken control-flow branch. Fails only if the rendezvous was
  // aborted (with the abort status).
  virtual absl::Status Send(const ParsedKey& key, const Args& args, const Tensor& value,
                            bool is_dead) = 0;
  // A value in host memory.
  absl::Status Send(const ParsedKey& key, const Tensor& value, bool is_dead) {
    return Send(key, Args(), value, is_dead);
  }

  // Calls `done` exactly once, as described above.
  virtual void RecvAsync(const ParsedKey& key, DoneWithArgsCallback done) = 0;
  // For receivers that know the value is in host memory.
  void RecvAsync(const ParsedKey& key, DoneCallback done);

  // RecvAsync, blocking the caller until done. timeout_ms > 0 bounds the wait: then
  // DEADLINE_EXCEEDED "Timed out waiting for notification" (TensorFlow's text), and a value
  // arriving later for this Recv is dropped.
  absl::Status Recv(const ParsedKey& key, Tensor* value, bool* is_dead, int64_t timeout_ms = 0);

  // REQUIRES: !status.ok(). The first abort's status sticks; later calls change nothing.
  virtual void StartAbort(const absl::Status& status) = 0;
};

}  // namespace sluice

#endif  // SLUICE_RUNTIME_FRAMEWORK_RENDEZVOUS_H_
