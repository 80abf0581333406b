#include "runtime/session/host_constant_evaluator.h"

#include <atomic>
#include <string>
#include <utility>
#include <vector>

#include "graph/algorithm.h"
#include "graph/core/errors.h"
#include "graph/core/tensor_proto.h"
#include "graph/core/tensor_types.h"
#include "graph/graph.h"
#include "graph/import/graph_testutil.h"
#include "graph/op/node_def_util.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"
#include "gtest/gtest.h"
#include "passes/constant_folding.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// Test-only ops and CPU kernels (real CPU kernels arrive with the kernel library).
REGISTER_OP("HceTestAdd")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr("T: {float, int32}")
    .SetShapeFn(shape_inference::UnchangedShape);
REGISTER_OP("HceTestSplit2")
    .Input("x: float")
    .Output("lo: float")
    .Output("hi: float")
    .SetShapeFn(shape_inference::UnknownShape);
REGISTER_OP("HceTestFail")
    .Input("x: float")
    .Output("y: float")
    .SetShapeFn(shape_inference::UnchangedShape);
REGISTER_OP("HceTestBadCtor")
    .Input("x: float")
    .Output("y: float")
    .SetShapeFn(shape_inference::UnchangedShape);
REGISTER_OP("HceTestNoOutput")
    .Input("x: float")
    .Output("y: float")
    .SetShapeFn(shape_inference::UnchangedShape);
REGISTER_OP("HceTestNoKernel")
    .Input("x: float")
    .Output("y: float")
    .SetShapeFn(shape_inference::UnchangedShape);

std::atomic<int> add_kernels_built{0};

class HceTestAddOp : public OpKernel {
 public:
  explicit HceTestAddOp(OpKernelConstruction* ctx) : OpKernel(ctx) { ++add_kernels_built; }
  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    const Tensor& y = ctx->input(1);
    OP_REQUIRES(ctx, x.shape() == y.shape(),
                errors::InvalidArgument("HceTestAdd needs equal shapes"));
    Tensor* z = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, x.shape(), &z));
    auto zf = z->flat<float>();
    for (int64_t i = 0; i < zf.size(); ++i) zf(i) = x.flat<float>()(i) + y.flat<float>()(i);
  }
};
REGISTER_KERNEL_BUILDER(Name("HceTestAdd").Device(DEVICE_CPU).TypeConstraint<float>("T"),
                        HceTestAddOp);

// Splits a vector into its first element and the rest.
class HceTestSplit2Op : public OpKernel {
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    OP_REQUIRES(ctx, x.dims() == 1 && x.dim_size(0) >= 1,
                errors::InvalidArgument("HceTestSplit2 needs a non-empty vector"));
    ctx->set_output(0, x.Slice(0, 1));
    ctx->set_output(1, x.Slice(1, x.dim_size(0)));
  }
};
REGISTER_KERNEL_BUILDER(Name("HceTestSplit2").Device(DEVICE_CPU), HceTestSplit2Op);

class HceTestFailOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext* ctx) override {
    ctx->CtxFailure(errors::InvalidArgument("HceTestFail always fails"));
  }
};
REGISTER_KERNEL_BUILDER(Name("HceTestFail").Device(DEVICE_CPU), HceTestFailOp);

class HceTestBadCtorOp : public OpKernel {
 public:
  explicit HceTestBadCtorOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES(ctx, false, errors::FailedPrecondition("HceTestBadCtor cannot be built"));
  }
  void Compute(OpKernelContext*) override {}
};
REGISTER_KERNEL_BUILDER(Name("HceTestBadCtor").Device(DEVICE_CPU), HceTestBadCtorOp);

class HceTestNoOutputOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext*) override {}
};
REGISTER_KERNEL_BUILDER(Name("HceTestNoOutput").Device(DEVICE_CPU), HceTestNoOutputOp);

constexpr char kConstX[] = R"(
  node { name: 'x' op: 'Const'
         attr { key: 'dtype' value { type: DT_FLOAT } }
         attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 3 } }
                                              float_val: 1 float_val: 2 float_val: 3 } } } }
)";

std::string WithX(const std::string& rest) { return std::string(kConstX) + rest; }

std::string UnaryNode(const std::string& name, const std::string& op, const std::string& input) {
  return "node { name: '" + name + "' op: '" + op + "' input: '" + input + "' }\n";
}

std::string AddNode(const std::string& name, const std::string& x, const std::string& y) {
  return "node { name: '" + name + "' op: 'HceTestAdd' input: '" + x + "' input: '" + y +
         "' attr { key: 'T' value { type: DT_FLOAT } } }\n";
}

// The op nodes of `g` in topological order.
std::vector<const Node*> TopoOrder(const Graph& g) {
  std::vector<Node*> order;
  GetReversePostOrder(g, &order, NodeComparatorName());
  std::vector<const Node*> ops;
  for (Node* n : order) {
    if (n->IsOp()) ops.push_back(n);
  }
  return ops;
}

