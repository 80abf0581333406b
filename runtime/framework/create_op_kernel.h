// CreateOpKernel: builds the kernel that runs a node on a device.
//
// Steps, as in TensorFlow: look up the node's OpDef in OpRegistry::Global(); add the op's
// default attrs to a copy of the node and validate it (ValidateNodeDef); compute the flat
// input and output types; find the kernel in KernelRegistry::Global() (NOT_FOUND in
// TensorFlow's wording when none matches); compute memory types (the kernel's HostMemory
// args become HOST_MEMORY); construct the kernel with an OpKernelConstruction. A failure at
// any step, including one the kernel's constructor reports through OP_REQUIRES, comes back
// as a Status with the node attached ("\n\t [[{{node n}}]]"); nothing aborts.
//
// Thread-safe: may be called concurrently.
#ifndef SLUICE_RUNTIME_FRAMEWORK_CREATE_OP_KERNEL_H_
#define SLUICE_RUNTIME_FRAMEWORK_CREATE_OP_KERNEL_H_

#include <memory>

#include "absl/status/status.h"
#include "runtime/framework/device_type.h"

namespace sluice {

class Allocator;
class DeviceBase;
class NodeDef;
class OpKernel;

// On success *kernel owns the new kernel; on failure it is reset. `device` and `allocator`
// (the allocator construction-time allocations use) must outlive the kernel.
absl::Status CreateOpKernel(const DeviceType& device_type, DeviceBase* device, Allocator* allocator,
                            const NodeDef& node_def, std::unique_ptr<OpKernel>* kernel);

}  // namespace sluice

#endif  // SLUICE_RUNTIME_FRAMEWORK_CREATE_OP_KERNEL_H_
