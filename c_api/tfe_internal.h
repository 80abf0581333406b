// What the eager C API's opaque handles are (tensorflow/c/eager/c_api.h), for its
// implementation files (tfe_*.cc) and their tests.
//
// How eager operations run: a TFE_Context owns one Sluice session. The first time an operation
// of a given signature (type, device, attrs, input dtypes) runs, the context adds to the
// session's graph a node for it with one Placeholder per input, and makes a callable that
// feeds the placeholders and fetches the node's outputs (PreparedOp). Later operations of the
// same signature run that callable again. So eager operations share the session's devices and
// resources (a VarHandleOp's variable is there for the next AssignVariableOp), functions added
// to the context go into the session's library, and a kernel is built once per signature, as
// TensorFlow's eager kernel cache does.
//
// Ownership: contexts, options, handles and ops belong to the caller. A handle holds a
// sluice::Tensor (sharing its buffer), independent of any context. An op keeps copies of its
// input handles, so the caller may delete theirs at once.
//
// Thread safety: a context may be used from several threads; its mutex guards the graph it
// grows and the caches. A TFE_Op or TFE_TensorHandle is used by one thread at a time.
#ifndef SLUICE_C_API_TFE_INTERNAL_H_
#define SLUICE_C_API_TFE_INTERNAL_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "graph/core/tensor.h"
#include "proto/config.pb.h"
#include "proto/device_attributes.pb.h"
#include "proto/function.pb.h"
#include "proto/node_def.pb.h"
#include "proto/op_def.pb.h"
#include "runtime/device/session_options.h"
#include "runtime/session/session.h"
#include "tensorflow/c/eager/c_api.h"

struct TFE_ContextOptions {
  sluice::SessionOptions session_options;
  bool async = false;
  TFE_ContextDevicePlacementPolicy policy = TFE_DEVICE_PLACEMENT_SILENT;
};

struct TFE_TensorHandle {
  sluice::Tensor tensor;
  // The full name of the device that produced the tensor. Its bytes are always in host memory
  // (TFE_TensorHandleBackingDeviceName names the host CPU).
  std::string device;
};

struct TFE_TensorDebugInfo {
  std::vector<int64_t> dims;
};

namespace sluice {
namespace eager {

// An operation signature made runnable in the context's session.
struct PreparedOp {
  Session::CallableHandle callable = 0;
  // The device the node was placed on (full name), which output handles report.
  std::string device;
  int num_outputs = 0;
};

}  // namespace eager
}  // namespace sluice

struct TFE_Context {
  std::unique_ptr<sluice::Session> session;
  std::vector<sluice::DeviceAttributes> devices;
  // The full name of the host CPU device.
  std::string host_device;
  TFE_ContextDevicePlacementPolicy default_policy = TFE_DEVICE_PLACEMENT_SILENT;

  absl::Mutex mu;
  // Prepared operations by signature (see PrepareKey in tfe_execute.cc).
  absl::flat_hash_map<std::string, sluice::eager::PreparedOp> prepared ABSL_GUARDED_BY(mu);
  // Numbers the nodes added to the session's graph, which keeps their names unique.
  int64_t next_node ABSL_GUARDED_BY(mu) = 0;
  // The functions of the context by name, and those the session's library holds (which it
  // cannot forget: a function removed from the context stays there, and one added again under
  // its name must be the same).
  std::map<std::string, sluice::FunctionDef> functions ABSL_GUARDED_BY(mu);
  std::map<std::string, std::string> functions_in_session ABSL_GUARDED_BY(mu);
  // Placement policies set for single threads.
  absl::flat_hash_map<std::thread::id, TFE_ContextDevicePlacementPolicy> thread_policies
      ABSL_GUARDED_BY(mu);
  // Step stats are collected into `metadata` while run_metadata is set.
  bool run_metadata ABSL_GUARDED_BY(mu) = false;
  sluice::RunMetadata metadata ABSL_GUARDED_BY(mu);
  int step_depth ABSL_GUARDED_BY(mu) = 0;
};

struct TFE_Op {
  TFE_Context* ctx = nullptr;
  // The op or function name; `node` holds it as its op, with the attrs and requested device.
  std::string type;
  // The op's OpDef, or the function's signature.
  sluice::OpDef op_def;
  bool is_function = false;
  sluice::NodeDef node;
  std::vector<std::unique_ptr<TFE_TensorHandle>> inputs;
  // The input argument the next AddInput(List) fills.
  int next_input_arg = 0;
  // The first error an input setter met, returned by TFE_Execute.
  absl::Status status;
};

namespace sluice {
namespace eager {

// A new handle for `tensor` produced on `device`.
TFE_TensorHandle* NewHandle(Tensor tensor, std::string device);

// The device of `ctx` that `spec` (a device name, possibly partial) names: the first that
// matches, as a full name. INVALID_ARGUMENT, in TensorFlow's words, when none does.
absl::Status ResolveDevice(const TFE_Context& ctx, const std::string& spec, std::string* device);

// The function of `ctx` named `name`, copied into *def; false if it has none.
bool FindFunction(TFE_Context* ctx, const std::string& name, FunctionDef* def);

}  // namespace eager
}  // namespace sluice

#endif  // SLUICE_C_API_TFE_INTERNAL_H_
