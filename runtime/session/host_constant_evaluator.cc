// HostConstantEvaluator: sequential evaluation of a constant subgraph with cached CPU
// kernels.
#include "runtime/session/host_constant_evaluator.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "graph/core/allocator.h"
#include "graph/core/errors.h"
#include "graph/core/tensor_proto.h"
#include "graph/core/types.h"
#include "graph/graph.h"
#include "graph/op/node_def_util.h"
#include "numerics/float_environment.h"
#include "proto/node_def.pb.h"
#include "runtime/device/thread_pool.h"
#include "runtime/framework/create_op_kernel.h"
#include "runtime/framework/device_base.h"
#include "runtime/framework/device_type.h"
#include "runtime/framework/kernel_registry.h"
#include "runtime/framework/op_kernel.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sluice {
namespace {

constexpr char kHostDeviceName[] = "/job:localhost/replica:0/task:0/device:CPU:0";

// The kernel cache key: what a kernel depends on (name, op, attrs), serialized
// deterministically so that equal attr maps give equal keys.
std::string KernelKey(const NodeDef& def) {
  NodeDef key_def;
  key_def.set_name(def.name());
  key_def.set_op(def.op());
  *key_def.mutable_attr() = def.attr();
  std::string key;
  {
    google::protobuf::io::StringOutputStream stream(&key);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    key_def.SerializeToCodedStream(&coded);
  }
  return key;
}

bool HasRefType(const DataTypeVector& types) {
  return std::any_of(types.begin(), types.end(), IsRefType);
}

// A Const's value, checked against its dtype as TensorFlow's Const kernel checks it.
absl::Status ReadConst(const Node& node, std::vector<Tensor>* outputs) {
  const TensorProto* proto = nullptr;
  RETURN_IF_ERROR(GetNodeAttr(node.attrs(), "value", &proto));
  DataType dtype;
  RETURN_IF_ERROR(GetNodeAttr(node.attrs(), "dtype", &dtype));
  Tensor value;
  absl::Status s = TensorFromProto(*proto, &value);
  if (!s.ok()) return AttachDef(s, node.def());
  if (value.dtype() != dtype) {
    return AttachDef(
        errors::InvalidArgument("Type mismatch between value (", DataTypeString(value.dtype()),
                                ") and dtype (", DataTypeString(dtype), ")"),
        node.def());
  }
  outputs->assign(1, std::move(value));
  return absl::OkStatus();
}

}  // namespace

struct HostConstantEvaluator::HostDevice {
  explicit HostDevice(std::unique_ptr<ThreadPool> threads)
      : pool(std::move(threads)),
        eigen_device(pool.get(), pool->NumThreads()),
        device(kHostDeviceName, DEVICE_CPU, DefaultCpuAllocator()) {
    device.set_eigen_cpu_device(&eigen_device);
  }

  const std::unique_ptr<ThreadPool> pool;
  Eigen::ThreadPoolDevice eigen_device;
  DeviceBase device;
};

HostConstantEvaluator::HostConstantEvaluator(int num_threads)
    : num_threads_(std::max(num_threads, 1)) {}

HostConstantEvaluator::~HostConstantEvaluator() = default;

bool HostConstantEvaluator::CanEvaluate(const Node& node) const {
  if (!node.IsOp()) return false;
  if (node.IsConstant()) return true;
  if (HasRefType(node.input_types()) || HasRefType(node.output_types())) return false;
  NodeDef def = node.def();
  AddDefaultsToNodeDef(node.op_def(), &def);
  return FindKernelDef(DEVICE_CPU, def, /*def=*/nullptr, /*kernel_class_name=*/nullptr).ok();
}

int HostConstantEvaluator::num_cached_kernels() const {
  absl::MutexLock lock(&mu_);
  return static_cast<int>(kernels_.size());
}

absl::Status HostConstantEvaluator::GetKernel(const Node& node, OpKernel** kernel,
                                              DeviceBase** device) {
  std::string key = KernelKey(node.def());
  absl::MutexLock lock(&mu_);
  if (device_ == nullptr) {
    absl::StatusOr<std::unique_ptr<ThreadPool>> pool =
        StartThreadPool(num_threads_, /*allow_spinning=*/true, "constant folding's pool");
    if (!pool.ok()) return AttachDef(pool.status(), node.def());
    device_ = std::make_unique<HostDevice>(*std::move(pool));
  }
  *device = &device_->device;
  auto it = kernels_.find(key);
  if (it == kernels_.end()) {
    std::unique_ptr<OpKernel> created;
    RETURN_IF_ERROR(
        CreateOpKernel(DEVICE_CPU, &device_->device, DefaultCpuAllocator(), node.def(), &created));
    it = kernels_.emplace(std::move(key), std::move(created)).first;
  }
  *kernel = it->second.get();
  return absl::OkStatus();
}

