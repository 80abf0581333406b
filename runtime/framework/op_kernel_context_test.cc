#include "runtime/framework/op_kernel_context.h"

#include <memory>
#include <vector>

#include "gmock/gmock.h"
#include "graph/core/errors.h"
#include "graph/core/tensor_types.h"
#include "graph/op/op_registry.h"
#include "gtest/gtest.h"
#include "runtime/framework/create_op_kernel.h"
#include "runtime/framework/op_kernel.h"
#include "runtime/framework/op_kernel_test_util.h"

namespace sluice {
namespace {

using test::MakeNodeDef;
using test::MakeTensor;
using test::Values;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// The tests drive the context directly; Compute does nothing.
class PassiveOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext*) override {}
};

REGISTER_OP("ContextTestUnary").Input("x: T").Output("y: T").Attr("T: type");
REGISTER_OP("ContextTestTwo")
    .Input("a: float")
    .Input("b: int32")
    .Output("sum: float")
    .Output("count: int32");
REGISTER_OP("ContextTestLists")
    .Input("first: float")
    .Input("values: N * T")
    .Output("outs: N * T")
    .Output("last: float")
    .Attr("N: int >= 1")
    .Attr("T: type");
REGISTER_OP("ContextTestHost")
    .Input("shape: int32")
    .Input("x: float")
    .Output("y: float")
    .Output("dims: int32")
    .Output("device_dims: int32");
REGISTER_OP("ContextTestRef").Input("ref: Ref(float)").Output("out: Ref(float)");
REGISTER_OP("ContextTestAllHost").Input("x: int32").Output("y: int32");

REGISTER_KERNEL_BUILDER(Name("ContextTestUnary").Device(DEVICE_CPU), PassiveOp);
REGISTER_KERNEL_BUILDER(Name("ContextTestTwo").Device(DEVICE_CPU), PassiveOp);
REGISTER_KERNEL_BUILDER(Name("ContextTestLists").Device(DEVICE_CPU), PassiveOp);
REGISTER_KERNEL_BUILDER(
    Name("ContextTestHost").Device(DEVICE_CPU).HostMemory("shape").HostMemory("dims"), PassiveOp);
REGISTER_KERNEL_BUILDER(Name("ContextTestRef").Device(DEVICE_CPU), PassiveOp);
REGISTER_KERNEL_BUILDER(
    Name("ContextTestAllHost").Device(DEVICE_CPU).HostMemory("x").HostMemory("y"), PassiveOp);

class OpKernelContextTest : public ::testing::Test {
 protected:
  void Create(const NodeDef& node) {
    absl::Status status =
        CreateOpKernel(DEVICE_CPU, device_.get(), device_->GetAllocator(), node, &kernel_);
    ASSERT_TRUE(status.ok()) << status;
  }
  void CreateUnary(DataType t) {
    NodeDef node = MakeNodeDef("unary", "ContextTestUnary", {"in"});
    AddNodeAttr("T", t, &node);
    Create(node);
  }
  void Start(std::vector<Tensor> inputs) {
    call_ = std::make_unique<test::TestInvocation>(kernel_.get(), device_.get(), std::move(inputs));
  }
  OpKernelContext* ctx() { return call_->context(); }

  // Declared first so that they outlive every tensor the tests allocate from them.
  CpuAllocator small_allocator_{1024};
  CpuAllocator device_allocator_;
  CpuAllocator host_allocator_;
  std::unique_ptr<test::CpuTestDevice> device_ = std::make_unique<test::CpuTestDevice>();
  std::unique_ptr<OpKernel> kernel_;
  std::unique_ptr<test::TestInvocation> call_;
};

