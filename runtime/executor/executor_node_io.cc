#include "runtime/executor/executor_node_io.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/executor/step_stats_collector.h"
#include "runtime/framework/gpu/gpu_device_context.h"

namespace sluice {

absl::Status NodeError(const ExecutorNode& item, const absl::Status& s) {
  return AttachDef(
      absl::Status(s.code(), absl::StrCat(s.message(), " [Op:", item.node->type_string(), "]")),
      item.node->def());
}

void SetOpStart(NodeExecStats* stats) {
  const int64_t rel = StatsNowNanos() - stats->all_start_nanos();
  stats->set_op_start_rel_nanos(rel);
  stats->set_op_start_rel_micros(rel / 1000);
}

void SetOpEnd(NodeExecStats* stats) {
  const int64_t rel = StatsNowNanos() - stats->all_start_nanos();
  stats->set_op_end_rel_nanos(rel);
  stats->set_op_end_rel_micros(rel / 1000);
}

void AddKernelNote(const OpKernelContext& ctx, NodeExecStats* stats) {
  if (ctx.stats_note().empty()) return;
  stats->set_timeline_label(absl::StrCat(stats->timeline_label(), " [", ctx.stats_note(), "]"));
}

void RecordOutput(int slot, const TensorValue& value, Allocator* allocator, NodeExecStats* stats) {
  NodeOutput* output = stats->add_output();
  output->set_slot(slot);
  TensorDescription* description = output->mutable_tensor_description();
  const Tensor& t = *value.tensor;
  description->set_dtype(t.dtype());
  t.shape().AsProto(description->mutable_shape());
  AllocationDescription* allocation = description->mutable_allocation_description();
  allocation->set_requested_bytes(static_cast<int64_t>(t.TotalBytes()));
  allocation->set_allocated_bytes(static_cast<int64_t>(t.AllocatedBytes()));
  allocation->set_allocator_name(allocator->Name());
  allocation->set_has_single_reference(t.RefCountIsOne());
  allocation->set_ptr(reinterpret_cast<uint64_t>(t.raw_data()));
}

std::unique_ptr<NodeExecStats> StartNodeStats(const ExecutorNode& item) {
  auto stats = std::make_unique<NodeExecStats>();
  const NodeDef& def = item.node->def();
  stats->set_node_name(def.name());
  const int64_t now_nanos = StatsNowNanos();
  stats->set_all_start_nanos(now_nanos);
  stats->set_all_start_micros(now_nanos / 1000);
  stats->set_scheduled_nanos(now_nanos);
  stats->set_scheduled_micros(now_nanos / 1000);
  stats->set_thread_id(StatsThreadId());
  stats->set_timeline_label(
      absl::StrCat(def.name(), " = ", def.op(), "(", absl::StrJoin(def.input(), ", "), ")"));
  return stats;
}

void SetAllEnd(NodeExecStats* stats) {
  const int64_t end_rel_nanos = StatsNowNanos() - stats->all_start_nanos();
  stats->set_all_end_rel_nanos(end_rel_nanos);
  stats->set_all_end_rel_micros(end_rel_nanos / 1000);
}

absl::Status ObserveOutput(NodeOutputObserver* observer, const ExecutorNode& item, int index,
                           const TensorValue& value, DeviceBase* device) {
  if (value.tensor == nullptr) return absl::OkStatus();
  GpuDeviceContext* gpu = device->gpu_device_context();
  const Tensor* shown = value.tensor;
  Tensor host;
  if (ABSL_PREDICT_FALSE(gpu != nullptr) &&
      item.kernel->output_memory_types()[index] == DEVICE_MEMORY &&
      DataTypeCanUseMemcpy(value.tensor->dtype())) {
    absl::StatusOr<Tensor> copy =
        Tensor::Allocate(device->GetHostAllocator(), value.tensor->dtype(), value.tensor->shape());
    if (!copy.ok()) return NodeError(item, copy.status());
    host = *std::move(copy);
    const absl::Status copied = gpu->CopyDeviceToHost(*value.tensor, &host);
    if (!copied.ok()) return NodeError(item, copied);
    shown = &host;
  }
  const absl::Status s = observer->OnOutput(*item.node, index, *shown);
  return s.ok() ? s : NodeError(item, s);
}

}  // namespace sluice
