// Partition, in four steps:
//   1. Give device-crossing edges inside while loops their control loops (a graph the caller
//      keeps must already have them; partition_control.cc).
//   2. Every op node must have a parsable assigned device; note which are on CPU devices.
//   3. For each op node in id order, put its NodeDef into its device's GraphDef with the
//      inputs cleared (the node's own NodeDef when the graph is consumed and the partitions
//      share its arena, else a copy), then walk its in-edges (data inputs by slot, then
//      control edges by source name):
//        edge within a device        -> the input is written as it was;
//        cut edge, transfer exists   -> read the Recv made for the same (source tensor,
//                                       destination device, host memory);
//        cut edge, new transfer      -> add the Send (behind a dummy Const for a control edge)
//                                       to the source's partition and the Recv (followed by
//                                       an Identity for a control edge) to this one.
//      A control edge from a control loop's Merge is not written: it goes to each Recv made
//      for the node, so that the Recv runs once per iteration.
//   4. Give each partition the graph's versions and function library.
// Host memory only matters on non-CPU devices: on a CPU device it is the device's memory, so
// the memory-type callbacks are asked only about nodes elsewhere.
#include "passes/partition.h"

#include <algorithm>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "graph/core/device_name.h"
#include "graph/core/errors.h"
#include "graph/core/types.h"
#include "graph/graph.h"
#include "graph/op/node_def_util.h"
#include "passes/partition_control.h"
#include "proto/tensor.pb.h"

namespace sluice {
namespace {

// Where the two halves of one cut edge go, and whether each works in host memory.
struct Transfer {
  GraphDef* src_graph;
  GraphDef* dst_graph;
  bool send_on_host;
  bool recv_on_host;
};

class Partitioner {
 public:
  // With `consumed` (the same graph as `graph`), the partitions share its arena and take
  // its nodes' NodeDefs rather than copies.
  Partitioner(const PartitionOptions& opts, const Graph& graph, Graph* consumed,
              GraphPartitions* partitions)
      : opts_(opts), graph_(graph), consumed_(consumed), partitions_(partitions) {}

  absl::Status Run();

 private:
  absl::Status CheckDevices();
  absl::Status AddNode(const Node& dst);
  // Input edges of `dst`: data edges by slot, then control edges sorted by source name;
  // a control loop's Merge among them goes to loop_trigger_ instead.
  absl::Status SortedInputs(const Node& dst, std::vector<const Edge*>* inputs);
  // Writes the input that `edge` gives `dst_def`, through a new or shared transfer if needed.
  void AddInput(const Edge& edge, NodeDef* dst_def);
  // Adds a Send/Recv pair for `edge`; returns the node the consumer reads (Recv, or the
  // Identity after it for a control edge).
  std::string AddTransfer(const Edge& edge, const Transfer& t);
  void SetTransferAttrs(const Edge& edge, const std::string& tensor_name, NodeDef* def);
  std::string NewName(absl::string_view prefix);

  bool OutputOnHost(const Node& n, int port) const {
    return !on_cpu_[n.id()] && opts_.output_in_host_memory && opts_.output_in_host_memory(n, port);
  }
  bool InputOnHost(const Node& n, int port) const {
    return !on_cpu_[n.id()] && opts_.input_in_host_memory && opts_.input_in_host_memory(n, port);
  }
  // Nodes come mostly in runs on one device: the last partition is kept, so that most
  // lookups compare the name instead of hashing it (map elements never move).
  GraphDef* PartitionOf(const Node& n) {
    const std::string& device = n.assigned_device_name();
    if (last_partition_ == nullptr || device != last_device_) {
      last_partition_ = partitions_->GetOrAdd(device);
      last_device_ = device;
    }
    return last_partition_;
  }

