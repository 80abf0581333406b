// KernelTest: a harness that builds the kernel of one NodeDef on a CPU device and runs it on
// given inputs, like TensorFlow's OpsTestBase. For tests of kernels only (testonly).
//
//   class MyOpTest : public KernelTest {};
//   TEST_F(MyOpTest, Adds) {
//     ASSERT_TRUE(InitOp(NodeDefBuilder("n", "MyOp").Input("a").Input("b")
//                            .Attr("T", DT_FLOAT).Build()).ok());
//     AddInputFromArray<float>(TensorShape({2}), {1, 2});
//     AddInputFromArray<float>(TensorShape({2}), {3, 4});
//     ASSERT_TRUE(RunOpKernel().ok());
//     EXPECT_EQ(Values<float>(*GetOutput(0)), (std::vector<float>{4, 6}));
//   }
//
// What it provides, per test:
//  - a CPU device ("/job:localhost/replica:0/task:0/device:CPU:0") over the default
//    allocator, with an Eigen ThreadPoolDevice of two threads;
//  - a ResourceMgr and a step container shared by every run (so a sequence of RunOpKernel
//    calls behaves like steps of one session, and per-step resources such as TensorArrays
//    outlive a run), an optional call frame, and a step id counting runs;
//  - the executor's treatment of ref inputs: a ref given to an input the kernel takes by
//    value is read through ReadRefInput (so an uninitialized variable fails as in
//    TensorFlow); a ref given to a ref input is passed as a ref.
//
// Several kernels may be driven from one test by calling InitOp again (inputs are cleared;
// resources persist). Outputs of a run stay valid until the next RunOpKernel or InitOp.
// Not thread-safe: one test thread drives it. Everything here is in namespace sluice::test;
// a test links //kernels:kernel_test_util, //graph/ops (the OpDefs) and its kernel library.
#ifndef SLUICE_KERNELS_KERNEL_TEST_UTIL_H_
#define SLUICE_KERNELS_KERNEL_TEST_UTIL_H_

#include <cstdint>
#include <deque>
#include <initializer_list>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/types/span.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "graph/op/node_def_util.h"
#include "gtest/gtest.h"
#include "proto/node_def.pb.h"
#include "runtime/framework/call_frame.h"
#include "runtime/framework/device_base.h"
#include "runtime/framework/op_kernel.h"
#include "runtime/framework/op_kernel_test_util.h"
#include "runtime/framework/resource_mgr.h"

namespace Eigen {
class ThreadPoolInterface;
struct ThreadPoolDevice;
}  // namespace Eigen

namespace sluice {
namespace test {

// Builds a NodeDef: NodeDefBuilder("n", "Op").Input("x").Input("y:1").ControlInput("c")
// .Attr("T", DT_FLOAT).Attr("shape", PartialTensorShape({-1, 3})).Build().
class NodeDefBuilder {
 public:
  NodeDefBuilder(const std::string& name, const std::string& op);
  NodeDefBuilder& Input(const std::string& input);
  NodeDefBuilder& ControlInput(const std::string& node);
  NodeDefBuilder& Device(const std::string& device);
  // Anything AddNodeAttr accepts (graph/op/node_def_util.h): DataType, shapes, strings, ints,
  // floats, bools, AttrValue, lists; and a Tensor (Const's value), stored in TensorFlow's
  // typed fields.
  template <typename T>
  NodeDefBuilder& Attr(const std::string& name, T&& value) {
    if constexpr (std::is_same_v<std::decay_t<T>, Tensor>) {
      TensorAttr(name, value);
    } else {
      AddNodeAttr(name, std::forward<T>(value), &node_);
    }
    return *this;
  }
  template <typename T>
  NodeDefBuilder& Attr(const std::string& name, std::initializer_list<T> value) {
    AddNodeAttr(name, value, &node_);
    return *this;
  }
  NodeDef Build() const { return node_; }

 private:
  void TensorAttr(const std::string& name, const Tensor& value);

  NodeDef node_;
};

// MakeTensor<T>(shape, values) and Values<T>(tensor) come from
// runtime/framework/op_kernel_test_util.h.

class KernelTest : public ::testing::Test {
 protected:
  KernelTest();
  ~KernelTest() override;

  // Builds the kernel for `node_def` (defaults added, validated) on the CPU device and
  // clears the inputs. Construction errors are returned with the node attached.
  absl::Status InitOp(const NodeDef& node_def);

  // Appends an input (the harness keeps its own copy, sharing the buffer).
  void AddInput(const Tensor& tensor);
  template <typename T>
  void AddInputFromArray(const TensorShape& shape, const std::vector<T>& values) {
    AddInput(MakeTensor<T>(shape, values));
  }
  // Appends a ref input: `tensor` guarded by `mu` (both owned by the caller; e.g. a Var's).
  void AddRefInput(absl::Mutex* mu, Tensor* tensor);
  // Appends a DT_RESOURCE scalar input holding a handle to container/name of type T.
  template <typename T>
  void AddResourceInput(const std::string& container, const std::string& name) {
    AddInput(Tensor(MakeHandle(container, name, ResourceTypeIndex::Make<T>())));
  }

  // Runs the kernel once on the inputs (a new step id each run) and returns its status.
  // Async kernels are run to completion.
  absl::Status RunOpKernel();

  // Output `index` of the last run: the tensor, or for a ref output the referenced tensor;
  // nullptr when the kernel did not set it.
  Tensor* GetOutput(int index);
  // Output `index` of the last run as the executor receives it (ref outputs keep their
  // mutex).
  TensorValue GetOutputValue(int index);

  OpKernel* kernel() { return kernel_.get(); }
  DeviceBase* device() { return device_.get(); }
  // Runs the kernels of later InitOp calls on a device whose allocators (device and host)
  // are `allocator` (not owned; it must outlive the kernel's outputs), e.g. a CpuAllocator
  // with a small limit, to test RESOURCE_EXHAUSTED. Clears the kernel and the inputs.
  void UseAllocator(Allocator* allocator);
  ResourceMgr* resource_manager() { return &resource_mgr_; }
  // Sets the call frame the next runs use (not owned; may be null).
  void set_call_frame(CallFrameInterface* frame) { call_frame_ = frame; }
  // A handle to container/name of type T on the harness's device.
  ResourceHandleProto MakeHandle(const std::string& container, const std::string& name,
                                 ResourceTypeIndex type) const;

 private:
  std::unique_ptr<Eigen::ThreadPoolInterface> thread_pool_;
  std::unique_ptr<Eigen::ThreadPoolDevice> eigen_device_;
  std::unique_ptr<DeviceBase> device_;
  ResourceMgr resource_mgr_;
  // One step container for every run (as the resource manager): a TensorArray made by one
  // run is there for the next.
  ScopedStepContainer step_container_{0, &resource_mgr_};
  CallFrameInterface* call_frame_ = nullptr;
  std::unique_ptr<OpKernel> kernel_;
  int64_t step_id_ = 0;

  // Inputs as given; a deque so that pointers into it stay valid as it grows.
  std::deque<Tensor> input_tensors_;
  std::vector<TensorValue> inputs_given_;
  // Per run: the values handed to the kernel (refs read by value where it takes values).
  std::deque<Tensor> dereferenced_;
  std::vector<TensorValue> inputs_;
  std::unique_ptr<OpKernelContext::Params> params_;
  std::unique_ptr<OpKernelContext> context_;
  std::vector<TensorValue> outputs_;
};

}  // namespace test
}  // namespace sluice

#endif  // SLUICE_KERNELS_KERNEL_TEST_UTIL_H_
