// GpuDevice: a CUDA GPU as a session's device ("GPU"), and its factory.
//
// A session's GpuDevice is a thin view of the process-wide GpuPhysicalDevice of its CUDA
// ordinal (memory, streams, handles; see gpu_physical_device.h): several sessions share one
// GPU's memory pool and streams. Kernels reach the GPU through gpu_device_context(); they
// run one at a time per GPU, each only enqueueing work on the compute stream, so the executor
// gains nothing from handing a GPU node to another thread (ThreadsWorthRunning is 1).
// HostMemory arguments and the host side of copies are served by the process's page-locked
// host allocator.
//
// The factory ("GPU", priority 210 as in TensorFlow) makes one device per CUDA device that
// CUDA_VISIBLE_DEVICES (read by CUDA itself) and gpu_options.visible_device_list leave, up
// to device_count["GPU"], named ".../device:GPU:<i>" in visible_device_list's order. It makes
// none, without an error and without reading gpu_options, when there is no driver or no GPU;
// and none when cuBLAS, cuBLASLt or cuDNN cannot be opened (logged once, as TensorFlow's "Skipping
// registering GPU devices"). Memory per device follows gpu_options (gpu_options.h); TF32 is off
// unless SessionOptions::allow_tf32.
#ifndef SLUICE_RUNTIME_DEVICE_GPU_GPU_DEVICE_H_
#define SLUICE_RUNTIME_DEVICE_GPU_GPU_DEVICE_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "runtime/device/device.h"
#include "runtime/device/device_factory.h"
#include "runtime/device/gpu/gpu_physical_device.h"

namespace sluice {

class GpuDevice : public Device {
 public:
  GpuDevice(const DeviceAttributes& attributes, GpuPhysicalDevice* physical);

  GpuDeviceContext* gpu_device_context() const override { return physical_; }
  // Page-locked memory (PinnedHostAllocator): HostMemory values and staging copies.
  Allocator* GetHostAllocator() override { return PinnedHostAllocator(); }

  void Compute(OpKernel* op_kernel, OpKernelContext* context) override;
  void ComputeAsync(AsyncOpKernel* op_kernel, OpKernelContext* context,
                    std::function<void()> done) override;
  absl::Status Sync() override { return physical_->SynchronizeCompute(); }
  int ThreadsWorthRunning() const override { return 1; }
  // Parsed in host memory, then copied to the GPU.
  absl::Status MakeTensorFromProto(const TensorProto& proto, Tensor* tensor) override;

  GpuPhysicalDevice* physical_device() const { return physical_; }

 private:
  GpuPhysicalDevice* const physical_;
};

class GpuDeviceFactory : public DeviceFactory {
 public:
  absl::Status CreateDevices(const SessionOptions& options, const std::string& name_prefix,
                             std::vector<std::unique_ptr<Device>>* devices) override;
};

}  // namespace sluice

#endif  // SLUICE_RUNTIME_DEVICE_GPU_GPU_DEVICE_H_
