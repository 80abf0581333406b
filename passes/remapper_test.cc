#include "passes/remapper.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/graph.h"
#include "graph/import/graph_testutil.h"
#include "graph/op/op_registry.h"
#include "gtest/gtest.h"
#include "proto/graph.pb.h"

namespace sluice {
namespace {

constexpr char kFloat[] = " attr { key: 'T' value { type: DT_FLOAT } }";

std::string Placeholder(const std::string& name) {
  return absl::StrCat("node { name: '", name,
                      "' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }");
}

std::string Node(const std::string& name, const std::string& op,
                 const std::vector<std::string>& inputs, const std::string& attrs = "") {
  std::string s = absl::StrCat("node { name: '", name, "' op: '", op, "'");
  for (const std::string& in : inputs) absl::StrAppend(&s, " input: '", in, "'");
  return absl::StrCat(s, kFloat, attrs, " }");
}

std::string Conv(const std::string& name, const std::string& format = "NHWC") {
  return Node(name, "Conv2D", {"x", "w"},
              absl::StrCat(" attr { key: 'strides' value { list { i: [1, 2, 2, 1] } } }"
                           " attr { key: 'padding' value { s: 'SAME' } }"
                           " attr { key: 'data_format' value { s: '",
                           format, "' } }"));
}

std::string BiasAdd(const std::string& name, const std::string& input,
                    const std::string& format = "NHWC") {
  return Node(name, "BiasAdd", {input, "bias"},
              absl::StrCat(" attr { key: 'data_format' value { s: '", format, "' } }"));
}

std::string BatchNorm(const std::string& name, const std::string& input, bool training) {
  return Node(name, "FusedBatchNormV3", {input, "scale", "offset", "mean", "var"},
              absl::StrCat(" attr { key: 'U' value { type: DT_FLOAT } }"
                           " attr { key: 'epsilon' value { f: 0.001 } }"
                           " attr { key: 'is_training' value { b: ",
                           training ? "true" : "false", " } }"));
}

std::string Inputs() {
  std::string s;
  for (const char* name : {"x", "w", "bias", "scale", "offset", "mean", "var"}) {
    absl::StrAppend(&s, Placeholder(name));
  }
  return s;
}

class RemapperTest : public ::testing::Test {
 protected:
  RemapperTest() : g_(std::make_unique<Graph>(OpRegistry::Global())) {
    opts_.kernel_exists = [this](const NodeDef& node, const std::string& device) {
      asked_.push_back(absl::StrCat(node.op(), "@", device));
      return kernels_exist_;
    };
  }

  void Load(const std::string& text) {
    const absl::Status s = GraphFromTextForTest(Inputs() + text, g_.get());
    ASSERT_TRUE(s.ok()) << s;
  }

  bool Fuse() {
    bool changed = false;
    const absl::Status s = FuseContractions(opts_, g_.get(), &changed);
    EXPECT_TRUE(s.ok()) << s.ToString();
    g_->ToGraphDef(&out_);
    return changed;
  }

  const NodeDef* Find(const std::string& name) const { return FindNodeDefForTest(out_, name); }

  static std::string Strings(const NodeDef& n, const std::string& attr) {
    const auto& list = n.attr().at(attr).list().s();
    return absl::StrJoin(list.begin(), list.end(), ",");
  }

