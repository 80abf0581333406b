// CreateOpKernel: OpDef lookup, node validation, kernel lookup and construction.
#include "runtime/framework/create_op_kernel.h"

#include "graph/core/errors.h"
#include "graph/op/node_def_util.h"
#include "graph/op/op_registry.h"
#include "proto/kernel_def.pb.h"
#include "proto/node_def.pb.h"
#include "runtime/framework/kernel_registry.h"
#include "runtime/framework/memory_types.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

absl::Status CreateOpKernelImpl(const DeviceType& device_type, DeviceBase* device,
                                Allocator* allocator, const NodeDef& node_def,
                                std::unique_ptr<OpKernel>* kernel) {
  const OpDef* op_def = nullptr;
  RETURN_IF_ERROR(OpRegistry::Global()->LookUpOpDef(node_def.op(), &op_def));
  NodeDef node = node_def;
  AddDefaultsToNodeDef(*op_def, &node);
  RETURN_IF_ERROR(ValidateNodeDef(node, *op_def));
  DataTypeVector input_types;
  DataTypeVector output_types;
  RETURN_IF_ERROR(InOutTypesForNode(node, *op_def, &input_types, &output_types));

  const KernelDef* kernel_def = nullptr;
  KernelRegistry::Factory factory = nullptr;
  RETURN_IF_ERROR(
      KernelRegistry::Global()->FindKernel(device_type, node, &kernel_def, nullptr, &factory));
  MemoryTypeVector input_memory_types;
  MemoryTypeVector output_memory_types;
  RETURN_IF_ERROR(MemoryTypesForKernel(*op_def, kernel_def, node, input_types, output_types,
                                       &input_memory_types, &output_memory_types));

  absl::Status status;
  OpKernelConstruction construction(device_type, device, allocator, &node, op_def, input_types,
                                    input_memory_types, output_types, output_memory_types, &status);
  std::unique_ptr<OpKernel> built(factory(&construction));
  if (!status.ok()) return status;
  if (built == nullptr) {
    return errors::Internal("Kernel factory for op '", node.op(), "' returned null");
  }
  *kernel = std::move(built);
  return absl::OkStatus();
}

}  // namespace

absl::Status CreateOpKernel(const DeviceType& device_type, DeviceBase* device, Allocator* allocator,
                            const NodeDef& node_def, std::unique_ptr<OpKernel>* kernel) {
  kernel->reset();
  return AttachDef(CreateOpKernelImpl(device_type, device, allocator, node_def, kernel), node_def);
}

}  // namespace sluice
