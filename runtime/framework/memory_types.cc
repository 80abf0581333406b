// Memory types of a node's arguments from its kernel's HostMemory args and its dtypes.
#include "runtime/framework/memory_types.h"

#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "graph/core/errors.h"
#include "graph/op/node_def_util.h"
#include "graph/op/op_def_util.h"
#include "graph/op/op_registry.h"
#include "proto/kernel_def.pb.h"
#include "proto/node_def.pb.h"
#include "runtime/framework/kernel_registry.h"

namespace sluice {
namespace {

// Strings, resource handles and variants are C++ objects, which only the host can build: their
// tensors are in host memory on every device. (A variant's payload may still be elsewhere: a
// GPU's TensorList keeps its elements in device memory, kernels/cpu/lists/tensor_list.h.)
bool AlwaysOnHost(DataType dtype) {
  const DataType base = BaseType(dtype);
  return base == DT_STRING || base == DT_RESOURCE || base == DT_VARIANT;
}

// Marks the ports of each arg in `host_memory_args` that `ranges` knows as HOST_MEMORY and
// removes those args from the list.
void MarkHostMemoryArgs(const NameRangeMap& ranges, std::vector<std::string>* host_memory_args,
                        MemoryTypeVector* memory_types) {
  std::vector<std::string> unused;
  for (std::string& arg : *host_memory_args) {
    auto it = ranges.find(arg);
    if (it == ranges.end()) {
      unused.push_back(std::move(arg));
      continue;
    }
    for (int i = it->second.first; i < it->second.second; ++i) (*memory_types)[i] = HOST_MEMORY;
  }
  *host_memory_args = std::move(unused);
}

}  // namespace

absl::Status MemoryTypesForKernel(const OpDef& op_def, const KernelDef* kernel_def,
                                  const NodeDef& node_def, DataTypeSlice input_types,
                                  DataTypeSlice output_types, MemoryTypeVector* input_memory_types,
                                  MemoryTypeVector* output_memory_types) {
  input_memory_types->assign(input_types.size(), DEVICE_MEMORY);
  output_memory_types->assign(output_types.size(), DEVICE_MEMORY);
  if (kernel_def != nullptr) {
    NameRangeMap input_ranges;
    NameRangeMap output_ranges;
    RETURN_IF_ERROR(NameRangesForNode(AttrSlice(node_def), op_def, &input_ranges, &output_ranges));
    std::vector<std::string> host_memory_args(kernel_def->host_memory_arg().begin(),
                                              kernel_def->host_memory_arg().end());
    MarkHostMemoryArgs(input_ranges, &host_memory_args, input_memory_types);
    MarkHostMemoryArgs(output_ranges, &host_memory_args, output_memory_types);
    if (!host_memory_args.empty()) {
      return errors::InvalidArgument("HostMemory args '", absl::StrJoin(host_memory_args, "', '"),
                                     "' not found in OpDef: ", SummarizeOpDef(op_def));
    }
  }
  // Without a kernel, int32 args (shapes, indices) stay on the host, as in TensorFlow.
  const bool int32_on_device = kernel_def != nullptr;
  auto host_required = [int32_on_device](DataType dtype) {
    return AlwaysOnHost(dtype) || (BaseType(dtype) == DT_INT32 && !int32_on_device);
  };
  for (size_t i = 0; i < input_types.size(); ++i) {
    if (host_required(input_types[i])) (*input_memory_types)[i] = HOST_MEMORY;
  }
  for (size_t i = 0; i < output_types.size(); ++i) {
    if (host_required(output_types[i])) (*output_memory_types)[i] = HOST_MEMORY;
  }
  return absl::OkStatus();
}

absl::Status MemoryTypesForNode(const DeviceType& device_type, const NodeDef& node_def,
                                MemoryTypeVector* input_memory_types,
                                MemoryTypeVector* output_memory_types) {
  const OpDef* op_def = nullptr;
  RETURN_IF_ERROR(OpRegistry::Global()->LookUpOpDef(node_def.op(), &op_def));
  DataTypeVector input_types;
  DataTypeVector output_types;
  RETURN_IF_ERROR(InOutTypesForNode(node_def, *op_def, &input_types, &output_types));
  const KernelDef* kernel_def = nullptr;
  if (!FindKernelDef(device_type, node_def, &kernel_def, nullptr).ok()) kernel_def = nullptr;
  return MemoryTypesForKernel(*op_def, kernel_def, node_def, input_types, output_types,
                              input_memory_types, output_memory_types);
}

}  // namespace sluice