std::vector<float> Floats(const Tensor& t) {
  auto flat = t.unaligned_flat<float>();
  return std::vector<float>(flat.data(), flat.data() + flat.size());
}

class HostConstantEvaluatorTest : public ::testing::Test {
 protected:
  void Build(const std::string& text) { ASSERT_TRUE(GraphFromTextForTest(text, &graph_).ok()); }
  const Node* N(const std::string& name) { return graph_.FindNodeByName(name); }

  absl::Status Eval(std::vector<std::pair<const Node*, int>> outputs, std::vector<Tensor>* values) {
    std::vector<const Node*> nodes = TopoOrder(graph_);
    return evaluator_.Evaluate(nodes, outputs, values);
  }

  ConstantFoldingOptions FoldingOptions() {
    ConstantFoldingOptions opts;
    opts.evaluator = &evaluator_;
    return opts;
  }

  Graph graph_{OpRegistry::Global()};
  HostConstantEvaluator evaluator_{2};
};

TEST_F(HostConstantEvaluatorTest, EvaluatesAChain) {
  Build(WithX(AddNode("a", "x", "x") + AddNode("b", "a", "x")));
  std::vector<Tensor> values;
  ASSERT_TRUE(Eval({{N("b"), 0}, {N("x"), 0}, {N("a"), 0}}, &values).ok());
  ASSERT_EQ(values.size(), 3u);
  EXPECT_EQ(Floats(values[0]), (std::vector<float>{3, 6, 9}));
  EXPECT_EQ(Floats(values[1]), (std::vector<float>{1, 2, 3}));
  EXPECT_EQ(Floats(values[2]), (std::vector<float>{2, 4, 6}));
}

TEST_F(HostConstantEvaluatorTest, ReturnsEveryRequestedOutputOfMultiOutputNodes) {
  Build(WithX(UnaryNode("s", "HceTestSplit2", "x")));
  std::vector<Tensor> values;
  ASSERT_TRUE(Eval({{N("s"), 1}, {N("s"), 0}}, &values).ok());
  EXPECT_EQ(Floats(values[0]), (std::vector<float>{2, 3}));
  EXPECT_EQ(Floats(values[1]), (std::vector<float>{1}));
}

TEST_F(HostConstantEvaluatorTest, CachesKernelsPerNodeAndAttrs) {
  Build(WithX(AddNode("a", "x", "x")));
  const int built_before = add_kernels_built;
  std::vector<Tensor> values;
  ASSERT_TRUE(Eval({{N("a"), 0}}, &values).ok());
  ASSERT_TRUE(Eval({{N("a"), 0}}, &values).ok());
  EXPECT_EQ(add_kernels_built - built_before, 1);
  EXPECT_EQ(evaluator_.num_cached_kernels(), 1);
  EXPECT_EQ(Floats(values[0]), (std::vector<float>{2, 4, 6}));
}

TEST_F(HostConstantEvaluatorTest, CanEvaluate) {
  Build(WithX(AddNode("a", "x", "x") + R"(
    node { name: 'i' op: 'Const' attr { key: 'dtype' value { type: DT_INT32 } }
           attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 1 } } } }
    node { name: 'ai' op: 'HceTestAdd' input: 'i' input: 'i'
           attr { key: 'T' value { type: DT_INT32 } } }
    node { name: 'p' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }
  )" + UnaryNode("nk", "HceTestNoKernel", "x")));
  EXPECT_TRUE(evaluator_.CanEvaluate(*N("x")));
  EXPECT_TRUE(evaluator_.CanEvaluate(*N("a")));
  EXPECT_FALSE(evaluator_.CanEvaluate(*N("ai")));  // The kernel takes float only.
  EXPECT_FALSE(evaluator_.CanEvaluate(*N("p")));
  EXPECT_FALSE(evaluator_.CanEvaluate(*N("nk")));
  EXPECT_FALSE(evaluator_.CanEvaluate(*graph_.source_node()));
}

TEST_F(HostConstantEvaluatorTest, KernelErrorNamesTheNode) {
  Build(WithX(UnaryNode("f", "HceTestFail", "x")));
  std::vector<Tensor> values;
  absl::Status s = Eval({{N("f"), 0}}, &values);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("HceTestFail always fails"), std::string::npos) << s;
  EXPECT_NE(s.message().find("{{node f}}"), std::string::npos) << s;
}

TEST_F(HostConstantEvaluatorTest, KernelConstructionErrorNamesTheNode) {
  Build(WithX(UnaryNode("c", "HceTestBadCtor", "x")));
  std::vector<Tensor> values;
  absl::Status s = Eval({{N("c"), 0}}, &values);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("{{node c}}"), std::string::npos) << s;
  EXPECT_EQ(evaluator_.num_cached_kernels(), 0);
}

