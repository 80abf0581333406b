#include "passes/auto_mixed_precision.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/graph.h"
#include "graph/import/graph_testutil.h"
#include "graph/op/node_def_util.h"
#include "graph/op/op_registry.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

constexpr char kCpu[] = "/job:localhost/replica:0/task:0/device:CPU:0";
constexpr char kGpu[] = "/job:localhost/replica:0/task:0/device:GPU:0";

std::string Placeholder(const std::string& name, const std::string& dtype = "DT_FLOAT") {
  return absl::StrCat("node { name: '", name,
                      "' op: 'Placeholder' attr { key: 'dtype' value { type: ", dtype, " } } }");
}

// A node with T = float and the given inputs and extra attrs.
std::string Op(const std::string& name, const std::string& op,
               const std::vector<std::string>& inputs, const std::string& attrs = "") {
  std::string s = absl::StrCat("node { name: '", name, "' op: '", op, "'");
  for (const std::string& in : inputs) absl::StrAppend(&s, " input: '", in, "'");
  return absl::StrCat(s, " attr { key: 'T' value { type: DT_FLOAT } }", attrs, " }");
}

std::string Int32Const(const std::string& name, const std::vector<int>& values) {
  std::string s = absl::StrCat("node { name: '", name,
                               "' op: 'Const' attr { key: 'dtype' value { type: DT_INT32 } }"
                               " attr { key: 'value' value { tensor { dtype: DT_INT32"
                               " tensor_shape { dim { size: ",
                               values.size(), " } }");
  for (int v : values) absl::StrAppend(&s, " int_val: ", v);
  return absl::StrCat(s, " } } } }");
}

class AutoMixedPrecisionTest : public ::testing::Test {
 protected:
  AutoMixedPrecisionTest() : g_(std::make_unique<Graph>(OpRegistry::Global())) {
    opts_.kernel_exists = [this](const NodeDef& node, const std::string& device) {
      for (const std::string& op : missing_kernels_) {
        if (node.op() == op && !HasFloatTypeAttr(node)) return false;
      }
      return true;
    };
  }

  static bool HasFloatTypeAttr(const NodeDef& node) {
    for (const auto& [name, value] : node.attr()) {
      if (value.value_case() == AttrValue::kType && value.type() == DT_FLOAT) return true;
    }
    return false;
  }

  // Loads `text` with every op node assigned to `device`.
  void Load(const std::string& text, const std::string& device = kGpu) {
    const absl::Status s = GraphFromTextForTest(text, g_.get());
    ASSERT_TRUE(s.ok()) << s;
    for (Node* n : g_->op_nodes()) n->set_assigned_device_name(device);
  }

  bool Rewrite() {
    bool changed = false;
    const absl::Status s = AutoMixedPrecision(opts_, g_.get(), &changed);
    EXPECT_TRUE(s.ok()) << s;
    return changed;
  }

  // The node's T attr, as a DataType name ("float", "half", "bfloat16").
  std::string T(const std::string& name, const std::string& attr = "T") {
    const Node* n = g_->FindNodeByName(name);
    if (n == nullptr) return "<missing>";
    DataType t = DT_INVALID;
    if (!TryGetNodeAttr(n->attrs(), attr, &t)) return "<no attr>";
    return DataTypeString(t);
  }

  // Every Cast as "producer[:k]->(half|bfloat16|float)->consumer[:j],...", sorted.
  std::string Casts() {
    std::vector<std::string> out;
    for (const Node* n : g_->op_nodes()) {
      if (n->type_string() != "Cast") continue;
      const Node* src = nullptr;
      if (!n->input_node(0, &src).ok()) continue;
      std::vector<std::string> consumers;
      for (const Edge* e : n->out_edges()) {
        if (e->IsControlEdge()) continue;
        consumers.push_back(e->dst_input() == 0
                                ? e->dst()->name()
                                : absl::StrCat(e->dst()->name(), ":", e->dst_input()));
      }
      std::sort(consumers.begin(), consumers.end());
      DataType dst = DT_INVALID;
      TryGetNodeAttr(n->attrs(), "DstT", &dst);
      bool truncate = true;
      TryGetNodeAttr(n->attrs(), "Truncate", &truncate);
      EXPECT_FALSE(truncate) << n->name();
      EXPECT_EQ(n->assigned_device_name(), src->assigned_device_name()) << n->name();
      out.push_back(absl::StrCat(src->name(), "->", DataTypeString(dst), "->",
                                 absl::StrJoin(consumers, ",")));
    }
    std::sort(out.begin(), out.end());
    return absl::StrJoin(out, " ");
  }

