// DeviceKernelRunner: runs the kernel of one NodeDef on a real device of the process (the
// first GPU, or the CPU) on host tensors, and hands back host copies of its outputs, so that a
// test compares a GPU kernel with the CPU kernel of the same node. For tests only (testonly).
//
// The devices are those a session would create (DeviceFactory::AddDevices with default
// options): the CPU device, and a GPU device for each GPU when a GPU device factory is linked
// and finds one. Tests call GTEST_SKIP() << "no CUDA device" when gpu() is null.
//
// On a GPU, each input the kernel takes in device memory (its memory types, which follow the
// registration's HostMemory args) is copied there first; outputs in device memory are copied
// back, which waits for the work enqueued on the compute stream; the stream is then
// synchronised, so that an asynchronous failure is reported by the run that caused it.
// Thread safety: none; one test thread drives it.
#ifndef SLUICE_KERNELS_CUDA_GPU_KERNEL_TEST_UTIL_H_
#define SLUICE_KERNELS_CUDA_GPU_KERNEL_TEST_UTIL_H_

#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "proto/node_def.pb.h"
#include "runtime/device/device.h"

namespace sluice {
namespace test {

class DeviceKernelRunner {
 public:
  // Creates the devices; status() says whether that worked.
  DeviceKernelRunner();
  ~DeviceKernelRunner();

  const absl::Status& status() const { return status_; }
  // Not owned; null when there is none.
  Device* cpu() const { return cpu_; }
  Device* gpu() const { return gpu_; }

  // Builds node_def's kernel for `device`, runs it once on `inputs` (host tensors) and sets
  // *outputs to host copies of its outputs. Returns the kernel's construction or run status
  // (its node attached, as the executor reports it), or the copies' errors.
  absl::Status Run(Device* device, const NodeDef& node_def, const std::vector<Tensor>& inputs,
                   std::vector<Tensor>* outputs);

 private:
  absl::Status status_;
  std::vector<std::unique_ptr<Device>> devices_;
  Device* cpu_ = nullptr;
  Device* gpu_ = nullptr;
};

// The process's runner, created on first use and kept until exit (a GPU device holds the
// CUDA context and its memory pool, which tests share rather than re-create).
DeviceKernelRunner& SharedDeviceKernelRunner();

}  // namespace test
}  // namespace sluice

#endif  // SLUICE_KERNELS_CUDA_GPU_KERNEL_TEST_UTIL_H_
