// What the kernel registry offers, for users: which devices run an op and with which dtypes,
// and which nodes of a graph have no kernel on a device.
//
// Device types are those with a registered device factory (DeviceFactory::DeviceTypes(),
// CPU always) plus any type a kernel is registered for, so that `sluice ops` also shows GPU
// kernels a build registers without a GPU device. All functions read the global registries and
// are thread-safe.
#ifndef SLUICE_TOOLS_CLI_KERNEL_INFO_H_
#define SLUICE_TOOLS_CLI_KERNEL_INFO_H_

#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "proto/graph.pb.h"
#include "proto/kernel_def.pb.h"

namespace sluice {
namespace cli {

// "CPU", "GPU": device types of the session's factories, then kernel-only types; upper case.
std::vector<std::string> KnownDeviceTypes();

// Device types with at least one kernel for `op`, sorted.
std::vector<std::string> DevicesWithKernel(const std::string& op);

// One line per registered kernel: its type constraints ("T in {float, int32}"), label and
// priority when set; "(any dtype)" without constraints.
std::string DescribeKernelDef(const KernelDef& def);

// "T=float", "T=float, Tidx=int32": the type-valued attrs of a node, for messages.
std::string NodeTypeAttrs(const NodeDef& node);

// NOT_FOUND for the first node (graph order) that a step with these fetches and feeds needs
// (graph_needs.h's FindFetchNeeds) with no kernel on `device_type`:
// "no CPU kernel for op 'Conv2D' (node conv1, T=float); Conv2D kernels exist on: GPU (...)"
// or "...; no device has a kernel for Conv2D in this build". OK when every node has one.
absl::Status CheckKernels(const GraphDef& graph_def, const std::vector<std::string>& fetches,
                          const std::vector<std::string>& feeds, const std::string& device_type);

// Ops of the graph without a kernel on `device_type`, each with the distinct type attrs of its
// nodes: "Conv2D (T=half)".
std::vector<std::string> OpsWithoutKernel(const GraphDef& graph_def,
                                          const std::string& device_type);

}  // namespace cli
}  // namespace sluice

#endif  // SLUICE_TOOLS_CLI_KERNEL_INFO_H_