  // The op nodes whose type attrs include `dtype`, sorted.
  std::string NodesWith(DataType dtype) {
    std::vector<std::string> names;
    for (const Node* n : g_->op_nodes()) {
      if (n->type_string() == "Cast") continue;
      for (const auto& [name, value] : n->def().attr()) {
        if (value.value_case() == AttrValue::kType && value.type() == dtype) {
          names.push_back(n->name());
          break;
        }
      }
    }
    std::sort(names.begin(), names.end());
    return absl::StrJoin(names, " ");
  }

  std::unique_ptr<Graph> g_;
  AutoMixedPrecisionOptions opts_;
  std::vector<std::string> missing_kernels_;
};

std::string MatMulChain() {
  return Placeholder("x") + Placeholder("w") + Placeholder("w2") + Op("mm", "MatMul", {"x", "w"}) +
         Op("r", "Relu", {"mm"}) + Op("mm2", "MatMul", {"r", "w2"}) +
         Op("out", "Identity", {"mm2"});
}

TEST_F(AutoMixedPrecisionTest, NothingHappensWhenOff) {
  Load(MatMulChain());
  const std::string before = CanonicalGraphString(*g_);
  EXPECT_FALSE(Rewrite());
  EXPECT_EQ(CanonicalGraphString(*g_), before);
  EXPECT_EQ(T("mm"), "float");
}

TEST_F(AutoMixedPrecisionTest, NothingHappensWithoutKernelExists) {
  Load(MatMulChain());
  opts_.float16_on_gpu = true;
  opts_.kernel_exists = nullptr;
  EXPECT_FALSE(Rewrite());
  EXPECT_EQ(T("mm"), "float");
}

TEST_F(AutoMixedPrecisionTest, MatMulsAndTheClearNodeBetweenBecomeHalf) {
  Load(MatMulChain());
  opts_.float16_on_gpu = true;
  opts_.protected_names = {"out", "x", "w", "w2"};
  EXPECT_TRUE(Rewrite());
  EXPECT_EQ(NodesWith(DT_HALF), "mm mm2 r");
  EXPECT_EQ(T("out"), "float");
  EXPECT_EQ(Casts(), "mm2->float->out w->half->mm:1 w2->half->mm2:1 x->half->mm");
  // The rewritten graph is still well typed: every edge joins equal dtypes.
  for (const Edge* e : g_->edges()) {
    if (e->IsControlEdge() || !e->src()->IsOp() || !e->dst()->IsOp()) continue;
    EXPECT_EQ(e->src()->output_type(e->src_output()), e->dst()->input_type(e->dst_input()))
        << e->DebugString();
  }
}

TEST_F(AutoMixedPrecisionTest, DenyNodeBetweenAllowNodesKeepsFloat) {
  Load(Placeholder("x") + Placeholder("w") + Placeholder("w2") + Op("mm", "MatMul", {"x", "w"}) +
       Op("e", "Exp", {"mm"}) + Op("mm2", "MatMul", {"e", "w2"}) + Op("out", "Identity", {"mm2"}));
  opts_.float16_on_gpu = true;
  opts_.protected_names = {"out"};
  EXPECT_TRUE(Rewrite());
  EXPECT_EQ(T("e"), "float");
  EXPECT_EQ(NodesWith(DT_HALF), "mm mm2");
  EXPECT_EQ(Casts(),
            "e->half->mm2 mm->float->e mm2->float->out w->half->mm:1 w2->half->mm2:1 x->half->mm");
}

TEST_F(AutoMixedPrecisionTest, InferNodeDownstreamOfDenyKeepsFloat) {
  // Exp -> Identity -> Tanh -> MatMul: deny reaches Tanh through the clear Identity.
  Load(Placeholder("x") + Placeholder("w") + Placeholder("w2") + Op("mm", "MatMul", {"x", "w"}) +
       Op("e", "Exp", {"mm"}) + Op("i", "Identity", {"e"}) + Op("t", "Tanh", {"i"}) +
       Op("mm2", "MatMul", {"t", "w2"}) + Op("out", "Identity", {"mm2"}));
  opts_.float16_on_gpu = true;
  opts_.protected_names = {"out"};
  EXPECT_TRUE(Rewrite());
  EXPECT_EQ(NodesWith(DT_HALF), "mm mm2");
  EXPECT_EQ(T("i"), "float");
  EXPECT_EQ(T("t"), "float");
}

