// Var: the state of one variable, shared by the kernels that read and update it.
//
// Both kinds of TensorFlow variable keep a Var in the session's ResourceMgr:
//  - ref variables (VariableV2) output a ref to tensor(), guarded by mu(); their consumers
//    read and write through that ref (Assign, AssignAdd, Identity...);
//  - resource variables (VarHandleOp) output a DT_RESOURCE handle; ReadVariableOp and
//    AssignVariableOp look the Var up through it.
//
// Uninitialized state. Sluice's Tensor has no "allocated but bufferless" state, so a Var
// that was never assigned holds a process-wide sentinel tensor of its dtype (one element,
// never written) in place of TensorFlow's uninitialized tensor. is_initialized and
// IsInitializedRef(*tensor()) agree at all times; writers go through SetValue.
// Whoever dereferences a ref for a kernel that takes the value (the executor; the kernel
// test harness) calls ReadRefInput, which reports TensorFlow's FAILED_PRECONDITION
// "Attempting to use uninitialized value v" for a variable that was never assigned.
// The first write through a ref (Assign) finds the Var behind it with VarOfRef, to check
// the declared shape and mark the variable initialized; that lookup takes a process-wide
// lock, so it is reserved for the uninitialized case.
//
// Ownership: a Var is refcounted (ResourceBase); the ResourceMgr holds one reference and
// kernels hold one while they use it.
// Thread safety: tensor() and is_initialized are guarded by mu(); dtype() is constant.
#ifndef SLUICE_RUNTIME_FRAMEWORK_RESOURCE_VAR_H_
#define SLUICE_RUNTIME_FRAMEWORK_RESOURCE_VAR_H_

#include <string>

#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "proto/node_def.pb.h"
#include "runtime/framework/op_kernel_context.h"
#include "runtime/framework/resource_mgr.h"

namespace sluice {

// The sentinel value of an uninitialized variable of `dtype`: a tensor sharing one
// process-wide buffer per dtype. DT_INVALID for dtypes a Tensor cannot hold (variant...).
Tensor UninitializedRefTensor(DataType dtype);
// False exactly for tensors sharing the sentinel buffer of their dtype.
bool IsInitializedRef(const Tensor& tensor);

// The value of ref `ref` for input `index` of the node `node_def` whose kernel takes the
// input by value: a copy sharing the referenced buffer, read under the ref's mutex.
// FAILED_PRECONDITION "Attempting to use uninitialized value <node_def.input(index)>" with
// the node attached, when the variable was never assigned.
absl::Status ReadRefInput(const NodeDef& node_def, int index, const TensorValue& ref,
                          Tensor* value);

class Var;

// The Var whose tensor() is `ref`, or nullptr when `ref` is no Var's (a ref made by a test).
// The result is valid as long as `ref` is (it lives inside the Var).
Var* VarOfRef(const Tensor* ref);

class Var : public ResourceBase {
 public:
  // An uninitialized variable of `dtype` (not a ref type) whose shape is not declared.
  explicit Var(DataType dtype);
  // An uninitialized variable that VariableV2 declared with `declared_shape`; Assign with
  // validate_shape checks its first value against it.
  Var(DataType dtype, const PartialTensorShape& declared_shape);

  absl::Mutex* mu() { return &mu_; }
  // The current value; the sentinel while uninitialized. REQUIRES: mu() held for access.
  Tensor* tensor() { return &tensor_; }
  DataType dtype() const { return dtype_; }
  const PartialTensorShape& declared_shape() const { return declared_shape_; }

  // Replaces the value and marks the variable initialized. REQUIRES: mu() held and
  // value.dtype() == dtype().
  void SetValue(const Tensor& value);

  // "float/[2,3]" as TensorFlow prints a variable; reads under mu().
  std::string DebugString() const override;

  // Whether a value was ever assigned. Guarded by mu().
  bool is_initialized = false;

 private:
  ~Var() override;

  const DataType dtype_;
  const PartialTensorShape declared_shape_;
  mutable absl::Mutex mu_;
  Tensor tensor_;
};

}  // namespace sluice

#endif  // SLUICE_RUNTIME_FRAMEWORK_RESOURCE_VAR_H_
