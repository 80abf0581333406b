// LowerFunctionalOps on calls of library functions by name (a node whose op is a function's
// name, as TF1's Defun writes them). The other functional ops are run end to end by the
// control-flow fixtures (tests/control_flow).
#include "passes/lower_functional_ops.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gmock/gmock.h"
#include "graph/graph.h"
#include "graph/import/graph_testutil.h"
#include "graph/op/node_def_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// square_it(x: T) -> (y: T) = x * x; outer(x: float) -> (y: float) = square_it(x) + x, calling
// square_it by name; effect() with no outputs and a control output; forever(x: float) -> (y:
// float) calls itself; gated(x: float) -> (y: float) = -x with a control input from its
// argument.
constexpr char kLibrary[] = R"pb(
  library {
    function {
      signature {
        name: "square_it"
        input_arg { name: "x" type_attr: "T" }
        output_arg { name: "y" type_attr: "T" }
        attr { name: "T" type: "type" }
      }
      node_def {
        name: "m"
        op: "Mul"
        input: "x"
        input: "x"
        attr {
          key: "T"
          value { placeholder: "T" }
        }
      }
      ret { key: "y" value: "m:z:0" }
    }
    function {
      signature {
        name: "outer"
        input_arg { name: "x" type: DT_FLOAT }
        output_arg { name: "y" type: DT_FLOAT }
      }
      node_def {
        name: "sq"
        op: "square_it"
        input: "x"
        attr {
          key: "T"
          value { type: DT_FLOAT }
        }
      }
      node_def {
        name: "add"
        op: "AddV2"
        input: "sq:y:0"
        input: "x"
        attr {
          key: "T"
          value { type: DT_FLOAT }
        }
      }
      ret { key: "y" value: "add:z:0" }
    }
    function {
      signature { name: "effect" control_output: "done" }
      node_def { name: "n" op: "NoOp" }
      control_ret { key: "done" value: "n" }
    }
    function {
      signature {
        name: "forever"
        input_arg { name: "x" type: DT_FLOAT }
        output_arg { name: "y" type: DT_FLOAT }
      }
      node_def { name: "again" op: "forever" input: "x" }
      ret { key: "y" value: "again:y:0" }
    }
    function {
      signature {
        name: "gated"
        input_arg { name: "x" type: DT_FLOAT }
        output_arg { name: "y" type: DT_FLOAT }
      }
      node_def {
        name: "neg"
        op: "Neg"
        input: "x"
        input: "^x"
        attr {
          key: "T"
          value { type: DT_FLOAT }
        }
      }
      ret { key: "y" value: "neg:y:0" }
    }
    function {
      signature {
        name: "broken"
        input_arg { name: "x" type: DT_FLOAT }
        output_arg { name: "y" type: DT_FLOAT }
      }
      ret { key: "y" value: "nowhere:z:0" }
    }
    function {
      signature {
        name: "returns_nothing"
        input_arg { name: "x" type: DT_FLOAT }
      }
      node_def {
        name: "neg"
        op: "Neg"
        input: "x"
        attr {
          key: "T"
          value { type: DT_FLOAT }
        }
      }
    }
  })pb";

constexpr char kInput[] = R"pb(
  node {
    name: "a"
    op: "Placeholder"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
  }
  node { name: "before" op: "NoOp" })pb";

class LowerFunctionCallsTest : public ::testing::Test {
 protected:
  void Build(const std::string& nodes) {
    const absl::Status s = GraphFromTextForTest(std::string(kInput) + nodes + kLibrary, &g_);
    ASSERT_TRUE(s.ok()) << s;
  }
  absl::Status Lower() {
    changed_ = false;
    return LowerFunctionalOps(LowerFunctionalOpsOptions(), &g_, &changed_);
  }
  // The ops of the graph's nodes, sorted, with their counts ("Mul" twice: "Mul", "Mul").
  std::vector<std::string> Ops() const {
    std::vector<std::string> ops;
    for (const Node* n : g_.op_nodes()) ops.push_back(n->type_string());
    std::sort(ops.begin(), ops.end());
    return ops;
  }
  std::vector<std::string> ControlInputs(const std::string& name) const {
    std::vector<std::string> sources;
    for (const Edge* e : g_.FindNodeByName(name)->in_edges()) {
      if (e->IsControlEdge() && e->src()->IsOp()) sources.push_back(e->src()->name());
    }
    std::sort(sources.begin(), sources.end());
    return sources;
  }

