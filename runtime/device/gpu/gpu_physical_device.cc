#include "runtime/device/gpu/gpu_physical_device.h"

#include <unistd.h>

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "glog/logging.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "runtime/framework/gpu/cuda_status.h"

namespace sluice {
namespace {

// Regions of device memory for the BfcAllocator, from cudaMalloc on one device.
class CudaSubAllocator : public SubAllocator {
 public:
  explicit CudaSubAllocator(int ordinal) : ordinal_(ordinal) {}

  void* Alloc(size_t /*alignment: cudaMalloc gives 256 or more*/, size_t num_bytes) override {
    if (!MakeCudaDeviceCurrent(ordinal_).ok()) return nullptr;
    void* ptr = nullptr;
    if (cudaMalloc(&ptr, num_bytes) != cudaSuccess) {
      cudaGetLastError();  // clears the error so that later calls are not blamed for it
      return nullptr;
    }
    return ptr;
  }

  void Free(void* ptr, size_t /*num_bytes*/) override {
    if (MakeCudaDeviceCurrent(ordinal_).ok()) cudaFree(ptr);
  }

 private:
  const int ordinal_;
};

// Regions of page-locked host memory for the pinned host BfcAllocator.
class PinnedHostSubAllocator : public SubAllocator {
 public:
  void* Alloc(size_t /*alignment: page-aligned*/, size_t num_bytes) override {
    void* ptr = nullptr;
    if (cudaHostAlloc(&ptr, num_bytes, cudaHostAllocPortable) != cudaSuccess) {
      cudaGetLastError();
      return nullptr;
    }
    return ptr;
  }
  void Free(void* ptr, size_t /*num_bytes*/) override { cudaFreeHost(ptr); }
};

size_t ByteSize(const Tensor& tensor) { return tensor.tensor_data().size(); }

absl::Status CheckSameBytes(const Tensor& from, const Tensor& to, const char* what) {
  if (ByteSize(from) != ByteSize(to) || from.dtype() != to.dtype()) {
    return errors::Internal(what, ": tensors differ (", from.DebugString(0), " and ",
                            to.DebugString(0), ")");
  }
  return absl::OkStatus();
}

}  // namespace

Allocator* PinnedHostAllocator() {
  static Allocator* const allocator = [] {
    const int64_t pages = sysconf(_SC_PHYS_PAGES);
    const int64_t page_bytes = sysconf(_SC_PAGE_SIZE);
    const int64_t half_of_memory = pages > 0 && page_bytes > 0 ? pages / 2 * page_bytes : 0;
    const int64_t limit = std::min<int64_t>(int64_t{64} << 30, half_of_memory);
    BfcAllocator::Options options;
    options.allow_growth = true;
    return new BfcAllocator(std::make_unique<PinnedHostSubAllocator>(),
                            static_cast<size_t>(std::max<int64_t>(limit, int64_t{1} << 30)),
                            "gpu_host_bfc", options);
  }();
  return allocator;
}

absl::Status MakeCudaDeviceCurrent(int ordinal) {
  // A thread keeps its current device: most calls find it already set. Every switch goes
  // through here, so the per-thread memo stays true.
  thread_local int current = -1;
  if (current == ordinal) return absl::OkStatus();
  RETURN_IF_ERROR(CudaStatus(cudaSetDevice(ordinal), absl::StrCat("cudaSetDevice(", ordinal, ")")));
  current = ordinal;
  return absl::OkStatus();
}

absl::StatusOr<GpuPhysicalDevice*> GpuPhysicalDevice::GetOrCreate(int ordinal,
                                                                  const Options& options) {
  static absl::Mutex mu(absl::kConstInit);
  static auto* devices = new std::map<int, GpuPhysicalDevice*>();
  absl::MutexLock lock(&mu);
  auto it = devices->find(ordinal);
  if (it != devices->end()) return it->second;
  ASSIGN_OR_RETURN(const CudaLibraries* libs, CudaLibraries::Get());
  // Never destroyed: tensors and kernels of any session may hold its memory until exit.
  auto* device = new GpuPhysicalDevice(ordinal, options, libs);
  absl::Status status = device->Init();
  if (!status.ok()) {
    // Leaked on purpose as well: what Init made may be half torn down by the driver.
    return status;
  }
  devices->emplace(ordinal, device);
  return device;
}

std::string GpuPhysicalDevice::Description(int ordinal) {
  cudaDeviceProp prop;
  if (cudaGetDeviceProperties(&prop, ordinal) != cudaSuccess) {
    cudaGetLastError();
    return absl::StrCat("device: ", ordinal);
  }
  return absl::StrFormat(
      "device: %d, name: %s, pci bus id: %04x:%02x:%02x.0, compute capability: %d.%d", ordinal,
      prop.name, prop.pciDomainID, prop.pciBusID, prop.pciDeviceID, prop.major, prop.minor);
}

GpuPhysicalDevice::GpuPhysicalDevice(int ordinal, const Options& options, const CudaLibraries* libs)
    : ordinal_(ordinal), options_(options), libs_(libs) {
  BfcAllocator::Options bfc_options;
  bfc_options.allow_growth = options.allow_growth;
  allocator_ = std::make_unique<BfcAllocator>(std::make_unique<CudaSubAllocator>(ordinal),
                                              static_cast<size_t>(options.memory_limit),
                                              absl::StrCat("GPU_", ordinal, "_bfc"), bfc_options);
}

absl::Status GpuPhysicalDevice::MakeCurrent() const { return MakeCudaDeviceCurrent(ordinal_); }

absl::Status GpuPhysicalDevice::Init() {
  RETURN_IF_ERROR(MakeCurrent());
  for (cudaStream_t* stream :
       {&compute_stream_, &host_to_device_stream_, &device_to_host_stream_}) {
    RETURN_IF_ERROR(CudaStatus(cudaStreamCreateWithFlags(stream, cudaStreamNonBlocking),
                               "cudaStreamCreateWithFlags"));
  }
  for (cudaEvent_t* event : {&compute_done_for_h2d_, &h2d_done_, &compute_done_for_d2h_}) {
    RETURN_IF_ERROR(CudaStatus(cudaEventCreateWithFlags(event, cudaEventDisableTiming),
                               "cudaEventCreateWithFlags"));
  }
  RETURN_IF_ERROR(CublasStatus(*libs_, libs_->cublasCreate_v2(&cublas_), "cublasCreate"));
  RETURN_IF_ERROR(
      CublasStatus(*libs_, libs_->cublasSetStream_v2(cublas_, compute_stream_), "cublasSetStream"));
  // TF32 only where the session allows it (TensorFlow's enable_tensor_float_32_execution).
  RETURN_IF_ERROR(CublasStatus(
      *libs_,
      libs_->cublasSetMathMode(
          cublas_, options_.allow_tf32 ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH),
      "cublasSetMathMode"));
  RETURN_IF_ERROR(CublasStatus(*libs_, libs_->cublasLtCreate(&cublas_lt_), "cublasLtCreate"));
  RETURN_IF_ERROR(CudnnStatus(*libs_, libs_->cudnnCreate(&cudnn_), "cudnnCreate"));
  RETURN_IF_ERROR(
      CudnnStatus(*libs_, libs_->cudnnSetStream(cudnn_, compute_stream_), "cudnnSetStream"));
  return absl::OkStatus();
}

void GpuPhysicalDevice::RunKernel(const std::function<void()>& kernel) {
  absl::MutexLock lock(&kernel_mu_);
  // A failure here shows up as the kernel's own CUDA error on its first call.
  MakeCurrent().IgnoreError();
  kernel();
}

void* GpuPhysicalDevice::Workspace(int64_t bytes) {
  if (bytes <= workspace_bytes_) return workspace_;
  // The old buffer's queued users are ordered before any later user of its memory; a
  // captured graph may replay its users at any time, though.
  if (!keep_old_workspaces_) allocator_->DeallocateRaw(workspace_);
  workspace_ = allocator_->AllocateRaw(BfcAllocator::kMinAllocationBytes, bytes);
  workspace_bytes_ = workspace_ == nullptr ? 0 : bytes;
  return workspace_;
}

namespace {

// The device whose compute stream the calling thread is capturing, if any.
thread_local const GpuPhysicalDevice* capturing_device = nullptr;

absl::Status RefuseWhileCapturing(const GpuPhysicalDevice* device, const char* what) {
  if (capturing_device != device) return absl::OkStatus();
  return errors::FailedPrecondition(what, " cannot be part of a CUDA graph");
}

}  // namespace

absl::Status GpuPhysicalDevice::CopyHostToDevice(const Tensor& host, Tensor* device) {
  RETURN_IF_ERROR(RefuseWhileCapturing(this, "A copy from host memory"));
  RETURN_IF_ERROR(CheckSameBytes(host, *device, "CopyHostToDevice"));
  host_to_device_copies_.fetch_add(1, std::memory_order_relaxed);
  const size_t bytes = ByteSize(host);
  if (bytes == 0) return absl::OkStatus();
  RETURN_IF_ERROR(MakeCurrent());
  absl::MutexLock lock(&host_to_device_mu_);
  // The destination may be memory that kernels queued earlier still use: wait for them.
  RETURN_IF_ERROR(
      CudaStatus(cudaEventRecord(compute_done_for_h2d_, compute_stream_), "cudaEventRecord"));
  RETURN_IF_ERROR(CudaStatus(cudaStreamWaitEvent(host_to_device_stream_, compute_done_for_h2d_, 0),
                             "cudaStreamWaitEvent"));
  RETURN_IF_ERROR(CudaStatus(cudaMemcpyAsync(device->raw_data(), host.raw_data(), bytes,
                                             cudaMemcpyHostToDevice, host_to_device_stream_),
                             absl::StrCat("cudaMemcpyAsync of ", bytes, " bytes to the GPU")));
  // From page-locked memory the copy runs after the call returns, so the host buffer is held
  // until the stream has read it (from pageable memory the call itself waits for that): a
  // reference released by the stream, which calls no CUDA function, as host functions must.
  auto* held = new Tensor(host);
  const cudaError_t hold = cudaLaunchHostFunc(
      host_to_device_stream_, [](void* tensor) { delete static_cast<Tensor*>(tensor); }, held);
  if (hold != cudaSuccess) {
    // Not enqueued: wait for the copy here instead, then let the buffer go.
    const absl::Status waited =
        CudaStatus(cudaStreamSynchronize(host_to_device_stream_), "Waiting for a copy to the GPU");
    delete held;
    RETURN_IF_ERROR(waited);
  }
  RETURN_IF_ERROR(
      CudaStatus(cudaEventRecord(h2d_done_, host_to_device_stream_), "cudaEventRecord"));
  return CudaStatus(cudaStreamWaitEvent(compute_stream_, h2d_done_, 0), "cudaStreamWaitEvent");
}

absl::Status GpuPhysicalDevice::CopyDeviceToHost(const Tensor& device, Tensor* host) {
  RETURN_IF_ERROR(RefuseWhileCapturing(this, "A copy to host memory"));
  RETURN_IF_ERROR(CheckSameBytes(device, *host, "CopyDeviceToHost"));
  device_to_host_copies_.fetch_add(1, std::memory_order_relaxed);
  const size_t bytes = ByteSize(device);
  if (bytes == 0) return absl::OkStatus();
  RETURN_IF_ERROR(MakeCurrent());
  absl::MutexLock lock(&device_to_host_mu_);
  RETURN_IF_ERROR(
      CudaStatus(cudaEventRecord(compute_done_for_d2h_, compute_stream_), "cudaEventRecord"));
  RETURN_IF_ERROR(CudaStatus(cudaStreamWaitEvent(device_to_host_stream_, compute_done_for_d2h_, 0),
                             "cudaStreamWaitEvent"));
  RETURN_IF_ERROR(CudaStatus(cudaMemcpyAsync(host->raw_data(), device.raw_data(), bytes,
                                             cudaMemcpyDeviceToHost, device_to_host_stream_),
                             absl::StrCat("cudaMemcpyAsync of ", bytes, " bytes from the GPU")));
  // A kernel's asynchronous failure surfaces here, where the value leaves the device.
  return CudaStatus(cudaStreamSynchronize(device_to_host_stream_),
                    "Waiting for a copy from the GPU");
}

absl::Status GpuPhysicalDevice::CopyDeviceToDevice(const Tensor& from, Tensor* to) {
  RETURN_IF_ERROR(CheckSameBytes(from, *to, "CopyDeviceToDevice"));
  device_to_device_copies_.fetch_add(1, std::memory_order_relaxed);
  const size_t bytes = ByteSize(from);
  if (bytes == 0) return absl::OkStatus();
  RETURN_IF_ERROR(MakeCurrent());
  // On the capturing thread the copy is part of the graph; another thread's waits for the
  // capture to end rather than joining it.
  std::optional<absl::MutexLock> lock;
  if (capturing_device != this) lock.emplace(&capture_mu_);
  return CudaStatus(cudaMemcpyAsync(to->raw_data(), from.raw_data(), bytes,
                                    cudaMemcpyDeviceToDevice, compute_stream_),
                    "cudaMemcpyAsync within the GPU");
}

GpuDeviceContext::CopyCounts GpuPhysicalDevice::copy_counts() const {
  CopyCounts counts;
  counts.host_to_device = host_to_device_copies_.load(std::memory_order_relaxed);
  counts.device_to_host = device_to_host_copies_.load(std::memory_order_relaxed);
  counts.device_to_device = device_to_device_copies_.load(std::memory_order_relaxed);
  return counts;
}

absl::Status GpuPhysicalDevice::SynchronizeCompute() {
  RETURN_IF_ERROR(RefuseWhileCapturing(this, "Waiting for the GPU"));
  RETURN_IF_ERROR(MakeCurrent());
  absl::MutexLock lock(&capture_mu_);
  return CudaStatus(cudaStreamSynchronize(compute_stream_), "Waiting for the GPU");
}

absl::StatusOr<CUgraphExec_st*> GpuPhysicalDevice::CaptureGraph(
    const std::function<absl::Status()>& enqueue) {
  if (capturing_device != nullptr) {
    return errors::FailedPrecondition("A CUDA graph capture is already under way on this thread");
  }
  // The caller is a kernel, so RunKernel holds kernel_mu_: the workspace and handles are ours.
  if (cublas_workspace_ == nullptr) {
    // NVIDIA's recommended size for Hopper.
    constexpr int64_t kCublasWorkspaceBytes = int64_t{32} << 20;
    cublas_workspace_ =
        allocator_->AllocateRaw(BfcAllocator::kMinAllocationBytes, kCublasWorkspaceBytes);
    if (cublas_workspace_ == nullptr) {
      return errors::ResourceExhausted("No memory for cuBLAS's workspace of a CUDA graph");
    }
    RETURN_IF_ERROR(CublasStatus(
        *libs_, libs_->cublasSetWorkspace_v2(cublas_, cublas_workspace_, kCublasWorkspaceBytes),
        "cublasSetWorkspace"));
  }
  keep_old_workspaces_ = true;
  // Copies from other threads record events on and wait for the compute stream: they wait.
  absl::MutexLock capture(&capture_mu_);
  absl::MutexLock h2d(&host_to_device_mu_);
  absl::MutexLock d2h(&device_to_host_mu_);
  RETURN_IF_ERROR(
      CudaStatus(cudaStreamBeginCapture(compute_stream_, cudaStreamCaptureModeThreadLocal),
                 "cudaStreamBeginCapture"));
  capturing_device = this;
  const absl::Status enqueued = enqueue();
  capturing_device = nullptr;
  cudaGraph_t graph = nullptr;
  const cudaError_t ended = cudaStreamEndCapture(compute_stream_, &graph);
  if (!enqueued.ok() || ended != cudaSuccess) {
    if (graph != nullptr) cudaGraphDestroy(graph);
    cudaGetLastError();  // a failed capture's error is not sticky: clear it
    if (!enqueued.ok()) return enqueued;
    return CudaStatus(ended, "cudaStreamEndCapture");
  }
  cudaGraphExec_t exec = nullptr;
  const cudaError_t instantiated = cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphDestroy(graph);
  RETURN_IF_ERROR(CudaStatus(instantiated, "cudaGraphInstantiate"));
  return exec;
}

absl::Status GpuPhysicalDevice::LaunchGraph(CUgraphExec_st* graph) {
  RETURN_IF_ERROR(MakeCurrent());
  return CudaStatus(cudaGraphLaunch(graph, compute_stream_), "cudaGraphLaunch");
}

void GpuPhysicalDevice::DestroyGraph(CUgraphExec_st* graph) {
  if (graph == nullptr || !MakeCurrent().ok()) return;
  cudaGraphExecDestroy(graph);
}

}  // namespace sluice