TEST_F(OpKernelContextTest, InputsAndMetadata) {
  Create(MakeNodeDef("two", "ContextTestTwo", {"a", "b"}));
  Start({MakeTensor<float>({2}, {1, 2}), MakeTensor<int32_t>({}, {7})});
  EXPECT_EQ(ctx()->num_inputs(), 2);
  EXPECT_EQ(ctx()->num_outputs(), 2);
  EXPECT_EQ(ctx()->input_dtype(1), DT_INT32);
  EXPECT_FALSE(ctx()->input_is_ref(0));
  EXPECT_EQ(ctx()->expected_output_dtype(1), DT_INT32);
  EXPECT_EQ(ctx()->step_id(), 7);
  EXPECT_EQ(ctx()->device(), device_.get());
  EXPECT_EQ(&ctx()->op_kernel(), kernel_.get());
  EXPECT_THAT(Values<float>(ctx()->input(0)), ElementsAre(1, 2));
  const Tensor* b = nullptr;
  ASSERT_TRUE(ctx()->input("b", &b).ok());
  EXPECT_EQ(b, call_->input(1));
  EXPECT_EQ(ctx()->input("c", &b).message(), "Unknown input name: c");
}

TEST_F(OpKernelContextTest, AllocateOutputByIndexAndName) {
  Create(MakeNodeDef("two", "ContextTestTwo", {"a", "b"}));
  Start({MakeTensor<float>({2}, {1, 2}), MakeTensor<int32_t>({}, {7})});
  Tensor* sum = nullptr;
  ASSERT_TRUE(ctx()->allocate_output(0, TensorShape({2, 3}), &sum).ok());
  EXPECT_EQ(sum->dtype(), DT_FLOAT);
  EXPECT_EQ(sum->shape(), TensorShape({2, 3}));
  EXPECT_EQ(ctx()->mutable_output(0), sum);
  Tensor* count = nullptr;
  ASSERT_TRUE(ctx()->allocate_output("count", TensorShape({}), &count).ok());
  EXPECT_EQ(count->dtype(), DT_INT32);
  EXPECT_EQ(ctx()->allocate_output("bogus", TensorShape({}), &count).message(),
            "Unknown output name: bogus");
}

TEST_F(OpKernelContextTest, AllocateOutputMisuseIsInternal) {
  Create(MakeNodeDef("two", "ContextTestTwo", {"a", "b"}));
  Start({MakeTensor<float>({1}, {1}), MakeTensor<int32_t>({}, {7})});
  Tensor* out = nullptr;
  absl::Status status = ctx()->allocate_output(2, TensorShape({}), &out);
  EXPECT_EQ(status.code(), absl::StatusCode::kInternal);
  EXPECT_EQ(status.message(), "allocate_output with bad index=2 num_outputs=2 kernel=two");
  ASSERT_TRUE(ctx()->allocate_output(0, TensorShape({}), &out).ok());
  status = ctx()->allocate_output(0, TensorShape({}), &out);
  EXPECT_EQ(status.code(), absl::StatusCode::kInternal);
  EXPECT_THAT(status.message(), HasSubstr("allocate_output on same index multiple times"));
}

TEST_F(OpKernelContextTest, AllocationFailureIsResourceExhausted) {
  device_ = std::make_unique<test::CpuTestDevice>(&small_allocator_, &small_allocator_);
  CreateUnary(DT_FLOAT);
  Start({MakeTensor<float>({1}, {1})});
  Tensor* out = nullptr;
  absl::Status status = ctx()->allocate_output(0, TensorShape({1 << 20}), &out);
  EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(status.message(), HasSubstr("OOM when allocating tensor with shape[1048576]"));
  Tensor temp;
  EXPECT_EQ(ctx()->allocate_temp(DT_FLOAT, TensorShape({1 << 20}), &temp).code(),
            absl::StatusCode::kResourceExhausted);
}

