// PruneGraph. The algorithm:
//   1. Parse and resolve every feed, fetch and target name before touching the graph, so a
//      bad name leaves it unchanged.
//   2. With the rewrite: for feed i = x:k add _Arg "_arg_x_k_i" and move every consumer of
//      x:k (and, when x is a Placeholder, every control consumer of x) onto it; for fetch
//      i = y:k add _Retval "_retval_y_k_i" reading y:k (with a client rendezvous, a _Recv
//      "_recv_x_k_i" and a _Send "_send_y_k_i" instead). Start nodes = those + targets.
//      Without it: start nodes = the fetched nodes + targets, and the walk below does not
//      cross the edges that carry a fed tensor.
//   3. Walk backwards from the start nodes over data and control edges; remove every op node
//      the walk did not reach; reconnect source and sink.
#include "passes/prune.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "graph/algorithm.h"
#include "graph/core/errors.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/types.h"
#include "graph/graph.h"
#include "graph/op/node_def_util.h"
#include "graph/tensor_id.h"
#include "proto/node_def.pb.h"

namespace sluice {
namespace {

// One output of one node, resolved against the graph.
struct Endpoint {
  Node* node = nullptr;
  int index = 0;
};

// "x:k" with the index always spelled out, as TensorFlow's TensorId::ToString writes it; the
// key under which "x" and "x:0" are the same endpoint.
std::string EndpointKey(absl::string_view node, int index) {
  return absl::StrCat(node, ":", index);
}

std::string EndpointKey(const Endpoint& e) { return EndpointKey(e.node->name(), e.index); }

// Parses a feed or fetch name strictly; "^x" names a node, not a tensor.
absl::Status ParseEndpointName(const std::string& name, const char* what, TensorId* id) {
  absl::Status s = ParseTensorNameStrict(name, id);
  if (!s.ok()) {
    return errors::InvalidArgument("Invalid ", what, " tensor name '", name, "': ", s.message());
  }
  if (id->index == kControlSlot) {
    return errors::InvalidArgument("Invalid ", what, " tensor name '", name,
                                   "': a control input names a node, not a tensor");
  }
  return absl::OkStatus();
}

absl::Status ResolveEndpoints(const Graph& g, const std::vector<std::string>& names,
                              const char* what, std::vector<Endpoint>* out) {
  for (const std::string& name : names) {
    TensorId id;
    RETURN_IF_ERROR(ParseEndpointName(name, what, &id));
    Node* n = g.FindNodeByName(id.node);
    if (n == nullptr || !n->IsOp()) {
      // TensorFlow's session reports unknown feeds and fetches as INVALID_ARGUMENT.
      return errors::InvalidArgument("Tensor ", EndpointKey(id.node, id.index),
                                     ", specified in either feed_devices or fetch_devices was not "
                                     "found in the Graph");
    }
    if (id.index >= n->num_outputs()) {
      return errors::OutOfRange("Node '", n->name(), "' (type: '", n->type_string(),
                                "', num of outputs: ", n->num_outputs(), ") does not have output ",
                                id.index);
    }
    out->push_back({n, id.index});
  }
  return absl::OkStatus();
}

// TensorFlow's checks on the feed and fetch lists as a whole.
absl::Status CheckEndpointSets(const PruneOptions& opts, const std::vector<Endpoint>& feeds,
                               const std::vector<Endpoint>& fetches) {
  absl::flat_hash_set<std::string> fed;
  for (size_t i = 0; i < feeds.size(); ++i) {
    if (!fed.insert(EndpointKey(feeds[i])).second) {
      return errors::InvalidArgument("Endpoint \"", opts.feeds[i], "\" fed more than once.");
    }
  }
  for (size_t i = 0; i < fetches.size(); ++i) {
    if (fed.contains(EndpointKey(fetches[i]))) {
      return errors::InvalidArgument(opts.fetches[i], " is both fed and fetched.");
    }
  }
  return absl::OkStatus();
}

// Targets name nodes; like TensorFlow, "x:1" or "^x" is taken to mean node x.
absl::Status ResolveTargets(const Graph& g, const std::vector<std::string>& names,
                            std::vector<Node*>* out) {
  std::string not_found;
  for (const std::string& name : names) {
    Node* n = g.FindNodeByName(ParseTensorName(name).node);
    if (n == nullptr || !n->IsOp()) {
      absl::StrAppend(&not_found, name, " ");
    } else {
      out->push_back(n);
    }
  }
  if (!not_found.empty()) {
    return errors::NotFound("PruneForTargets: Some target nodes not found: ", not_found);
  }
  return absl::OkStatus();
}

absl::StatusOr<Node*> AddCallFrameNode(Graph* g, const char* op, const char* prefix,
                                       const Endpoint& e, int index,
                                       const PartialTensorShape* shape = nullptr) {
  NodeDef def;
  def.set_name(absl::StrCat(prefix, e.node->name(), "_", e.index, "_", index));
  def.set_op(op);
  AddNodeAttr("T", BaseType(e.node->output_type(e.index)), &def);
  AddNodeAttr("index", index, &def);
  if (shape != nullptr) {
    AddNodeAttr("_output_shapes", std::vector<PartialTensorShape>{*shape}, &def);
  }
  return g->AddNode(std::move(def));
}

// A fed Placeholder promises its declared shape (the session checks every feed against it),
// so its _Arg carries that shape and shape inference downstream (constant folding of Shape,
// Size, Rank) keeps it, as TensorFlow's session does.
bool DeclaredPlaceholderShape(const Node& node, PartialTensorShape* shape) {
  return node.IsPlaceholder() && TryGetNodeAttr(node.attrs(), "shape", shape) &&
         !shape->unknown_rank();
}

// A client-terminated _Recv (feed) or _Send (fetch) for `e`, named "<prefix><node>_<k>_<index>",
// on the client's device; the rendezvous key is made of `tensor_name` (the name as the caller
// spelled it) and the client's device.
absl::StatusOr<Node*> AddRendezvousNode(Graph* g, const PruneOptions::ClientRendezvous& client,
                                        bool is_recv, const Endpoint& e, int index,
                                        const std::string& tensor_name) {
  NodeDef def;
  def.set_name(
      absl::StrCat(is_recv ? "_recv_" : "_send_", e.node->name(), "_", e.index, "_", index));
  def.set_op(is_recv ? "_Recv" : "_Send");
  def.set_device(client.device);
  AddNodeAttr(is_recv ? "tensor_type" : "T", BaseType(e.node->output_type(e.index)), &def);
  AddNodeAttr("tensor_name", tensor_name, &def);
  AddNodeAttr("send_device", client.device, &def);
  AddNodeAttr("recv_device", client.device, &def);
  // The attr is an int64 holding the incarnation's bits.
  AddNodeAttr("send_device_incarnation", static_cast<int64_t>(client.incarnation), &def);
  AddNodeAttr("client_terminated", true, &def);
  ASSIGN_OR_RETURN(Node * node, g->AddNode(std::move(def)));
  node->set_assigned_device_name(client.device);
  return node;
}

// The device of a call-frame node for `name` (see PruneOptions); empty for none.
const std::string& CallFrameDevice(const PruneOptions& opts,
                                   const absl::flat_hash_map<std::string, std::string>& devices,
                                   const std::string& name) {
  const auto it = devices.find(name);
  return it != devices.end() ? it->second : opts.call_frame_device;
}

void AssignDevice(const std::string& device, Node* node) {
  if (device.empty()) return;
  node->set_requested_device(device);
  node->set_assigned_device_name(device);
}

// Adds the node through which feed `index` arrives (an _Arg, or a _Recv with a client
// rendezvous) and moves the fed tensor's consumers onto it.
absl::Status RewriteFeed(const PruneOptions& opts, Graph* g, const Endpoint& feed, int index) {
  Node* arg = nullptr;
  if (opts.client_rendezvous.has_value()) {
    ASSIGN_OR_RETURN(arg, AddRendezvousNode(g, *opts.client_rendezvous, /*is_recv=*/true, feed,
                                            index, opts.feeds[index]));
  } else {
    PartialTensorShape declared;
    const bool has_shape = DeclaredPlaceholderShape(*feed.node, &declared);
    ASSIGN_OR_RETURN(
        arg, AddCallFrameNode(g, "_Arg", "_arg_", feed, index, has_shape ? &declared : nullptr));
    AssignDevice(CallFrameDevice(opts, opts.feed_devices, opts.feeds[index]), arg);
  }
  // A Placeholder's control consumers wait for the value that now arrives through the new node.
  const bool move_control = feed.node->IsPlaceholder();
  std::vector<const Edge*> to_move;
  for (const Edge* e : feed.node->out_edges()) {
    if (e->dst()->IsSink()) continue;
    if (e->src_output() == feed.index || (move_control && e->IsControlEdge())) {
      to_move.push_back(e);
    }
  }
  for (const Edge* e : to_move) {
    Node* dst = e->dst();
    const int dst_input = e->dst_input();
    g->RemoveEdge(e);
    if (dst_input == Graph::kControlSlot) {
      g->AddControlEdge(arg, dst);
    } else {
      g->AddEdge(arg, 0, dst, dst_input);
    }
  }
  return absl::OkStatus();
}

// Adds the node through which fetch `index` leaves (a _Retval, or a _Send with a client
// rendezvous), reading the fetched tensor.
absl::StatusOr<Node*> RewriteFetch(const PruneOptions& opts, Graph* g, const Endpoint& fetch,
                                   int index) {
  Node* retval = nullptr;
  if (opts.client_rendezvous.has_value()) {
    ASSIGN_OR_RETURN(retval, AddRendezvousNode(g, *opts.client_rendezvous, /*is_recv=*/false, fetch,
                                               index, opts.fetches[index]));
  } else {
    ASSIGN_OR_RETURN(retval, AddCallFrameNode(g, "_Retval", "_retval_", fetch, index));
    AssignDevice(CallFrameDevice(opts, opts.fetch_devices, opts.fetches[index]), retval);
  }
  g->AddEdge(fetch.node, fetch.index, retval, 0);
  return retval;
}

// Removes every op node not reachable backwards from `start`, never crossing an edge that
// carries a tensor in `cut` nor a control edge out of a node in `cut_control`. Returns whether
// it removed any.
bool KeepReachable(Graph* g, const std::vector<Node*>& start,
                   const absl::flat_hash_set<std::string>& cut,
                   const absl::flat_hash_set<const Node*>& cut_control) {
  std::vector<bool> reached(g->num_node_ids(), false);
  EdgeFilter filter;
  if (!cut.empty()) {
    filter = [&cut, &cut_control](const Edge& e) {
      if (e.IsControlEdge()) return !cut_control.contains(e.src());
      return !cut.contains(EndpointKey(e.src()->name(), e.src_output()));
    };
  }
  ReverseDFSFrom(
      *g, start, [&reached](Node* n) { reached[n->id()] = true; }, nullptr, {}, filter);
  std::vector<Node*> dead;
  for (Node* n : g->op_nodes()) {
    if (!reached[n->id()]) dead.push_back(n);
  }
  for (Node* n : dead) g->RemoveNode(n);
  return !dead.empty();
}

}  // namespace

absl::Status PruneGraph(const PruneOptions& opts, Graph* g, bool* changed) {
  *changed = false;
  if (opts.fetches.empty() && opts.targets.empty()) {
    return errors::InvalidArgument("Must specify at least one target to fetch or execute.");
  }
  std::vector<Endpoint> feeds, fetches;
  std::vector<Node*> targets;
  RETURN_IF_ERROR(ResolveEndpoints(*g, opts.feeds, "feed", &feeds));
  RETURN_IF_ERROR(ResolveEndpoints(*g, opts.fetches, "fetch", &fetches));
  RETURN_IF_ERROR(CheckEndpointSets(opts, feeds, fetches));
  RETURN_IF_ERROR(ResolveTargets(*g, opts.targets, &targets));

  std::vector<Node*> start = targets;
  absl::flat_hash_set<std::string> cut;
  absl::flat_hash_set<const Node*> cut_control;
  if (opts.rewrite_feeds_and_fetches) {
    *changed = !feeds.empty() || !fetches.empty();
    for (size_t i = 0; i < feeds.size(); ++i) {
      RETURN_IF_ERROR(RewriteFeed(opts, g, feeds[i], static_cast<int>(i)));
    }
    for (size_t i = 0; i < fetches.size(); ++i) {
      ASSIGN_OR_RETURN(Node * retval, RewriteFetch(opts, g, fetches[i], static_cast<int>(i)));
      start.push_back(retval);
    }
  } else {
    for (const Endpoint& feed : feeds) {
      cut.insert(EndpointKey(feed));
      if (feed.node->IsPlaceholder()) cut_control.insert(feed.node);
    }
    for (const Endpoint& fetch : fetches) start.push_back(fetch.node);
  }
  if (KeepReachable(g, start, cut, cut_control)) *changed = true;
  FixupSourceAndSinkEdges(g);
  return absl::OkStatus();
}

}  // namespace sluice
