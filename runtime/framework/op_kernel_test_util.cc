// Test helpers for the kernel API.
#include "runtime/framework/op_kernel_test_util.h"

namespace sluice {
namespace test {

NodeDef MakeNodeDef(const std::string& name, const std::string& op,
                    const std::vector<std::string>& inputs) {
  NodeDef node;
  node.set_name(name);
  node.set_op(op);
  for (const std::string& input : inputs) node.add_input(input);
  return node;
}

TestInvocation::TestInvocation(OpKernel* kernel, DeviceBase* device, std::vector<Tensor> inputs)
    : inputs_(std::move(inputs)) {
  values_.reserve(inputs_.size());
  for (Tensor& tensor : inputs_) values_.emplace_back(&tensor);
  params_.op_kernel = kernel;
  params_.device = device;
  params_.step_id = 7;
  params_.inputs = values_;
  context_ = std::make_unique<OpKernelContext>(&params_);
}

absl::Status TestInvocation::Compute() {
  params_.op_kernel->Compute(context_.get());
  return context_->status();
}

}  // namespace test
}  // namespace sluice
