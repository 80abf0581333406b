#include "runtime/device/gpu/gpu_device.h"

#include <cuda_runtime_api.h>

#include <cstdlib>
#include <utility>

#include "absl/strings/str_cat.h"
#include "glog/logging.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_proto.h"
#include "runtime/device/gpu/gpu_options.h"
#include "runtime/framework/device_type.h"
#include "runtime/framework/gpu/cuda_status.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {

GpuDevice::GpuDevice(const DeviceAttributes& attributes, GpuPhysicalDevice* physical)
    : Device(attributes, physical->allocator()), physical_(physical) {}

void GpuDevice::Compute(OpKernel* op_kernel, OpKernelContext* context) {
  physical_->RunKernel([&] { op_kernel->Compute(context); });
}

void GpuDevice::ComputeAsync(AsyncOpKernel* op_kernel, OpKernelContext* context,
                             std::function<void()> done) {
  // Asynchronous GPU kernels (_Recv) wait outside the kernel lock; what they enqueue when
  // their value arrives goes through the copy paths, which lock on their own.
  absl::Status current = physical_->MakeCurrent();
  if (!current.ok()) {
    context->SetStatus(current);
    done();
    return;
  }
  op_kernel->ComputeAsync(context, std::move(done));
}

absl::Status GpuDevice::MakeTensorFromProto(const TensorProto& proto, Tensor* tensor) {
  Tensor host;
  RETURN_IF_ERROR(TensorFromProto(GetHostAllocator(), proto, &host));
  if (!DataTypeCanUseMemcpy(host.dtype())) {
    *tensor = std::move(host);  // strings and resources live in host memory on every device
    return absl::OkStatus();
  }
  ASSIGN_OR_RETURN(Tensor device, Tensor::Allocate(GetAllocator(), host.dtype(), host.shape()));
  RETURN_IF_ERROR(physical_->CopyHostToDevice(host, &device));
  *tensor = std::move(device);
  return absl::OkStatus();
}

namespace {

// The CUDA devices CUDA_VISIBLE_DEVICES leaves, or 0 when there is no driver or no GPU (not an
// error: most machines have none).
int VisibleCudaDevices() {
  int count = 0;
  const cudaError_t error = cudaGetDeviceCount(&count);
  if (error != cudaSuccess) {
    cudaGetLastError();
    VLOG(1) << "No GPU devices: " << CudaStatus(error, "cudaGetDeviceCount");
    return 0;
  }
  return count;
}

}  // namespace

absl::Status GpuDeviceFactory::CreateDevices(const SessionOptions& options,
                                             const std::string& name_prefix,
                                             std::vector<std::unique_ptr<Device>>* devices) {
  int requested = 0;
  RETURN_IF_ERROR(DeviceCount(options, DEVICE_GPU, /*default_count=*/INT32_MAX, &requested));
  const GPUOptions& gpu_options = options.config.gpu_options();
  // Without a GPU, TensorFlow makes no GPU device and reads no GPU option: a configuration
  // written for a GPU machine (visible_device_list "0") still runs on the CPU.
  const int visible = requested == 0 ? 0 : VisibleCudaDevices();
  if (visible == 0) return absl::OkStatus();
  std::vector<int> ordinals;
  RETURN_IF_ERROR(ParseVisibleDeviceList(gpu_options.visible_device_list(), visible, &ordinals));
  absl::StatusOr<const CudaLibraries*> libs = CudaLibraries::Get();
  if (!libs.ok()) {
    static bool logged = false;
    if (!logged) {
      logged = true;
      LOG(WARNING) << libs.status().message() << ". Skipping registering GPU devices...";
    }
    return absl::OkStatus();
  }
  const bool allow_growth = AllowGrowth(gpu_options, std::getenv("TF_FORCE_GPU_ALLOW_GROWTH"));
  for (int i = 0; i < static_cast<int>(ordinals.size()) && i < requested; ++i) {
    const int ordinal = ordinals[i];
    size_t free_bytes = 0;
    size_t total_bytes = 0;
    RETURN_IF_ERROR(MakeCudaDeviceCurrent(ordinal));
    RETURN_IF_ERROR(CudaStatus(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo"));
    GpuPhysicalDevice::Options device_options;
    RETURN_IF_ERROR(GpuMemoryLimit(gpu_options, static_cast<int64_t>(total_bytes),
                                   static_cast<int64_t>(free_bytes), &device_options.memory_limit));
    device_options.allow_growth = allow_growth;
    device_options.allow_tf32 = options.allow_tf32;
    ASSIGN_OR_RETURN(GpuPhysicalDevice * physical,
                     GpuPhysicalDevice::GetOrCreate(ordinal, device_options));
    const std::string name = absl::StrCat(name_prefix, "/device:", DEVICE_GPU, ":", i);
    ParsedDeviceName parsed;
    if (!ParseFullName(name, &parsed)) {
      return errors::InvalidArgument("Invalid device name prefix: '", name_prefix, "'");
    }
    DeviceLocality locality;
    locality.set_bus_id(1);
    devices->push_back(std::make_unique<GpuDevice>(
        Device::BuildDeviceAttributes(name, DEVICE_GPU, physical->options().memory_limit, locality,
                                      GpuPhysicalDevice::Description(ordinal)),
        physical));
  }
  return absl::OkStatus();
}

namespace {
const DeviceFactoryRegistrar<GpuDeviceFactory> gpu_factory_registrar(DEVICE_GPU, 210);
}  // namespace

}  // namespace sluice
