#include "passes/mlir_clustering.h"

#include <cstdint>
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

// A Placeholder of shape `dims` (-1: unknown dim) and dtype `type`.
std::string Input(const std::string& name, const std::vector<int>& dims,
                  const std::string& type = "DT_FLOAT") {
  std::string shape;
  for (int d : dims) absl::StrAppend(&shape, " dim { size: ", d, " }");
  return absl::StrCat("node { name: '", name,
                      "' op: 'Placeholder' attr { key: 'dtype' value { type: ", type,
                      " } } attr { key: 'shape' value { shape {", shape, " } } } }");
}

// A float Const of shape `dims` whose every element is `value`.
std::string Constant(const std::string& name, const std::vector<int>& dims, float value) {
  std::string shape;
  for (int d : dims) absl::StrAppend(&shape, " dim { size: ", d, " }");
  return absl::StrCat("node { name: '", name,
                      "' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } }"
                      " attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape {",
                      shape, " } float_val: ", value, " } } } }");
}

// An axis Const: an int32 scalar, or (`int64_vector`) an int64 tensor of shape [1].
std::string Axis(const std::string& name, int64_t axis, bool int64_vector = false) {
  const std::string type = int64_vector ? "DT_INT64" : "DT_INT32";
  return absl::StrCat(
      "node { name: '", name, "' op: 'Const' attr { key: 'dtype' value { type: ", type,
      " } } attr { key: 'value' value { tensor { dtype: ", type,
      int64_vector ? " tensor_shape { dim { size: 1 } } int64_val: " : " tensor_shape {} int_val: ",
      axis, " } } } }");
}

std::string Node(const std::string& name, const std::string& op,
                 const std::vector<std::string>& inputs, const std::string& type = "DT_FLOAT") {
  std::string s = absl::StrCat("node { name: '", name, "' op: '", op, "'");
  for (const std::string& in : inputs) absl::StrAppend(&s, " input: '", in, "'");
  return absl::StrCat(s, " attr { key: 'T' value { type: ", type, " } } }");
}

// A reduction (Sum, Mean, Max, Min) of `input` over the axes Const `axes`.
std::string Reduce(const std::string& name, const std::string& op, const std::string& input,
                   const std::string& axes, bool keep_dims = true,
                   const std::string& type = "DT_FLOAT",
                   const std::string& axes_type = "DT_INT32") {
  return absl::StrCat(
      "node { name: '", name, "' op: '", op, "' input: '", input, "' input: '", axes,
      "' attr { key: 'T' value { type: ", type, " } } attr { key: 'Tidx' value { type: ", axes_type,
      " } } attr { key: 'keep_dims' value { b: ", keep_dims ? "true" : "false", " } } }");
}

// Keras' LayerNormalization over the last axis of `x` (of last dim 8), as its graph is written:
// the moments, then out = x * scale + (beta - mean * scale), scale = rsqrt(var + eps) * gamma.
std::string LayerNorm(const std::string& x, const std::string& type = "DT_FLOAT") {
  return Axis("axis1", -1) + Reduce("mean", "Mean", x, "axis1", true, type) +
         Node("sq", "SquaredDifference", {x, "mean"}, type) + Axis("axis2", -1) +
         Reduce("var", "Mean", "sq", "axis2", true, type) +
         Node("var_eps", "AddV2", {"var", "eps"}, type) + Node("inv", "Rsqrt", {"var_eps"}, type) +
         Node("scale", "Mul", {"inv", "gamma"}, type) +
         Node("x_scaled", "Mul", {x, "scale"}, type) +
         Node("mean_scaled", "Mul", {"mean", "scale"}, type) +
         Node("shift", "Sub", {"beta", "mean_scaled"}, type) +
         Node("out", "AddV2", {"x_scaled", "shift"}, type);
}

std::string FloatLayerNormConstants() {
  return Constant("eps", {}, 1e-3f) + Constant("gamma", {8}, 1.5f) + Constant("beta", {8}, 0.25f);
}

