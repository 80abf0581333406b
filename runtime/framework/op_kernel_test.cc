#include "runtime/framework/op_kernel.h"

#include <memory>
#include <string>
#include <thread>

#include "gmock/gmock.h"
#include "graph/core/errors.h"
#include "graph/op/op_registry.h"
#include "gtest/gtest.h"
#include "runtime/framework/create_op_kernel.h"
#include "runtime/framework/op_kernel_test_util.h"

namespace sluice {
namespace {

using test::MakeNodeDef;
using test::MakeTensor;
using test::Values;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

REGISTER_OP("OpKernelTestScale")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {float, int32}")
    .Attr("scale: int = 2")
    .Attr("mode: string = 'plain'");

// y = x * scale. The constructor rejects a negative scale; Compute rejects an empty x, and
// `mode: "fail_ok"` makes it fail through OP_REQUIRES_OK.
template <typename T>
class ScaleOp : public OpKernel {
 public:
  explicit ScaleOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("scale", &scale_));
    OP_REQUIRES(ctx, scale_ >= 0, errors::InvalidArgument("scale must be >= 0, got ", scale_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("mode", &mode_));
    has_scale_ = ctx->HasAttr("scale");
    has_missing_ = ctx->HasAttr("missing");
    signature_ = ctx->MatchSignature({DataTypeToEnum<T>::value}, {DataTypeToEnum<T>::value});
    wrong_signature_ = ctx->MatchSignature({DT_BOOL}, {});
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    OP_REQUIRES(ctx, x.NumElements() > 0, errors::InvalidArgument("x must not be empty"));
    OP_REQUIRES_OK(ctx,
                   mode_ == "fail_ok" ? errors::Unavailable("asked to fail") : absl::OkStatus());
    Tensor* y = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, x.shape(), &y));
    for (int64_t i = 0; i < x.NumElements(); ++i) {
      y->base<T>()[i] = x.base<T>()[i] * static_cast<T>(scale_);
    }
    computed_ = true;
  }

  int64_t scale_ = 0;
  std::string mode_;
  bool has_scale_ = false;
  bool has_missing_ = true;
  absl::Status signature_;
  absl::Status wrong_signature_;
  bool computed_ = false;
};

REGISTER_KERNEL_BUILDER(Name("OpKernelTestScale").Device(DEVICE_CPU).TypeConstraint<float>("T"),
                        ScaleOp<float>);
REGISTER_KERNEL_BUILDER(Name("OpKernelTestScale").Device(DEVICE_CPU).TypeConstraint<int32_t>("T"),
                        ScaleOp<int32_t>);

REGISTER_OP("OpKernelTestAsync").Input("x: float").Output("y: float");

// Finishes on another thread: y = -x.
class NegateAsyncOp : public AsyncOpKernel {
 public:
  using AsyncOpKernel::AsyncOpKernel;

  void ComputeAsync(OpKernelContext* ctx, DoneCallback done) override {
    OP_REQUIRES_ASYNC(ctx, ctx->input(0).NumElements() > 0,
                      errors::InvalidArgument("x must not be empty"), done);
    std::thread([ctx, done]() {
      const Tensor& x = ctx->input(0);
      Tensor* y = nullptr;
      OP_REQUIRES_OK_ASYNC(ctx, ctx->allocate_output(0, x.shape(), &y), done);
      for (int64_t i = 0; i < x.NumElements(); ++i) y->base<float>()[i] = -x.base<float>()[i];
      done();
    }).detach();
  }
};

REGISTER_KERNEL_BUILDER(Name("OpKernelTestAsync").Device(DEVICE_CPU), NegateAsyncOp);
REGISTER_KERNEL_BUILDER(Name("OpKernelTestAsync").Device(DEVICE_GPU), NegateAsyncOp);

class OpKernelTest : public ::testing::Test {
 protected:
  std::unique_ptr<OpKernel> Create(const NodeDef& node, const DeviceType& type = DEVICE_CPU) {
    std::unique_ptr<OpKernel> kernel;
    status_ = CreateOpKernel(type, &device_, device_.GetAllocator(), node, &kernel);
    return kernel;
  }

  NodeDef ScaleNode(DataType t) {
    NodeDef node = MakeNodeDef("scale", "OpKernelTestScale", {"input:0"});
    node.set_device("/device:CPU:0");
    AddNodeAttr("T", t, &node);
    return node;
  }

  test::CpuTestDevice device_;
  absl::Status status_;
};

TEST_F(OpKernelTest, ConstructionReadsAttrsAndDefaults) {
  std::unique_ptr<OpKernel> kernel = Create(ScaleNode(DT_FLOAT));
  ASSERT_TRUE(status_.ok()) << status_;
  auto* op = dynamic_cast<ScaleOp<float>*>(kernel.get());
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->scale_, 2);
  EXPECT_EQ(op->mode_, "plain");
  EXPECT_TRUE(op->has_scale_);
  EXPECT_FALSE(op->has_missing_);
  EXPECT_TRUE(op->signature_.ok()) << op->signature_;
  EXPECT_EQ(op->wrong_signature_.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(op->wrong_signature_.message(),
            "Signature mismatch, have: [float]->[float] expected: [bool]->[]");
}

