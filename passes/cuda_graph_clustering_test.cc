#include "passes/cuda_graph_clustering.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/algorithm.h"
#include "graph/graph.h"
#include "graph/import/graph_testutil.h"
#include "graph/op/op_registry.h"
#include "gtest/gtest.h"
#include "proto/graph.pb.h"

namespace sluice {
namespace {

constexpr char kGpu[] = "/job:localhost/replica:0/task:0/device:GPU:0";
constexpr char kCpu[] = "/job:localhost/replica:0/task:0/device:CPU:0";

std::string Input(const std::string& name, const std::string& type = "DT_FLOAT") {
  return absl::StrCat("node { name: '", name, "' op: 'Placeholder' attr { key: 'dtype' value { ",
                      "type: ", type, " } } }\n");
}

std::string Op(const std::string& name, const std::string& op,
               const std::vector<std::string>& inputs, const std::string& extra = "") {
  std::string s = absl::StrCat("node { name: '", name, "' op: '", op, "'");
  for (const std::string& in : inputs) absl::StrAppend(&s, " input: '", in, "'");
  return absl::StrCat(s, " attr { key: 'T' value { type: DT_FLOAT } } ", extra, " }\n");
}

std::string IntVector(const std::string& name, const std::vector<int>& values) {
  std::string s = absl::StrCat(
      "node { name: '", name,
      "' op: 'Const' attr { key: 'dtype' value { type: DT_INT32 } } attr { key: 'value' value { "
      "tensor { dtype: DT_INT32 tensor_shape { dim { size: ",
      values.size(), " } }");
  for (int v : values) absl::StrAppend(&s, " int_val: ", v);
  return absl::StrCat(s, " } } } }\n");
}

class CudaGraphClusteringTest : public ::testing::Test {
 protected:
  CudaGraphClusteringTest() {
    opts_.kernel_exists = [this](const NodeDef& node, const std::string& device) {
      return kernels_exist_ && node.op() == "_CudaGraph" && device == kGpu;
    };
  }

  // Loads `text` with every node on the GPU but those named cpu_*.
  void Load(const std::string& text) {
    g_ = std::make_unique<Graph>(OpRegistry::Global());
    const absl::Status s = GraphFromTextForTest(text, g_.get());
    ASSERT_TRUE(s.ok()) << s;
    for (Node* n : g_->op_nodes()) {
      n->set_assigned_device_name(absl::StartsWith(n->name(), "cpu_") ? kCpu : kGpu);
    }
  }

  bool Cluster() {
    bool changed = false;
    const absl::Status s = FormCudaGraphClusters(opts_, g_.get(), &changed);
    EXPECT_TRUE(s.ok()) << s;
    g_->ToGraphDef(&out_);
    return changed;
  }

  std::vector<const NodeDef*> Graphs() const {
    std::vector<const NodeDef*> found;
    for (const NodeDef& n : out_.node()) {
      if (n.op() == "_CudaGraph") found.push_back(&n);
    }
    return found;
  }

  static std::vector<std::string> BodyNodes(const NodeDef& n) {
    GraphDef body;
    EXPECT_TRUE(body.ParseFromString(n.attr().at("body").s()));
    std::vector<std::string> names;
    for (const NodeDef& b : body.node()) names.push_back(b.name());
    return names;
  }

  const NodeDef* Find(const std::string& name) const { return FindNodeDefForTest(out_, name); }

