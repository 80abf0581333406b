// OpKernel and AsyncOpKernel: what every kernel keeps from its construction.
#include "runtime/framework/op_kernel.h"

#include "absl/synchronization/notification.h"
#include "graph/core/errors.h"

namespace sluice {

OpKernel::OpKernel(OpKernelConstruction* context)
    : def_(context->def()),
      input_types_(context->input_types().begin(), context->input_types().end()),
      input_memory_types_(context->input_memory_types().begin(),
                          context->input_memory_types().end()),
      output_types_(context->output_types().begin(), context->output_types().end()),
      output_memory_types_(context->output_memory_types().begin(),
                           context->output_memory_types().end()),
      // GPU kernels only enqueue work, so the executor may run them inline.
      expensive_(context->device_type() != DeviceType(DEVICE_GPU)) {
  OP_REQUIRES_OK(context, NameRangesForNode(AttrSlice(def_), context->op_def(), &input_name_map_,
                                            &output_name_map_));
}

OpKernel::~OpKernel() = default;

absl::Status OpKernel::InputRange(absl::string_view name, int* start, int* stop) const {
  auto it = input_name_map_.find(name);
  if (it == input_name_map_.end()) return errors::InvalidArgument("Unknown input name: ", name);
  *start = it->second.first;
  *stop = it->second.second;
  return absl::OkStatus();
}

absl::Status OpKernel::OutputRange(absl::string_view name, int* start, int* stop) const {
  auto it = output_name_map_.find(name);
  if (it == output_name_map_.end()) {
    return errors::InvalidArgument("Unknown output name: ", name);
  }
  *start = it->second.first;
  *stop = it->second.second;
  return absl::OkStatus();
}

void AsyncOpKernel::Compute(OpKernelContext* context) {
  absl::Notification done;
  ComputeAsync(context, [&done]() { done.Notify(); });
  done.WaitForNotification();
}

}  // namespace sluice
