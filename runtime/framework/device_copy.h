// CopyForReceiver: a received value, made available where its receiver needs it.
//
// A value crossing a partition boundary lives where its sender put it (Rendezvous::Args: a
// GPU's memory, or host memory). A _Recv needs it in host memory (on a CPU device, or a
// HostMemory receiver on a GPU) or in its own GPU's memory. Same place: the value is shared,
// not copied. Otherwise it is copied through the GPU contexts (gpu/gpu_device_context.h):
// device to host on the sender's GPU, into memory from that GPU's host allocator (page-locked
// on a real GPU), host to device on the receiver's. A value going from one
// GPU to another goes through host memory.
//
// Errors: INTERNAL for a dtype that cannot live in device memory (strings, resources,
// variants: their kernels keep them in host memory, so this is never the user's doing);
// RESOURCE_EXHAUSTED when the copy's memory cannot be allocated; the copies' own errors.
#ifndef SLUICE_RUNTIME_FRAMEWORK_DEVICE_COPY_H_
#define SLUICE_RUNTIME_FRAMEWORK_DEVICE_COPY_H_

#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "runtime/framework/rendezvous.h"

namespace sluice {

class DeviceBase;

// `recv_on_host`: the receiver wants host memory even on a GPU (a HostMemory output).
absl::Status CopyForReceiver(const Rendezvous::Args& sent, DeviceBase* recv_device,
                             bool recv_on_host, const Tensor& value, Tensor* out);

}  // namespace sluice

#endif  // SLUICE_RUNTIME_FRAMEWORK_DEVICE_COPY_H_