class MlirClusteringTest : public ::testing::Test {
 protected:
  MlirClusteringTest() : g_(std::make_unique<Graph>(OpRegistry::Global())) {
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

  bool Cluster() {
    bool changed = false;
    const absl::Status s = FormMlirClusters(opts_, g_.get(), &changed);
    EXPECT_TRUE(s.ok()) << s.ToString();
    g_->ToGraphDef(&out_);
    return changed;
  }

  const NodeDef* Find(const std::string& name) const { return FindNodeDefForTest(out_, name); }

  int CountOp(const std::string& op) const {
    int count = 0;
    for (const NodeDef& n : out_.node()) count += n.op() == op;
    return count;
  }

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
  MlirClusteringOptions opts_;
  bool kernels_exist_ = true;
  std::vector<std::string> asked_;
  GraphDef out_;
};

TEST_F(MlirClusteringTest, LayerNormalisationBecomesOneCluster) {
  Load(Input("x", {2, 3, 8}) + FloatLayerNormConstants() + LayerNorm("x") +
       Node("after", "Identity", {"out"}));
  ASSERT_TRUE(Cluster());
  EXPECT_EQ(CountOp("_MlirCluster"), 1);
  for (const char* gone : {"mean", "sq", "var", "var_eps", "inv", "scale", "x_scaled",
                           "mean_scaled", "shift", "axis1", "axis2"}) {
    EXPECT_EQ(Find(gone), nullptr) << gone;
  }
  const NodeDef* cluster = Find("out");
  ASSERT_NE(cluster, nullptr);
  EXPECT_EQ(cluster->op(), "_MlirCluster");
  EXPECT_EQ(cluster->attr().at("T").type(), DT_FLOAT);
  EXPECT_EQ(cluster->attr().at("N").i(), 4);
  // The axes are no inputs; the others in order of first use.
  EXPECT_EQ(Inputs(*cluster), "x,eps,gamma,beta");
  const auto& kinds = cluster->attr().at("_input_kinds").list().s();
  EXPECT_EQ(absl::StrJoin(kinds.begin(), kinds.end(), ","), "full,scalar,column,column");
  EXPECT_EQ(Ops(*cluster), "Mean,SquaredDifference,Mean,AddV2,Rsqrt,Mul,Mul,Sub,Mul,AddV2");
  // mean = Mean(x) (4), sq = SquaredDifference(x, 4) (5), var = Mean(5) (6), 6 + eps (7), rsqrt(7)
  // (8), scale = 8 * gamma (9), mean * 9 (10), beta - 10 (11), x * 9 (12), 12 + 11 (13).
  EXPECT_EQ(Operands(*cluster), "0,0,4,5,6,1,7,8,2,4,9,3,10,0,9,12,11");
  EXPECT_EQ(Inputs(*Find("after")), "out");
  // The float probe (before shapes are inferred), then the cluster.
  EXPECT_EQ(asked_,
            (std::vector<std::string>{
                "_MlirCluster[Sum]@",
                "_MlirCluster[Mean,SquaredDifference,Mean,AddV2,Rsqrt,Mul,Mul,Sub,Mul,AddV2]@"}));
}

TEST_F(MlirClusteringTest, ChainWithACallbackOpAndNoReductionIsLeftAlone) {
  // Sqrt would be a call back per vector of elements: such a chain stays for elementwise fusion.
  Load(Input("x", {2, 32}) + Node("a", "Sqrt", {"x"}) + Node("b", "Neg", {"a"}) +
       Node("c", "Mul", {"b", "x"}));
  EXPECT_FALSE(Cluster());
  EXPECT_EQ(Find("c")->op(), "Mul");
  EXPECT_EQ(CountOp("_MlirCluster"), 0);
  // Neg and Mul are computed inline, so the probe is asked; the group never forms.
  EXPECT_EQ(asked_, std::vector<std::string>{"_MlirCluster[Sum]@"});
}

// A swish, x * sigmoid(x): Eigen's logistic (and exp) are written out, so it is compiled.
TEST_F(MlirClusteringTest, SwishIsACluster) {
  Load(Input("x", {-1, 64}) + Node("s", "Sigmoid", {"x"}) + Node("out", "Mul", {"x", "s"}));
  ASSERT_TRUE(Cluster());
  EXPECT_EQ(Find("out")->op(), "_MlirCluster");
  EXPECT_EQ(Ops(*Find("out")), "Sigmoid,Mul");
}

TEST_F(MlirClusteringTest, ChainOfInlineOpsIsClusteredWhenRowsAreLongEnough) {
  // A Gelu: 0.5 * x * (1 + erf(x * 0.7071)), every op computed inline.
  const std::string gelu = Constant("half", {}, 0.5f) + Constant("one", {}, 1.f) +
                           Constant("inv_sqrt2", {}, 0.70710678f) +
                           Node("s", "Mul", {"x", "inv_sqrt2"}) + Node("e", "Erf", {"s"}) +
                           Node("a", "AddV2", {"one", "e"}) + Node("h", "Mul", {"half", "x"}) +
                           Node("out", "Mul", {"h", "a"});
  Load(Input("x", {-1, 4, 32}) + gelu);
  EXPECT_TRUE(Cluster());
  const NodeDef* out = Find("out");
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->op(), "_MlirCluster");
  EXPECT_EQ(Ops(*out), "Mul,Mul,Erf,AddV2,Mul");
  EXPECT_EQ(Inputs(*out), "half,x,inv_sqrt2,one");

