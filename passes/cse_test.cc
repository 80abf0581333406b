#include "passes/cse.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graph/graph.h"
#include "graph/import/graph_testutil.h"
#include "graph/op/op_registry.h"
#include "gtest/gtest.h"

namespace sluice {

// Ops with ref-typed arguments, which CSE must leave alone.
REGISTER_OP("CseTestRefSource").Output("ref: Ref(float)");
REGISTER_OP("CseTestRefReader").Input("x: Ref(float)").Output("y: float");

namespace {

// Text GraphDef fragments; values are float scalars. `extra` goes inside the node (inputs,
// device).
std::string ConstNode(const std::string& name, float value = 1, const std::string& extra = "") {
  return absl::StrCat("node { name: '", name, "' op: 'Const' ", extra,
                      " attr { key: 'dtype' value { type: DT_FLOAT } }"
                      " attr { key: 'value' value { tensor { dtype: DT_FLOAT"
                      " tensor_shape {} float_val: ",
                      value, " } } } }");
}

std::string PlaceholderNode(const std::string& name) {
  return absl::StrCat("node { name: '", name,
                      "' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }");
}

std::string OpNode(const std::string& name, const std::string& op,
                   const std::vector<std::string>& inputs, const std::string& extra = "") {
  std::string s = absl::StrCat("node { name: '", name, "' op: '", op, "' ", extra);
  for (const std::string& in : inputs) absl::StrAppend(&s, " input: '", in, "'");
  return absl::StrCat(s, " attr { key: 'T' value { type: DT_FLOAT } } }");
}

class CseTest : public ::testing::Test {
 protected:
  CseTest() : g_(OpRegistry::Global()) {}

  void Load(const std::string& text) {
    absl::Status s = GraphFromTextForTest(text, &g_);
    ASSERT_TRUE(s.ok()) << s;
  }

  // Runs the pass and returns the canonical graph; changed_ receives the flag.
  std::string Cse(CseOptions opts = CseOptions(),
                  std::function<bool(const Node*)> consider = nullptr) {
    bool changed = false;
    opts.consider_fn = std::move(consider);
    absl::Status s = OptimizeCSE(opts, &g_, &changed);
    if (!s.ok()) return s.ToString();
    changed_ = changed;
    for (const Node* n : g_.op_nodes()) {
      EXPECT_FALSE(n->in_edges().empty()) << n->name();
      EXPECT_FALSE(n->out_edges().empty()) << n->name();
    }
    return CanonicalGraphString(g_);
  }

