#include "passes/elementwise_fusion.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/graph.h"
#include "graph/import/graph_testutil.h"
#include "graph/op/op_registry.h"
#include "graph/ops/fused_elementwise_spec.h"
#include "gtest/gtest.h"
#include "proto/graph.pb.h"

namespace sluice {
namespace {

// A float Placeholder of shape `dims` (-1: unknown).
std::string Input(const std::string& name, const std::vector<int>& dims) {
  std::string shape;
  for (int d : dims) absl::StrAppend(&shape, " dim { size: ", d, " }");
  return absl::StrCat("node { name: '", name,
                      "' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } }"
                      " attr { key: 'shape' value { shape {",
                      shape, " } } } }");
}

std::string Scalar(const std::string& name, float value) {
  return absl::StrCat("node { name: '", name,
                      "' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } }"
                      " attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape {}"
                      " float_val: ",
                      value, " } } } }");
}

std::string Node(const std::string& name, const std::string& op,
                 const std::vector<std::string>& inputs) {
  std::string s = absl::StrCat("node { name: '", name, "' op: '", op, "'");
  for (const std::string& in : inputs) absl::StrAppend(&s, " input: '", in, "'");
  return absl::StrCat(s, " attr { key: 'T' value { type: DT_FLOAT } } }");
}

// Keras' exact Gelu after a bias add: (0.5 * y) * (1 + erf(y / sqrt(2))), y = x + bias.
std::string Gelu(const std::string& x) {
  return Scalar("half", 0.5f) + Scalar("sqrt2", 1.4142135f) + Scalar("one", 1.f) +
         Node("biased", "AddV2", {x, "bias"}) + Node("scaled", "Mul", {"half", "biased"}) +
         Node("div", "RealDiv", {"biased", "sqrt2"}) + Node("erf", "Erf", {"div"}) +
         Node("erf1", "AddV2", {"one", "erf"}) + Node("gelu", "Mul", {"scaled", "erf1"});
}

class ElementwiseFusionTest : public ::testing::Test {
 protected:
  ElementwiseFusionTest() : g_(std::make_unique<Graph>(OpRegistry::Global())) {
    opts_.kernel_exists = [this](const NodeDef& node, const std::string& device) {
      const auto& ops = node.attr().at("ops").list().s();
      asked_.push_back(
          absl::StrCat(node.op(), "[", absl::StrJoin(ops.begin(), ops.end(), ","), "]@", device));
      return kernels_exist_;
    };
  }

  void Load(const std::string& text) {
    const absl::Status s = GraphFromTextForTest(text, g_.get());
    ASSERT_TRUE(s.ok()) << s;
  }

  bool Fuse() {
    bool changed = false;
    const absl::Status s = FuseElementwise(opts_, g_.get(), &changed);
    EXPECT_TRUE(s.ok()) << s.ToString();
    g_->ToGraphDef(&out_);
    return changed;
  }

  const NodeDef* Find(const std::string& name) const { return FindNodeDefForTest(out_, name); }

  static std::string Ops(const NodeDef& n) {
    const auto& list = n.attr().at("ops").list().s();
    return absl::StrJoin(list.begin(), list.end(), ",");
  }
  static std::string Operands(const NodeDef& n) {
    const auto& list = n.attr().at("operands").list().i();
    return absl::StrJoin(list.begin(), list.end(), ",");
  }
  static std::string Inputs(const NodeDef& n) { return absl::StrJoin(n.input(), ","); }