  // Rows of 8: mostly the one-element tail loop, so elementwise fusion keeps them.
  g_ = std::make_unique<Graph>(OpRegistry::Global());
  Load(Input("x", {4, 8}) + gelu);
  EXPECT_FALSE(Cluster());
  EXPECT_EQ(CountOp("_MlirCluster"), 0);
}

// Keras 3's exact Gelu after a Dense layer: 0.5 * b * erfc(-b * 0.7071), b = BiasAdd(x, bias).
// Erfc is computed inline, and the BiasAdd joins as the AddV2 it is.
TEST_F(MlirClusteringTest, BiasAddAndErfcGeluBecomeOneCluster) {
  const std::string gelu = Constant("half", {}, 0.5f) + Constant("inv_sqrt2", {}, 0.7071f) +
                           Node("h", "Mul", {"half", "b"}) + Node("n", "Neg", {"b"}) +
                           Node("s", "Mul", {"n", "inv_sqrt2"}) + Node("e", "Erfc", {"s"}) +
                           Node("out", "Mul", {"h", "e"});
  Load(Input("x", {-1, 49, 32}) + Constant("bias", {32}, 0.1f) +
       Node("b", "BiasAdd", {"x", "bias"}) + gelu);
  ASSERT_TRUE(Cluster());
  const NodeDef* out = Find("out");
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->op(), "_MlirCluster");
  EXPECT_EQ(Ops(*out), "AddV2,Neg,Mul,Erfc,Mul,Mul");
  EXPECT_EQ(Inputs(*out), "x,bias,inv_sqrt2,half");
  EXPECT_EQ(Find("b"), nullptr);

  // In NCHW the bias runs along dim 1, which no kind describes: the BiasAdd stays, and the
  // Gelu after it is a cluster of its own.
  g_ = std::make_unique<Graph>(OpRegistry::Global());
  Load(Input("x", {1, 32, 4, 32}) + Constant("bias", {32}, 0.1f) +
       "node { name: 'b' op: 'BiasAdd' input: 'x' input: 'bias' attr { key: 'T' value { type: "
       "DT_FLOAT } } attr { key: 'data_format' value { s: 'NCHW' } } }" +
       gelu);
  ASSERT_TRUE(Cluster());
  EXPECT_EQ(Find("b")->op(), "BiasAdd");
  EXPECT_EQ(Ops(*Find("out")), "Neg,Mul,Erfc,Mul,Mul");
}