absl::Status HostConstantEvaluator::RunKernel(const Node& node, std::vector<Tensor>* inputs,
                                              std::vector<Tensor>* outputs) {
  OpKernel* kernel = nullptr;
  DeviceBase* device = nullptr;
  RETURN_IF_ERROR(GetKernel(node, &kernel, &device));
  if (HasRefType(kernel->input_types()) || HasRefType(kernel->output_types())) {
    return AttachDef(errors::Unimplemented("Cannot evaluate ", node.type_string(),
                                           " as a constant: it has ref-typed arguments"),
                     node.def());
  }
  if (kernel->num_inputs() != static_cast<int>(inputs->size())) {
    return AttachDef(errors::Internal("Kernel expects ", kernel->num_inputs(),
                                      " inputs but was given ", inputs->size()),
                     node.def());
  }
  std::vector<TensorValue> slots;
  slots.reserve(inputs->size());
  for (Tensor& input : *inputs) slots.emplace_back(&input);

  OpKernelContext::Params params;
  params.op_kernel = kernel;
  params.device = device;
  params.inputs = slots;
  OpKernelContext context(&params);
  {
    // TensorFlow folds constants in its kernels' mode: subnormals flushed to zero.
    const numerics::ScopedFlushDenormals flush;
    kernel->Compute(&context);  // Blocks until done for asynchronous kernels too.
  }
  if (!context.status().ok()) return AttachDef(context.status(), node.def());

  outputs->clear();
  outputs->reserve(context.num_outputs());
  for (int o = 0; o < context.num_outputs(); ++o) {
    TensorValue value = context.release_output(o);
    if (value.tensor == nullptr) {
      return AttachDef(errors::Internal("Kernel ", node.type_string(), " did not set output ", o),
                       node.def());
    }
    outputs->push_back(std::move(*value.tensor));
  }
  return absl::OkStatus();
}

absl::Status HostConstantEvaluator::Evaluate(absl::Span<const Node* const> nodes,
                                             absl::Span<const std::pair<const Node*, int>> outputs,
                                             std::vector<Tensor>* values) {
  absl::flat_hash_map<const Node*, int> position;
  for (int i = 0; i < static_cast<int>(nodes.size()); ++i) {
    if (!position.emplace(nodes[i], i).second) {
      return errors::InvalidArgument("Node '", nodes[i]->name(),
                                     "' is given twice to the constant evaluator");
    }
  }
  // Reads each node's value will still get: data edges inside the subgraph, plus one per
  // requested output, so results are freed after their last use and outputs are kept.
  std::vector<int> pending_reads(nodes.size(), 0);
  for (const Node* node : nodes) {
    for (const Edge* e : node->in_edges()) {
      auto it = position.find(e->src());
      if (!e->IsControlEdge() && it != position.end()) ++pending_reads[it->second];
    }
  }
  for (const auto& [node, port] : outputs) {
    auto it = position.find(node);
    if (it == position.end() || port < 0 || port >= node->num_outputs()) {
      return errors::InvalidArgument("Output ", port, " of node '", node->name(),
                                     "' is not produced by the nodes to evaluate");
    }
    ++pending_reads[it->second];
  }

  std::vector<std::vector<Tensor>> results(nodes.size());
  for (int i = 0; i < static_cast<int>(nodes.size()); ++i) {
    const Node& node = *nodes[i];
    std::vector<const Node*> producers;
    std::vector<Tensor> inputs;
    // All at once: input_edge(i) scans the in-edges each time (quadratic for an AddN of
    // 200,000 inputs).
    std::vector<const Edge*> in_edges;
    absl::Status s = node.input_edges(&in_edges);
    if (!s.ok()) return AttachDef(errors::InvalidArgument(s.message()), node.def());
    for (int in = 0; in < node.num_inputs(); ++in) {
      const Edge* e = in_edges[in];
      auto it = position.find(e->src());
      if (it == position.end() || it->second >= i) {
        return AttachDef(
            errors::InvalidArgument("Input ", in, " of ", node.type_string(), " comes from node '",
                                    e->src()->name(), "', which is not evaluated before it"),
            node.def());
      }
      const std::vector<Tensor>& produced = results[it->second];
      if (e->src_output() >= static_cast<int>(produced.size())) {
        return AttachDef(
            errors::Internal("Input ", in, " reads output ", e->src_output(), " of node '",
                             e->src()->name(), "', which has ", produced.size()),
            node.def());
      }
      inputs.push_back(produced[e->src_output()]);
      producers.push_back(e->src());
    }
    if (node.IsConstant()) {
      RETURN_IF_ERROR(ReadConst(node, &results[i]));
    } else {
      RETURN_IF_ERROR(RunKernel(node, &inputs, &results[i]));
    }
    for (const Node* producer : producers) {
      int p = position[producer];
      if (--pending_reads[p] == 0) results[p].clear();
    }
  }

  values->clear();
  values->reserve(outputs.size());
  for (const auto& [node, port] : outputs) values->push_back(results[position[node]][port]);
  return absl::OkStatus();
}

}  // namespace sluice
