// GpuPhysicalDevice: one CUDA device as the process holds it — its memory, streams, library
// handles and copies; the GpuDeviceContext its kernels use.
//
// One per CUDA ordinal, made by the first session that asks for it and kept until the process
// exits, as TensorFlow keeps its GPU allocators process-wide: sessions share the device's
// memory rather than each reserving most of it, a device tensor never outlives its allocator,
// and library handles (slow to create) are made once. The first session's GPUOptions decide
// the memory limit and growth policy; later sessions get the same device whatever they ask.
//
// Memory: a BfcAllocator over cudaMalloc'd regions (no cudaMalloc per tensor per step). It
// serves one stream, the compute stream, so memory freed by a tensor's last reference may be
// handed out again at once: every later user is ordered after every earlier one on that
// stream. The copy streams wait for the compute stream before writing a buffer (see
// CopyHostToDevice), so they never overwrite memory a queued kernel still reads.
//
// Streams: compute, host-to-device and device-to-host, non-blocking (never ordered with the
// legacy default stream), ordered among themselves with events.
//
// Thread safety: everything may be called from any thread. Kernels run one at a time per
// device (RunKernel holds kernel_mu_): a GPU kernel only validates and enqueues, so this
// costs little, and it makes the handles (not safe to share between threads while their
// stream or workspace changes) and the workspace safe without locking of their own.
#ifndef SLUICE_RUNTIME_DEVICE_GPU_GPU_PHYSICAL_DEVICE_H_
#define SLUICE_RUNTIME_DEVICE_GPU_GPU_PHYSICAL_DEVICE_H_

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "runtime/device/bfc_allocator.h"
#include "runtime/framework/gpu/cuda_libraries.h"
#include "runtime/framework/gpu/gpu_device_context.h"

namespace sluice {

// Page-locked host memory (cudaHostAlloc) for values that cross to or from a GPU: copies from
// and to it run at the bus's full speed, where pageable memory is staged through a driver
// buffer. One BfcAllocator for the process, growing as needed up to half the machine's memory
// (at most 64 GiB), created on first use and never destroyed (fetched tensors may hold its
// memory after every session is gone). Only called where a GPU exists.
Allocator* PinnedHostAllocator();

// Makes CUDA device `ordinal` the calling thread's current one. All Sluice code switches
// devices through here (it remembers each thread's current device).
absl::Status MakeCudaDeviceCurrent(int ordinal);

class GpuPhysicalDevice : public GpuDeviceContext {
 public:
  struct Options {
    int64_t memory_limit = 0;  // bytes the allocator may hold
    bool allow_growth = false;
    bool allow_tf32 = false;
  };

  // The device for CUDA `ordinal`, made with `options` on first use (later calls get it
  // as made). Errors from CUDA and the libraries, as cuda_status.h makes them.
  static absl::StatusOr<GpuPhysicalDevice*> GetOrCreate(int ordinal, const Options& options);

  // What CUDA says of the device: "device: 0, name: NVIDIA H100 80GB HBM3, pci bus id:
  // 0000:18:00.0, compute capability: 9.0" (TensorFlow's physical_device_desc).
  static std::string Description(int ordinal);

  // GpuDeviceContext.
  int device_ordinal() const override { return ordinal_; }
  CUstream_st* compute_stream() const override { return compute_stream_; }
  const CudaLibraries& libraries() const override { return *libs_; }
  cublasContext* cublas_handle() const override { return cublas_; }
  cublasLtContext* cublas_lt_handle() const override { return cublas_lt_; }
  cudnnContext* cudnn_handle() const override { return cudnn_; }
  bool allow_tf32() const override { return options_.allow_tf32; }
  void* Workspace(int64_t bytes) override;
  absl::Status CopyHostToDevice(const Tensor& host, Tensor* device) override;
  absl::Status CopyDeviceToHost(const Tensor& device, Tensor* host) override;
  absl::Status CopyDeviceToDevice(const Tensor& from, Tensor* to) override;
  CopyCounts copy_counts() const override;
  absl::Status SynchronizeCompute() override;
  absl::StatusOr<CUgraphExec_st*> CaptureGraph(
      const std::function<absl::Status()>& enqueue) override;
  absl::Status LaunchGraph(CUgraphExec_st* graph) override;
  void DestroyGraph(CUgraphExec_st* graph) override;

  // Runs `kernel` (which enqueues work) with this device current on the calling thread, one
  // kernel at a time.
  void RunKernel(const std::function<void()>& kernel);
  // Makes this device the calling thread's current CUDA device.
  absl::Status MakeCurrent() const;

  BfcAllocator* allocator() const { return allocator_.get(); }
  const Options& options() const { return options_; }

 private:
  GpuPhysicalDevice(int ordinal, const Options& options, const CudaLibraries* libs);
  absl::Status Init();

  const int ordinal_;
  const Options options_;
  const CudaLibraries* const libs_;
  std::unique_ptr<BfcAllocator> allocator_;
  cudaStream_t compute_stream_ = nullptr;
  cudaStream_t host_to_device_stream_ = nullptr;
  cudaStream_t device_to_host_stream_ = nullptr;
  cublasContext* cublas_ = nullptr;
  cublasLtContext* cublas_lt_ = nullptr;
  cudnnContext* cudnn_ = nullptr;

  absl::Mutex kernel_mu_;
  // The cuBLAS/cuDNN scratch; grown, never shrunk. Guarded by kernel_mu_ (kernels call
  // Workspace from RunKernel). Once a graph has been captured, a grown-out-of buffer is kept
  // (a graph may still use it) rather than freed.
  void* workspace_ = nullptr;
  int64_t workspace_bytes_ = 0;
  bool keep_old_workspaces_ = false;
  // cuBLAS's own workspace, set before the first capture (cuBLAS must not allocate while a
  // stream is captured). Guarded by kernel_mu_.
  void* cublas_workspace_ = nullptr;

  // Held while a graph is captured, by the capture and by what would otherwise enqueue on or
  // wait for the compute stream from another thread (device-to-device copies, waits).
  absl::Mutex capture_mu_;

  // Each copy direction records its events and enqueues its copy under its own lock, so a
  // wait is never matched with another thread's record.
  absl::Mutex host_to_device_mu_;
  cudaEvent_t compute_done_for_h2d_ = nullptr;
  cudaEvent_t h2d_done_ = nullptr;
  absl::Mutex device_to_host_mu_;
  cudaEvent_t compute_done_for_d2h_ = nullptr;

  std::atomic<int64_t> host_to_device_copies_{0};
  std::atomic<int64_t> device_to_host_copies_{0};
  std::atomic<int64_t> device_to_device_copies_{0};
};

}  // namespace sluice

#endif  // SLUICE_RUNTIME_DEVICE_GPU_GPU_PHYSICAL_DEVICE_H_
