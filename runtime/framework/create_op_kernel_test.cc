#include "runtime/framework/create_op_kernel.h"

#include <memory>

#include "gmock/gmock.h"
#include "graph/core/errors.h"
#include "graph/op/op_registry.h"
#include "gtest/gtest.h"
#include "runtime/framework/op_kernel.h"
#include "runtime/framework/op_kernel_test_util.h"

namespace sluice {
namespace {

using test::MakeNodeDef;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

REGISTER_OP("CreateTestReshape")
    .Input("tensor: T")
    .Input("shape: int32")
    .Output("output: T")
    .Attr("T: type")
    .Attr("keep: bool = true");

// Reads a bool attr with a default, and a "bad" attr only when present, to fail on a wrong
// type in the constructor.
class ReshapeLikeOp : public OpKernel {
 public:
  explicit ReshapeLikeOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("keep", &keep_));
    if (ctx->HasAttr("_probe")) {
      int64_t probe;
      OP_REQUIRES_OK(ctx, ctx->GetAttr("_probe", &probe));
    }
  }
  void Compute(OpKernelContext*) override {}

  bool keep_ = false;
};

REGISTER_KERNEL_BUILDER(Name("CreateTestReshape")
                            .Device(DEVICE_CPU)
                            .TypeConstraint("T", {DT_FLOAT, DT_DOUBLE})
                            .HostMemory("shape"),
                        ReshapeLikeOp);

class CreateOpKernelTest : public ::testing::Test {
 protected:
  absl::Status Create(const NodeDef& node) {
    return CreateOpKernel(DEVICE_CPU, &device_, device_.GetAllocator(), node, &kernel_);
  }
  NodeDef ReshapeNode(DataType t) {
    NodeDef node = MakeNodeDef("r", "CreateTestReshape", {"t", "s"});
    AddNodeAttr("T", t, &node);
    return node;
  }

  test::CpuTestDevice device_;
  std::unique_ptr<OpKernel> kernel_;
};

TEST_F(CreateOpKernelTest, BuildsTheKernel) {
  ASSERT_TRUE(Create(ReshapeNode(DT_DOUBLE)).ok());
  ASSERT_NE(kernel_, nullptr);
  EXPECT_TRUE(dynamic_cast<ReshapeLikeOp*>(kernel_.get())->keep_);
  EXPECT_THAT(kernel_->input_types(), ElementsAre(DT_DOUBLE, DT_INT32));
  EXPECT_THAT(kernel_->input_memory_types(), ElementsAre(DEVICE_MEMORY, HOST_MEMORY));
  EXPECT_THAT(kernel_->output_memory_types(), ElementsAre(DEVICE_MEMORY));
}

TEST_F(CreateOpKernelTest, UnknownOp) {
  absl::Status status = Create(MakeNodeDef("u", "CreateTestNoSuchOp"));
  EXPECT_EQ(status.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(status.message(), HasSubstr("CreateTestNoSuchOp"));
  EXPECT_THAT(status.message(), HasSubstr("{{node u}}"));
  EXPECT_EQ(kernel_, nullptr);
}

TEST_F(CreateOpKernelTest, InvalidNode) {
  NodeDef node = ReshapeNode(DT_FLOAT);
  node.mutable_input()->RemoveLast();
  absl::Status status = Create(node);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("{{node r}}"));
}

TEST_F(CreateOpKernelTest, NoMatchingKernel) {
  absl::Status status = Create(ReshapeNode(DT_INT8));
  EXPECT_EQ(status.code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(std::string(status.message()),
            "No registered 'CreateTestReshape' OpKernel for 'CPU' devices compatible with "
            "node {{node r}}\n"
            "\t (OpKernel was found, but attributes didn't match) Requested Attributes: "
            "T=DT_INT8, keep=true\n"
            "\t.  Registered:  device='CPU'; T in [DT_FLOAT, DT_DOUBLE]\n"
            "\n\t [[r]]");  // AttachDef names the node once
}

TEST_F(CreateOpKernelTest, ConstructorErrorNamesTheNode) {
  NodeDef node = ReshapeNode(DT_FLOAT);
  AddNodeAttr("_probe", "not an int", &node);
  absl::Status status = Create(node);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("_probe"));
  EXPECT_THAT(status.message(), HasSubstr("[[{{node r}}]]"));
  EXPECT_EQ(kernel_, nullptr);
}

TEST_F(CreateOpKernelTest, BadAttrValueFailsValidation) {
  NodeDef node = ReshapeNode(DT_FLOAT);
  AddNodeAttr("keep", int64_t{1}, &node);
  absl::Status status = Create(node);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("keep"));
  EXPECT_THAT(status.message(), HasSubstr("{{node r}}"));
}

}  // namespace
}  // namespace sluice