  Graph g_{OpRegistry::Global()};
  bool changed_ = false;
};

TEST_F(LowerFunctionCallsTest, CallByNameIsInlinedWithTheNodesAttrs) {
  Build(R"pb(
    node {
      name: "c"
      op: "square_it"
      input: "a"
      input: "^before"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
      attr {
        key: "_disable_call_shape_inference"
        value { b: true }
      }
    }
    node {
      name: "d"
      op: "Identity"
      input: "c"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
    }
    node { name: "after" op: "NoOp" input: "^c" })pb");
  EXPECT_TRUE(IsLoweredFunctionalOp(*g_.FindNodeByName("c")));
  EXPECT_FALSE(IsLoweredFunctionalOp(*g_.FindNodeByName("d")));
  ASSERT_TRUE(Lower().ok());
  EXPECT_TRUE(changed_);
  EXPECT_THAT(Ops(),
              ElementsAre("Identity", "IdentityN", "Mul", "NoOp", "NoOp", "NoOp", "Placeholder"));
  // The call's name now holds its output, which its consumers read.
  const Node* c = g_.FindNodeByName("c");
  ASSERT_EQ(c->type_string(), "IdentityN");
  const Edge* in = nullptr;
  ASSERT_TRUE(c->input_edge(0, &in).ok());
  EXPECT_EQ(in->src()->type_string(), "Mul");
  EXPECT_EQ(in->src()->output_type(0), DT_FLOAT);
  ASSERT_TRUE(g_.FindNodeByName("d")->input_edge(0, &in).ok());
  EXPECT_EQ(in->src(), c);
  EXPECT_THAT(ControlInputs("after"), ElementsAre("c"));
  // The body waits for the call's control inputs (through the gate its inputs-free nodes
  // wait for).
  const Node* gate = nullptr;
  for (const Node* n : g_.op_nodes()) {
    if (absl::StartsWith(n->name(), "c/input_control_node")) gate = n;
  }
  ASSERT_NE(gate, nullptr);
  EXPECT_THAT(ControlInputs(gate->name()), ElementsAre("a", "before"));
  // Nothing is left to lower.
  ASSERT_TRUE(Lower().ok());
  EXPECT_FALSE(changed_);
}

TEST_F(LowerFunctionCallsTest, FunctionTypeAttrComesFromTheNode) {
  Build(R"pb(
    node {
      name: "i"
      op: "Placeholder"
      attr {
        key: "dtype"
        value { type: DT_INT32 }
      }
    }
    node {
      name: "c"
      op: "square_it"
      input: "i"
      attr {
        key: "T"
        value { type: DT_INT32 }
      }
    })pb");
  ASSERT_TRUE(Lower().ok());
  const Edge* in = nullptr;
  ASSERT_TRUE(g_.FindNodeByName("c")->input_edge(0, &in).ok());
  EXPECT_EQ(in->src()->type_string(), "Mul");
  EXPECT_EQ(in->src()->output_type(0), DT_INT32);
}

TEST_F(LowerFunctionCallsTest, NestedCallsByNameAreLoweredInTurn) {
  Build(R"pb(
    node { name: "c" op: "outer" input: "a" })pb");
  ASSERT_TRUE(Lower().ok());
  for (const Node* n : g_.op_nodes()) {
    EXPECT_FALSE(IsLoweredFunctionalOp(*n)) << n->name();
  }
  EXPECT_THAT(Ops(), ElementsAre("AddV2", "IdentityN", "IdentityN", "Mul", "NoOp", "NoOp", "NoOp",
                                 "Placeholder"));
  const Node* c = g_.FindNodeByName("c");
  const Edge* in = nullptr;
  ASSERT_TRUE(c->input_edge(0, &in).ok());
  EXPECT_EQ(in->src()->type_string(), "AddV2");
}

