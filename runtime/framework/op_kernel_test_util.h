// Helpers for tests of the kernel API: a CPU test device, NodeDef and Tensor builders, and
// an invocation that owns a kernel's inputs and its OpKernelContext.
#ifndef SLUICE_RUNTIME_FRAMEWORK_OP_KERNEL_TEST_UTIL_H_
#define SLUICE_RUNTIME_FRAMEWORK_OP_KERNEL_TEST_UTIL_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "graph/core/allocator.h"
#include "graph/core/tensor.h"
#include "graph/op/node_def_util.h"
#include "proto/node_def.pb.h"
#include "runtime/framework/device_base.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace test {

// A CPU device over DefaultCpuAllocator(), or over the given allocators.
class CpuTestDevice : public DeviceBase {
 public:
  CpuTestDevice() : CpuTestDevice(DefaultCpuAllocator(), DefaultCpuAllocator()) {}
  CpuTestDevice(Allocator* allocator, Allocator* host_allocator)
      : DeviceBase("/job:localhost/replica:0/task:0/device:CPU:0", DEVICE_CPU, allocator),
        host_allocator_(host_allocator) {}

  Allocator* GetHostAllocator() override { return host_allocator_; }

 private:
  Allocator* const host_allocator_;
};

// A NodeDef named `name` running `op` with data inputs `inputs`.
NodeDef MakeNodeDef(const std::string& name, const std::string& op,
                    const std::vector<std::string>& inputs = {});

// A tensor of `shape` holding `values` (row-major).
template <typename T>
Tensor MakeTensor(const TensorShape& shape, const std::vector<T>& values) {
  Tensor tensor(DataTypeToEnum<T>::value, shape);
  T* data = tensor.base<T>();
  for (size_t i = 0; i < values.size(); ++i) data[i] = values[i];
  return tensor;
}

// The values of a tensor of T.
template <typename T>
std::vector<T> Values(const Tensor& tensor) {
  const T* data = tensor.base<T>();
  return std::vector<T>(data, data + tensor.NumElements());
}

// One call of a kernel: owns its input tensors (each held only by its slot, unless the test
// keeps a copy) and the context built over them.
class TestInvocation {
 public:
  TestInvocation(OpKernel* kernel, DeviceBase* device, std::vector<Tensor> inputs);

  OpKernelContext* context() { return context_.get(); }
  Tensor* input(int i) { return &inputs_[i]; }
  // Runs the kernel's Compute and returns the context's status.
  absl::Status Compute();

 private:
  std::vector<Tensor> inputs_;
  std::vector<TensorValue> values_;
  OpKernelContext::Params params_;
  std::unique_ptr<OpKernelContext> context_;
};

}  // namespace test
}  // namespace sluice

#endif  // SLUICE_RUNTIME_FRAMEWORK_OP_KERNEL_TEST_UTIL_H_
