// KernelTest: builds one kernel on a CPU test device and runs it the way the executor does.
#include "kernels/kernel_test_util.h"

#include <functional>
#include <utility>

#include "graph/core/allocator.h"
#include "graph/core/errors.h"
#include "graph/core/tensor_proto.h"
#include "graph/core/tensor_types.h"
#include "numerics/float_environment.h"
#include "runtime/framework/create_op_kernel.h"
#include "runtime/framework/resource_var.h"
#include "unsupported/Eigen/CXX11/Tensor"
#include "unsupported/Eigen/CXX11/ThreadPool"

namespace sluice {
namespace test {

NodeDefBuilder::NodeDefBuilder(const std::string& name, const std::string& op) {
  node_.set_name(name);
  node_.set_op(op);
}

NodeDefBuilder& NodeDefBuilder::Input(const std::string& input) {
  node_.add_input(input);
  return *this;
}

NodeDefBuilder& NodeDefBuilder::ControlInput(const std::string& node) {
  node_.add_input("^" + node);
  return *this;
}

NodeDefBuilder& NodeDefBuilder::Device(const std::string& device) {
  node_.set_device(device);
  return *this;
}

void NodeDefBuilder::TensorAttr(const std::string& name, const Tensor& value) {
  TensorProto proto;
  TensorToProtoField(value, &proto);
  AddNodeAttr(name, proto, &node_);
}

namespace {

// Eigen's standard threads, each in the kernels' floating-point mode for its whole life, as a
// session's pool threads are (numerics/float_environment.h).
struct FlushingThreadEnvironment : Eigen::StlThreadEnvironment {
  EnvThread* CreateThread(std::function<void()> f) {
    return new EnvThread([f = std::move(f)] {
      const numerics::ScopedFlushDenormals flush;
      f();
    });
  }
};

}  // namespace

KernelTest::KernelTest()
    : thread_pool_(std::make_unique<Eigen::ThreadPoolTempl<FlushingThreadEnvironment>>(2)),
      eigen_device_(std::make_unique<Eigen::ThreadPoolDevice>(thread_pool_.get(), 2)),
      device_(std::make_unique<CpuTestDevice>()) {
  device_->set_eigen_cpu_device(eigen_device_.get());
}

KernelTest::~KernelTest() {
  // The context refers to the kernel and the device: release it first.
  context_.reset();
  kernel_.reset();
}

void KernelTest::UseAllocator(Allocator* allocator) {
  context_.reset();
  outputs_.clear();
  input_tensors_.clear();
  inputs_given_.clear();
  kernel_.reset();
  device_ = std::make_unique<CpuTestDevice>(allocator, allocator);
  device_->set_eigen_cpu_device(eigen_device_.get());
}

absl::Status KernelTest::InitOp(const NodeDef& node_def) {
  context_.reset();
  outputs_.clear();
  input_tensors_.clear();
  inputs_given_.clear();
  kernel_.reset();
  return CreateOpKernel(DEVICE_CPU, device_.get(), DefaultCpuAllocator(), node_def, &kernel_);
}

void KernelTest::AddInput(const Tensor& tensor) {
  input_tensors_.push_back(tensor);
  inputs_given_.emplace_back(&input_tensors_.back());
}

void KernelTest::AddRefInput(absl::Mutex* mu, Tensor* tensor) {
  inputs_given_.emplace_back(mu, tensor);
}

ResourceHandleProto KernelTest::MakeHandle(const std::string& container, const std::string& name,
                                           ResourceTypeIndex type) const {
  ResourceHandleProto handle;
  handle.set_device(device_->name());
  handle.set_container(container);
  handle.set_name(name);
  handle.set_hash_code(type.hash_code);
  handle.set_maybe_type_name(type.name);
  return handle;
}

absl::Status KernelTest::RunOpKernel() {
  if (kernel_ == nullptr) return errors::FailedPrecondition("InitOp has not succeeded");
  context_.reset();
  outputs_.clear();
  if (static_cast<int>(inputs_given_.size()) != kernel_->num_inputs()) {
    return errors::InvalidArgument(kernel_->name(), " takes ", kernel_->num_inputs(),
                                   " inputs; the test gave ", inputs_given_.size());
  }
  // As the executor does: a ref feeding an input taken by value is read (and must be
  // initialized); a ref input must be given a ref.
  dereferenced_.clear();
  inputs_.clear();
  for (int i = 0; i < kernel_->num_inputs(); ++i) {
    const TensorValue& given = inputs_given_[i];
    const bool wants_ref = IsRefType(kernel_->input_type(i));
    if (wants_ref && !given.is_ref()) {
      return errors::InvalidArgument("Input ", i, " of ", kernel_->name(),
                                     " is a ref input; use AddRefInput");
    }
    if (given.is_ref() && !wants_ref) {
      dereferenced_.emplace_back();
      RETURN_IF_ERROR(ReadRefInput(kernel_->def(), i, given, &dereferenced_.back()));
      inputs_.emplace_back(&dereferenced_.back());
    } else {
      inputs_.push_back(given);
    }
  }
  params_ = std::make_unique<OpKernelContext::Params>();
  params_->step_id = ++step_id_;
  params_->op_kernel = kernel_.get();
  params_->device = device_.get();
  params_->inputs = inputs_;
  params_->resource_manager = &resource_mgr_;
  params_->step_container = &step_container_;
  params_->call_frame = call_frame_;
  context_ = std::make_unique<OpKernelContext>(params_.get());
  {
    // The mode a session's kernels run in (TensorFlow's: subnormals flushed).
    const numerics::ScopedFlushDenormals flush;
    kernel_->Compute(context_.get());
  }
  for (int i = 0; i < context_->num_outputs(); ++i) {
    outputs_.push_back(context_->release_output(i));
  }
  return context_->status();
}

Tensor* KernelTest::GetOutput(int index) {
  if (index < 0 || index >= static_cast<int>(outputs_.size())) return nullptr;
  return outputs_[index].tensor;
}

TensorValue KernelTest::GetOutputValue(int index) {
  if (index < 0 || index >= static_cast<int>(outputs_.size())) return TensorValue();
  return outputs_[index];
}

}  // namespace test
}  // namespace sluice
