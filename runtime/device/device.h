// Device: a device as the runtime (executor, session) sees it.
//
// Adds to DeviceBase (what a kernel sees) the device's attributes (full name, type, memory
// limit, incarnation), its parsed name for matching, and the hooks the executor runs kernels
// through: Compute / ComputeAsync (a CPU device runs them inline on the calling thread),
// Sync (waits for queued work; a no-op on the CPU) and MakeTensorFromProto (a constant
// materialised in this device's memory).
//
// Ownership: the allocator passed to the constructor is not owned unless the subclass says
// so; it must outlive the device and every tensor it allocated.
// Thread safety: everything is const after construction; Compute and ComputeAsync may be
// called from many threads at once (kernels are thread-safe, see op_kernel.h).
#ifndef SLUICE_RUNTIME_DEVICE_DEVICE_H_
#define SLUICE_RUNTIME_DEVICE_DEVICE_H_

#include <cstdint>
#include <functional>
#include <limits>
#include <string>

#include "absl/status/status.h"
#include "graph/core/device_name.h"
#include "proto/device_attributes.pb.h"
#include "proto/tensor.pb.h"
#include "runtime/framework/device_base.h"

namespace sluice {

class Allocator;
class AsyncOpKernel;
class OpKernel;
class OpKernelContext;
class Tensor;

class Device : public DeviceBase {
 public:
  // REQUIRES: attributes.name() is a full device name and attributes.device_type() its type.
  Device(const DeviceAttributes& attributes, Allocator* allocator);
  ~Device() override;

  const DeviceAttributes& attributes() const { return attributes_; }
  uint64_t incarnation() const { return attributes_.incarnation(); }
  const ParsedDeviceName& parsed_name() const { return parsed_name_; }

  // Runs a synchronous kernel; any failure is set on `context`. The default runs it inline.
  virtual void Compute(OpKernel* op_kernel, OpKernelContext* context);
  // Starts an asynchronous kernel; `done` runs (on any thread) once it finished. The
  // default calls op_kernel->ComputeAsync on the calling thread.
  virtual void ComputeAsync(AsyncOpKernel* op_kernel, OpKernelContext* context,
                            std::function<void()> done);
  // Blocks until all work queued on the device is done; returns its first failure.
  virtual absl::Status Sync();
  // How many threads running this device's nodes at once are worth it now: the executor
  // hands a ready node to another thread only while the process's threads occupy fewer
  // cores (CoreBudget::occupied: executor threads, handed-over nodes, kernels' teams).
  // Unlimited by default; a CPU device answers the cores other processes leave free.
  virtual int ThreadsWorthRunning() const { return std::numeric_limits<int>::max(); }
  // Fills *tensor from `proto`, allocated in this device's memory. INVALID_ARGUMENT for a
  // malformed proto (see graph/core/tensor_proto.h), RESOURCE_EXHAUSTED if memory runs out.
  virtual absl::Status MakeTensorFromProto(const TensorProto& proto, Tensor* tensor);

  // Attributes for a new device: `name` and `type` as given, a random nonzero incarnation.
  static DeviceAttributes BuildDeviceAttributes(const std::string& name, const std::string& type,
                                                int64_t memory_limit,
                                                const DeviceLocality& locality,
                                                const std::string& physical_device_desc);

  // A random nonzero 64-bit number, unique per call with overwhelming probability.
  static uint64_t NewIncarnation();

 private:
  const DeviceAttributes attributes_;
  ParsedDeviceName parsed_name_;
};

}  // namespace sluice

#endif  // SLUICE_RUNTIME_DEVICE_DEVICE_H_
