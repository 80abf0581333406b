// Adapters from the runtime's kernel registry to the callbacks that passes/ takes, so that
// placement and partitioning see which kernels exist without passes/ depending on runtime/.
//
//  - MakeDeviceSupport: for placement (passes/placer.h), the device types among a fixed,
//    preference-ordered list that have a kernel for a node (SupportedDeviceTypesForNode:
//    higher kernel priority first, then the list's order).
//  - MakeKernelExists: for the remapper (passes/remapper.h), whether a kernel for a node exists
//    on a device given by its full name (false when the name does not parse).
//  - SetMemoryTypeCallbacks: for partitioning (passes/partition.h), whether a node's input or
//    output lives in host memory on its assigned device (MemoryTypesForNode: HostMemory args
//    of its kernel, host-only dtypes).
//
// Errors: a node the registries reject comes back from the placement callback as their
// status. The memory-type callbacks can only answer yes or no; a node whose memory types
// cannot be computed (it will fail kernel creation later with a precise error) or whose
// assigned device does not parse is taken to use device memory.
//
// Thread safety: the callbacks hold only immutable state, except a memo of memory types per
// node that the partition callbacks share; partitioning calls them from one thread (see
// passes/partition.h), and the memo is guarded by a mutex regardless.
#ifndef SLUICE_RUNTIME_SESSION_RUNTIME_DEVICE_SUPPORT_H_
#define SLUICE_RUNTIME_SESSION_RUNTIME_DEVICE_SUPPORT_H_

#include <functional>
#include <string>
#include <vector>

#include "passes/partition.h"
#include "passes/placer.h"
#include "proto/node_def.pb.h"
#include "runtime/framework/device_type.h"

namespace sluice {

// `device_types` in order of preference (e.g. {"GPU", "CPU"}).
DeviceSupport MakeDeviceSupport(std::vector<DeviceType> device_types);

std::function<bool(const NodeDef& node, const std::string& device)> MakeKernelExists();

// Sets opts->output_in_host_memory and opts->input_in_host_memory; leaves the rest alone.
void SetMemoryTypeCallbacks(PartitionOptions* opts);

}  // namespace sluice

#endif  // SLUICE_RUNTIME_SESSION_RUNTIME_DEVICE_SUPPORT_H_
