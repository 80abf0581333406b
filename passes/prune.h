// PruneGraph: cut a graph down to what one Session::Run signature needs.
//
// Given the tensors a step feeds and fetches and the nodes it runs for their side effects, keeps
// exactly the nodes that the fetches and targets need, following data and control edges
// backwards, and stops at fed tensors: a node whose every needed output is fed is dropped.
//
// With `rewrite_feeds_and_fetches` (the default) the graph is rewritten with TensorFlow's
// call-frame convention, as RewriteGraphForExecution does with use_function_convention:
//   - feed i ("x:k") becomes a new node "_arg_x_k_i" of op `_Arg` with attrs
//     T = the base dtype of x:k and index = i; every data consumer of x:k now reads output 0 of
//     that node instead. When x is a Placeholder, its control consumers move to the _Arg too.
//   - fetch i ("y:k") gets a new node "_retval_y_k_i" of op `_Retval` with attrs
//     T = the base dtype of y:k and index = i, whose input 0 is y:k.
// The runtime binds feed value i to `_Arg` index i and reads fetch i from `_Retval` index i.
// An _Arg that nothing needed is pruned like any other node, so some indices may be absent.
// _Arg and _Retval nodes get the device `feed_devices`/`fetch_devices` name for them, else
// `call_frame_device`, as their requested and assigned device (TensorFlow's session assigns
// them so: a feed lives where the caller put it, on the host CPU unless the callable says
// otherwise); with neither set, no device, and placement chooses one.
// With `client_rendezvous` set as well, feeds and fetches go through the step's rendezvous
// instead, as TensorFlow's RewriteGraphForExecution does for partial runs (where feeds arrive
// one call at a time, after the step has started):
//   - feed i ("x:k") becomes a node "_recv_x_k_i" of op `_Recv` with tensor_type = the base
//     dtype of x:k and tensor_name = the feed as spelled in `feeds` ("x" stays "x"); its
//     consumers move onto it exactly as they would onto an _Arg;
//   - fetch i ("y:k") gets a node "_send_y_k_i" of op `_Send` with T = the base dtype of y:k
//     and tensor_name = the fetch as spelled, whose input 0 is y:k;
//   - both have send_device = recv_device = client_rendezvous.device, send_device_incarnation
//     = client_rendezvous.incarnation, client_terminated = true, and that device as requested
//     and assigned device. So the runtime sends feed "x" to, and receives fetch "y" from, the
//     rendezvous key Rendezvous::CreateKey(device, incarnation, device, "x", "0:0").
// Without the rewrite, the graph keeps its nodes and edges; feeds only stop the backward walk
// (a fed tensor's producer is kept only if something else needs it).
//
// Either way, source and sink edges are fixed up afterwards (every node without inputs hangs
// off the source, every node without outputs feeds the sink).
//
// Errors. Every name is checked before the graph is touched, so only a failure to add an
// _Arg/_Retval/_Recv/_Send (its name is already taken: INVALID_ARGUMENT) leaves it partly
// rewritten.
//   INVALID_ARGUMENT  no fetches and no targets; a malformed tensor name; a tensor fed twice
//                     or both fed and fetched; a feed or fetch naming a node the graph does
//                     not have (TensorFlow's session uses this code there too).
//   OUT_OF_RANGE      an output index the node does not have; a fetch of a node with no
//                     outputs.
//   NOT_FOUND         a target names a node the graph does not have.
//
// Not thread-safe with respect to `g`.
#ifndef SLUICE_PASSES_PRUNE_H_
#define SLUICE_PASSES_PRUNE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"

namespace sluice {

class Graph;

struct PruneOptions {
  // Tensor names ("x", "x:1"); position i is the `_Arg` index.
  std::vector<std::string> feeds;
  // Tensor names; position i is the `_Retval` index.
  std::vector<std::string> fetches;
  // Node names run for their effects only.
  std::vector<std::string> targets;
  // Add `_Arg`/`_Retval` nodes for feeds and fetches (see above).
  bool rewrite_feeds_and_fetches = true;

  // The device whose client feeds and fetches through the rendezvous (see above). A name and
  // a number only: the pass knows no devices.
  struct ClientRendezvous {
    // Full device name, e.g. "/job:localhost/replica:0/task:0/device:CPU:0".
    std::string device;
    uint64_t incarnation = 0;
  };
  // Set: with rewrite_feeds_and_fetches, _Recv/_Send nodes instead of _Arg/_Retval.
  std::optional<ClientRendezvous> client_rendezvous;

  // Full device names of the _Arg and _Retval nodes (see above): by feed (fetch) name as
  // spelled in `feeds` (`fetches`), else call_frame_device; empty: unassigned.
  std::string call_frame_device;
  absl::flat_hash_map<std::string, std::string> feed_devices;
  absl::flat_hash_map<std::string, std::string> fetch_devices;
};

// A pass (passes/pass.h): *changed says whether a node was added (_Arg, _Retval, _Recv,
// _Send) or removed.
absl::Status PruneGraph(const PruneOptions& opts, Graph* g, bool* changed);

}  // namespace sluice

#endif  // SLUICE_PASSES_PRUNE_H_