TEST_F(LowerFunctionCallsTest, CallWithoutOutputsKeepsItsControlEdges) {
  Build(R"pb(
    node { name: "c" op: "effect" input: "^before" }
    node { name: "after" op: "NoOp" input: "^c" })pb");
  ASSERT_TRUE(Lower().ok());
  const Node* c = g_.FindNodeByName("c");
  ASSERT_EQ(c->type_string(), "NoOp");
  EXPECT_THAT(ControlInputs("after"), ElementsAre("c"));
  // The call waits for the body's control output.
  const std::vector<std::string> waits = ControlInputs("c");
  ASSERT_EQ(waits.size(), 1u);
  EXPECT_THAT(waits[0], HasSubstr("c/body"));
}

TEST_F(LowerFunctionCallsTest, ControlInputFromAnArgumentWaitsForItsSource) {
  Build(R"pb(
    node { name: "c" op: "gated" input: "a" })pb");
  ASSERT_TRUE(Lower().ok());
  const Node* neg = nullptr;
  for (const Node* n : g_.op_nodes()) {
    if (n->type_string() == "Neg") neg = n;
  }
  ASSERT_NE(neg, nullptr);
  EXPECT_THAT(ControlInputs(neg->name()), Contains("a"));
  const Node* x = nullptr;
  ASSERT_TRUE(neg->input_node(0, &x).ok());
  EXPECT_EQ(x->name(), "a");
}

TEST_F(LowerFunctionCallsTest, RecursionIsAnErrorNotACrash) {
  Build(R"pb(
    node { name: "c" op: "forever" input: "a" })pb");
  const absl::Status s = Lower();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_THAT(s.message(), HasSubstr("a recursive function?"));
}

TEST_F(LowerFunctionCallsTest, MalformedBodyNamesTheNodeAndFunction) {
  Build(R"pb(
    node { name: "c" op: "broken" input: "a" })pb");
  const absl::Status s = Lower();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_THAT(s.message(), HasSubstr("Function 'broken'"));
  EXPECT_THAT(s.message(), HasSubstr("{{node c}}"));
}

// A call node whose Tout promises more than its function returns (a graph the fuzzer made):
// TensorFlow fails the step with INTERNAL "Missing 0-th output"; lowering must not wire the
// missing output.
TEST_F(LowerFunctionCallsTest, CallPromisingMoreOutputsThanItsFunctionIsAnError) {
  Build(R"pb(
    node {
      name: "c"
      op: "PartitionedCall"
      input: "a"
      attr {
        key: "f"
        value { func { name: "returns_nothing" } }
      }
      attr {
        key: "Tin"
        value { list { type: DT_FLOAT } }
      }
      attr {
        key: "Tout"
        value { list { type: DT_FLOAT } }
      }
    }
    node {
      name: "use"
      op: "Identity"
      input: "c"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
    })pb");
  const absl::Status s = Lower();
  EXPECT_EQ(s.code(), absl::StatusCode::kInternal) << s;
  EXPECT_THAT(s.message(), HasSubstr("Missing 0-th output from {{node c}}"));
}

TEST_F(LowerFunctionCallsTest, CallWhoseFunctionReturnsAnotherTypeIsAnError) {
  Build(R"pb(
    node {
      name: "c"
      op: "PartitionedCall"
      input: "a"
      attr {
        key: "f"
        value { func { name: "gated" } }
      }
      attr {
        key: "Tin"
        value { list { type: DT_FLOAT } }
      }
      attr {
        key: "Tout"
        value { list { type: DT_INT32 } }
      }
    })pb");
  const absl::Status s = Lower();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_THAT(s.message(), HasSubstr("returns float as output 0"));
}

}  // namespace
}  // namespace sluice
