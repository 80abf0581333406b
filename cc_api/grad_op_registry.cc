#include "cc_api/grad_op_registry.h"

#include "absl/strings/str_cat.h"
#include "glog/logging.h"

namespace sluice {
namespace ops {

bool GradOpRegistry::Register(const std::string& op, GradFunc func) {
  CHECK(registry_.emplace(op, func).second) << "Existing gradient for " << op;
  return true;
}

absl::Status GradOpRegistry::Lookup(const std::string& op, GradFunc* func) const {
  auto it = registry_.find(op);
  if (it == registry_.end()) {
    // TensorFlow's words, pointing at where its C++ gradients are documented.
    return absl::NotFoundError(absl::StrCat(
        "No gradient defined for op: ", op,
        ". Please see https://www.tensorflow.org/code/tensorflow/cc/gradients/README.md for "
        "instructions on how to add C++ gradients."));
  }
  *func = it->second;
  return absl::OkStatus();
}

GradOpRegistry* GradOpRegistry::Global() {
  static auto* registry = new GradOpRegistry;
  return registry;
}

}  // namespace ops
}  // namespace sluice
