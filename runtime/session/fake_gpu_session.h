// What the fake-GPU session tests share (fake_gpu_device.h): sessions with fake GPUs, text
// GraphDefs built node by node, and where a step placed each node.
#ifndef SLUICE_RUNTIME_SESSION_FAKE_GPU_SESSION_H_
#define SLUICE_RUNTIME_SESSION_FAKE_GPU_SESSION_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "proto/config.pb.h"
#include "proto/graph.pb.h"
#include "runtime/session/session.h"

namespace sluice {
namespace fake_gpu {

constexpr char kCpu[] = "/job:localhost/replica:0/task:0/device:CPU:0";
constexpr char kGpu[] = "/job:localhost/replica:0/task:0/device:GPU:0";

// Parses a text GraphDef (a test failure when it does not parse).
GraphDef ParseGraph(const std::string& text);

// A session with `num_gpus` fake GPUs, without constant folding (the test graphs are chains
// of constants).
std::unique_ptr<Session> MakeSession(int num_gpus = 1, bool soft_placement = false,
                                     bool cuda_graphs = false);

// Where each node of `metadata`'s partitions ran, by name (run with
// output_partition_graphs).
std::map<std::string, std::string> Placement(const RunMetadata& metadata);

// One node of a text GraphDef: `name` = `op`(inputs), T = `type` (none when empty), plus
// `more_attrs` (text).
std::string LoopNode(const std::string& name, const std::string& op,
                     const std::vector<std::string>& inputs, const std::string& type,
                     const std::string& more_attrs = "");

// int32 Consts: a scalar, a vector.
std::string IntConst(const std::string& name, int value);
std::string IntVector(const std::string& name, const std::vector<int>& values);

}  // namespace fake_gpu
}  // namespace sluice

#endif  // SLUICE_RUNTIME_SESSION_FAKE_GPU_SESSION_H_
