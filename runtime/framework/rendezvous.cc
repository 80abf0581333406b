// Rendezvous: key formatting and parsing, and the blocking Recv over RecvAsync.
#include "runtime/framework/rendezvous.h"

#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "graph/core/device_name.h"
#include "graph/core/errors.h"

namespace sluice {
namespace {

// 1 to 16 hex digits, nothing else (no sign, no "0x").
bool ParseHexIncarnation(absl::string_view text, uint64_t* value) {
  if (text.empty() || text.size() > 16) return false;
  uint64_t result = 0;
  for (char c : text) {
    int digit;
    if (c >= '0' && c <= '9') {
      digit = c - '0';
    } else if (c >= 'a' && c <= 'f') {
      digit = c - 'a' + 10;
    } else if (c >= 'A' && c <= 'F') {
      digit = c - 'A' + 10;
    } else {
      return false;
    }
    result = (result << 4) | static_cast<uint64_t>(digit);
  }
  *value = result;
  return true;
}

}  // namespace

std::string Rendezvous::CreateKey(const std::string& src_device, uint64_t src_incarnation,
                                  const std::string& dst_device, const std::string& name,
                                  const std::string& frame_iter) {
  return absl::StrCat(src_device, ";", absl::StrFormat("%016x", src_incarnation), ";", dst_device,
                      ";", name, ";", frame_iter);
}

absl::Status Rendezvous::ParseKey(absl::string_view key, ParsedKey* out) {
  const std::vector<absl::string_view> parts = absl::StrSplit(key, ';');
  ParsedDeviceName src;
  ParsedDeviceName dst;
  uint64_t incarnation = 0;
  const bool valid = parts.size() == 5 && ParseFullName(parts[0], &src) &&
                     ParseHexIncarnation(parts[1], &incarnation) && ParseFullName(parts[2], &dst) &&
                     !parts[3].empty() && !parts[4].empty();
  if (!valid) return errors::InvalidArgument("Invalid rendezvous key: ", key);
  out->full_key = std::string(key);
  out->src_device = std::string(parts[0]);
  out->src_incarnation = incarnation;
  out->dst_device = std::string(parts[2]);
  out->edge_name = std::string(parts[3]);
  out->frame_iter = std::string(parts[4]);
  return absl::OkStatus();
}

absl::Status Rendezvous::Recv(const ParsedKey& key, Tensor* value, bool* is_dead,
                              int64_t timeout_ms) {
  // Shared with the callback, which may outlive this call when the wait times out.
  struct State {
    absl::Notification done;
    absl::Status status;
    Tensor value;
    bool is_dead = false;
  };
  auto state = std::make_shared<State>();
  RecvAsync(key, [state](const absl::Status& status, const Tensor& v, bool dead) {
    state->status = status;
    state->value = v;
    state->is_dead = dead;
    state->done.Notify();
  });
  if (timeout_ms > 0) {
    if (!state->done.WaitForNotificationWithTimeout(absl::Milliseconds(timeout_ms))) {
      return errors::DeadlineExceeded("Timed out waiting for notification");
    }
  } else {
    state->done.WaitForNotification();
  }
  *value = std::move(state->value);
  *is_dead = state->is_dead;
  return state->status;
}

void Rendezvous::RecvAsync(const ParsedKey& key, DoneCallback done) {
  RecvAsync(key, [done = std::move(done)](const absl::Status& status, const Args& /*sent*/,
                                          const Tensor& value,
                                          bool is_dead) { done(status, value, is_dead); });
}

}  // namespace sluice