TEST_F(HostConstantEvaluatorTest, MissingKernelIsNotFound) {
  Build(WithX(UnaryNode("nk", "HceTestNoKernel", "x")));
  std::vector<Tensor> values;
  absl::Status s = Eval({{N("nk"), 0}}, &values);
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_NE(s.message().find("nk"), std::string::npos) << s;
}

TEST_F(HostConstantEvaluatorTest, UnsetOutputIsInternal) {
  Build(WithX(UnaryNode("u", "HceTestNoOutput", "x")));
  std::vector<Tensor> values;
  absl::Status s = Eval({{N("u"), 0}}, &values);
  EXPECT_EQ(s.code(), absl::StatusCode::kInternal);
  EXPECT_NE(s.message().find("did not set output 0"), std::string::npos) << s;
  EXPECT_NE(s.message().find("{{node u}}"), std::string::npos) << s;
}

TEST_F(HostConstantEvaluatorTest, InputFromOutsideTheSubgraphIsRejected) {
  Build(WithX(AddNode("a", "x", "x")));
  std::vector<const Node*> nodes = {N("a")};
  std::vector<Tensor> values;
  absl::Status s = evaluator_.Evaluate(nodes, {{N("a"), 0}}, &values);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("comes from node 'x', which is not evaluated before it"),
            std::string::npos)
      << s;
  EXPECT_NE(s.message().find("{{node a}}"), std::string::npos) << s;

  // Out of topological order is the same mistake.
  nodes = {N("a"), N("x")};
  EXPECT_EQ(evaluator_.Evaluate(nodes, {{N("a"), 0}}, &values).code(),
            absl::StatusCode::kInvalidArgument);
}

TEST_F(HostConstantEvaluatorTest, BadRequestsAreRejected) {
  Build(WithX(UnaryNode("s", "HceTestSplit2", "x")));
  std::vector<Tensor> values;
  absl::Status s = Eval({{N("s"), 2}}, &values);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("Output 2 of node 's'"), std::string::npos) << s;

  std::vector<const Node*> only_x = {N("x")};
  EXPECT_EQ(evaluator_.Evaluate(only_x, {{N("s"), 0}}, &values).code(),
            absl::StatusCode::kInvalidArgument);

  std::vector<const Node*> twice = {N("x"), N("x")};
  s = evaluator_.Evaluate(twice, {{N("x"), 0}}, &values);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("given twice"), std::string::npos) << s;
}

TEST_F(HostConstantEvaluatorTest, ConstWithMismatchedDtypeIsRejected) {
  Build(R"(
    node { name: 'c' op: 'Const' attr { key: 'dtype' value { type: DT_INT32 } }
           attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 1 } } } }
  )");
  std::vector<Tensor> values;
  absl::Status s = Eval({{N("c"), 0}}, &values);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("Type mismatch between value (float) and dtype (int32)"),
            std::string::npos)
      << s;
  EXPECT_NE(s.message().find("{{node c}}"), std::string::npos) << s;
}

TEST_F(HostConstantEvaluatorTest, ConstWithMalformedValueIsRejected) {
  Build(R"(
    node { name: 'c' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } }
           attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 2 } }
                                                tensor_content: 'abc' } } } }
  )");
  std::vector<Tensor> values;
  absl::Status s = Eval({{N("c"), 0}}, &values);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("{{node c}}"), std::string::npos) << s;
}

// The pass and the evaluator together, with real kernels.
TEST_F(HostConstantEvaluatorTest, DrivesConstantFolding) {
  Build(WithX(AddNode("a", "x", "x") + AddNode("b", "a", "x") +
              UnaryNode("nk", "HceTestNoKernel", "b")));
  bool mutated = false;
  absl::Status s = ConstantFold(FoldingOptions(), &graph_, &mutated);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_TRUE(mutated);
  EXPECT_EQ(CanonicalGraphString(graph_), "b/_0__cf__0(Const);nk(HceTestNoKernel)|b/_0__cf__0->nk");
  const TensorProto* proto = nullptr;
  ASSERT_TRUE(GetNodeAttr(N("b/_0__cf__0")->attrs(), "value", &proto).ok());
  Tensor value;
  ASSERT_TRUE(TensorFromProto(*proto, &value).ok());
  EXPECT_EQ(Floats(value), (std::vector<float>{3, 6, 9}));
}

TEST_F(HostConstantEvaluatorTest, KernelErrorsStopConstantFolding) {
  Build(WithX(UnaryNode("f", "HceTestFail", "x") + UnaryNode("nk", "HceTestNoKernel", "f")));
  const std::string before = CanonicalGraphString(graph_);
  bool mutated = true;
  absl::Status s = ConstantFold(FoldingOptions(), &graph_, &mutated);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("{{node f}}"), std::string::npos) << s;
  EXPECT_FALSE(mutated);
  EXPECT_EQ(CanonicalGraphString(graph_), before);
}

}  // namespace
}  // namespace sluice
