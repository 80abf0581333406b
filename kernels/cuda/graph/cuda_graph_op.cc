// `_CudaGraph` on a GPU: a region of the graph (passes/cuda_graph_clustering.h) run as one
// CUDA graph.
//
// The kernel holds the region's kernels, built at construction on this device, and runs them
// in the body's order (producers first) on the calling thread — inside its own call, so no
// other kernel of this GPU runs meanwhile. Per signature (the inputs' shapes):
//  - first step: the kernels run as they would outside the region (cuDNN chooses its
//    algorithms, read-only filters are rewritten, workspaces grow);
//  - second step: they run again under stream capture (GpuDeviceContext::CaptureGraph) on a
//    device whose memory is a GraphMemoryPool, reading the inputs from buffers of the pool
//    (the step's inputs are copied there first): nothing runs, the work becomes a CUDA graph;
//    the graph is then launched;
//  - later steps: the inputs are copied into those buffers, the graph is launched (one
//    launch for the whole region), and each output is copied out of the graph's memory into
//    a tensor of its own (a caller may hold an output across steps; the next replay writes
//    the graph's).
// A capture that fails (a kernel that copies between host and device memory, waits, or
// allocates outside the pool's reach) is logged once and that signature runs without a
// graph from then on. Up to kMaxGraphs signatures keep their graphs; the least recently used
// one goes first (its memory is the pool's, held while the graph lives).
#include <algorithm>
#include <cstdint>
#include <list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "glog/logging.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "graph/tensor_id.h"
#include "kernels/cuda/graph/graph_memory_pool.h"
#include "proto/graph.pb.h"
#include "runtime/framework/create_op_kernel.h"
#include "runtime/framework/device_base.h"
#include "runtime/framework/gpu/gpu_device_context.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace cuda {
namespace {

constexpr char kInputName[] = "_cuda_graph_input";
constexpr size_t kMaxGraphs = 8;

// The device the region's kernels see while they are captured: this GPU, with the graph's
// pool as its memory.
class CaptureDevice : public DeviceBase {
 public:
  CaptureDevice(DeviceBase* real, Allocator* pool)
      : DeviceBase(real->name(), real->device_type(), pool), real_(real) {}
  Allocator* GetHostAllocator() override { return real_->GetHostAllocator(); }
  GpuDeviceContext* gpu_device_context() const override { return real_->gpu_device_context(); }