TEST_F(OpKernelContextTest, ForwardsAnUnsharedInput) {
  CreateUnary(DT_FLOAT);
  Start({MakeTensor<float>({2, 2}, {1, 2, 3, 4})});
  const void* input_data = call_->input(0)->raw_data();
  Tensor* out = nullptr;
  int forwarded = -2;
  ASSERT_TRUE(
      ctx()->forward_input_or_allocate_output({0}, 0, TensorShape({4}), &out, &forwarded).ok());
  EXPECT_EQ(forwarded, 0);
  EXPECT_EQ(out->raw_data(), input_data);
  EXPECT_EQ(out->shape(), TensorShape({4}));
  EXPECT_THAT(Values<float>(*out), ElementsAre(1, 2, 3, 4));
}

TEST_F(OpKernelContextTest, DoesNotForwardASharedInput) {
  CreateUnary(DT_FLOAT);
  Tensor input = MakeTensor<float>({2}, {1, 2});
  Start({input});  // the test's copy keeps the buffer shared
  Tensor* out = nullptr;
  int forwarded = -2;
  ASSERT_TRUE(
      ctx()->forward_input_or_allocate_output({0}, 0, TensorShape({2}), &out, &forwarded).ok());
  EXPECT_EQ(forwarded, -1);
  EXPECT_FALSE(out->SharesBufferWith(input));
}

TEST_F(OpKernelContextTest, DoesNotForwardOnDtypeOrSizeMismatch) {
  Create(MakeNodeDef("two", "ContextTestTwo", {"a", "b"}));
  Start({MakeTensor<float>({2}, {1, 2}), MakeTensor<int32_t>({2}, {3, 4})});
  Tensor* out = nullptr;
  int forwarded = -2;
  // Input 1 is int32, output 0 float; input 0 has 2 elements, not 3.
  ASSERT_TRUE(
      ctx()->forward_input_or_allocate_output({1, 0}, 0, TensorShape({3}), &out, &forwarded).ok());
  EXPECT_EQ(forwarded, -1);
  EXPECT_FALSE(out->SharesBufferWith(*call_->input(0)));
  // Input 1 matches output 1.
  ASSERT_TRUE(
      ctx()
          ->forward_input_or_allocate_output({0, 1}, 1, TensorShape({1, 2}), &out, &forwarded)
          .ok());
  EXPECT_EQ(forwarded, 1);
  EXPECT_TRUE(out->SharesBufferWith(*call_->input(1)));
}

TEST_F(OpKernelContextTest, DoesNotForwardAcrossMemoryTypes) {
  Create(MakeNodeDef("host", "ContextTestHost", {"shape", "x"}));
  Start({MakeTensor<int32_t>({1}, {5}), MakeTensor<float>({1}, {1})});
  EXPECT_EQ(ctx()->input_memory_type(0), HOST_MEMORY);
  EXPECT_EQ(ctx()->output_memory_type(0), DEVICE_MEMORY);
  EXPECT_EQ(ctx()->output_memory_type(1), HOST_MEMORY);
  EXPECT_EQ(ctx()->output_memory_type(2), DEVICE_MEMORY);
  Tensor* out = nullptr;
  EXPECT_FALSE(ctx()->forward_input_to_output_with_shape(0, 2, TensorShape({1}), &out));
  EXPECT_TRUE(ctx()->forward_input_to_output_with_shape(0, 1, TensorShape({1}), &out));
  EXPECT_TRUE(out->SharesBufferWith(*call_->input(0)));
}

TEST_F(OpKernelContextTest, HostMemoryOutputsUseTheHostAllocator) {
  device_ = std::make_unique<test::CpuTestDevice>(&device_allocator_, &host_allocator_);
  Create(MakeNodeDef("host", "ContextTestHost", {"shape", "x"}));
  Start({MakeTensor<int32_t>({1}, {5}), MakeTensor<float>({1}, {1})});
  Tensor* out = nullptr;
  ASSERT_TRUE(ctx()->allocate_output(1, TensorShape({8}), &out).ok());
  EXPECT_EQ(host_allocator_.GetStats().num_allocs, 1);
  EXPECT_EQ(device_allocator_.GetStats().num_allocs, 0);
  ASSERT_TRUE(ctx()->allocate_output(0, TensorShape({8}), &out).ok());
  EXPECT_EQ(device_allocator_.GetStats().num_allocs, 1);
}

