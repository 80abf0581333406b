// The gradient functions of ops, by op type (TensorFlow's tensorflow/cc/framework/
// grad_op_registry.h): what AddSymbolicGradients calls to differentiate each op it meets.
//
// A gradient function gets the op and the gradients flowing into its outputs (`grad_inputs`,
// one per output) and appends to `grad_outputs` one gradient per input of the op, in input
// order, built with `scope`; NoGradient() where an input has none. Registered once per op type,
// at static-initialization time:
//
//   absl::Status MyOpGrad(const Scope& scope, const Operation& op,
//                         const std::vector<Output>& grad_inputs,
//                         std::vector<Output>* grad_outputs);
//   REGISTER_GRADIENT_OP("MyOp", MyOpGrad);
//   REGISTER_NO_GRADIENT_OP("MyIndexOp");  // no gradient flows through it
//
// Registering the same op twice is a programming error (the process aborts at start-up).
// Sluice's own gradient functions are in cc_api/gradients/; a client's register the same way.
#ifndef SLUICE_CC_API_GRAD_OP_REGISTRY_H_
#define SLUICE_CC_API_GRAD_OP_REGISTRY_H_

#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "cc_api/ops.h"
#include "cc_api/scope.h"

namespace sluice {
namespace ops {

using GradFunc = absl::Status (*)(const Scope& scope, const Operation& op,
                                  const std::vector<Output>& grad_inputs,
                                  std::vector<Output>* grad_outputs);

class GradOpRegistry {
 public:
  // Registers `func` (null: the op has no gradient) for `op`; always returns true, so that a
  // registration can initialize a static. A second registration of `op` aborts.
  bool Register(const std::string& op, GradFunc func);

  // Sets `*func` to the gradient function of `op` (null for an op registered as having no
  // gradient). NOT_FOUND when nothing is registered for `op`.
  absl::Status Lookup(const std::string& op, GradFunc* func) const;

  static GradOpRegistry* Global();

 private:
  absl::flat_hash_map<std::string, GradFunc> registry_;
};

}  // namespace ops
}  // namespace sluice

#define REGISTER_GRADIENT_OP(name, fn) \
  SLUICE_REGISTER_GRADIENT_OP_UNIQ_HELPER(__COUNTER__, name, fn)
#define REGISTER_NO_GRADIENT_OP(name) \
  SLUICE_REGISTER_GRADIENT_OP_UNIQ_HELPER(__COUNTER__, name, nullptr)
#define SLUICE_REGISTER_GRADIENT_OP_UNIQ_HELPER(ctr, name, fn) \
  SLUICE_REGISTER_GRADIENT_OP_UNIQ(ctr, name, fn)
#define SLUICE_REGISTER_GRADIENT_OP_UNIQ(ctr, name, fn)                 \
  [[maybe_unused]] static const bool sluice_gradient_registered_##ctr = \
      ::sluice::ops::GradOpRegistry::Global()->Register(name, fn)

#endif  // SLUICE_CC_API_GRAD_OP_REGISTRY_H_