TEST_F(AutoMixedPrecisionTest, InferNodeBetweenAllowNodesBecomesHalf) {
  Load(Placeholder("x") + Placeholder("w") + Placeholder("w2") + Placeholder("b") +
       Op("mm", "MatMul", {"x", "w"}) + Op("ba", "BiasAdd", {"mm", "b"}) + Op("t", "Tanh", {"ba"}) +
       Op("mm2", "MatMul", {"t", "w2"}) + Op("out", "Identity", {"mm2"}));
  opts_.float16_on_gpu = true;
  opts_.protected_names = {"out"};
  EXPECT_TRUE(Rewrite());
  EXPECT_EQ(NodesWith(DT_HALF), "ba mm mm2 t");
}

TEST_F(AutoMixedPrecisionTest, ClearNodesTakeTheAllowColourBothWays) {
  // shape -> Reshape after the MatMul, and a Transpose before it: all clear, all half. The
  // Reshape's Tshape (int32) and the Transpose's Tperm stay as they are.
  Load(Placeholder("x") + Placeholder("w") + Int32Const("shape", {-1}) +
       Int32Const("perm", {1, 0}) +
       Op("tr", "Transpose", {"x", "perm"}, " attr { key: 'Tperm' value { type: DT_INT32 } }") +
       Op("mm", "MatMul", {"tr", "w"}) + Op("r", "Relu", {"mm"}) +
       Op("rs", "Reshape", {"r", "shape"}, " attr { key: 'Tshape' value { type: DT_INT32 } }") +
       Op("out", "Identity", {"rs"}));
  opts_.float16_on_gpu = true;
  opts_.protected_names = {"out"};
  EXPECT_TRUE(Rewrite());
  EXPECT_EQ(NodesWith(DT_HALF), "mm r rs tr");
  EXPECT_EQ(T("rs", "Tshape"), "int32");
  EXPECT_EQ(T("tr", "Tperm"), "int32");
  EXPECT_EQ(Casts(), "rs->float->out w->half->mm:1 x->half->tr");
}

TEST_F(AutoMixedPrecisionTest, FetchedNodesKeepTheirDtype) {
  // mm and r are fetched: they stay float32 (and so no Cast is needed after them).
  Load(MatMulChain());
  opts_.float16_on_gpu = true;
  opts_.protected_names = {"mm", "r", "out"};
  EXPECT_TRUE(Rewrite());
  EXPECT_EQ(NodesWith(DT_HALF), "mm2");
  EXPECT_EQ(T("mm"), "float");
  EXPECT_EQ(T("r"), "float");
  EXPECT_EQ(Casts(), "mm2->float->out r->half->mm2 w2->half->mm2:1");
}

TEST_F(AutoMixedPrecisionTest, NodeWithoutHalfKernelKeepsFloat) {
  Load(MatMulChain());
  opts_.float16_on_gpu = true;
  opts_.protected_names = {"out"};
  missing_kernels_ = {"MatMul"};
  EXPECT_FALSE(Rewrite());
  EXPECT_EQ(NodesWith(DT_HALF), "");
  EXPECT_EQ(Casts(), "");
}

TEST_F(AutoMixedPrecisionTest, ClearNodeWithoutHalfKernelStopsTheSpread) {
  Load(MatMulChain());
  opts_.float16_on_gpu = true;
  opts_.protected_names = {"out"};
  missing_kernels_ = {"Relu"};
  EXPECT_TRUE(Rewrite());
  EXPECT_EQ(NodesWith(DT_HALF), "mm mm2");
  EXPECT_EQ(T("r"), "float");
}

TEST_F(AutoMixedPrecisionTest, OnlyNodesOnTheTargetDeviceChange) {
  Load(MatMulChain(), kCpu);
  opts_.float16_on_gpu = true;
  EXPECT_FALSE(Rewrite());
  EXPECT_EQ(NodesWith(DT_HALF), "");

  opts_.float16_on_gpu = false;
  opts_.bfloat16_on_cpu = true;
  opts_.protected_names = {"out"};
  EXPECT_TRUE(Rewrite());
  EXPECT_EQ(NodesWith(DT_BFLOAT16), "mm mm2 r");
}

