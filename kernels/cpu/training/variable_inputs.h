// VariableInputs: the variables a training or scatter kernel updates, taken from its leading
// inputs (all ref inputs, Apply*/Scatter*, or all DT_RESOURCE handles, ResourceApply*/
// ResourceScatter*), locked and ready to be written in place.
//
// What the constructor does, in TensorFlow's order:
//  1. resource inputs: looks each Var up through its handle. A failed lookup is the error
//     TensorFlow's training ops give ("Invalid variable reference.", INTERNAL) or, for the
//     scatter and gather ops (LookupErrors::kAsIs), the lookup's own NOT_FOUND;
//  2. locks the variables' mutexes, each distinct one once and in address order (two kernels
//     updating the same variables cannot deadlock): always for resource variables, for refs
//     only with use_locking (TensorFlow's "Hogwild" updates of ref variables without it);
//  3. checks each variable: initialized (FAILED_PRECONDITION "Attempting to use
//     uninitialized value <input>", TensorFlow's text) and of the kernel's dtype;
//  4. copy-on-write for resource variables: ReadVariableOp hands out the Var's own buffer, so
//     a variable whose buffer anyone else holds gets a private copy first; readers never see
//     a value change after they read it. Ref variables are updated in place, as in TF1 (a
//     reader of a ref shares its buffer).
// The locks are held until the object is destroyed, so the kernel does all its reading and
// writing in its scope.
//
// Thread safety: one object serves one Compute call on one thread.
#ifndef SLUICE_KERNELS_CPU_TRAINING_VARIABLE_INPUTS_H_
#define SLUICE_KERNELS_CPU_TRAINING_VARIABLE_INPUTS_H_

#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "runtime/framework/op_kernel.h"
#include "runtime/framework/resource_var.h"

namespace sluice {

// How a kernel reports a resource variable it cannot use, as TensorFlow's kernels of its kind.
enum class LookupErrors {
  // Training ops: INTERNAL "Invalid variable reference." for a failed lookup.
  kInvalidReference,
  // Scatter ops: the lookup's own status (NOT_FOUND), and INVALID_ARGUMENT "DType of scatter
  // resource and updates does not match." before the initialization check.
  kAsIs,
};

class VariableInputs {
 public:
  // The most variables one op updates (CenteredRMSProp, AdamWithAmsgrad).
  static constexpr int kMaxVariables = 4;

  // Inputs [0, count) of `ctx` are the variables, of dtype `dtype`. REQUIRES: count <=
  // kMaxVariables. Check status() before anything else.
  VariableInputs(OpKernelContext* ctx, int count, DataType dtype, bool use_locking,
                 LookupErrors lookup_errors);
  ~VariableInputs();
  VariableInputs(const VariableInputs&) = delete;
  VariableInputs& operator=(const VariableInputs&) = delete;

  const absl::Status& status() const { return status_; }
  int count() const { return count_; }
  // Variable i's value: a view sharing its buffer, which the kernel may write.
  Tensor& tensor(int i) { return tensors_[i]; }
  const Tensor& tensor(int i) const { return tensors_[i]; }
  // For the ref forms: output 0 becomes the ref of input 0, as TensorFlow's kernels forward
  // it after a successful update. A no-op for resource inputs.
  void ForwardRef();

 private:
  absl::Status Init(DataType dtype, bool use_locking, LookupErrors lookup_errors);

  OpKernelContext* ctx_;
  int count_;
  bool resource_ = false;
  absl::Status status_;
  Var* vars_[kMaxVariables] = {};
  absl::Mutex* locked_[kMaxVariables] = {};
  int num_locked_ = 0;
  Tensor tensors_[kMaxVariables];
};

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_TRAINING_VARIABLE_INPUTS_H_