TEST_F(MlirClusteringTest, ReductionsThatDropTheAxisAreLeftAlone) {
  Load(Input("x", {2, 8}) + Axis("axis", -1) + Reduce("m", "Mean", "x", "axis", false) +
       Node("n", "Neg", {"m"}));
  EXPECT_FALSE(Cluster());
  EXPECT_EQ(Find("m")->op(), "Mean");
  EXPECT_EQ(Find("n")->op(), "Neg");
  EXPECT_NE(Find("axis"), nullptr);
  EXPECT_TRUE(asked_.empty());
}

TEST_F(MlirClusteringTest, ReductionsOverAnotherAxisAreLeftAlone) {
  Load(Input("x", {2, 8}) + Axis("axis", 0) + Reduce("m", "Sum", "x", "axis") +
       Node("n", "Neg", {"m"}));
  EXPECT_FALSE(Cluster());
  EXPECT_EQ(Find("m")->op(), "Sum");
  EXPECT_EQ(Find("n")->op(), "Neg");
  EXPECT_NE(Find("axis"), nullptr);
  // Axes need shapes, so the probe is asked; the group never forms.
  EXPECT_EQ(asked_, std::vector<std::string>{"_MlirCluster[Sum]@"});
}

// A protected value is never inside a group: the cluster reads it as an input, and the node
// computing it stays.
TEST_F(MlirClusteringTest, ProtectedIntermediateStopsGrowth) {
  opts_.protected_names = {"mean"};
  Load(Input("x", {2, 3, 8}) + FloatLayerNormConstants() + LayerNorm("x"));
  ASSERT_TRUE(Cluster());
  ASSERT_NE(Find("mean"), nullptr);
  EXPECT_EQ(Find("mean")->op(), "Mean");
  EXPECT_EQ(Inputs(*Find("mean")), "x,axis1");
  EXPECT_EQ(Find("axis2"), nullptr);
  const NodeDef* cluster = Find("out");
  ASSERT_NE(cluster, nullptr);
  EXPECT_EQ(cluster->op(), "_MlirCluster");
  EXPECT_EQ(CountOp("_MlirCluster"), 1);
  EXPECT_EQ(Inputs(*cluster), "x,mean,eps,gamma,beta");
  EXPECT_EQ(Ops(*cluster), "SquaredDifference,Mean,AddV2,Rsqrt,Mul,Mul,Sub,Mul,AddV2");
}

// A reduction on another device, or with a control consumer, stays out of its consumers'
// group, which is then no cluster: elementwise chains are FuseElementwise's.
TEST_F(MlirClusteringTest, DeviceAndControlConsumersStopGrowth) {
  const std::string graph = Input("x", {4, 8}) + Axis("axis", -1) +
                            Reduce("m", "Sum", "x", "axis") + Node("d", "RealDiv", {"x", "m"}) +
                            Node("e", "Exp", {"d"});
  Load(graph);
  g_->FindNodeByName("m")->set_assigned_device_name("/job:a/replica:0/task:0/device:CPU:1");
  EXPECT_FALSE(Cluster());
  EXPECT_EQ(Find("m")->op(), "Sum");
  EXPECT_EQ(Find("e")->op(), "Exp");

  g_ = std::make_unique<Graph>(OpRegistry::Global());
  Load(graph + "node { name: 'after' op: 'NoOp' input: '^m' }");
  EXPECT_FALSE(Cluster());
  EXPECT_EQ(Find("m")->op(), "Sum");
  EXPECT_EQ(Find("e")->op(), "Exp");

  // Control inputs move to the cluster.
  g_ = std::make_unique<Graph>(OpRegistry::Global());
  Load(graph + "node { name: 'gate' op: 'NoOp' }" +
       "node { name: 'after' op: 'NoOp' input: '^e' }");
  ASSERT_TRUE(g_->AddControlEdge(g_->FindNodeByName("gate"), g_->FindNodeByName("m")) != nullptr);
  ASSERT_TRUE(Cluster());
  EXPECT_EQ(Ops(*Find("e")), "Sum,RealDiv,Exp");
  EXPECT_EQ(Inputs(*Find("e")), "x,^gate");
  EXPECT_EQ(Inputs(*Find("after")), "^e");
}

