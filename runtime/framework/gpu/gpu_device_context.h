// GpuDeviceContext: what a kernel registered for DEVICE_GPU uses to reach its GPU.
//
// A kernel gets it from its device (OpKernelContext::device()->gpu_device_context(); null on
// every other device). It holds the device's compute stream, on which a kernel enqueues all its
// work without waiting for it, and the cuBLAS(Lt)/cuDNN handles bound to that stream. Work on
// the compute stream runs in the order it was enqueued, so a kernel may read its inputs and
// write its outputs as soon as they are handed to it: whatever produced them was enqueued
// first. Memory freed by a tensor's last reference is reused in stream order too (the device
// allocator serves one stream), so a kernel never waits before returning.
//
// Copies between host and device memory are ordered against the compute stream:
//  - CopyHostToDevice enqueues the copy; work enqueued afterwards on the compute stream sees
//    the device copy. The host tensor may be released at once (the device holds its buffer
//    until the copy has read it).
//  - CopyDeviceToHost waits for the compute-stream work enqueued so far, then returns once
//    the host tensor holds the bytes (the step waits only where a value leaves the device).
// Both take tensors of the same dtype and byte size, the device one allocated by this device;
// only POD dtypes may live in device memory.
//
// The CUDA types are declared, not included, so that this header costs nothing to the kernels
// and tools that never touch a GPU: cudaStream_t is CUstream_st*, cublasHandle_t is
// cublasContext*, cublasLtHandle_t is cublasLtContext*, cudnnHandle_t is cudnnContext*.
//
// Errors: every failure of CUDA or its libraries is a Status naming the library's error (see
// cuda_status.h). Thread safety: all methods may be called from any thread.
#ifndef SLUICE_RUNTIME_FRAMEWORK_GPU_GPU_DEVICE_CONTEXT_H_
#define SLUICE_RUNTIME_FRAMEWORK_GPU_GPU_DEVICE_CONTEXT_H_

#include <cstdint>
#include <functional>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

struct CUgraphExec_st;
struct CUstream_st;
struct cublasContext;
struct cublasLtContext;
struct cudnnContext;

namespace sluice {

class CudaLibraries;
class Tensor;

class GpuDeviceContext {
 public:
  virtual ~GpuDeviceContext() = default;

  // The CUDA device ordinal (after CUDA_VISIBLE_DEVICES and visible_device_list).
  virtual int device_ordinal() const = 0;
  // The stream kernels enqueue their work on.
  virtual CUstream_st* compute_stream() const = 0;
  // cuBLAS, cuBLASLt and cuDNN, loaded at run time, and their handles bound to
  // compute_stream(). The device exists only when all three loaded.
  virtual const CudaLibraries& libraries() const = 0;
  virtual cublasContext* cublas_handle() const = 0;
  virtual cublasLtContext* cublas_lt_handle() const = 0;
  virtual cudnnContext* cudnn_handle() const = 0;
  // Whether float32 matrix products and convolutions may use TF32 (TensorFlow's
  // enable_tensor_float_32_execution); off unless the session turns it on.
  virtual bool allow_tf32() const = 0;
  // Scratch for cuBLAS(Lt)/cuDNN of at least `bytes`, valid until the next call on any thread
  // would enqueue work that overwrites it; the stream orders its users. Null if memory runs
  // out.
  virtual void* Workspace(int64_t bytes) = 0;

  virtual absl::Status CopyHostToDevice(const Tensor& host, Tensor* device) = 0;
  virtual absl::Status CopyDeviceToHost(const Tensor& device, Tensor* host) = 0;
  // A copy within this device's memory, enqueued on the compute stream.
  virtual absl::Status CopyDeviceToDevice(const Tensor& from, Tensor* to) = 0;

  // How many copies of each kind this device has made (begun) since the process started: the
  // device's copy statistics, which tests read to see that data stayed on the device.
  struct CopyCounts {
    int64_t host_to_device = 0;
    int64_t device_to_host = 0;
    int64_t device_to_device = 0;
  };
  virtual CopyCounts copy_counts() const = 0;
  // Blocks until the compute stream is idle; returns the first asynchronous error.
  virtual absl::Status SynchronizeCompute() = 0;

  // CUDA graphs (kernels/cuda/graph/cuda_graph_op.cc). CaptureGraph records what `enqueue`
  // puts on the compute stream into an executable graph instead of running it (nothing runs
  // until LaunchGraph). REQUIRES: called from a kernel of this device (kernels run one at a
  // time, so nothing else enqueues kernels meanwhile). While it captures, other threads'
  // copies and waits on the compute stream wait for it, and the capturing thread's copies
  // between host and device memory and waits are refused (FAILED_PRECONDITION): a kernel that
  // makes one fails the capture, it does not break it. Memory the captured work uses must stay
  // allocated until DestroyGraph. Devices that cannot capture return UNIMPLEMENTED.
  // cudaGraphExec_t is CUgraphExec_st*.
  virtual absl::StatusOr<CUgraphExec_st*> CaptureGraph(
      const std::function<absl::Status()>& enqueue) {
    return absl::UnimplementedError("This device cannot capture CUDA graphs");
  }
  // Enqueues `graph` on the compute stream.
  virtual absl::Status LaunchGraph(CUgraphExec_st* graph) {
    return absl::UnimplementedError("This device cannot launch CUDA graphs");
  }
  virtual void DestroyGraph(CUgraphExec_st* graph) {}
};

}  // namespace sluice

#endif  // SLUICE_RUNTIME_FRAMEWORK_GPU_GPU_DEVICE_CONTEXT_H_