  std::unique_ptr<Graph> g_;
  RemapperOptions opts_;
  bool kernels_exist_ = true;
  std::vector<std::string> asked_;
  GraphDef out_;
};

TEST_F(RemapperTest, ConvBiasReluBecomesOneFusedConv) {
  Load(Conv("conv") + BiasAdd("bias_add", "conv") + Node("relu", "Relu", {"bias_add"}) +
       Node("out", "Identity", {"relu"}));
  ASSERT_TRUE(Fuse());
  EXPECT_EQ(Find("conv"), nullptr);
  EXPECT_EQ(Find("bias_add"), nullptr);
  const NodeDef* fused = Find("relu");
  ASSERT_NE(fused, nullptr);
  EXPECT_EQ(fused->op(), "_FusedConv2D");
  EXPECT_EQ(absl::StrJoin(fused->input(), ","), "x,w,bias");
  EXPECT_EQ(Strings(*fused, "fused_ops"), "BiasAdd,Relu");
  EXPECT_EQ(fused->attr().at("num_args").i(), 1);
  EXPECT_EQ(fused->attr().at("TArgs").list().type_size(), 1);
  EXPECT_EQ(fused->attr().at("strides").list().i(1), 2);
  EXPECT_EQ(fused->attr().at("padding").s(), "SAME");
  EXPECT_EQ(absl::StrJoin(Find("out")->input(), ","), "relu");
}

TEST_F(RemapperTest, MatMulBiasWithoutActivation) {
  Load(Node("mm", "MatMul", {"x", "w"}, " attr { key: 'transpose_b' value { b: true } }") +
       BiasAdd("logits", "mm") + Node("soft", "Softmax", {"logits"}));
  ASSERT_TRUE(Fuse());
  const NodeDef* fused = Find("logits");
  ASSERT_NE(fused, nullptr);
  EXPECT_EQ(fused->op(), "_FusedMatMul");
  EXPECT_TRUE(fused->attr().at("transpose_b").b());
  EXPECT_EQ(Strings(*fused, "fused_ops"), "BiasAdd");
  EXPECT_EQ(fused->attr().count("TArgs"), 0u);
  EXPECT_EQ(Find("soft")->op(), "Softmax");
}

TEST_F(RemapperTest, ActivationsDependOnTheContraction) {
  Load(Node("mm", "MatMul", {"x", "w"}) + BiasAdd("b1", "mm") + Node("t1", "Tanh", {"b1"}) +
       Conv("conv") + BiasAdd("b2", "conv") + Node("t2", "Tanh", {"b2"}));
  ASSERT_TRUE(Fuse());
  EXPECT_EQ(Strings(*Find("t1"), "fused_ops"), "BiasAdd,Tanh");
  // _FusedConv2D has no Tanh on the CPU: only the bias is fused, Tanh stays.
  EXPECT_EQ(Find("b2")->op(), "_FusedConv2D");
  EXPECT_EQ(Strings(*Find("b2"), "fused_ops"), "BiasAdd");
  EXPECT_EQ(Find("t2")->op(), "Tanh");
}

TEST_F(RemapperTest, DepthwiseBiasRelu6) {
  Load(Node("dw", "DepthwiseConv2dNative", {"x", "w"},
            " attr { key: 'strides' value { list { i: [1, 1, 1, 1] } } }"
            " attr { key: 'padding' value { s: 'SAME' } }") +
       BiasAdd("b", "dw") + Node("act", "Relu6", {"b"}));
  ASSERT_TRUE(Fuse());
  const NodeDef* fused = Find("act");
  ASSERT_NE(fused, nullptr);
  EXPECT_EQ(fused->op(), "_FusedDepthwiseConv2dNative");
  EXPECT_EQ(Strings(*fused, "fused_ops"), "BiasAdd,Relu6");
  // Only the attrs the fused op has are carried (no explicit_paddings here).
  EXPECT_EQ(fused->attr().count("explicit_paddings"), 0u);
  EXPECT_EQ(fused->attr().at("padding").s(), "SAME");
}

TEST_F(RemapperTest, LeakyReluAlphaIsCarried) {
  Load(Conv("conv") + BiasAdd("b", "conv") +
       Node("act", "LeakyRelu", {"b"}, " attr { key: 'alpha' value { f: 0.3 } }"));
  ASSERT_TRUE(Fuse());
  EXPECT_FLOAT_EQ(Find("act")->attr().at("leakyrelu_alpha").f(), 0.3f);
}

TEST_F(RemapperTest, InferenceBatchNormIsFused) {
  Load(Conv("conv") + BatchNorm("bn", "conv", false) + Node("act", "Relu6", {"bn"}));
  ASSERT_TRUE(Fuse());
  const NodeDef* fused = Find("act");
  ASSERT_NE(fused, nullptr);
  EXPECT_EQ(absl::StrJoin(fused->input(), ","), "x,w,scale,offset,mean,var");
  EXPECT_EQ(Strings(*fused, "fused_ops"), "FusedBatchNorm,Relu6");
  EXPECT_EQ(fused->attr().at("num_args").i(), 4);
  EXPECT_FLOAT_EQ(fused->attr().at("epsilon").f(), 0.001f);
}

std::string ScalarConst(const std::string& name, float value) {
  return absl::StrCat("node { name: '", name,
                      "' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } }"
                      " attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape {} "
                      "float_val: ",
                      value, " } } } }");
}

TEST_F(RemapperTest, SwishBecomesFusedSwish) {
  // Sigmoid(b) * b, product operands in either order.
  Load(Conv("conv") + BiasAdd("b", "conv") + Node("sig", "Sigmoid", {"b"}) +
       Node("swish", "Mul", {"sig", "b"}) + Node("out", "Identity", {"swish"}));
  ASSERT_TRUE(Fuse());
  const NodeDef* fused = Find("swish");
  ASSERT_NE(fused, nullptr);
  EXPECT_EQ(fused->op(), "_FusedConv2D");
  EXPECT_EQ(absl::StrJoin(fused->input(), ","), "x,w,bias");
  EXPECT_EQ(Strings(*fused, "fused_ops"), "BiasAdd,_FusedSwish");
  EXPECT_EQ(Find("sig"), nullptr);
  EXPECT_EQ(Find("b"), nullptr);
  EXPECT_EQ(absl::StrJoin(Find("out")->input(), ","), "swish");
}

TEST_F(RemapperTest, KerasSiluWithItsMulByOneIsFused) {
  Load(ScalarConst("beta", 1.0f) +
       Node("dw", "DepthwiseConv2dNative", {"x", "w"},
            " attr { key: 'strides' value { list { i: [1, 1, 1, 1] } } }"
            " attr { key: 'padding' value { s: 'SAME' } }") +
       BiasAdd("b", "dw") + Node("scaled", "Mul", {"beta", "b"}) +
       Node("sig", "Sigmoid", {"scaled"}) + Node("silu", "Mul", {"b", "sig"}));
  ASSERT_TRUE(Fuse());
  const NodeDef* fused = Find("silu");
  ASSERT_NE(fused, nullptr);
  EXPECT_EQ(fused->op(), "_FusedDepthwiseConv2dNative");
  EXPECT_EQ(Strings(*fused, "fused_ops"), "BiasAdd,_FusedSwish");
  EXPECT_EQ(Find("scaled"), nullptr);
  EXPECT_EQ(Find("sig"), nullptr);
}

TEST_F(RemapperTest, SwishLookalikesAreNotFused) {
  // A scale other than one is sigmoid(beta * x) * x: only the bias is fused.
  Load(ScalarConst("beta", 2.0f) + Conv("conv") + BiasAdd("b", "conv") +
       Node("scaled", "Mul", {"beta", "b"}) + Node("sig", "Sigmoid", {"scaled"}) +
       Node("silu", "Mul", {"b", "sig"}));
  ASSERT_TRUE(Fuse());
  EXPECT_EQ(Strings(*Find("b"), "fused_ops"), "BiasAdd");
  EXPECT_EQ(Find("silu")->op(), "Mul");

  // The Sigmoid is used elsewhere too: it must stay, so no swish.
  g_ = std::make_unique<Graph>(OpRegistry::Global());
  Load(Conv("conv") + BiasAdd("b", "conv") + Node("sig", "Sigmoid", {"b"}) +
       Node("swish", "Mul", {"b", "sig"}) + Node("peek", "Identity", {"sig"}));
  ASSERT_TRUE(Fuse());
  EXPECT_EQ(Strings(*Find("b"), "fused_ops"), "BiasAdd");
  EXPECT_EQ(Find("sig")->op(), "Sigmoid");

  // A product of b with something other than its Sigmoid.
  g_ = std::make_unique<Graph>(OpRegistry::Global());
  Load(Conv("conv") + BiasAdd("b", "conv") + Node("sig", "Sigmoid", {"b"}) +
       Node("prod", "Mul", {"b", "x"}) + Node("sum", "AddV2", {"prod", "sig"}));
  ASSERT_TRUE(Fuse());
  EXPECT_EQ(Strings(*Find("b"), "fused_ops"), "BiasAdd");
  EXPECT_EQ(Find("prod")->op(), "Mul");

  // A fetched Sigmoid is protected.
  g_ = std::make_unique<Graph>(OpRegistry::Global());
  Load(Conv("conv") + BiasAdd("b", "conv") + Node("sig", "Sigmoid", {"b"}) +
       Node("swish", "Mul", {"b", "sig"}));
  opts_.protected_names = {"sig"};
  ASSERT_TRUE(Fuse());
  EXPECT_EQ(Strings(*Find("b"), "fused_ops"), "BiasAdd");
}

TEST_F(RemapperTest, TrainingBatchNormIsNot) {
  Load(Conv("conv") + BatchNorm("bn", "conv", true));
  EXPECT_FALSE(Fuse());
  EXPECT_EQ(Find("conv")->op(), "Conv2D");
}

TEST_F(RemapperTest, BatchNormStatisticsInUseBlockFusion) {
  Load(Conv("conv") + BatchNorm("bn", "conv", false) + Node("m", "Identity", {"bn:1"}));
  EXPECT_FALSE(Fuse());
}

TEST_F(RemapperTest, SharedOrObservedIntermediatesAreKept) {
  Load(Conv("conv") + BiasAdd("b", "conv") + Node("peek", "Identity", {"conv"}));
  EXPECT_FALSE(Fuse());
  g_ = std::make_unique<Graph>(OpRegistry::Global());
  Load(Conv("conv") + BiasAdd("b", "conv") + Node("r", "Relu", {"b"}));
  opts_.protected_names = {"b"};
  ASSERT_TRUE(Fuse());
  // The protected bias ends the chain: the fusion takes its name; Relu stays.
  EXPECT_EQ(Find("b")->op(), "_FusedConv2D");
  EXPECT_EQ(Find("r")->op(), "Relu");
}

TEST_F(RemapperTest, MismatchedFormatOrDeviceBlocksFusion) {
  Load(Conv("conv") + BiasAdd("b", "conv", "NCHW"));
  EXPECT_FALSE(Fuse());
  g_ = std::make_unique<Graph>(OpRegistry::Global());
  Load(Conv("conv") + BiasAdd("b", "conv"));
  g_->FindNodeByName("b")->set_assigned_device_name("/job:a/replica:0/task:0/device:CPU:1");
  EXPECT_FALSE(Fuse());
}

TEST_F(RemapperTest, ControlInputsAndConsumersMove) {
  Load(Node("c0", "NoOp", {}) + Conv("conv").replace(Conv("conv").size() - 2, 0, " input: '^c0'") +
       BiasAdd("b", "conv") + Node("after", "NoOp", {"^b"}));
  ASSERT_TRUE(Fuse());
  const NodeDef* fused = Find("b");
  ASSERT_NE(fused, nullptr);
  EXPECT_EQ(absl::StrJoin(fused->input(), ","), "x,w,bias,^c0");
  EXPECT_EQ(absl::StrJoin(Find("after")->input(), ","), "^b");
}

// A residual block's end: conv(xs) + bias, added to `addend`, then Relu. `short` is another
// convolution of xs, so its unknown batch dim is the very same as the block's.
std::string ResidualBlock(const std::string& addend) {
  const std::string conv_attrs =
      " attr { key: 'strides' value { list { i: [1, 1, 1, 1] } } }"
      " attr { key: 'padding' value { s: 'SAME' } }";
  return FloatPlaceholderText("xs", {-1, 8, 8, 4}) + FloatPlaceholderText("w1", {1, 1, 4, 6}) +
         FloatPlaceholderText("b1", {6}) + FloatPlaceholderText("row", {6}) +
         FloatPlaceholderText("other", {-1, 8, 8, 6}) +
         Node("short", "Conv2D", {"xs", "w1"}, conv_attrs) +
         Node("conv", "Conv2D", {"xs", "w1"}, conv_attrs) + Node("ba", "BiasAdd", {"conv", "b1"}) +
         Node("sum", "AddV2", {addend, "ba"}) + Node("relu", "Relu", {"sum"}) +
         Node("out", "Identity", {"relu"});
}

TEST_F(RemapperTest, SameShapeResidualAddJoinsTheChain) {
  Load(ResidualBlock("short"));
  ASSERT_TRUE(Fuse());
  EXPECT_EQ(Find("sum"), nullptr);
  EXPECT_EQ(Find("ba"), nullptr);
  const NodeDef* fused = Find("relu");
  ASSERT_NE(fused, nullptr);
  EXPECT_EQ(fused->op(), "_FusedConv2D");
  // The conv's operand was the add's second input; the addend comes last either way.
  EXPECT_EQ(absl::StrJoin(fused->input(), ","), "xs,w1,b1,short");
  EXPECT_EQ(Strings(*fused, "fused_ops"), "BiasAdd,Add,Relu");
  EXPECT_EQ(fused->attr().at("num_args").i(), 2);
  EXPECT_EQ(fused->attr().at("TArgs").list().type_size(), 2);
}

// Broadcasting adds (a row, or a batch dim that may differ) are not fused: the fused kernel
// adds elementwise only.
TEST_F(RemapperTest, AddsThatMayBroadcastStaySeparate) {
  for (const char* addend : {"row", "other"}) {
    SCOPED_TRACE(addend);
    g_ = std::make_unique<Graph>(OpRegistry::Global());
    Load(ResidualBlock(addend));
    ASSERT_TRUE(Fuse());
    ASSERT_NE(Find("sum"), nullptr);
    EXPECT_EQ(Find("sum")->op(), "AddV2");
    EXPECT_EQ(Find("relu")->op(), "Relu");
    ASSERT_NE(Find("ba"), nullptr);
    EXPECT_EQ(Strings(*Find("ba"), "fused_ops"), "BiasAdd");
  }
}

// A fetched add ends the chain (it keeps its name); its Relu stays a node of its own.
TEST_F(RemapperTest, ObservedResidualAddEndsTheChain) {
  Load(ResidualBlock("short"));
  opts_.protected_names.insert("sum");
  ASSERT_TRUE(Fuse());
  const NodeDef* fused = Find("sum");
  ASSERT_NE(fused, nullptr);
  EXPECT_EQ(Strings(*fused, "fused_ops"), "BiasAdd,Add");
  EXPECT_EQ(Find("relu")->op(), "Relu");
}

TEST_F(RemapperTest, NoKernelNoFusion) {
  Load(Conv("conv") + BiasAdd("b", "conv"));
  g_->FindNodeByName("b")->set_assigned_device_name("/job:a/replica:0/task:0/device:CPU:0");
  g_->FindNodeByName("conv")->set_assigned_device_name("/job:a/replica:0/task:0/device:CPU:0");
  kernels_exist_ = false;
  EXPECT_FALSE(Fuse());
  EXPECT_EQ(asked_, std::vector<std::string>{"_FusedConv2D@/job:a/replica:0/task:0/device:CPU:0"});
  opts_.kernel_exists = nullptr;
  EXPECT_FALSE(Fuse());
}

}  // namespace
}  // namespace sluice