TEST_F(MlirClusteringTest, DoubleGraphIsLeftAlone) {
  Load(Input("x", {2, 3, 8}, "DT_DOUBLE") + Input("eps", {}, "DT_DOUBLE") +
       Input("gamma", {8}, "DT_DOUBLE") + Input("beta", {8}, "DT_DOUBLE") +
       LayerNorm("x", "DT_DOUBLE"));
  EXPECT_FALSE(Cluster());
  EXPECT_EQ(CountOp("_MlirCluster"), 0);
  EXPECT_EQ(Find("mean")->op(), "Mean");
  EXPECT_EQ(Find("out")->op(), "AddV2");
  EXPECT_TRUE(asked_.empty());
}

// A row value ([4, 1]) times a column value ([1, 8]) is a full one; the axis may also be
// written as rank - 1, in an int64 [1].
TEST_F(MlirClusteringTest, RowTimesColumnIsFull) {
  Load(Input("x", {4, 8}) + Input("c", {1, 8}) + Axis("axis", 1, /*int64_vector=*/true) +
       Reduce("m", "Max", "x", "axis", true, "DT_FLOAT", "DT_INT64") +
       Node("p", "Mul", {"m", "c"}) + Node("out", "Sub", {"x", "p"}));
  ASSERT_TRUE(Cluster());
  const NodeDef* cluster = Find("out");
  ASSERT_NE(cluster, nullptr);
  EXPECT_EQ(cluster->op(), "_MlirCluster");
  EXPECT_EQ(Inputs(*cluster), "x,c");
  EXPECT_EQ(Ops(*cluster), "Max,Mul,Sub");
  EXPECT_EQ(Operands(*cluster), "0,2,1,0,3");
  EXPECT_EQ(Find("axis"), nullptr);
}

// A squeeze-and-excitation block: the spatial Mean and the 1x1 convolution stay outside; the
// gate, x * sigmoid(s) with s [N, 1, 1, C] along the same unknown N, is a cluster whose s is
// a batch column.
TEST_F(MlirClusteringTest, SqueezeAndExcitationGateIsACluster) {
  const std::string conv =
      "node { name: 'conv' op: 'Conv2D' input: 'squeezed' input: 'w' attr { key: 'T' value { "
      "type: DT_FLOAT } } attr { key: 'strides' value { list { i: 1 i: 1 i: 1 i: 1 } } } attr { "
      "key: 'padding' value { s: 'VALID' } } }";
  const std::string spatial_axes =
      "node { name: 'hw' op: 'Const' attr { key: 'dtype' value { type: DT_INT32 } } attr { key: "
      "'value' value { tensor { dtype: DT_INT32 tensor_shape { dim { size: 2 } } int_val: 1 "
      "int_val: 2 } } } }";
  Load(Input("x", {-1, 7, 7, 32}) + spatial_axes + Reduce("squeezed", "Mean", "x", "hw") +
       Constant("w", {1, 1, 32, 32}, 0.1f) + conv + Node("gate", "Sigmoid", {"conv"}) +
       Node("out", "Mul", {"x", "gate"}));
  ASSERT_TRUE(Cluster());
  const NodeDef* out = Find("out");
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->op(), "_MlirCluster");
  EXPECT_EQ(Ops(*out), "Sigmoid,Mul");
  EXPECT_EQ(Inputs(*out), "conv,x");
  const auto& kinds = out->attr().at("_input_kinds").list().s();
  EXPECT_EQ(absl::StrJoin(kinds.begin(), kinds.end(), ","), "batch_column,full");
  EXPECT_EQ(Find("squeezed")->op(), "Mean");
  EXPECT_EQ(Find("conv")->op(), "Conv2D");

  // A gate whose first dim is another unknown one may not be the image's: left alone.
  g_ = std::make_unique<Graph>(OpRegistry::Global());
  Load(Input("x", {-1, 7, 7, 32}) + Input("s", {-1, 1, 1, 32}) + Node("gate", "Sigmoid", {"s"}) +
       Node("out", "Mul", {"x", "gate"}));
  EXPECT_FALSE(Cluster());
  EXPECT_EQ(Find("out")->op(), "Mul");

  // Known dims: [2, 1, 1, 32] against [2, 7, 7, 32].
  g_ = std::make_unique<Graph>(OpRegistry::Global());
  Load(Input("x", {2, 7, 7, 32}) + Input("s", {2, 1, 1, 32}) + Node("gate", "Sigmoid", {"s"}) +
       Node("out", "Mul", {"x", "gate"}));
  ASSERT_TRUE(Cluster());
  EXPECT_EQ(Ops(*Find("out")), "Sigmoid,Mul");
}