  Graph g_;
  bool changed_ = false;
};

TEST_F(CseTest, MergesDuplicatesAndCascades) {
  Load(absl::StrCat(PlaceholderNode("a"), ConstNode("c1"), ConstNode("c2"),
                    OpNode("m1", "Mul", {"a", "c1"}), OpNode("m2", "Mul", {"a", "c2"}),
                    OpNode("n1", "Neg", {"m1"}), OpNode("n2", "Neg", {"m2"}),
                    OpNode("s", "Sub", {"n1", "n2"})));
  EXPECT_EQ(Cse(),
            "a(Placeholder);c1(Const);m1(Mul);n1(Neg);s(Sub)|a->m1;c1->m1:1;m1->n1;"
            "n1->s;n1->s:1");
  EXPECT_TRUE(changed_);
}

TEST_F(CseTest, KeepsTheLowerIdWhicheverIsSeenFirst) {
  // Declared in reverse, so the lower id belongs to nodes a topological walk may meet later.
  Load(absl::StrCat(OpNode("z2", "Neg", {"y2"}), OpNode("z1", "Neg", {"y1"}),
                    OpNode("y2", "Neg", {"x2"}), OpNode("y1", "Neg", {"x1"}), ConstNode("x2"),
                    ConstNode("x1"), OpNode("w", "AddV2", {"z1", "z2"})));
  EXPECT_EQ(Cse(), "w(AddV2);x2(Const);y2(Neg);z2(Neg)|x2->y2;y2->z2;z2->w;z2->w:1");
}

TEST_F(CseTest, SurvivorSeenAfterItsTwinStillCascades) {
  // After x2 merges into x1, ya (id lower than yb) meets yb, which was seen first and whose
  // consumer zb was already hashed; zb and za merge only on a second pass.
  Load(absl::StrCat(ConstNode("x1"), ConstNode("x2"), OpNode("ya", "Neg", {"x2"}),
                    OpNode("yb", "Neg", {"x1"}), OpNode("zb", "Neg", {"yb"}),
                    OpNode("za", "Neg", {"ya"}), OpNode("w", "AddV2", {"za", "zb"})));
  EXPECT_EQ(Cse(), "w(AddV2);x1(Const);ya(Neg);zb(Neg)|x1->ya;ya->zb;zb->w;zb->w:1");
}

TEST_F(CseTest, CommutativeInputsMayBeSwapped) {
  Load(absl::StrCat(PlaceholderNode("a"), PlaceholderNode("b"), OpNode("m1", "Mul", {"a", "b"}),
                    OpNode("m2", "Mul", {"b", "a"}), OpNode("s1", "Sub", {"a", "b"}),
                    OpNode("s2", "Sub", {"b", "a"}),
                    OpNode("add", "AddN", {"m1", "m2"}, "attr { key: 'N' value { i: 2 } }"),
                    OpNode("sub", "Sub", {"s1", "s2"})));
  EXPECT_EQ(Cse(),
            "a(Placeholder);add(AddN);b(Placeholder);m1(Mul);s1(Sub);s2(Sub);sub(Sub)|"
            "a->m1;a->s1;a->s2:1;b->m1:1;b->s1:1;b->s2;m1->add;m1->add:1;"
            "s1->sub;s2->sub:1");
}

TEST_F(CseTest, DifferentAttrsAreNotMerged) {
  Load(absl::StrCat(
      ConstNode("k1", 1), ConstNode("k2", 2), ConstNode("k3", 2),
      "node { name: 'i1' op: 'Const' attr { key: 'dtype' value { type: DT_INT32 } }"
      " attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape {}"
      " int_val: 1 } } } }",
      OpNode("p1", "PreventGradient", {"k1"}, "attr { key: 'message' value { s: 'x' } }"),
      OpNode("p2", "PreventGradient", {"k1"}, "attr { key: 'message' value { s: 'y' } }")));
  EXPECT_EQ(Cse(),
            "i1(Const);k1(Const);k2(Const);p1(PreventGradient);p2(PreventGradient)|"
            "k1->p1;k1->p2");
}

TEST_F(CseTest, TensorAttrsCompareByValue) {
  // The same scalar, once as float_val and once as tensor_content.
  Load(absl::StrCat(ConstNode("k1", 2),
                    "node { name: 'k2' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } }"
                    " attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape {}"
                    " tensor_content: '\\000\\000\\000@' } } } }"));
  EXPECT_EQ(Cse(), "k1(Const)|");
}

TEST_F(CseTest, DifferentDevicesAreNotMerged) {
  Load(absl::StrCat(ConstNode("k1", 1, "device: '/cpu:0'"), ConstNode("k2", 1, "device: '/cpu:1'"),
                    ConstNode("k3", 1, "device: '/cpu:0'"), ConstNode("k4", 1)));
  EXPECT_EQ(Cse(), "k1(Const);k2(Const);k4(Const)|");
}

TEST_F(CseTest, AssignedDevicesMustMatch) {
  Load(absl::StrCat(ConstNode("k1"), ConstNode("k2"), ConstNode("k3")));
  g_.FindNodeByName("k2")->set_assigned_device_name("/job:localhost/replica:0/task:0/device:CPU:1");
  EXPECT_EQ(Cse(), "k1(Const);k2(Const)@/job:localhost/replica:0/task:0/device:CPU:1|");
}

TEST_F(CseTest, ControlInputsMustMatch) {
  Load(absl::StrCat(ConstNode("x"), ConstNode("y", 2), ConstNode("k1", 3, "input: '^x'"),
                    ConstNode("k2", 3, "input: '^y'"), ConstNode("k3", 3, "input: '^x'"),
                    ConstNode("k4", 3, "input: '^y' input: '^x'"),
                    ConstNode("k5", 3, "input: '^x' input: '^y'")));
  EXPECT_EQ(Cse(),
            "k1(Const);k2(Const);k4(Const);x(Const);y(Const)|"
            "^x->k1;^x->k4;^y->k2;^y->k4");
}

TEST_F(CseTest, ControlConsumersMoveToTheSurvivor) {
  Load(absl::StrCat(ConstNode("k1"), ConstNode("k2"), ConstNode("z", 5, "input: '^k2'"),
                    ConstNode("w", 6, "input: '^k1' input: '^k2'")));
  EXPECT_EQ(Cse(), "k1(Const);w(Const);z(Const)|^k1->w;^k1->z");
}

TEST_F(CseTest, StatefulPlaceholdersAndCommunicationAreNotMerged) {
  const std::string recv_attrs =
      "attr { key: 'tensor_type' value { type: DT_FLOAT } }"
      " attr { key: 'tensor_name' value { s: 't' } }"
      " attr { key: 'send_device' value { s: '/cpu:0' } }"
      " attr { key: 'send_device_incarnation' value { i: 1 } }"
      " attr { key: 'recv_device' value { s: '/cpu:0' } }";
  Load(absl::StrCat(
      PlaceholderNode("p1"), PlaceholderNode("p2"),
      OpNode("c1", "CheckNumerics", {"p1"}, "attr { key: 'message' value { s: 'm' } }"),
      OpNode("c2", "CheckNumerics", {"p1"}, "attr { key: 'message' value { s: 'm' } }"),
      "node { name: 'r1' op: '_Recv' ", recv_attrs, " }", "node { name: 'r2' op: '_Recv' ",
      recv_attrs, " }"));
  EXPECT_EQ(Cse(),
            "c1(CheckNumerics);c2(CheckNumerics);p1(Placeholder);p2(Placeholder);"
            "r1(_Recv);r2(_Recv)|p1->c1;p1->c2");
  EXPECT_FALSE(changed_);
}

TEST_F(CseTest, RefTypedNodesAreNotMerged) {
  Load(
      "node { name: 'v1' op: 'CseTestRefSource' }"
      "node { name: 'v2' op: 'CseTestRefSource' }"
      "node { name: 'r1' op: 'CseTestRefReader' input: 'v1' }"
      "node { name: 'r2' op: 'CseTestRefReader' input: 'v1' }");
  EXPECT_EQ(Cse(),
            "r1(CseTestRefReader);r2(CseTestRefReader);v1(CseTestRefSource);"
            "v2(CseTestRefSource)|v1->r1;v1->r2");
}

TEST_F(CseTest, ProtectedNamesSurvive) {
  Load(absl::StrCat(ConstNode("k1"), ConstNode("k2"), ConstNode("k3"), ConstNode("k4")));
  CseOptions opts;
  opts.protected_names = {"k3"};
  EXPECT_EQ(Cse(opts), "k3(Const)|");
}

TEST_F(CseTest, TwoProtectedNodesAreBothKept) {
  Load(absl::StrCat(ConstNode("k1"), ConstNode("k2"), ConstNode("k3"), OpNode("n1", "Neg", {"k1"}),
                    OpNode("n3", "Neg", {"k3"})));
  CseOptions opts;
  opts.protected_names = {"k1", "k3"};
  // k2 merges into k1; k3 stays, so n1 and n3 read different nodes and stay too.
  EXPECT_EQ(Cse(opts), "k1(Const);k3(Const);n1(Neg);n3(Neg)|k1->n1;k3->n3");
}

TEST_F(CseTest, ConsiderFnFilters) {
  Load(absl::StrCat(ConstNode("k1"), ConstNode("k2"), OpNode("n1", "Neg", {"k1"}),
                    OpNode("n2", "Neg", {"k1"})));
  EXPECT_EQ(Cse(CseOptions(), [](const Node* n) { return n->type_string() != "Neg"; }),
            "k1(Const);n1(Neg);n2(Neg)|k1->n1;k1->n2");
}

TEST_F(CseTest, NothingToMerge) {
  Load(absl::StrCat(ConstNode("k1", 1), ConstNode("k2", 2), OpNode("s", "Sub", {"k1", "k2"})));
  bool changed = true;
  ASSERT_TRUE(OptimizeCSE(CseOptions(), &g_, &changed).ok());
  EXPECT_FALSE(changed);
  EXPECT_EQ(CanonicalGraphString(g_), "k1(Const);k2(Const);s(Sub)|k1->s;k2->s:1");
}

TEST_F(CseTest, MultiOutputNodesKeepTheirSlots) {
  Load(absl::StrCat(ConstNode("v"),
                    "node { name: 'u1' op: 'Unpack' input: 'v' attr { key: 'num' value { i: 2 } }"
                    " attr { key: 'T' value { type: DT_FLOAT } } }",
                    "node { name: 'u2' op: 'Unpack' input: 'v' attr { key: 'num' value { i: 2 } }"
                    " attr { key: 'T' value { type: DT_FLOAT } } }",
                    OpNode("s", "Sub", {"u1:1", "u2:1"}), OpNode("t", "Sub", {"u2", "u1"})));
  EXPECT_EQ(Cse(), "s(Sub);t(Sub);u1(Unpack);v(Const)|u1->t;u1->t:1;u1:1->s;u1:1->s:1;v->u1");
}

}  // namespace
}  // namespace sluice
