#include "fuzz/op_graph_generator.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "fuzz/input_roles.h"
#include "fuzz/random_attrs.h"
#include "fuzz/random_tensor.h"
#include "graph/core/errors.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/tensor_proto.h"
#include "graph/op/node_def_util.h"
#include "graph/op/op_registry.h"
#include "runtime/framework/kernel_registry.h"

namespace sluice {
namespace fuzz {
namespace {

// A Split may have 65535 outputs; fetching them all measures the session's cost per fetch
// rather than finding anything new.
constexpr size_t kMaxFetchesPerOp = 16;

bool Drivable(const OpDef& op_def) {
  const std::string& name = op_def.name();
  if (absl::StartsWith(name, "_") && !absl::StartsWith(name, "_Fused")) return false;
  // Abort only fails the step, which hides what the graph's other ops did.
  if (name == "Placeholder" || name == "PlaceholderV2" || name == "PlaceholderWithDefault" ||
      name == "Print" || name == "PrintV2" || name == "Abort") {
    return false;
  }
  for (const OpDef::AttrDef& attr : op_def.attr()) {
    if (attr.type() == "func" || attr.type() == "list(func)") return false;
  }
  for (const auto* args : {&op_def.input_arg(), &op_def.output_arg()}) {
    for (const OpDef::ArgDef& arg : *args) {
      if (arg.is_ref()) return false;
    }
  }
  return true;
}

// A tensor an earlier op produces.
struct Available {
  std::string name;
  DataType dtype;
};

// Picks an earlier op's output of `dtype`, if there is one; "" otherwise.
std::string EarlierOutput(const std::vector<Available>& available, DataType dtype,
                          ByteSource* bytes) {
  std::vector<std::string> matching;
  for (const Available& a : available) {
    if (a.dtype == dtype) matching.push_back(a.name);
  }
  return matching.empty() ? "" : bytes->Pick(matching);
}

// The shape a Placeholder for `shape` declares: exact, with unknown dims, or unknown rank.
PartialTensorShape DeclaredShape(const TensorShape& shape, ByteSource* bytes) {
  switch (bytes->Below(3)) {
    case 0:
      return PartialTensorShape(shape.dim_sizes());
    case 1: {
      std::vector<int64_t> dims(shape.dim_sizes().begin(), shape.dim_sizes().end());
      for (int64_t& dim : dims) {
        if (bytes->Bool()) dim = -1;
      }
      return PartialTensorShape(dims);
    }
    default:
      return PartialTensorShape();
  }
}

// Adds the node that provides input `index` of op node `k` of type `dtype` and returns the
// tensor name the op reads.
absl::Status AddInput(int k, int index, DataType dtype, InputRole role,
                      const TensorShape& common_shape, const std::vector<Available>& available,
                      const OpGraphOptions& options, ByteSource* bytes, OpGraph* out,
                      std::string* input) {
  if (!available.empty() && bytes->Bool()) {
    *input = EarlierOutput(available, dtype, bytes);
    if (!input->empty()) return absl::OkStatus();
  }
  absl::StatusOr<Tensor> value = TensorForRole(role, dtype, common_shape, bytes);
  if (!value.ok()) {
    // Handles and variants only come from ops that make them.
    *input = EarlierOutput(available, dtype, bytes);
    if (!input->empty()) return absl::OkStatus();
    return value.status();
  }
  *input = absl::StrCat("op", k, "_in", index);
  if (options.allow_placeholders && bytes->Bool()) {
    NodeDef* placeholder = out->graph.add_node();
    placeholder->set_name(*input);
    placeholder->set_op("Placeholder");
    AddNodeAttr("dtype", dtype, placeholder);
    AddNodeAttr("shape", DeclaredShape(value->shape(), bytes), placeholder);
    out->feeds.emplace_back(*input, *value);
  } else {
    *out->graph.add_node() = MakeConstNodeDef(*input, *value, "");
  }
  return absl::OkStatus();
}

// An op drawn uniformly, then one of its kernels: drawing kernels would favour the ops
// registered for many dtypes (AddV2 has a dozen kernels, Reshape one). `kernels` is sorted
// by op, as FuzzableCpuKernels returns it.
const KernelDef& PickKernel(absl::Span<const KernelDef> kernels, ByteSource* bytes) {
  std::vector<size_t> op_starts;
  for (size_t i = 0; i < kernels.size(); ++i) {
    if (i == 0 || kernels[i].op() != kernels[i - 1].op()) op_starts.push_back(i);
  }
  const size_t op = bytes->Below(op_starts.size());
  const size_t begin = op_starts[op];
  const size_t end = op + 1 < op_starts.size() ? op_starts[op + 1] : kernels.size();
  return kernels[begin + bytes->Below(end - begin)];
}

// The role of each of a node's `num_inputs` inputs, from its OpDef's argument names.
std::vector<InputRole> InputRoles(const NameRangeMap& ranges, size_t num_inputs) {
  std::vector<InputRole> roles(num_inputs, InputRole::kData);
  for (const auto& [name, range] : ranges) {
    for (int i = range.first; i < range.second && i < static_cast<int>(num_inputs); ++i) {
      roles[i] = RoleOfInput(name);
    }
  }
  return roles;
}

absl::Status AddOp(int k, const KernelDef& kernel, const OpGraphOptions& options, ByteSource* bytes,
                   std::vector<Available>* available, OpGraph* out) {
  const OpDef* op_def = nullptr;
  RETURN_IF_ERROR(OpRegistry::Global()->LookUpOpDef(kernel.op(), &op_def));
  NodeDef node;
  node.set_name(absl::StrCat("op", k));
  node.set_op(kernel.op());
  out->ops.push_back(kernel.op());
  RETURN_IF_ERROR(AddRandomAttrs(*op_def, &kernel, bytes, &node));
  DataTypeVector inputs, outputs;
  // The signature as the importer will see it (attrs left to their defaults count). Attrs
  // the OpDef refuses may leave it undefined: the node then has no inputs, and the importer
  // must say what is wrong with it.
  NodeDef defaulted = node;
  AddDefaultsToNodeDef(*op_def, &defaulted);
  NameRangeMap input_ranges;
  if (InOutTypesForNode(defaulted, *op_def, &inputs, &outputs).ok() &&
      NameRangesForNode(AttrSlice(defaulted), *op_def, &input_ranges, nullptr).ok()) {
    const std::vector<InputRole> roles = InputRoles(input_ranges, inputs.size());
    const TensorShape common_shape = RandomShape(bytes);
    for (size_t i = 0; i < inputs.size(); ++i) {
      std::string input;
      RETURN_IF_ERROR(AddInput(k, static_cast<int>(i), BaseType(inputs[i]), roles[i], common_shape,
                               *available, options, bytes, out, &input));
      node.add_input(input);
    }
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    const std::string name = absl::StrCat(node.name(), ":", i);
    available->push_back({name, BaseType(outputs[i])});
    if (i >= kMaxFetchesPerOp) continue;
    out->fetches.push_back(name);
    out->fetch_types.push_back(BaseType(outputs[i]));
  }
  if (outputs.empty()) out->targets.push_back(node.name());
  *out->graph.add_node() = std::move(node);
  return absl::OkStatus();
}

}  // namespace

std::vector<KernelDef> FuzzableCpuKernels() {
  std::vector<KernelDef> kernels;
  const KernelList registered = GetAllRegisteredKernels();
  for (const KernelDef& kernel : registered.kernel()) {
    const OpDef* op_def = nullptr;
    if (kernel.device_type() != "CPU" ||
        !OpRegistry::Global()->LookUpOpDef(kernel.op(), &op_def).ok() || !Drivable(*op_def)) {
      continue;
    }
    kernels.push_back(kernel);
  }
  std::sort(kernels.begin(), kernels.end(), [](const KernelDef& a, const KernelDef& b) {
    return std::make_pair(a.op(), a.SerializeAsString()) <
           std::make_pair(b.op(), b.SerializeAsString());
  });
  return kernels;
}

absl::Status GenerateOpGraph(absl::Span<const KernelDef> kernels, const OpGraphOptions& options,
                             ByteSource* bytes, OpGraph* out) {
  if (kernels.empty()) return errors::InvalidArgument("no kernels to generate graphs of");
  *out = OpGraph();
  std::vector<Available> available;
  const int num_ops = 1 + static_cast<int>(bytes->Below(std::max(options.max_ops, 1)));
  for (int k = 0; k < num_ops; ++k) {
    RETURN_IF_ERROR(AddOp(k, PickKernel(kernels, bytes), options, bytes, &available, out));
  }
  return absl::OkStatus();
}

}  // namespace fuzz
}  // namespace sluice