  std::unique_ptr<Graph> g_;
  ElementwiseFusionOptions opts_;
  bool kernels_exist_ = true;
  std::vector<std::string> asked_;
  GraphDef out_;
};

TEST_F(ElementwiseFusionTest, GeluAfterABiasBecomesOneNode) {
  Load(Input("x", {-1, 16}) + Input("bias", {16}) + Gelu("x") + Node("out", "Neg", {"gelu"}) +
       Node("pool", "Softmax", {"out"}));
  ASSERT_TRUE(Fuse());
  for (const char* gone : {"biased", "scaled", "div", "erf", "erf1"}) {
    EXPECT_EQ(Find(gone), nullptr) << gone;
  }
  // The Neg joins too: it reads the Gelu, of the root's shape. Softmax is no elementwise op.
  EXPECT_EQ(Find("gelu"), nullptr);
  const NodeDef* fused = Find("out");
  ASSERT_NE(fused, nullptr);
  EXPECT_EQ(fused->op(), "_FusedElementwise");
  EXPECT_EQ(fused->attr().at("N").i(), 5);
  // x (of the output's shape) first, then the others in order of first use.
  EXPECT_EQ(Inputs(*fused), "x,bias,sqrt2,one,half");
  EXPECT_EQ(Ops(*fused), "AddV2,RealDiv,Erf,AddV2,Mul,Mul,Neg");
  // biased = x + bias (5), div = 5 / sqrt2 (6), erf(6) (7), one + 7 (8), half * 5 (9),
  // 9 * 8 (10), -10.
  EXPECT_EQ(Operands(*fused), "0,1,5,2,6,3,7,4,5,9,8,10");
  EXPECT_EQ(Inputs(*Find("pool")), "out");
  // First whether float has a kernel at all (before shapes are inferred), then the node.
  EXPECT_EQ(asked_,
            (std::vector<std::string>{"_FusedElementwise[Neg]@",
                                      "_FusedElementwise[AddV2,RealDiv,Erf,AddV2,Mul,Mul,Neg]@"}));
}

// A group stops growing at kMaxFusedElementwiseOps ops: a chain of 40 becomes two nodes.
TEST_F(ElementwiseFusionTest, LongChainsAreSplitAtTheProgramLimit) {
  std::string graph = Input("x", {4, 16});
  std::string previous = "x";
  for (int i = 0; i < 40; ++i) {
    const std::string name = absl::StrCat("n", i);
    graph += Node(name, i % 2 == 0 ? "Neg" : "Relu", {previous});
    previous = name;
  }
  Load(graph);
  ASSERT_TRUE(Fuse());
  const NodeDef* last = Find("n39");
  ASSERT_NE(last, nullptr);
  EXPECT_EQ(last->op(), "_FusedElementwise");
  EXPECT_EQ(last->attr().at("ops").list().s_size(), kMaxFusedElementwiseOps);
  // The first 8 ops form the other node, which the last one reads.
  const NodeDef* first = Find("n7");
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->op(), "_FusedElementwise");
  EXPECT_EQ(first->attr().at("ops").list().s_size(), 8);
  EXPECT_EQ(Inputs(*first), "x");
  EXPECT_EQ(Inputs(*last), "n7");
}

TEST_F(ElementwiseFusionTest, AValueReadOutsideTheChainStaysOutside) {
  Load(Input("x", {4, 16}) + Input("bias", {16}) + Gelu("x") +
       Node("side", "Identity", {"biased"}));
  ASSERT_TRUE(Fuse());
  ASSERT_NE(Find("biased"), nullptr);
  EXPECT_EQ(Find("biased")->op(), "AddV2");
  const NodeDef* fused = Find("gelu");
  ASSERT_NE(fused, nullptr);
  EXPECT_EQ(Ops(*fused), "RealDiv,Erf,AddV2,Mul,Mul");
  EXPECT_EQ(Inputs(*fused), "biased,sqrt2,one,half");
}

// Layer normalisation's tail reads per-row statistics ([4, 1]) and per-column scale and
// offset ([16]). The Rsqrt of the [4, 1] variance stays outside: a unary op joins only on
// values of the output's shape. It forms a group of its own, of shape [4, 1].
TEST_F(ElementwiseFusionTest, LayerNormTailWithRowStatistics) {
  Load(Input("x", {4, 16}) + Input("mean", {4, 1}) + Input("var", {4, 1}) + Input("gamma", {16}) +
       Input("beta", {16}) + Scalar("eps", 1e-3f) + Node("var_eps", "AddV2", {"var", "eps"}) +
       Node("inv", "Rsqrt", {"var_eps"}) + Node("centred", "Sub", {"x", "mean"}) +
       Node("normed", "Mul", {"centred", "inv"}) + Node("scaled", "Mul", {"normed", "gamma"}) +
       Node("out", "AddV2", {"scaled", "beta"}));
  ASSERT_TRUE(Fuse());
  ASSERT_NE(Find("inv"), nullptr);
  EXPECT_EQ(Ops(*Find("inv")), "AddV2,Rsqrt");
  EXPECT_EQ(Inputs(*Find("inv")), "var,eps");
  const NodeDef* fused = Find("out");
  ASSERT_NE(fused, nullptr);
  EXPECT_EQ(fused->op(), "_FusedElementwise");
  EXPECT_EQ(Ops(*fused), "Sub,Mul,Mul,AddV2");
  EXPECT_EQ(Inputs(*fused), "x,mean,inv,gamma,beta");
}

TEST_F(ElementwiseFusionTest, BroadcastsTheKernelDoesNotTakeAreLeftAlone) {
  // y [1, 3, 1] against [2, 3, 4]: neither trailing nor leading dims.
  Load(Input("x", {2, 3, 4}) + Input("y", {1, 3, 1}) + Node("m", "Mul", {"x", "y"}) +
       Node("e", "Exp", {"m"}));
  EXPECT_FALSE(Fuse());
  EXPECT_EQ(Find("e")->op(), "Exp");
  EXPECT_EQ(asked_, std::vector<std::string>{"_FusedElementwise[Neg]@"});
}

TEST_F(ElementwiseFusionTest, NeedsAnInputOfTheOutputShape) {
  // [4, 1] - [16] is [4, 16], but no input has that shape.
  Load(Input("a", {4, 1}) + Input("b", {16}) + Node("d", "Sub", {"a", "b"}) +
       Node("s", "Mul", {"d", "b"}));
  EXPECT_FALSE(Fuse());
}

TEST_F(ElementwiseFusionTest, UnknownDimsFromDifferentPlacesAreNotEqual) {
  Load(Input("x", {-1, 16}) + Input("y", {-1, 16}) + Node("a", "AddV2", {"x", "y"}) +
       Node("t", "Tanh", {"a"}));
  // a's shape merges x's and y's unknown batch dims; neither input is known to equal it.
  EXPECT_FALSE(Fuse());
}

TEST_F(ElementwiseFusionTest, ProtectedDeviceAndKernelRulesHold) {
  const std::string graph = Input("x", {8}) + Node("a", "Exp", {"x"}) + Node("b", "Neg", {"a"}) +
                            Node("c", "Sqrt", {"b"});
  opts_.protected_names = {"b"};
  Load(graph);
  ASSERT_TRUE(Fuse());  // b may be a root: b ← a; c stays alone
  EXPECT_EQ(Ops(*Find("b")), "Exp,Neg");
  EXPECT_EQ(Find("c")->op(), "Sqrt");

  opts_.protected_names.clear();
  g_ = std::make_unique<Graph>(OpRegistry::Global());
  Load(graph);
  g_->FindNodeByName("a")->set_assigned_device_name("/job:a/replica:0/task:0/device:CPU:1");
  ASSERT_TRUE(Fuse());
  EXPECT_EQ(Find("a")->op(), "Exp");
  EXPECT_EQ(Ops(*Find("c")), "Neg,Sqrt");

  // Without a kernel for the dtype, nothing more is asked (and no shapes are inferred).
  kernels_exist_ = false;
  asked_.clear();
  g_ = std::make_unique<Graph>(OpRegistry::Global());
  Load(graph);
  EXPECT_FALSE(Fuse());
  EXPECT_EQ(Find("c")->op(), "Sqrt");
  EXPECT_EQ(asked_, std::vector<std::string>{"_FusedElementwise[Neg]@"});
}

TEST_F(ElementwiseFusionTest, ControlEdges) {
  // A control input of an inner node moves to the fused node; a node with a control
  // consumer stays outside.
  Load(Input("x", {8}) + Input("gate", {8}) +
       "node { name: 'a' op: 'Exp' input: 'x' input: '^gate' attr { key: 'T' value { type: "
       "DT_FLOAT } } }" +
       Node("b", "Neg", {"a"}) + Node("c", "Sqrt", {"b"}) +
       "node { name: 'after' op: 'NoOp' input: '^c' }" +
       "node { name: 'd' op: 'Tanh' input: 'c' attr { key: 'T' value { type: DT_FLOAT } } }" +
       Node("e", "Abs", {"d"}) + "node { name: 'f' op: 'NoOp' input: '^d' }");
  ASSERT_TRUE(Fuse());
  const NodeDef* c = Find("c");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(Ops(*c), "Exp,Neg,Sqrt");
  EXPECT_EQ(Inputs(*c), "x,^gate");
  EXPECT_EQ(Inputs(*Find("after")), "^c");
  // d has a control consumer, so it cannot be inside e's group; e alone is no chain.
  EXPECT_EQ(Find("d")->op(), "Tanh");
  EXPECT_EQ(Find("e")->op(), "Abs");
}

TEST_F(ElementwiseFusionTest, NothingToFuseWithoutTwoCandidatesInARow) {
  Load(Input("x", {8}) + Node("a", "Softmax", {"x"}) + Node("b", "Exp", {"a"}));
  EXPECT_FALSE(Fuse());
  EXPECT_EQ(Find("b")->op(), "Exp");
}

}  // namespace
}  // namespace sluice