  std::unique_ptr<Graph> g_;
  bool kernels_exist_ = true;
  CudaGraphClusteringOptions opts_;
  GraphDef out_;
};

// A dense block: x -> MatMul -> BiasAdd -> Relu -> MatMul -> Softmax, weights as Consts.
std::string DenseBlock() {
  const std::string w =
      "attr { key: 'dtype' value { type: DT_FLOAT } } attr { key: 'value' "
      "value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 2 } dim { "
      "size: 2 } } float_val: 1 } } }";
  const std::string b =
      "attr { key: 'dtype' value { type: DT_FLOAT } } attr { key: 'value' "
      "value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 2 } } "
      "float_val: 1 } } }";
  return absl::StrCat(Input("cpu_x"), "node { name: 'w1' op: 'Const' ", w, " }\n",
                      "node { name: 'w2' op: 'Const' ", w, " }\n", "node { name: 'b1' op: 'Const' ",
                      b, " }\n", Op("mm1", "MatMul", {"cpu_x", "w1"}),
                      Op("bias", "BiasAdd", {"mm1", "b1"}), Op("relu", "Relu", {"bias"}),
                      Op("mm2", "MatMul", {"relu", "w2"}), Op("probs", "Softmax", {"mm2"}));
}

TEST_F(CudaGraphClusteringTest, ADenseBlockBecomesOneGraph) {
  Load(DenseBlock() + Op("cpu_out", "Identity", {"probs"}));
  ASSERT_TRUE(Cluster());
  const std::vector<const NodeDef*> graphs = Graphs();
  ASSERT_EQ(graphs.size(), 1u);
  const NodeDef& graph = *graphs[0];
  std::vector<std::string> members = BodyNodes(graph);
  std::sort(members.begin(), members.end());
  EXPECT_EQ(members,
            (std::vector<std::string>{"b1", "bias", "mm1", "mm2", "probs", "relu", "w1", "w2"}));
  ASSERT_EQ(graph.input_size(), 1);
  EXPECT_EQ(graph.input(0), "cpu_x");
  const auto& outputs = graph.attr().at("output_names").list().s();
  ASSERT_EQ(outputs.size(), 1);
  EXPECT_EQ(outputs[0], "probs:0");
  EXPECT_EQ(Find("cpu_out")->input(0), graph.name());
  // The body reads the node's input by its reserved name.
  GraphDef body;
  ASSERT_TRUE(body.ParseFromString(graph.attr().at("body").s()));
  std::vector<std::string> seen;
  for (const NodeDef& n : body.node()) {
    // Producers first: the kernel runs the body in this order.
    for (const std::string& input : n.input()) {
      const std::string producer = input.substr(0, input.find(':'));
      if (producer != kCudaGraphInput) {
        EXPECT_NE(std::find(seen.begin(), seen.end(), producer), seen.end()) << n.name();
      }
    }
    seen.push_back(n.name());
    if (n.name() == "mm1") EXPECT_EQ(n.input(0), "_cuda_graph_input:0");
    if (n.name() == "mm1") EXPECT_EQ(n.input(1), "w1:0");
    EXPECT_EQ(n.device(), kGpu) << n.name();
  }
  // Acyclic, with the node on the GPU.
  std::vector<Node*> order;
  GetReversePostOrder(*g_, &order);
  for (Node* n : g_->op_nodes()) {
    if (n->type_string() == "_CudaGraph") EXPECT_EQ(n->assigned_device_name(), kGpu);
  }
}

TEST_F(CudaGraphClusteringTest, FetchedNodesStayOutside) {
  opts_.protected_names = {"probs"};
  Load(DenseBlock());
  ASSERT_TRUE(Cluster());
  ASSERT_EQ(Graphs().size(), 1u);
  ASSERT_NE(Find("probs"), nullptr);
  EXPECT_EQ(Find("probs")->op(), "Softmax");
  EXPECT_EQ(Graphs()[0]->attr().at("output_names").list().s(0), "mm2:0");
}

// relu -> LRN (no capturable kernel) -> AddV2 with probs: the AddV2 is reached through a
// non-member, so it cannot be in relu's region (the region would feed LRN and read it back).
TEST_F(CudaGraphClusteringTest, RegionsAreConvex) {
  Load(DenseBlock() + Op("lrn", "LRN", {"relu"}) + Op("mixed", "AddV2", {"probs", "lrn"}) +
       Op("cpu_out", "Identity", {"mixed"}));
  ASSERT_TRUE(Cluster());
  ASSERT_EQ(Graphs().size(), 1u);
  for (const std::string& name : BodyNodes(*Graphs()[0])) EXPECT_NE(name, "mixed");
  EXPECT_EQ(Find("mixed")->op(), "AddV2");
  EXPECT_EQ(Find("relu"), nullptr);
  std::vector<Node*> order;
  GetReversePostOrder(*g_, &order);
  // Every edge goes forward in the order: no cycle formed.
  absl::flat_hash_map<const Node*, int> position;
  for (int i = 0; i < static_cast<int>(order.size()); ++i) position[order[i]] = i;
  for (const Edge* e : g_->edges()) {
    if (e->src()->IsOp() && e->dst()->IsOp()) {
      EXPECT_LT(position[e->src()], position[e->dst()])
          << e->src()->name() << " -> " << e->dst()->name();
    }
  }
}

// An int32 value from outside (a shape fed by the caller) would change under a replay.
TEST_F(CudaGraphClusteringTest, HostArgumentsMustBeConstsInside) {
  Load(DenseBlock() + Input("cpu_dims", "DT_INT32") +
       Op("reshaped", "Reshape", {"probs", "cpu_dims"},
          "attr { key: 'Tshape' value { type: DT_INT32 } }") +
       IntVector("dims", {4}) +
       Op("flat", "Reshape", {"probs", "dims"}, "attr { key: 'Tshape' value { type: DT_INT32 } }") +
       Op("cpu_a", "Identity", {"reshaped"}) + Op("cpu_b", "Identity", {"flat"}));
  ASSERT_TRUE(Cluster());
  ASSERT_EQ(Graphs().size(), 1u);
  const std::vector<std::string> body = BodyNodes(*Graphs()[0]);
  EXPECT_NE(std::find(body.begin(), body.end(), "flat"), body.end());
  EXPECT_NE(std::find(body.begin(), body.end(), "dims"), body.end());
  EXPECT_EQ(std::find(body.begin(), body.end(), "reshaped"), body.end());
}

TEST_F(CudaGraphClusteringTest, SmallRegionsAndOtherDevicesAreLeftAlone) {
  Load(Input("cpu_x") + Op("a", "Relu", {"cpu_x"}) + Op("b", "Neg", {"a"}) +
       Op("cpu_c", "Exp", {"b"}) + Op("cpu_d", "Exp", {"cpu_c"}) + Op("cpu_e", "Exp", {"cpu_d"}) +
       Op("cpu_f", "Exp", {"cpu_e"}));
  EXPECT_FALSE(Cluster());
  EXPECT_TRUE(Graphs().empty());
}

// A build without CUDA has no _CudaGraph kernel: nothing changes.
TEST_F(CudaGraphClusteringTest, NoKernelNoRegion) {
  kernels_exist_ = false;
  Load(DenseBlock() + Op("cpu_out", "Identity", {"probs"}));
  EXPECT_FALSE(Cluster());
  EXPECT_TRUE(Graphs().empty());
  EXPECT_EQ(Find("relu")->op(), "Relu");
}

}  // namespace
}  // namespace sluice