// A value of none of the kinds ([3, 1, 8] against [4, 8]) keeps the group out.
TEST_F(MlirClusteringTest, UnclassifiableBroadcastIsLeftAlone) {
  Load(Input("x", {4, 8}) + Input("c", {3, 1, 8}) + Axis("axis", -1) +
       Reduce("m", "Max", "x", "axis") + Node("out", "Mul", {"m", "c"}));
  EXPECT_FALSE(Cluster());
  EXPECT_EQ(Find("out")->op(), "Mul");
  EXPECT_EQ(Find("m")->op(), "Max");
}

// The axes Const stays while something outside the cluster still reads it.
TEST_F(MlirClusteringTest, SharedAxisStays) {
  Load(Input("x", {4, 8}) + Input("y", {4, 8}) + Axis("axis", -1) +
       Reduce("m", "Sum", "x", "axis") + Node("out", "RealDiv", {"x", "m"}) +
       Reduce("other", "Sum", "y", "axis", false));
  ASSERT_TRUE(Cluster());
  EXPECT_EQ(Ops(*Find("out")), "Sum,RealDiv");
  ASSERT_NE(Find("axis"), nullptr);
  EXPECT_EQ(Inputs(*Find("other")), "y,axis");
}

// An unknown batch dim is one handle along the chain, so the values still have their kinds.
TEST_F(MlirClusteringTest, UnknownBatchDimAlongTheChain) {
  Load(Input("x", {-1, 3, 8}) + FloatLayerNormConstants() + LayerNorm("x"));
  ASSERT_TRUE(Cluster());
  EXPECT_EQ(Ops(*Find("out")), "Mean,SquaredDifference,Mean,AddV2,Rsqrt,Mul,Mul,Sub,Mul,AddV2");
}

TEST_F(MlirClusteringTest, UnknownRankIsLeftAlone) {
  Load(
      "node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } }"
      " attr { key: 'shape' value { shape { unknown_rank: true } } } }" +
      Axis("axis", -1) + Reduce("m", "Mean", "x", "axis") + Node("d", "Sub", {"x", "m"}));
  EXPECT_FALSE(Cluster());
  EXPECT_EQ(Find("m")->op(), "Mean");
  EXPECT_EQ(Find("d")->op(), "Sub");
}

TEST_F(MlirClusteringTest, NoKernelNoCluster) {
  kernels_exist_ = false;
  Load(Input("x", {2, 3, 8}) + FloatLayerNormConstants() + LayerNorm("x"));
  EXPECT_FALSE(Cluster());
  EXPECT_EQ(CountOp("_MlirCluster"), 0);
  EXPECT_EQ(Find("out")->op(), "AddV2");
  EXPECT_NE(Find("axis1"), nullptr);
  // Without a kernel for float, nothing more is asked (and no shapes are inferred).
  EXPECT_EQ(asked_, std::vector<std::string>{"_MlirCluster[Sum]@"});
}

TEST_F(MlirClusteringTest, KernelExistsUnsetClustersNothing) {
  opts_.kernel_exists = nullptr;
  Load(Input("x", {2, 3, 8}) + FloatLayerNormConstants() + LayerNorm("x"));
  EXPECT_FALSE(Cluster());
  EXPECT_EQ(Find("out")->op(), "AddV2");
}

}  // namespace
}  // namespace sluice