TEST_F(OpKernelContextTest, SetOutputSharesTheTensor) {
  CreateUnary(DT_INT32);
  Start({MakeTensor<int32_t>({1}, {1})});
  Tensor value = MakeTensor<int32_t>({3}, {4, 5, 6});
  ASSERT_TRUE(ctx()->set_output("y", value).ok());
  EXPECT_TRUE(ctx()->status().ok());
  EXPECT_TRUE(ctx()->mutable_output(0)->SharesBufferWith(value));
}

TEST_F(OpKernelContextTest, SetOutputWithWrongDtypeIsInternal) {
  CreateUnary(DT_FLOAT);
  Start({MakeTensor<float>({1}, {1})});
  ctx()->set_output(0, MakeTensor<int32_t>({1}, {1}));
  EXPECT_EQ(ctx()->status().code(), absl::StatusCode::kInternal);
  EXPECT_EQ(ctx()->status().message(),
            "Output 0 of type int32 does not match declared output type float for node "
            "{{node unary}}");
  EXPECT_EQ(ctx()->mutable_output(0), nullptr);
}

TEST_F(OpKernelContextTest, ListsByName) {
  NodeDef node = MakeNodeDef("lists", "ContextTestLists", {"f", "v0", "v1", "v2"});
  AddNodeAttr("N", int64_t{3}, &node);
  AddNodeAttr("T", DT_INT32, &node);
  Create(node);
  Start({MakeTensor<float>({}, {0.5}), MakeTensor<int32_t>({}, {10}), MakeTensor<int32_t>({}, {11}),
         MakeTensor<int32_t>({}, {12})});

  OpInputList values;
  ASSERT_TRUE(ctx()->input_list("values", &values).ok());
  ASSERT_EQ(values.size(), 3);
  EXPECT_EQ(values[0].scalar<int32_t>()(), 10);
  EXPECT_EQ(values[2].scalar<int32_t>()(), 12);
  const Tensor* single = nullptr;
  EXPECT_EQ(ctx()->input("values", &single).message(),
            "OpKernel used list-valued input name 'values' when single-valued input was "
            "expected");
  ASSERT_TRUE(ctx()->input("first", &single).ok());
  EXPECT_EQ(single->scalar<float>()(), 0.5f);

  OpOutputList outs;
  ASSERT_TRUE(ctx()->output_list("outs", &outs).ok());
  ASSERT_EQ(outs.size(), 3);
  EXPECT_EQ(outs.expected_output_dtype(1), DT_INT32);
  Tensor* out = nullptr;
  ASSERT_TRUE(outs.allocate(0, TensorShape({2}), &out).ok());
  EXPECT_EQ(outs[0], out);
  EXPECT_EQ(ctx()->mutable_output(0), out);
  outs.set(2, values[1]);
  EXPECT_TRUE(ctx()->mutable_output(2)->SharesBufferWith(values[1]));
  EXPECT_EQ(outs[1], nullptr);
  EXPECT_EQ(ctx()->allocate_output("outs", TensorShape({}), &out).message(),
            "OpKernel used list-valued output name 'outs' when single-valued output was "
            "expected");
  ASSERT_TRUE(ctx()->allocate_output("last", TensorShape({}), &out).ok());
  EXPECT_EQ(ctx()->mutable_output(3), out);
}

