// DeviceKernelRunner: devices from the factories, inputs copied in by memory type, the kernel
// run through its device, outputs copied back.
#include "kernels/cuda/gpu_kernel_test_util.h"

#include <string>
#include <utility>

#include "graph/core/errors.h"
#include "numerics/float_environment.h"
#include "runtime/device/device_factory.h"
#include "runtime/device/session_options.h"
#include "runtime/framework/create_op_kernel.h"
#include "runtime/framework/device_type.h"
#include "runtime/framework/gpu/gpu_device_context.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace test {

DeviceKernelRunner::DeviceKernelRunner() {
  status_ =
      DeviceFactory::AddDevices(SessionOptions(), "/job:localhost/replica:0/task:0", &devices_);
  for (const std::unique_ptr<Device>& device : devices_) {
    const std::string& type = device->device_type().type_string();
    if (type == DEVICE_CPU && cpu_ == nullptr) cpu_ = device.get();
    if (type == DEVICE_GPU && gpu_ == nullptr && device->gpu_device_context() != nullptr) {
      gpu_ = device.get();
    }
  }
  if (status_.ok() && cpu_ == nullptr) status_ = errors::Internal("No CPU device was created");
}

DeviceKernelRunner::~DeviceKernelRunner() = default;

absl::Status DeviceKernelRunner::Run(Device* device, const NodeDef& node_def,
                                     const std::vector<Tensor>& inputs,
                                     std::vector<Tensor>* outputs) {
  outputs->clear();
  std::unique_ptr<OpKernel> kernel;
  RETURN_IF_ERROR(
      CreateOpKernel(device->device_type(), device, device->GetAllocator(), node_def, &kernel));
  if (static_cast<int>(inputs.size()) != kernel->num_inputs()) {
    return errors::InvalidArgument(node_def.name(), " takes ", kernel->num_inputs(),
                                   " inputs; the test gave ", inputs.size());
  }
  GpuDeviceContext* gpu = device->gpu_device_context();
  // Inputs where the kernel reads them.
  std::vector<Tensor> placed;
  placed.reserve(inputs.size());  // pointers into it stay valid while values are taken
  for (int i = 0; i < kernel->num_inputs(); ++i) {
    if (gpu == nullptr || kernel->input_memory_types()[i] == HOST_MEMORY) {
      placed.push_back(inputs[i]);
      continue;
    }
    Tensor on_device(device->GetAllocator(), inputs[i].dtype(), inputs[i].shape());
    if (inputs[i].NumElements() > 0) RETURN_IF_ERROR(gpu->CopyHostToDevice(inputs[i], &on_device));
    placed.push_back(std::move(on_device));
  }
  std::vector<TensorValue> values;
  for (Tensor& t : placed) values.emplace_back(&t);

  OpKernelContext::Params params;
  params.step_id = 1;
  params.op_kernel = kernel.get();
  params.device = device;
  params.inputs = values;
  OpKernelContext context(&params);
  {
    // A session's mode on the CPU (TensorFlow's: subnormals flushed; its GPU kernels flush
    // too, built with nvcc's -ftz=true).
    const numerics::ScopedFlushDenormals flush;
    device->Compute(kernel.get(), &context);
  }
  RETURN_IF_ERROR(context.status());

  for (int i = 0; i < context.num_outputs(); ++i) {
    Tensor* out = context.mutable_output(i);
    if (out == nullptr) return errors::Internal(node_def.name(), " did not set output ", i);
    if (gpu == nullptr || kernel->output_memory_types()[i] == HOST_MEMORY) {
      outputs->push_back(*out);
      continue;
    }
    Tensor on_host(out->dtype(), out->shape());
    if (out->NumElements() > 0) RETURN_IF_ERROR(gpu->CopyDeviceToHost(*out, &on_host));
    outputs->push_back(std::move(on_host));
  }
  if (gpu != nullptr) RETURN_IF_ERROR(gpu->SynchronizeCompute());
  return absl::OkStatus();
}

DeviceKernelRunner& SharedDeviceKernelRunner() {
  // Never destroyed: devices may be in use by the CUDA runtime's exit handlers otherwise.
  static DeviceKernelRunner* const runner = new DeviceKernelRunner();
  return *runner;
}

}  // namespace test
}  // namespace sluice