 private:
  DeviceBase* const real_;
};

// One kernel of the region and where its inputs come from.
struct BodyNode {
  std::string name;
  std::unique_ptr<OpKernel> kernel;
  // (producing body node, its output), or (-1, the region's input index).
  std::vector<std::pair<int, int>> inputs;
};

class CudaGraphOp : public OpKernel {
 public:
  explicit CudaGraphOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string serialized;
    std::vector<std::string> output_names;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("body", &serialized));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("output_names", &output_names));
    GraphDef body;
    OP_REQUIRES(ctx, body.ParseFromString(serialized),
                errors::InvalidArgument("_CudaGraph: the body is not a GraphDef"));
    absl::flat_hash_map<std::string, int> index;
    for (const NodeDef& def : body.node()) {
      BodyNode node;
      node.name = def.name();
      for (const std::string& input : def.input()) {
        const TensorId id = ParseTensorName(input);
        OP_REQUIRES(
            ctx, id.index >= 0,
            errors::InvalidArgument("_CudaGraph: body node ", def.name(), " has a control input"));
        if (id.node == kInputName) {
          OP_REQUIRES(ctx, id.index < ctx->num_inputs(),
                      errors::InvalidArgument("_CudaGraph: body node ", def.name(), " reads input ",
                                              id.index, " of ", ctx->num_inputs()));
          node.inputs.emplace_back(-1, id.index);
          continue;
        }
        const auto it = index.find(std::string(id.node));
        OP_REQUIRES(ctx, it != index.end(),
                    errors::InvalidArgument("_CudaGraph: body node ", def.name(), " reads ", input,
                                            ", which does not come before it"));
        OP_REQUIRES(ctx, id.index < nodes_[it->second].kernel->num_outputs(),
                    errors::InvalidArgument("_CudaGraph: body node ", def.name(), " reads ", input,
                                            ", which that node does not have"));
        node.inputs.emplace_back(it->second, id.index);
      }
      OP_REQUIRES_OK(ctx, CreateOpKernel(ctx->device_type(), ctx->device(), ctx->allocator(), def,
                                         &node.kernel));
      OP_REQUIRES(
          ctx, static_cast<int>(node.inputs.size()) == node.kernel->num_inputs(),
          errors::InvalidArgument("_CudaGraph: body node ", def.name(), " has ", node.inputs.size(),
                                  " inputs, its op takes ", node.kernel->num_inputs()));
      // A kernel reads its inputs' buffers as the dtypes it declares: they must be those.
      for (int j = 0; j < node.kernel->num_inputs(); ++j) {
        const auto [src, port] = node.inputs[j];
        const DataType given =
            src < 0 ? ctx->input_type(port) : nodes_[src].kernel->output_type(port);
        OP_REQUIRES(ctx, given == node.kernel->input_type(j),
                    errors::InvalidArgument("_CudaGraph: body node ", def.name(), " input ", j,
                                            " is ", DataTypeString(given), ", its op takes ",
                                            DataTypeString(node.kernel->input_type(j))));
      }
      index[def.name()] = static_cast<int>(nodes_.size());
      nodes_.push_back(std::move(node));
    }
    OP_REQUIRES(ctx, static_cast<int>(output_names.size()) == ctx->num_outputs(),
                errors::InvalidArgument("_CudaGraph: ", output_names.size(), " output names for ",
                                        ctx->num_outputs(), " outputs"));
    for (const std::string& name : output_names) {
      const TensorId id = ParseTensorName(name);
      const auto it = index.find(std::string(id.node));
      OP_REQUIRES(
          ctx,
          it != index.end() && id.index >= 0 && id.index < nodes_[it->second].kernel->num_outputs(),
          errors::InvalidArgument("_CudaGraph: no body output ", name));
      const DataType produced = nodes_[it->second].kernel->output_type(id.index);
      const int i = static_cast<int>(outputs_.size());
      OP_REQUIRES(ctx, produced == ctx->output_type(i),
                  errors::InvalidArgument("_CudaGraph: output ", i, " (", name, ") is ",
                                          DataTypeString(produced), ", Tout says ",
                                          DataTypeString(ctx->output_type(i))));
      outputs_.emplace_back(it->second, id.index);
    }
    // Reads of each value: by body nodes, and once more for each output of the region (those
    // are never given up before the end).
    for (const BodyNode& node : nodes_) {
      for (const auto& [src, port] : node.inputs) {
        if (src >= 0) ++reads_[{src, port}];
      }
    }
    for (const auto& value : outputs_) ++reads_[value];
  }

  ~CudaGraphOp() override {
    absl::MutexLock lock(&mu_);
    for (auto& [signature, entry] : entries_) Release(entry.get());
  }

  void Compute(OpKernelContext* ctx) override {
    absl::MutexLock lock(&mu_);
    GpuDeviceContext* gpu = ctx->device()->gpu_device_context();
    OP_REQUIRES(
        ctx, gpu != nullptr,
        errors::Internal("A GPU kernel ran on ", ctx->device()->name(), ", which is not a GPU"));
    std::vector<Tensor> inputs;
    std::vector<int64_t> signature;
    for (int i = 0; i < ctx->num_inputs(); ++i) {
      inputs.push_back(ctx->input(i));
      signature.push_back(ctx->input(i).dims());
      for (int64_t d : ctx->input(i).shape().dim_sizes()) signature.push_back(d);
    }
    Entry* entry = Lookup(gpu, signature);
    switch (entry->state) {
      case State::kNew:
        entry->state = State::kSeen;
        [[fallthrough]];
      case State::kUncapturable:
        OP_REQUIRES_OK(ctx, RunEagerly(ctx, inputs));
        return;
      case State::kSeen:
        Capture(ctx, gpu, inputs, entry);
        if (entry->state != State::kCaptured) {
          OP_REQUIRES_OK(ctx, RunEagerly(ctx, inputs));
          return;
        }
        OP_REQUIRES_OK(ctx, Replay(ctx, gpu, inputs, entry, /*inputs_copied=*/true));
        return;
      case State::kCaptured:
        OP_REQUIRES_OK(ctx, Replay(ctx, gpu, inputs, entry, /*inputs_copied=*/false));
        return;
    }
  }

 private:
  enum class State { kNew, kSeen, kCaptured, kUncapturable };

  struct Entry {
    State state = State::kNew;
    GraphMemoryPool* pool = nullptr;  // kept until the process exits (graph_memory_pool.h)
    std::vector<Tensor> slots;        // the graph's inputs
    std::vector<Tensor> results;      // the graph's outputs
    CUgraphExec_st* graph = nullptr;
    GpuDeviceContext* gpu = nullptr;
  };

  Entry* Lookup(GpuDeviceContext* gpu, const std::vector<int64_t>& signature)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    auto it = entries_.find(signature);
    if (it != entries_.end()) {
      recent_.remove(signature);
      recent_.push_front(signature);
      return it->second.get();
    }
    if (entries_.size() >= kMaxGraphs) {
      const std::vector<int64_t> oldest = recent_.back();
      recent_.pop_back();
      Release(entries_[oldest].get());
      entries_.erase(oldest);
    }
    recent_.push_front(signature);
    auto entry = std::make_unique<Entry>();
    entry->gpu = gpu;
    Entry* raw = entry.get();
    entries_[signature] = std::move(entry);
    return raw;
  }

  // Destroys the entry's graph and gives its memory back. Replays already enqueued finish
  // first: the stream is waited for (shapes changed, or the session is closing).
  static void Release(Entry* entry) {
    if (entry->graph != nullptr) {
      entry->gpu->SynchronizeCompute().IgnoreError();
      entry->gpu->DestroyGraph(entry->graph);
      entry->graph = nullptr;
    }
    entry->slots.clear();
    entry->results.clear();
    if (entry->pool != nullptr) entry->pool->Retire();
  }

  absl::Status RunEagerly(OpKernelContext* ctx, const std::vector<Tensor>& inputs) {
    std::vector<Tensor> outputs;
    RETURN_IF_ERROR(RunBody(ctx, ctx->device(), inputs, &outputs));
    for (int i = 0; i < static_cast<int>(outputs.size()); ++i) ctx->set_output(i, outputs[i]);
    return absl::OkStatus();
  }

  // Runs the region's kernels in order on `device`.
  absl::Status RunBody(OpKernelContext* ctx, DeviceBase* device, const std::vector<Tensor>& inputs,
                       std::vector<Tensor>* outputs) {
    std::vector<std::vector<Tensor>> values(nodes_.size());
    absl::flat_hash_map<std::pair<int, int>, int> reads_left = reads_;
    for (int k = 0; k < static_cast<int>(nodes_.size()); ++k) {
      BodyNode& node = nodes_[k];
      // The kernel's inputs: a copy of each (so a kernel may only forward a buffer in place
      // when this is its last reader), moved in where this is the last read.
      std::vector<Tensor> args;
      args.reserve(node.inputs.size());
      for (const auto& [src, port] : node.inputs) {
        if (src < 0) {
          args.push_back(inputs[port]);
          continue;
        }
        Tensor& value = values[src][port];
        if (--reads_left[{src, port}] == 0) {
          args.push_back(std::move(value));
          value = Tensor();
        } else {
          args.push_back(value);
        }
      }
      std::vector<TensorValue> arg_values;
      for (Tensor& t : args) arg_values.emplace_back(&t);
      OpKernelContext::Params params;
      params.step_id = ctx->step_id();
      params.op_kernel = node.kernel.get();
      params.device = device;
      params.inputs = arg_values;
      OpKernelContext inner(&params);
      node.kernel->Compute(&inner);
      if (!inner.status().ok()) {
        return absl::Status(inner.status().code(),
                            absl::StrCat("In the CUDA graph region's node ", node.name, ": ",
                                         inner.status().message()));
      }
      // An output nothing reads may be left unset, as outside a region; one that is read
      // must be there.
      values[k].resize(node.kernel->num_outputs());
      for (int o = 0; o < node.kernel->num_outputs(); ++o) {
        TensorValue out = inner.release_output(o);
        if (out.tensor != nullptr) {
          values[k][o] = std::move(*out.tensor);
        } else if (reads_left.contains({k, o})) {
          return errors::Internal("The CUDA graph region's node ", node.name,
                                  " did not set output ", o, ", which is read");
        }
      }
    }
    outputs->clear();
    for (const auto& [src, port] : outputs_) outputs->push_back(values[src][port]);
    return absl::OkStatus();
  }

  // Captures the region into `entry`'s graph (state kCaptured), or marks the signature
  // uncapturable. The step's inputs are left in the graph's input buffers.
  void Capture(OpKernelContext* ctx, GpuDeviceContext* gpu, const std::vector<Tensor>& inputs,
               Entry* entry) {
    entry->pool = GraphMemoryPool::NewForProcess(ctx->device()->GetAllocator());
    CaptureDevice device(ctx->device(), entry->pool);
    absl::Status status;
    for (const Tensor& input : inputs) {
      absl::StatusOr<Tensor> slot = Tensor::Allocate(entry->pool, input.dtype(), input.shape());
      status = slot.status();
      if (!status.ok()) break;
      entry->slots.push_back(*std::move(slot));
      status = gpu->CopyDeviceToDevice(input, &entry->slots.back());
      if (!status.ok()) break;
    }
    if (status.ok()) {
      absl::StatusOr<CUgraphExec_st*> graph =
          gpu->CaptureGraph([&] { return RunBody(ctx, &device, entry->slots, &entry->results); });
      status = graph.status();
      if (status.ok()) entry->graph = *graph;
    }
    if (!status.ok()) {
      LOG_FIRST_N(WARNING, 1) << "Node " << name()
                              << " runs its kernels without a CUDA graph: " << status;
      Release(entry);
      entry->state = State::kUncapturable;
      return;
    }
    entry->state = State::kCaptured;
  }

  absl::Status Replay(OpKernelContext* ctx, GpuDeviceContext* gpu,
                      const std::vector<Tensor>& inputs, Entry* entry, bool inputs_copied) {
    if (!inputs_copied) {
      for (size_t i = 0; i < inputs.size(); ++i) {
        RETURN_IF_ERROR(gpu->CopyDeviceToDevice(inputs[i], &entry->slots[i]));
      }
    }
    RETURN_IF_ERROR(gpu->LaunchGraph(entry->graph));
    for (int i = 0; i < static_cast<int>(entry->results.size()); ++i) {
      const Tensor& result = entry->results[i];
      Tensor* out = nullptr;
      RETURN_IF_ERROR(ctx->allocate_output(i, result.shape(), &out));
      RETURN_IF_ERROR(gpu->CopyDeviceToDevice(result, out));
    }
    return absl::OkStatus();
  }

  std::vector<BodyNode> nodes_;
  std::vector<std::pair<int, int>> outputs_;
  absl::flat_hash_map<std::pair<int, int>, int> reads_;
  // A GPU runs its kernels one at a time already; the lock keeps devices that do not (tests'
  // fake GPUs) safe too.
  absl::Mutex mu_;
  absl::flat_hash_map<std::vector<int64_t>, std::unique_ptr<Entry>> entries_ ABSL_GUARDED_BY(mu_);
  // Signatures, most recently used first.
  std::list<std::vector<int64_t>> recent_ ABSL_GUARDED_BY(mu_);
};

REGISTER_KERNEL_BUILDER(Name("_CudaGraph").Device(DEVICE_GPU), CudaGraphOp);

}  // namespace
}  // namespace cuda
}  // namespace sluice