TEST_F(OpKernelTest, Accessors) {
  std::unique_ptr<OpKernel> kernel = Create(ScaleNode(DT_INT32));
  ASSERT_TRUE(status_.ok()) << status_;
  EXPECT_EQ(kernel->name(), "scale");
  EXPECT_EQ(kernel->type_string(), "OpKernelTestScale");
  EXPECT_EQ(kernel->requested_device(), "/device:CPU:0");
  EXPECT_EQ(kernel->def().attr().at("scale").i(), 2);  // defaults are in the kernel's def
  EXPECT_EQ(kernel->num_inputs(), 1);
  EXPECT_EQ(kernel->input_type(0), DT_INT32);
  EXPECT_EQ(kernel->num_outputs(), 1);
  EXPECT_EQ(kernel->output_type(0), DT_INT32);
  EXPECT_THAT(kernel->input_memory_types(), ElementsAre(DEVICE_MEMORY));
  EXPECT_THAT(kernel->output_memory_types(), ElementsAre(DEVICE_MEMORY));
  EXPECT_TRUE(kernel->IsExpensive());
  EXPECT_EQ(kernel->AsAsync(), nullptr);
  int start = -1, stop = -1;
  ASSERT_TRUE(kernel->InputRange("x", &start, &stop).ok());
  EXPECT_EQ(start, 0);
  EXPECT_EQ(stop, 1);
  ASSERT_TRUE(kernel->OutputRange("y", &start, &stop).ok());
  EXPECT_EQ(kernel->InputRange("nope", &start, &stop).message(), "Unknown input name: nope");
  EXPECT_EQ(kernel->OutputRange("x", &start, &stop).message(), "Unknown output name: x");
}

TEST_F(OpKernelTest, OpRequiresInConstructorFailsCreation) {
  NodeDef node = ScaleNode(DT_FLOAT);
  AddNodeAttr("scale", int64_t{-3}, &node);
  std::unique_ptr<OpKernel> kernel = Create(node);
  EXPECT_EQ(kernel, nullptr);
  EXPECT_EQ(status_.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status_.message(), HasSubstr("scale must be >= 0, got -3"));
  EXPECT_THAT(status_.message(), HasSubstr("{{node scale}}"));
}

TEST_F(OpKernelTest, ComputeWritesOutputs) {
  std::unique_ptr<OpKernel> kernel = Create(ScaleNode(DT_FLOAT));
  ASSERT_TRUE(status_.ok()) << status_;
  test::TestInvocation call(kernel.get(), &device_, {MakeTensor<float>({3}, {1, 2, 3})});
  ASSERT_TRUE(call.Compute().ok());
  EXPECT_THAT(Values<float>(*call.context()->mutable_output(0)), ElementsAre(2, 4, 6));
  EXPECT_TRUE(dynamic_cast<ScaleOp<float>*>(kernel.get())->computed_);
}

TEST_F(OpKernelTest, OpRequiresSetsStatusAndReturns) {
  std::unique_ptr<OpKernel> kernel = Create(ScaleNode(DT_FLOAT));
  ASSERT_TRUE(status_.ok()) << status_;
  test::TestInvocation call(kernel.get(), &device_, {MakeTensor<float>({0}, {})});
  absl::Status status = call.Compute();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "x must not be empty");
  EXPECT_EQ(call.context()->mutable_output(0), nullptr);
  EXPECT_FALSE(dynamic_cast<ScaleOp<float>*>(kernel.get())->computed_);
}

TEST_F(OpKernelTest, OpRequiresOkSetsStatusAndReturns) {
  NodeDef node = ScaleNode(DT_FLOAT);
  AddNodeAttr("mode", "fail_ok", &node);
  std::unique_ptr<OpKernel> kernel = Create(node);
  ASSERT_TRUE(status_.ok()) << status_;
  test::TestInvocation call(kernel.get(), &device_, {MakeTensor<float>({1}, {1})});
  absl::Status status = call.Compute();
  EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(call.context()->mutable_output(0), nullptr);
}

TEST_F(OpKernelTest, AsyncKernelComputeWaitsForDone) {
  std::unique_ptr<OpKernel> kernel = Create(MakeNodeDef("neg", "OpKernelTestAsync", {"x"}));
  ASSERT_TRUE(status_.ok()) << status_;
  ASSERT_NE(kernel->AsAsync(), nullptr);
  test::TestInvocation call(kernel.get(), &device_, {MakeTensor<float>({2}, {1, -5})});
  ASSERT_TRUE(call.Compute().ok());
  EXPECT_THAT(Values<float>(*call.context()->mutable_output(0)), ElementsAre(-1, 5));
}

TEST_F(OpKernelTest, AsyncKernelFailureRunsDone) {
  std::unique_ptr<OpKernel> kernel = Create(MakeNodeDef("neg", "OpKernelTestAsync", {"x"}));
  ASSERT_TRUE(status_.ok()) << status_;
  test::TestInvocation call(kernel.get(), &device_, {MakeTensor<float>({0}, {})});
  bool done = false;
  kernel->AsAsync()->ComputeAsync(call.context(), [&done]() { done = true; });
  EXPECT_TRUE(done);
  EXPECT_EQ(call.context()->status().message(), "x must not be empty");
}

TEST_F(OpKernelTest, GpuKernelsAreNotExpensive) {
  std::unique_ptr<OpKernel> kernel =
      Create(MakeNodeDef("neg", "OpKernelTestAsync", {"x"}), DEVICE_GPU);
  ASSERT_TRUE(status_.ok()) << status_;
  EXPECT_FALSE(kernel->IsExpensive());
}

}  // namespace
}  // namespace sluice