TEST_F(OpKernelContextTest, RefInputsAndOutputs) {
  Create(MakeNodeDef("ref", "ContextTestRef", {"var"}));
  Tensor variable = MakeTensor<float>({2}, {1, 2});
  absl::Mutex mu;
  std::vector<TensorValue> inputs = {TensorValue(&mu, &variable)};
  OpKernelContext::Params params;
  params.op_kernel = kernel_.get();
  params.device = device_.get();
  params.inputs = inputs;
  OpKernelContext context(&params);
  EXPECT_TRUE(context.input_is_ref(0));
  EXPECT_EQ(context.input_dtype(0), DT_FLOAT_REF);
  EXPECT_EQ(context.input_ref_mutex(0), &mu);
  EXPECT_TRUE(context.mutable_input(0, false).SharesBufferWith(variable));
  const Tensor* by_name = nullptr;
  EXPECT_EQ(context.input("ref", &by_name).message(),
            "OpKernel used ref input name 'ref' when non-ref input was expected");
  Tensor* out = nullptr;
  EXPECT_EQ(context.allocate_output(0, TensorShape({}), &out).code(), absl::StatusCode::kInternal);
  context.forward_ref_input_to_ref_output(0, 0);
  TensorValue released = context.release_output(0);
  EXPECT_TRUE(released.is_ref());
  EXPECT_EQ(released.tensor, &variable);
  EXPECT_EQ(released.mutex_if_ref, &mu);
  EXPECT_EQ(context.mutable_output(0), nullptr);
}

TEST_F(OpKernelContextTest, ReleaseOutputHandsOverTheTensor) {
  CreateUnary(DT_FLOAT);
  Start({MakeTensor<float>({1}, {1})});
  Tensor* out = nullptr;
  ASSERT_TRUE(ctx()->allocate_output(0, TensorShape({2}), &out).ok());
  TensorValue value = ctx()->release_output(0);
  EXPECT_FALSE(value.is_ref());
  EXPECT_EQ(value.tensor, out);
  Tensor moved = std::move(*value.tensor);
  EXPECT_EQ(moved.NumElements(), 2);
  EXPECT_EQ(ctx()->mutable_output(0), nullptr);
}

TEST_F(OpKernelContextTest, StatusKeepsTheFirstError) {
  CreateUnary(DT_FLOAT);
  Start({MakeTensor<float>({1}, {1})});
  ctx()->CtxFailure(__FILE__, __LINE__, errors::InvalidArgument("first"));
  ctx()->CtxFailureWithWarning(errors::Internal("second"));
  EXPECT_EQ(ctx()->status().message(), "first");
}

TEST_F(OpKernelContextTest, AllocateTemp) {
  CreateUnary(DT_FLOAT);
  Start({MakeTensor<float>({1}, {1})});
  Tensor temp;
  ASSERT_TRUE(ctx()->allocate_temp(DT_DOUBLE, TensorShape({3}), &temp).ok());
  EXPECT_EQ(temp.dtype(), DT_DOUBLE);
  EXPECT_EQ(temp.NumElements(), 3);
}

// A kernel with every argument in host memory is host code (CPU code registered for a GPU
// with HostMemory everywhere): its temps come from the host allocator; any other kernel's
// from the device's (op_kernel_context.cc, allocate_temp).
TEST_F(OpKernelContextTest, TempsOfAllHostMemoryKernelsAreHostMemory) {
  device_ = std::make_unique<test::CpuTestDevice>(&device_allocator_, &host_allocator_);
  Create(MakeNodeDef("all_host", "ContextTestAllHost", {"x"}));
  Start({MakeTensor<int32_t>({1}, {5})});
  Tensor temp;
  ASSERT_TRUE(ctx()->allocate_temp(DT_INT32, TensorShape({4}), &temp).ok());
  EXPECT_EQ(host_allocator_.GetStats().num_allocs, 1);
  EXPECT_EQ(device_allocator_.GetStats().num_allocs, 0);
  call_.reset();
  Create(MakeNodeDef("host", "ContextTestHost", {"shape", "x"}));
  Start({MakeTensor<int32_t>({1}, {5}), MakeTensor<float>({1}, {1})});
  ASSERT_TRUE(ctx()->allocate_temp(DT_FLOAT, TensorShape({4}), &temp).ok());
  EXPECT_EQ(device_allocator_.GetStats().num_allocs, 1);
}

}  // namespace
}  // namespace sluice
