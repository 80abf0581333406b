// Memory types: whether each input and output of a node lives in host or device memory.
//
// As in TensorFlow: an argument lives in device memory unless the kernel registered for the
// node marks it HostMemory, or its dtype only makes sense on the host (string, resource,
// variant). When no kernel matches the node, int32 arguments are placed in host memory as well
// (TensorFlow's convention for shapes and indices).
//
// Pure functions over the registries; thread-safe.
#ifndef SLUICE_RUNTIME_FRAMEWORK_MEMORY_TYPES_H_
#define SLUICE_RUNTIME_FRAMEWORK_MEMORY_TYPES_H_

#include "absl/status/status.h"
#include "graph/core/types.h"
#include "runtime/framework/device_type.h"

namespace sluice {

class KernelDef;
class NodeDef;
class OpDef;

// For `node_def` on `device_type`, with its OpDef from OpRegistry::Global() and its kernel
// (if any) from KernelRegistry::Global(). NOT_FOUND if the op is unknown; INVALID_ARGUMENT if
// the node's arg sizes are invalid or a HostMemory arg names no arg of the op. The vectors
// are replaced.
absl::Status MemoryTypesForNode(const DeviceType& device_type, const NodeDef& node_def,
                                MemoryTypeVector* input_memory_types,
                                MemoryTypeVector* output_memory_types);

// The same computation when the caller already has the OpDef, the node's flat input and
// output types, and the matching kernel (`kernel_def` may be null: no kernel matches).
absl::Status MemoryTypesForKernel(const OpDef& op_def, const KernelDef* kernel_def,
                                  const NodeDef& node_def, DataTypeSlice input_types,
                                  DataTypeSlice output_types, MemoryTypeVector* input_memory_types,
                                  MemoryTypeVector* output_memory_types);

}  // namespace sluice

#endif  // SLUICE_RUNTIME_FRAMEWORK_MEMORY_TYPES_H_