  const PartitionOptions& opts_;
  const Graph& graph_;
  Graph* const consumed_;
  GraphPartitions* partitions_;
  // By node id: whether the node is assigned to a CPU device.
  std::vector<bool> on_cpu_;
  // (source id, source output, destination device, recv on host) -> the node consumers read.
  absl::flat_hash_map<std::tuple<int, int, std::string, bool>, std::string> transfers_;
  // Control inputs already written to the current node.
  absl::flat_hash_set<std::string> control_inputs_;
  // The current node's control loop Merge (a control input of the Recvs made for it), if any.
  const Node* loop_trigger_ = nullptr;
  int64_t name_counter_ = 0;
  std::string last_device_;
  GraphDef* last_partition_ = nullptr;
};

absl::Status Partitioner::Run() {
  partitions_->Reset(consumed_ != nullptr ? consumed_->shared_arena() : nullptr);
  if (consumed_ != nullptr) {
    RETURN_IF_ERROR(AddCrossDeviceControlLoops(consumed_));
  } else {
    RETURN_IF_ERROR(CheckNoCrossDeviceLoops(graph_));
  }
  RETURN_IF_ERROR(CheckDevices());
  for (const Node* n : graph_.op_nodes()) RETURN_IF_ERROR(AddNode(*n));
  for (const auto& [device, gdef] : partitions_->graphs()) {
    *gdef->mutable_versions() = graph_.versions();
    *gdef->mutable_library() = graph_.library();
  }
  return absl::OkStatus();
}

absl::Status Partitioner::CheckDevices() {
  on_cpu_.assign(graph_.num_node_ids(), true);
  // Graphs use a handful of devices: each distinct name is parsed once.
  absl::flat_hash_map<absl::string_view, bool> cpu_devices;
  for (const Node* n : graph_.op_nodes()) {
    const std::string& device = n->assigned_device_name();
    if (device.empty()) {
      return errors::InvalidArgument("Node '", n->name(), "' (", n->type_string(),
                                     ") has no assigned device; place the graph before "
                                     "partitioning it");
    }
    auto known = cpu_devices.find(device);
    if (known == cpu_devices.end()) {
      ParsedDeviceName parsed;
      if (!ParseFullName(device, &parsed) || !parsed.has_type) {
        return errors::InvalidArgument("Malformed assigned device '", device, "' of node '",
                                       n->name(), "' (", n->type_string(), ")");
      }
      known = cpu_devices.emplace(device, parsed.type == "CPU").first;
    }
    on_cpu_[n->id()] = known->second;
  }
  return absl::OkStatus();
}

absl::Status Partitioner::SortedInputs(const Node& dst, std::vector<const Edge*>* inputs) {
  inputs->assign(dst.num_inputs(), nullptr);
  std::vector<const Edge*> controls;
  loop_trigger_ = nullptr;
  for (const Edge* e : dst.in_edges()) {
    if (e->IsControlEdge()) {
      if (IsControlLoopMerge(*e->src())) {
        loop_trigger_ = e->src();
        continue;
      }
      controls.push_back(e);
    } else {
      (*inputs)[e->dst_input()] = e;
    }
  }
  const int missing = static_cast<int>(std::count(inputs->begin(), inputs->end(), nullptr));
  if (missing > 0) {
    return errors::InvalidArgument("Incomplete graph, missing ", missing, " inputs for ",
                                   dst.name());
  }
  std::stable_sort(controls.begin(), controls.end(), [](const Edge* a, const Edge* b) {
    return a->src()->name() < b->src()->name();
  });
  inputs->insert(inputs->end(), controls.begin(), controls.end());
  return absl::OkStatus();
}

absl::Status Partitioner::AddNode(const Node& dst) {
  std::vector<const Edge*> inputs;
  RETURN_IF_ERROR(SortedInputs(dst, &inputs));
  GraphDef* partition = PartitionOf(dst);
  NodeDef* dst_def;
  if (consumed_ != nullptr) {
    // The node's own NodeDef, on the partitions' arena: only its inputs and device change.
    // Its attrs stay where the memory-type callbacks read them; clearing the inputs keeps
    // their strings for the inputs written below.
    dst_def = consumed_->FindNodeId(dst.id())->ReleaseDefForDestruction();
    dst_def->clear_input();
    dst_def->set_device(dst.assigned_device_name());
    partition->mutable_node()->UnsafeArenaAddAllocated(dst_def);
  } else {
    dst_def = partition->add_node();
    // Field by field, so that the graph's input strings are never copied only to be cleared.
    const NodeDef& def = dst.def();
    dst_def->set_name(def.name());
    dst_def->set_op(def.op());
    dst_def->set_device(dst.assigned_device_name());
    if (def.has_experimental_debug_info()) {
      *dst_def->mutable_experimental_debug_info() = def.experimental_debug_info();
    }
    if (def.has_experimental_type()) {
      *dst_def->mutable_experimental_type() = def.experimental_type();
    }
    *dst_def->mutable_attr() = def.attr();
  }
  control_inputs_.clear();
  for (const Edge* e : inputs) {
    if (e->src()->IsOp()) AddInput(*e, dst_def);
  }
  return absl::OkStatus();
}

void Partitioner::AddInput(const Edge& edge, NodeDef* dst_def) {
  const Node& src = *edge.src();
  const Node& dst = *edge.dst();
  const bool control = edge.IsControlEdge();
  Transfer t;
  t.src_graph = PartitionOf(src);
  t.dst_graph = PartitionOf(dst);
  t.send_on_host = !control && OutputOnHost(src, edge.src_output());
  t.recv_on_host = !control && InputOnHost(dst, edge.dst_input());
  const bool local = t.src_graph == t.dst_graph && t.send_on_host == t.recv_on_host;

  if (local && !control) {
    // The common case, written in place: "name" or "name:port".
    std::string* input = dst_def->add_input();
    const int port = edge.src_output();
    if (port == 0) {
      *input = src.name();
    } else {
      absl::StrAppend(input, src.name(), ":", port);
    }
    return;
  }
  std::string input;
  if (local) {
    input = src.name();
  } else {
    auto key =
        std::make_tuple(src.id(), edge.src_output(), dst.assigned_device_name(), t.recv_on_host);
    auto it = transfers_.find(key);
    if (it == transfers_.end()) it = transfers_.emplace(key, AddTransfer(edge, t)).first;
    input = it->second;
  }
  if (control) {
    if (control_inputs_.insert(input).second) dst_def->add_input(absl::StrCat("^", input));
  } else {
    dst_def->add_input(std::move(input));  // a Recv: its output 0
  }
}

std::string Partitioner::AddTransfer(const Edge& edge, const Transfer& t) {
  const Node& src = *edge.src();
  const Node& dst = *edge.dst();
  const bool control = edge.IsControlEdge();
  const std::string tensor_name = absl::StrCat("edge_", edge.id(), "_", src.name());
  const DataType dtype = control ? DT_FLOAT : BaseType(src.output_type(edge.src_output()));

  std::string send_input;
  if (control) {
    NodeDef* dummy = t.src_graph->add_node();
    dummy->set_name(NewName(absl::StrCat(src.name(), "/ctrl")));
    dummy->set_op("Const");
    dummy->set_device(src.assigned_device_name());
    dummy->add_input(absl::StrCat("^", src.name()));
    TensorProto value;
    value.set_dtype(DT_FLOAT);
    value.mutable_tensor_shape()->add_dim()->set_size(0);
    AddNodeAttr("dtype", DT_FLOAT, dummy);
    AddNodeAttr("value", value, dummy);
    send_input = dummy->name();
  } else {
    send_input =
        edge.src_output() == 0 ? src.name() : absl::StrCat(src.name(), ":", edge.src_output());
  }

  NodeDef* send = t.src_graph->add_node();
  send->set_name(NewName(src.name()));
  send->set_op(t.send_on_host ? "_HostSend" : "_Send");
  send->set_device(src.assigned_device_name());
  send->add_input(send_input);
  AddNodeAttr("T", dtype, send);
  SetTransferAttrs(edge, tensor_name, send);

  NodeDef* recv = t.dst_graph->add_node();
  recv->set_name(NewName(src.name()));
  recv->set_op(t.recv_on_host ? "_HostRecv" : "_Recv");
  recv->set_device(dst.assigned_device_name());
  AddNodeAttr("tensor_type", dtype, recv);
  SetTransferAttrs(edge, tensor_name, recv);
  // Within one partition, the Recv must not start before its Send has run. Inside a loop
  // on another device, it runs once per iteration of the frame's control loop.
  if (t.src_graph == t.dst_graph) {
    recv->add_input(absl::StrCat("^", send->name()));
  } else if (loop_trigger_ != nullptr) {
    recv->add_input(absl::StrCat("^", loop_trigger_->name()));
  }
  if (!control) return recv->name();

  NodeDef* identity = t.dst_graph->add_node();
  identity->set_name(NewName(src.name()));
  identity->set_op("Identity");
  identity->set_device(dst.assigned_device_name());
  identity->add_input(recv->name());
  AddNodeAttr("T", DT_FLOAT, identity);
  return identity->name();
}

void Partitioner::SetTransferAttrs(const Edge& edge, const std::string& tensor_name, NodeDef* def) {
  const std::string& send_device = edge.src()->assigned_device_name();
  const uint64_t incarnation = opts_.get_incarnation ? opts_.get_incarnation(send_device) : 1;
  AddNodeAttr("tensor_name", tensor_name, def);
  AddNodeAttr("send_device", send_device, def);
  AddNodeAttr("send_device_incarnation", static_cast<int64_t>(incarnation), def);
  AddNodeAttr("recv_device", edge.dst()->assigned_device_name(), def);
  AddNodeAttr("client_terminated", false, def);
  AddNodeAttr("_src", edge.src()->name(), def);
  AddNodeAttr("_dst", edge.dst()->name(), def);
}

// The counter only grows, so generated names never repeat; skipping the graph's own names
// keeps them distinct from every original node.
std::string Partitioner::NewName(absl::string_view prefix) {
  std::string name;
  do {
    name = absl::StrCat(prefix, "/_", name_counter_++);
  } while (graph_.FindNodeByName(name) != nullptr);
  return name;
}

}  // namespace

absl::Status Partition(const PartitionOptions& opts, const Graph& graph,
                       GraphPartitions* partitions) {
  return Partitioner(opts, graph, nullptr, partitions).Run();
}

absl::Status Partition(const PartitionOptions& opts, std::unique_ptr<Graph> graph,
                       GraphPartitions* partitions) {
  return Partitioner(opts, *graph, graph.get(), partitions).Run();
}

}  // namespace sluice
