#include "runtime/framework/device_copy.h"

#include "absl/status/statusor.h"
#include "graph/core/errors.h"
#include "graph/core/types.h"
#include "runtime/framework/device_base.h"
#include "runtime/framework/gpu/gpu_device_context.h"

namespace sluice {
namespace {

// The GPU whose memory holds (or should hold) a value; null for host memory.
DeviceBase* GpuOf(DeviceBase* device) {
  return device != nullptr && device->gpu_device_context() != nullptr ? device : nullptr;
}

}  // namespace

absl::Status CopyForReceiver(const Rendezvous::Args& sent, DeviceBase* recv_device,
                             bool recv_on_host, const Tensor& value, Tensor* out) {
  DeviceBase* const from = GpuOf(sent.device);
  DeviceBase* const to = recv_on_host ? nullptr : GpuOf(recv_device);
  if (from == to) {
    *out = value;
    return absl::OkStatus();
  }
  if (!DataTypeCanUseMemcpy(value.dtype())) {
    return errors::Internal("A ", DataTypeString(value.dtype()),
                            " tensor cannot be copied between host and device memory");
  }
  Tensor host = value;
  if (from != nullptr) {
    // The sending GPU's host memory (page-locked on a real GPU), which it copies into fastest.
    Allocator* host_allocator = from->GetHostAllocator();
    ASSIGN_OR_RETURN(host, Tensor::Allocate(host_allocator, value.dtype(), value.shape()));
    if (value.NumElements() > 0) {
      RETURN_IF_ERROR(from->gpu_device_context()->CopyDeviceToHost(value, &host));
    }
  }
  if (to == nullptr) {
    *out = std::move(host);
    return absl::OkStatus();
  }
  absl::StatusOr<Tensor> device =
      Tensor::Allocate(to->GetAllocator(), value.dtype(), value.shape());
  if (!device.ok()) {
    return errors::ResourceExhausted(device.status().message(), " on ", to->name(), "; ",
                                     to->GetAllocator()->MemorySummary());
  }
  if (value.NumElements() > 0) {
    RETURN_IF_ERROR(to->gpu_device_context()->CopyHostToDevice(host, &*device));
  }
  *out = *std::move(device);
  return absl::OkStatus();
}

}  // namespace sluice
