#include "runtime/session/fake_gpu_device.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "glog/logging.h"
#include "graph/core/allocator.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "runtime/device/bfc_allocator.h"
#include "runtime/device/device.h"
#include "runtime/device/device_factory.h"
#include "runtime/device/session_options.h"
#include "runtime/framework/device_type.h"
#include "runtime/framework/gpu/gpu_device_context.h"

namespace sluice {
namespace {

std::atomic<int64_t> host_to_device_copies{0};
std::atomic<int64_t> device_to_host_copies{0};
std::atomic<int64_t> device_to_device_copies{0};

// "Device memory" is host memory from an allocator of its own; copies are memcpy, counted.
class HostEmulatedGpuContext : public GpuDeviceContext {
 public:
  int device_ordinal() const override { return 0; }
  CUstream_st* compute_stream() const override { return nullptr; }
  const CudaLibraries& libraries() const override {
    LOG(FATAL) << "The fake GPU has no CUDA libraries";
  }
  cublasContext* cublas_handle() const override { return nullptr; }
  cublasLtContext* cublas_lt_handle() const override { return nullptr; }
  cudnnContext* cudnn_handle() const override { return nullptr; }
  bool allow_tf32() const override { return false; }
  void* Workspace(int64_t) override { return nullptr; }
  absl::Status CopyHostToDevice(const Tensor& host, Tensor* device) override {
    ++host_to_device_copies;
    return Copy(host, device);
  }
  absl::Status CopyDeviceToHost(const Tensor& device, Tensor* host) override {
    ++device_to_host_copies;
    return Copy(device, host);
  }
  absl::Status CopyDeviceToDevice(const Tensor& from, Tensor* to) override {
    ++device_to_device_copies;
    return Copy(from, to);
  }
  CopyCounts copy_counts() const override {
    CopyCounts counts;
    counts.host_to_device = host_to_device_copies;
    counts.device_to_host = device_to_host_copies;
    counts.device_to_device = device_to_device_copies;
    return counts;
  }
  absl::Status SynchronizeCompute() override { return absl::OkStatus(); }

 private:
  // The real contexts' contract: the same dtype and byte size.
  static absl::Status Copy(const Tensor& from, Tensor* to) {
    if (from.dtype() != to->dtype() || from.tensor_data().size() != to->tensor_data().size()) {
      return errors::Internal("The fake GPU was asked to copy ", from.tensor_data().size(),
                              " bytes of ", DataTypeString(from.dtype()), " into ",
                              to->tensor_data().size(), " bytes of ", DataTypeString(to->dtype()));
    }
    // An empty tensor may have no buffer, which memcpy must not be given even for no bytes.
    if (from.tensor_data().empty()) return absl::OkStatus();
    std::memcpy(to->raw_data(), from.raw_data(), from.tensor_data().size());
    return absl::OkStatus();
  }
};

class HostRegions : public SubAllocator {
 public:
  void* Alloc(size_t alignment, size_t num_bytes) override {
    return std::aligned_alloc(alignment, (num_bytes + alignment - 1) / alignment * alignment);
  }
  void Free(void* ptr, size_t) override { std::free(ptr); }
};

class FakeGpuDevice : public Device {
 public:
  explicit FakeGpuDevice(const DeviceAttributes& attributes) : Device(attributes, DeviceMemory()) {}
  GpuDeviceContext* gpu_device_context() const override { return &context_; }
  Allocator* GetHostAllocator() override { return DefaultCpuAllocator(); }

  // A BfcAllocator over host memory, limited to 64 MiB as a small GPU; never destroyed, as a
  // real GPU's allocator (tensors may outlive devices).
  static Allocator* DeviceMemory() {
    static Allocator* const allocator =
        new BfcAllocator(std::make_unique<HostRegions>(), kDeviceMemoryBytes, "fake_gpu_bfc",
                         BfcAllocator::Options());
    return allocator;
  }
  static constexpr size_t kDeviceMemoryBytes = size_t{64} << 20;

 private:
  mutable HostEmulatedGpuContext context_;
};

class FakeGpuFactory : public DeviceFactory {
 public:
  absl::Status CreateDevices(const SessionOptions& options, const std::string& name_prefix,
                             std::vector<std::unique_ptr<Device>>* devices) override {
    int count = 0;
    RETURN_IF_ERROR(DeviceCount(options, DEVICE_GPU, 1, &count));
    for (int i = 0; i < count; ++i) {
      devices->push_back(std::make_unique<FakeGpuDevice>(Device::BuildDeviceAttributes(
          absl::StrCat(name_prefix, "/device:GPU:", i), DEVICE_GPU, int64_t{1} << 30,
          DeviceLocality(), "fake GPU on the host")));
    }
    return absl::OkStatus();
  }
};
// Above the real factory's 210, so it replaces it.
const DeviceFactoryRegistrar<FakeGpuFactory> fake_gpu_registrar(DEVICE_GPU, 1000);

}  // namespace

namespace fake_gpu {

int64_t HostToDeviceCopies() { return host_to_device_copies; }
int64_t DeviceToHostCopies() { return device_to_host_copies; }
int64_t DeviceToDeviceCopies() { return device_to_device_copies; }

}  // namespace fake_gpu
}  // namespace sluice