TEST_F(AutoMixedPrecisionTest, OneCastPerOutputAndType) {
  // x feeds two MatMuls (one Cast to half) and a float Exp (no Cast).
  Load(Placeholder("x") + Placeholder("w") + Op("a", "MatMul", {"x", "w"}) +
       Op("b", "MatMul", {"x", "w"}, " attr { key: 'transpose_b' value { b: true } }") +
       Op("e", "Exp", {"x"}) + Op("out_a", "Identity", {"a"}) + Op("out_b", "Identity", {"b"}) +
       Op("out_e", "Identity", {"e"}));
  opts_.float16_on_gpu = true;
  opts_.protected_names = {"out_a", "out_b", "out_e"};
  EXPECT_TRUE(Rewrite());
  EXPECT_EQ(Casts(), "a->float->out_a b->float->out_b w->half->a:1,b:1 x->half->a,b");
}

TEST_F(AutoMixedPrecisionTest, InferAfterAllowOnlyForBfloat16) {
  const std::string text = Placeholder("x") + Placeholder("w") + Op("mm", "MatMul", {"x", "w"}) +
                           Op("s", "Sigmoid", {"mm"}) + Op("out", "Identity", {"s"});
  Load(text);
  opts_.float16_on_gpu = true;
  opts_.protected_names = {"out"};
  EXPECT_TRUE(Rewrite());
  EXPECT_EQ(T("s"), "float");

  g_ = std::make_unique<Graph>(OpRegistry::Global());
  Load(text, kCpu);
  opts_.float16_on_gpu = false;
  opts_.bfloat16_on_cpu = true;
  EXPECT_TRUE(Rewrite());
  EXPECT_EQ(T("s"), "bfloat16");
  EXPECT_EQ(Casts(), "s->float->out w->bfloat16->mm:1 x->bfloat16->mm");
}

TEST_F(AutoMixedPrecisionTest, CastIntoAllowNodesCastsStraightToHalf) {
  Load(Placeholder("i", "DT_INT32") + Placeholder("w") +
       "node { name: 'c' op: 'Cast' input: 'i' attr { key: 'SrcT' value { type: DT_INT32 } }"
       " attr { key: 'DstT' value { type: DT_FLOAT } } }" +
       Op("mm", "MatMul", {"c", "w"}) + Op("out", "Identity", {"mm"}));
  opts_.float16_on_gpu = true;
  opts_.protected_names = {"out"};
  EXPECT_TRUE(Rewrite());
  EXPECT_EQ(T("c", "DstT"), "half");
  EXPECT_EQ(T("c", "SrcT"), "int32");
  EXPECT_EQ(Casts(), "i->half->mm mm->float->out w->half->mm:1");
}

TEST_F(AutoMixedPrecisionTest, ListsCanBeEditedFromTheEnvironment) {
  MixedPrecisionLists lists = Float16Lists();
  EXPECT_TRUE(lists.allow.contains("MatMul"));
  EXPECT_TRUE(lists.deny.contains("Exp"));
  EXPECT_TRUE(lists.deny.contains("Sum"));
  EXPECT_TRUE(Bfloat16Lists().infer.contains("Sum"));
  EXPECT_TRUE(ValidateLists(lists).ok());
  EXPECT_TRUE(ValidateLists(Bfloat16Lists()).ok());
  ApplyListOverrides(
      [](const char* name) -> const char* {
        const std::string n = name;
        if (n == "TF_AUTO_MIXED_PRECISION_GRAPH_REWRITE_ALLOWLIST_REMOVE") return "MatMul";
        if (n == "TF_AUTO_MIXED_PRECISION_GRAPH_REWRITE_ALLOWLIST_ADD") return "Exp,Foo";
        return nullptr;
      },
      &lists);
  EXPECT_FALSE(lists.allow.contains("MatMul"));
  EXPECT_TRUE(lists.allow.contains("Foo"));
  const absl::Status s = ValidateLists(lists);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("Exp"), std::string::npos) << s;
  opts_.float16_lists = lists;
  opts_.float16_on_gpu = true;
  Load(MatMulChain());
  bool changed = false;
  EXPECT_EQ(AutoMixedPrecision(opts_, g_.get(), &changed).code(),
            absl::StatusCode::kInvalidArgument);
}

