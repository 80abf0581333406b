// Tensor names as NodeDef inputs and fetches spell them.
//
// A tensor is named "node" (output 0), "node:k" (output k) or, for a control dependency on a
// node, "^node". TensorId is the parsed form: a view into the caller's string (it owns
// nothing, so the string must outlive it) plus the output index, with kControlSlot (-1)
// standing for "^". The forgiving parser accepts anything and never fails, for names already
// validated; the strict one rejects malformed names with INVALID_ARGUMENT and is the one to
// use on user input.
#ifndef SLUICE_GRAPH_TENSOR_ID_H_
#define SLUICE_GRAPH_TENSOR_ID_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace sluice {

// The index TensorId uses for a control dependency (TensorFlow's Graph::kControlSlot).
inline constexpr int kControlSlot = -1;

struct TensorId {
  absl::string_view node;
  int index = 0;

  bool operator==(const TensorId& other) const {
    return node == other.node && index == other.index;
  }
  bool operator!=(const TensorId& other) const { return !(*this == other); }
};

// "a" -> {a, 0}; "a:1" -> {a, 1}; "^a" -> {a, kControlSlot}. A suffix that is not ":digits"
// (or whose index would overflow an int) is left in the node name with index 0, so that
// "a:x" -> {"a:x", 0}. Never fails.
TensorId ParseTensorName(absl::string_view name);

// Like ParseTensorName, but returns INVALID_ARGUMENT for anything but a non-empty node name
// optionally followed by ":" and a decimal index (no sign, no leading zeros, fits an int),
// or "^" and a non-empty node name without ':'. Examples rejected: "", "a:", "a:x", ":1", "^",
// "^a:1", "a:-2", "a:01". `*out` is only written on success.
absl::Status ParseTensorNameStrict(absl::string_view name, TensorId* out);

// True if `input` names a control dependency ("^node").
bool IsControlInput(absl::string_view input);

// The canonical spelling: "a" for index 0, "a:1", "^a" for kControlSlot.
std::string TensorIdString(const TensorId& id);

}  // namespace sluice

#endif  // SLUICE_GRAPH_TENSOR_ID_H_
