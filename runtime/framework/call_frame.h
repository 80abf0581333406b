// CallFrameInterface: the feeds and fetches of one step or function call.
//
// The executor hands a call frame to every kernel of a step (OpKernelContext::call_frame);
// `_Arg` kernels read argument `index` from it and `_Retval` kernels store result `index`
// into it (TensorFlow's convention for feeds and fetches after pruning, passes/prune.h).
//
// FunctionCallFrame is the plain implementation: the caller declares the argument and
// result dtypes, supplies the arguments up front (SetArgs), runs the step and then takes
// the results (ConsumeRetvals).
//
// Errors (TensorFlow's codes and wording):
//  - GetArg/SetRetval with an index out of range: INVALID_ARGUMENT;
//  - SetRetval with a dtype other than the declared one: INVALID_ARGUMENT; a second time
//    for the same index: INTERNAL "Retval[i] has already been set." (an executor bug, not
//    a user error, hence TensorFlow's INTERNAL);
//  - SetArgs with the wrong count or a wrong dtype: INVALID_ARGUMENT;
//  - ConsumeRetvals when a result was never set (a dead fetch, as the untaken side of a
//    Switch): INVALID_ARGUMENT "Retval[i] does not have value", TensorFlow's code for it.
//
// Ownership: the frame owns copies of its arguments and results (sharing their buffers).
// GetArg's pointer stays valid until SetArgs is called again or the frame is destroyed.
// Thread safety: GetArg is safe from any thread once SetArgs has returned; SetRetval is
// safe from several threads at once (kernels of one step run concurrently). SetArgs and
// ConsumeRetvals must not overlap with any other call.
#ifndef SLUICE_RUNTIME_FRAMEWORK_CALL_FRAME_H_
#define SLUICE_RUNTIME_FRAMEWORK_CALL_FRAME_H_

#include <cstddef>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"

namespace sluice {

class CallFrameInterface {
 public:
  virtual ~CallFrameInterface() = default;

  virtual size_t num_args() const = 0;
  virtual size_t num_retvals() const = 0;

  // Points *value at argument `index`. INVALID_ARGUMENT if `index` is out of range.
  virtual absl::Status GetArg(int index, const Tensor** value) const = 0;
  // Stores result `index` (sharing the buffer of `value`). INVALID_ARGUMENT when `index`
  // is out of range or the dtype is not the declared one; INTERNAL when already set.
  virtual absl::Status SetRetval(int index, const Tensor& value) = 0;
};

class FunctionCallFrame : public CallFrameInterface {
 public:
  FunctionCallFrame(DataTypeSlice arg_types, DataTypeSlice ret_types);
  ~FunctionCallFrame() override;

  FunctionCallFrame(const FunctionCallFrame&) = delete;
  FunctionCallFrame& operator=(const FunctionCallFrame&) = delete;

  // Replaces the arguments. INVALID_ARGUMENT when their count or a dtype differs from the
  // declared arg_types.
  absl::Status SetArgs(std::vector<Tensor> args);
  // Moves every result into *retvals (the frame's results are cleared). INTERNAL
  // "Retval[i] does not have value" when result i was never set; *retvals is then cleared.
  absl::Status ConsumeRetvals(std::vector<Tensor>* retvals);

  size_t num_args() const override { return arg_types_.size(); }
  size_t num_retvals() const override { return ret_types_.size(); }
  absl::Status GetArg(int index, const Tensor** value) const override;
  absl::Status SetRetval(int index, const Tensor& value) override;

 private:
  struct Retval {
    Tensor value;
    bool has_value = false;
  };

  // Constant after construction.
  const DataTypeVector arg_types_;
  const DataTypeVector ret_types_;

  // Written only by SetArgs, which does not overlap with GetArg.
  std::vector<Tensor> args_;

  // SetRetval calls for distinct indices may run concurrently; the mutex also turns a
  // racing second SetRetval of the same index into a clean error.
  absl::Mutex mu_;
  std::vector<Retval> retvals_ ABSL_GUARDED_BY(mu_);
};

}  // namespace sluice

#endif  // SLUICE_RUNTIME_FRAMEWORK_CALL_FRAME_H_