TEST_F(AutoMixedPrecisionTest, LoopBackEdgeKeepsOneColour) {
  // A while loop whose body multiplies by a MatMul: Enter -> Merge -> Switch -> MatMul ->
  // NextIteration -> Merge. The Merge, Switch:1 path and NextIteration all go half together.
  Load(Placeholder("x") + Placeholder("w") + Placeholder("p", "DT_BOOL") +
       Op("enter", "Enter", {"x"}, " attr { key: 'frame_name' value { s: 'loop' } }") +
       "node { name: 'merge' op: 'Merge' input: 'enter' input: 'next' attr { key: 'T' value {"
       " type: DT_FLOAT } } attr { key: 'N' value { i: 2 } } }" +
       "node { name: 'cond' op: 'LoopCond' input: 'p' }" +
       Op("switch", "Switch", {"merge", "cond"}) +
       Op("wenter", "Enter", {"w"},
          " attr { key: 'frame_name' value { s: 'loop' } }"
          " attr { key: 'is_constant' value { b: true } }") +
       Op("mm", "MatMul", {"switch:1", "wenter"}) + Op("next", "NextIteration", {"mm"}) +
       Op("exit", "Exit", {"switch"}) + Op("out", "Identity", {"exit"}));
  opts_.float16_on_gpu = true;
  opts_.protected_names = {"out"};
  EXPECT_TRUE(Rewrite());
  EXPECT_EQ(T("mm"), "half");
  EXPECT_EQ(T("next"), T("merge"));
  // Whatever the colour, no Cast sits between NextIteration and Merge.
  const Node* merge = g_->FindNodeByName("merge");
  const Node* back = nullptr;
  ASSERT_TRUE(merge->input_node(1, &back).ok());
  EXPECT_EQ(back->name(), "next");
}

// The graph of tests/fixtures/gen_amp_decisions.py, node for node. TensorFlow 2.21's own
// rewrite (auto_mixed_precision_onednn_bfloat16 = ON, on a CPU with bfloat16) made these
// nodes bfloat16: conv ba r mp rs mm s1 mm2 mean (oneDNN fuses conv into ba afterwards), and
// put Casts to bfloat16 after the five inputs and ex, and to float32 after mm, s1 and mean.
TEST_F(AutoMixedPrecisionTest, TensorFlowBfloat16Decisions) {
  const std::string strides = " attr { key: 'strides' value { list { i: [1, 1, 1, 1] } } }";
  Load(Placeholder("x") + Placeholder("w") + Placeholder("b") + Placeholder("w2") +
           Placeholder("w3") + Int32Const("rs/shape", {2, 64}) +
           Int32Const("mean/reduction_indices", {1}) +
           Op("conv", "Conv2D", {"x", "w"},
              strides + " attr { key: 'padding' value { s: 'SAME' } }") +
           Op("ba", "BiasAdd", {"conv", "b"}) + Op("r", "Relu", {"ba"}) +
           Op("mp", "MaxPool", {"r"},
              " attr { key: 'ksize' value { list { i: [1, 2, 2, 1] } } }"
              " attr { key: 'strides' value { list { i: [1, 2, 2, 1] } } }"
              " attr { key: 'padding' value { s: 'VALID' } }") +
           Op("rs", "Reshape", {"mp", "rs/shape"},
              " attr { key: 'Tshape' value { type: DT_INT32 } }") +
           Op("mm", "MatMul", {"rs", "w2"}) + Op("ex", "Exp", {"mm"}) +
           Op("s1", "Sigmoid", {"mm"}) + Op("t", "Tanh", {"ex"}) + Op("ad", "AddV2", {"s1", "t"}) +
           Op("sm", "Softmax", {"ad"}) + Op("out1", "Identity", {"sm"}) +
           Op("mm2", "MatMul", {"ex", "w3"}) +
           Op("mean", "Mean", {"mm2", "mean/reduction_indices"},
              " attr { key: 'Tidx' value { type: DT_INT32 } }") +
           Op("out2", "Identity", {"mean"}),
       kCpu);
  opts_.bfloat16_on_cpu = true;
  opts_.protected_names = {"x", "w", "b", "w2", "w3", "out1", "out2"};
  EXPECT_TRUE(Rewrite());
  EXPECT_EQ(NodesWith(DT_BFLOAT16), "ba conv mean mm mm2 mp r rs s1");
  EXPECT_EQ(Casts(),
            "b->bfloat16->ba:1 ex->bfloat16->mm2 mean->float->out2 mm->float->ex "
            "s1->float->ad w->bfloat16->conv:1 w2->bfloat16->mm:1 w3->bfloat16->mm2:1 "
            "x->bfloat16->conv");
}

}  // namespace
}  // namespace sluice
