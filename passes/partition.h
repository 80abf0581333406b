// Partition: split a placed Graph into one GraphDef per device (TensorFlow's Partition).
//
// Every op node goes, unchanged but for its inputs and its `device` field (set to the full
// assigned name), into the GraphDef of its assigned device. Edges between devices are cut:
//  - a data edge becomes a `_Send` on the producer's device and a `_Recv` on the consumer's.
//    One pair carries a tensor to a device however many consumers read it there;
//  - a control edge becomes a dummy transfer: on the source device a `Const` (an empty float
//    vector, named "<src>/ctrl/_N") with a control input from the source feeds a `_Send`; on
//    the destination the `_Recv` feeds an `Identity` that is a control input of the consumer.
//    One dummy pair serves all control consumers of a node on one device.
// Send and Recv carry TensorFlow's attrs: tensor_name ("edge_<edge id>_<src name>", shared by
// the pair), send_device, send_device_incarnation, recv_device, client_terminated = false,
// and the informational `_src` / `_dst` (the first consumer's name); Send has `T`, Recv
// `tensor_type`. A tensor that lives in host memory on its producer's device is sent by a
// `_HostSend`; a consumer input in host memory reads from a `_HostRecv`, whose kernel keeps
// the value on the host. On a non-CPU device, an edge between two nodes of the same device
// whose memory types differ also gets a Send/Recv pair (inside that one partition, with a
// control edge Send -> Recv), as in TensorFlow. New nodes are named "<src>/_N" with N chosen
// so that names are unique among the graph and all partitions.
//
// Each partition has the graph's versions and function library and is a valid GraphDef on its
// own (internal ops allowed). The runtime builds each transfer's rendezvous key from the
// Send/Recv attrs (send_device, send_device_incarnation, recv_device, tensor_name).
//
// A while loop whose nodes are on several devices gets a control loop on each device that
// receives a tensor inside it (partition_control.h), as in TensorFlow: the consuming
// overload adds them; a graph given to the other overload must already have them
// (AddCrossDeviceControlLoops), or partitioning fails with FAILED_PRECONDITION.
//
// Out of scope: TensorFlow's special handling of ref-typed edges (they are partitioned like
// any other).
//
// Errors: INVALID_ARGUMENT if an op node has no assigned device or a malformed one, or a
// data input without an edge ("Incomplete graph"), or a cross-device loop without a LoopCond;
// FAILED_PRECONDITION as above. Each names the node. *partitions is reset first and holds partial
// results on error.
//
// Reads `graph` only (but for the overload that consumes it); the callbacks are called from
// the calling thread.
#ifndef SLUICE_PASSES_PARTITION_H_
#define SLUICE_PASSES_PARTITION_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "passes/graph_partitions.h"
#include "proto/graph.pb.h"

namespace sluice {

class Graph;
class Node;

struct PartitionOptions {
  // Incarnation of each device (by full name), for rendezvous keys. Unset: 1 for every device.
  std::function<uint64_t(const std::string& device_name)> get_incarnation;
  // Whether output `port` of `node` lives in host memory on its assigned device (a HostMemory
  // arg of its kernel, or a host-only dtype), as the runtime's memory types say. Unset: never.
  std::function<bool(const Node& node, int port)> output_in_host_memory;
  // Whether input `port` of `node` must be in host memory on its assigned device. Unset: never.
  std::function<bool(const Node& node, int port)> input_in_host_memory;
};

// The partitions go on an arena of their own, copied from the graph.
absl::Status Partition(const PartitionOptions& opts, const Graph& graph,
                       GraphPartitions* partitions);
// The same for a graph the caller gives up (as RunPipeline does): the partitions go on the
// graph's arena, each node's NodeDef becomes its partition's instead of being copied, and
// the graph is destroyed before returning.
absl::Status Partition(const PartitionOptions& opts, std::unique_ptr<Graph> graph,
                       GraphPartitions* partitions);

}  // namespace sluice

#endif  // SLUICE_PASSES_PARTITION_H_
