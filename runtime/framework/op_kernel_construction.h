// OpKernelConstruction: what a kernel's constructor may read and how it reports failure.
//
// CreateOpKernel builds one per node and passes it to the kernel's constructor, which reads
// attrs (GetAttr), checks its signature, may allocate persistent tensors, and reports a
// failure with OP_REQUIRES / OP_REQUIRES_OK (which call CtxFailure and return). A kernel
// whose construction set a non-OK status is destroyed and the status returned to the caller.
//
// Ownership: everything the construction points at (node, op, device, allocator, status) is
// owned by the caller and outlives it; a kernel must copy what it keeps.
// Thread-compatible: used by the one thread constructing the kernel.
#ifndef SLUICE_RUNTIME_FRAMEWORK_OP_KERNEL_CONSTRUCTION_H_
#define SLUICE_RUNTIME_FRAMEWORK_OP_KERNEL_CONSTRUCTION_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "graph/core/types.h"
#include "graph/op/node_def_util.h"
#include "proto/node_def.pb.h"
#include "proto/op_def.pb.h"
#include "runtime/framework/device_type.h"

namespace sluice {

class Allocator;
class DeviceBase;
class Tensor;
class TensorShape;

class OpKernelConstruction {
 public:
  // `status` receives the first failure; it must be OK on entry.
  OpKernelConstruction(DeviceType device_type, DeviceBase* device, Allocator* allocator,
                       const NodeDef* node_def, const OpDef* op_def, DataTypeSlice input_types,
                       MemoryTypeSlice input_memory_types, DataTypeSlice output_types,
                       MemoryTypeSlice output_memory_types, absl::Status* status);

  OpKernelConstruction(const OpKernelConstruction&) = delete;
  OpKernelConstruction& operator=(const OpKernelConstruction&) = delete;

  const DeviceType& device_type() const { return device_type_; }
  DeviceBase* device() const { return device_; }
  Allocator* allocator() const { return allocator_; }
  const NodeDef& def() const { return *node_def_; }
  const OpDef& op_def() const { return *op_def_; }

  int num_inputs() const { return static_cast<int>(input_types_.size()); }
  DataType input_type(int i) const { return input_types_[i]; }
  DataTypeSlice input_types() const { return input_types_; }
  MemoryTypeSlice input_memory_types() const { return input_memory_types_; }
  int num_outputs() const { return static_cast<int>(output_types_.size()); }
  DataType output_type(int i) const { return output_types_[i]; }
  DataTypeSlice output_types() const { return output_types_; }
  MemoryTypeSlice output_memory_types() const { return output_memory_types_; }

  // Reads attr `attr_name` of the node (defaults already filled in). NOT_FOUND if absent,
  // INVALID_ARGUMENT if of another type; see GetNodeAttr for the supported types.
  template <class T>
  absl::Status GetAttr(absl::string_view attr_name, T* value) const {
    return GetNodeAttr(AttrSlice(*node_def_), attr_name, value);
  }
  bool HasAttr(absl::string_view attr_name) const;

  // INVALID_ARGUMENT "Signature mismatch, have: [float]->[float] expected: ..." unless the
  // node's types equal the expected ones (a ref type also matches its base type).
  absl::Status MatchSignature(DataTypeSlice expected_inputs, DataTypeSlice expected_outputs);

  // Allocates a tensor from the construction's allocator, for state the kernel keeps across
  // steps. RESOURCE_EXHAUSTED if the allocator fails.
  absl::Status allocate_temp(DataType dtype, const TensorShape& shape, Tensor* out_temp);

  // Keeps the first non-OK status.
  void SetStatus(const absl::Status& status);
  const absl::Status& status() const { return *status_; }

  // Used by OP_REQUIRES (logs at VLOG(1)) and OP_REQUIRES_OK (logs a warning).
  void CtxFailure(const absl::Status& status);
  void CtxFailure(const char* file, int line, const absl::Status& status);
  void CtxFailureWithWarning(const absl::Status& status);
  void CtxFailureWithWarning(const char* file, int line, const absl::Status& status);

 private:
  const DeviceType device_type_;
  DeviceBase* const device_;
  Allocator* const allocator_;
  const NodeDef* const node_def_;
  const OpDef* const op_def_;
  const DataTypeSlice input_types_;
  const MemoryTypeSlice input_memory_types_;
  const DataTypeSlice output_types_;
  const MemoryTypeSlice output_memory_types_;
  absl::Status* const status_;
};

// Shared by OpKernelConstruction and OpKernelContext.
//
// "Signature mismatch, ..." unless `inputs` -> `outputs` match the expected types.
absl::Status MatchSignatureHelper(DataTypeSlice expected_inputs, DataTypeSlice expected_outputs,
                                  DataTypeSlice inputs, DataTypeSlice outputs);
// "OP_REQUIRES failed at file.cc:12 : INVALID_ARGUMENT: ...", the line CtxFailure logs.
std::string OpRequiresFailedMessage(const char* file, int line, const absl::Status& status);

}  // namespace sluice

#endif  // SLUICE_RUNTIME_FRAMEWORK_OP_KERNEL_CONSTRUCTION_H_
