#include "passes/simplify.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graph/graph.h"
#include "graph/import/graph_testutil.h"
#include "graph/op/op_registry.h"
#include "gtest/gtest.h"

namespace sluice {

// An op with a ref output, as a VariableV2 has.
REGISTER_OP("SimplifyTestRefSource").Output("ref: Ref(float)");

namespace {

// Text GraphDef fragments; values are float scalars. `extra` goes inside the node (control
// inputs, device).
std::string ConstNode(const std::string& name, const std::string& extra = "") {
  return absl::StrCat("node { name: '", name, "' op: 'Const' ", extra,
                      " attr { key: 'dtype' value { type: DT_FLOAT } }"
                      " attr { key: 'value' value { tensor { dtype: DT_FLOAT"
                      " tensor_shape {} float_val: 1 } } } }");
}

std::string OpNode(const std::string& name, const std::string& op,
                   const std::vector<std::string>& inputs, const std::string& extra = "") {
  std::string s = absl::StrCat("node { name: '", name, "' op: '", op, "' ", extra);
  for (const std::string& in : inputs) absl::StrAppend(&s, " input: '", in, "'");
  if (op != "NoOp") absl::StrAppend(&s, " attr { key: 'T' value { type: DT_FLOAT } }");
  return absl::StrCat(s, " }");
}

std::string NoOpNode(const std::string& name, const std::vector<std::string>& inputs,
                     const std::string& extra = "") {
  return OpNode(name, "NoOp", inputs, extra);
}

class SimplifyTest : public ::testing::Test {
 protected:
  SimplifyTest() : g_(OpRegistry::Global()) {}

  void Load(const std::string& text) {
    absl::Status s = GraphFromTextForTest(text, &g_);
    ASSERT_TRUE(s.ok()) << s;
  }

  std::string Simplify(const SimplifyOptions& opts = SimplifyOptions()) {
    bool changed = false;
    absl::Status s = SimplifyGraph(opts, &g_, &changed);
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

TEST_F(SimplifyTest, BypassesIdentityNOutputByOutput) {
  Load(absl::StrCat(ConstNode("a"), ConstNode("b"),
                    "node { name: 'idn' op: 'IdentityN' input: 'a' input: 'b'"
                    " attr { key: 'T' value { list { type: DT_FLOAT type: DT_FLOAT } } } }",
                    OpNode("m", "Mul", {"idn:1", "idn"}), OpNode("n", "Neg", {"idn:1"})));
  EXPECT_EQ(Simplify(), "a(Const);b(Const);m(Mul);n(Neg)|a->m:1;b->m;b->n");
  EXPECT_TRUE(changed_);
}

TEST_F(SimplifyTest, KeepsIdentityNWithControlEdgesOrAName) {
  const std::string idn =
      "node { name: 'idn' op: 'IdentityN' input: 'a' input: '^b'"
      " attr { key: 'T' value { list { type: DT_FLOAT } } } }";
  Load(absl::StrCat(ConstNode("a"), ConstNode("b"), idn, OpNode("n", "Neg", {"idn"})));
  const std::string kept = Simplify();
  EXPECT_FALSE(changed_) << kept;

  Graph other(OpRegistry::Global());
  ASSERT_TRUE(
      GraphFromTextForTest(absl::StrCat(ConstNode("a"),
                                        "node { name: 'idn' op: 'IdentityN' input: 'a'"
                                        " attr { key: 'T' value { list { type: DT_FLOAT } } } }",
                                        OpNode("n", "Neg", {"idn"})),
                           &other)
          .ok());
  SimplifyOptions opts;
  opts.protected_names = {"idn"};
  bool changed = true;
  ASSERT_TRUE(SimplifyGraph(opts, &other, &changed).ok());
  EXPECT_FALSE(changed);
}

TEST_F(SimplifyTest, RemovesForwardingNodes) {
  Load(absl::StrCat(ConstNode("a"), OpNode("i", "Identity", {"a"}),
                    OpNode("s", "StopGradient", {"a"}), OpNode("p", "PreventGradient", {"a"}),
                    OpNode("m", "Mul", {"i", "s"}), OpNode("n", "Neg", {"p"})));
  EXPECT_EQ(Simplify(), "a(Const);m(Mul);n(Neg)|a->m;a->m:1;a->n");
  EXPECT_TRUE(changed_);
}

TEST_F(SimplifyTest, KeepsOtherForwardingOps) {
  Load(absl::StrCat(ConstNode("a"), OpNode("s", "Snapshot", {"a"}),
                    OpNode("e", "EnsureShape", {"a"}, "attr { key: 'shape' value { shape {} } }"),
                    OpNode("m", "Mul", {"s", "e"})));
  EXPECT_EQ(Simplify(), "a(Const);e(EnsureShape);m(Mul);s(Snapshot)|a->e;a->s;e->m:1;s->m");
  EXPECT_FALSE(changed_);
}

TEST_F(SimplifyTest, CollapsesChains) {
  Load(absl::StrCat(ConstNode("a"), OpNode("i1", "Identity", {"a"}),
                    OpNode("i2", "Identity", {"i1"}), OpNode("i3", "StopGradient", {"i2"}),
                    OpNode("n", "Neg", {"i3"}), OpNode("m", "Mul", {"i2", "i3"})));
  EXPECT_EQ(Simplify(), "a(Const);m(Mul);n(Neg)|a->m;a->m:1;a->n");
}

TEST_F(SimplifyTest, ConsumersInheritControlInputs) {
  Load(absl::StrCat(ConstNode("a"), ConstNode("c"), OpNode("i", "Identity", {"a", "^c"}),
                    OpNode("n", "Neg", {"i"})));
  EXPECT_EQ(Simplify(), "a(Const);c(Const);n(Neg)|^c->n;a->n");
}

TEST_F(SimplifyTest, ControlConsumersDependOnTheForwardedProducer) {
  Load(absl::StrCat(ConstNode("a"), OpNode("i", "Identity", {"a"}), ConstNode("k", "input: '^i'"),
                    OpNode("n", "Neg", {"a", "^i"})));
  // n already reads a, so it needs no control edge from it.
  EXPECT_EQ(Simplify(), "a(Const);k(Const);n(Neg)|^a->k;a->n");
}

TEST_F(SimplifyTest, ProtectedNamesAreKept) {
  Load(absl::StrCat(ConstNode("a"), OpNode("i1", "Identity", {"a"}),
                    OpNode("i2", "Identity", {"i1"}), OpNode("n", "Neg", {"i2"}),
                    NoOpNode("t", {"^n"})));
  SimplifyOptions opts;
  opts.protected_names = {"i2", "t"};
  EXPECT_EQ(Simplify(opts), "a(Const);i2(Identity);n(Neg);t(NoOp)|^n->t;a->i2;i2->n");
}

TEST_F(SimplifyTest, UnobservedLeavesAreRemoved) {
  Load(absl::StrCat(ConstNode("a"), OpNode("i", "Identity", {"a"}), NoOpNode("t", {"^a"}),
                    NoOpNode("lonely", {})));
  EXPECT_EQ(Simplify(), "a(Const)|");
}

TEST_F(SimplifyTest, NoOpFanInOrFanOutIsBypassed) {
  // Fan-in to one consumer: 3 * 1 <= 3 + 1.
  Load(absl::StrCat(ConstNode("x"), ConstNode("y"), ConstNode("z"),
                    NoOpNode("g", {"^x", "^y", "^z"}), ConstNode("k", "input: '^g'")));
  EXPECT_EQ(Simplify(), "k(Const);x(Const);y(Const);z(Const)|^x->k;^y->k;^z->k");
}

TEST_F(SimplifyTest, NoOpFanOutIsBypassed) {
  // One input to three consumers: 1 * 3 <= 1 + 3.
  Load(absl::StrCat(ConstNode("x"), NoOpNode("g", {"^x"}), ConstNode("k1", "input: '^g'"),
                    ConstNode("k2", "input: '^g'"), ConstNode("k3", "input: '^g'")));
  EXPECT_EQ(Simplify(), "k1(Const);k2(Const);k3(Const);x(Const)|^x->k1;^x->k2;^x->k3");
}

TEST_F(SimplifyTest, SmallCrossProductIsBypassed) {
  // 2 * 2 <= 2 + 2.
  Load(absl::StrCat(ConstNode("x"), ConstNode("y"), NoOpNode("g", {"^x", "^y"}),
                    ConstNode("k1", "input: '^g'"), ConstNode("k2", "input: '^g'")));
  EXPECT_EQ(Simplify(), "k1(Const);k2(Const);x(Const);y(Const)|^x->k1;^x->k2;^y->k1;^y->k2");
}

TEST_F(SimplifyTest, LargeCrossProductIsKept) {
  // 3 * 2 > 3 + 2.
  Load(absl::StrCat(ConstNode("x"), ConstNode("y"), ConstNode("z"),
                    NoOpNode("g", {"^x", "^y", "^z"}), ConstNode("k1", "input: '^g'"),
                    ConstNode("k2", "input: '^g'")));
  EXPECT_EQ(Simplify(),
            "g(NoOp);k1(Const);k2(Const);x(Const);y(Const);z(Const)|"
            "^g->k1;^g->k2;^x->g;^y->g;^z->g");
  EXPECT_FALSE(changed_);
}

TEST_F(SimplifyTest, IdentityWithManyControlInputsAndConsumersIsKept) {
  // Inputs a, ^c1, ^c2 and consumers n1, n2, n3: 3 * 3 > 3 + 3.
  Load(absl::StrCat(ConstNode("a"), ConstNode("c1"), ConstNode("c2"),
                    OpNode("i", "Identity", {"a", "^c1", "^c2"}), OpNode("n1", "Neg", {"i"}),
                    OpNode("n2", "Neg", {"i"}), OpNode("n3", "Neg", {"i"})));
  EXPECT_EQ(Simplify(),
            "a(Const);c1(Const);c2(Const);i(Identity);n1(Neg);n2(Neg);n3(Neg)|"
            "^c1->i;^c2->i;a->i;i->n1;i->n2;i->n3");
}

TEST_F(SimplifyTest, IdentityOnARefIsKept) {
  Load(absl::StrCat("node { name: 'v' op: 'SimplifyTestRefSource' }",
                    OpNode("i", "Identity", {"v"}), OpNode("n", "Neg", {"i"})));
  EXPECT_EQ(Simplify(), "i(Identity);n(Neg);v(SimplifyTestRefSource)|i->n;v->i");
}

TEST_F(SimplifyTest, IdentityAfterSwitchIsKept) {
  Load(absl::StrCat(
      ConstNode("a"),
      "node { name: 'p' op: 'Const' attr { key: 'dtype' value { type: DT_BOOL } }"
      " attr { key: 'value' value { tensor { dtype: DT_BOOL tensor_shape {} bool_val: true } } } }",
      OpNode("sw", "Switch", {"a", "p"}), OpNode("t", "Identity", {"sw:1"}),
      OpNode("f", "Identity", {"sw"}), OpNode("n", "Neg", {"t"}), OpNode("m", "Neg", {"f"})));
  EXPECT_EQ(Simplify(),
            "a(Const);f(Identity);m(Neg);n(Neg);p(Const);sw(Switch);t(Identity)|"
            "a->sw;f->m;p->sw:1;sw->f;sw:1->t;t->n");
}

TEST_F(SimplifyTest, IdentityAcrossDevicesIsKept) {
  Load(absl::StrCat(ConstNode("a", "device: '/device:CPU:0'"),
                    OpNode("copy", "Identity", {"a"}, "device: '/device:CPU:1'"),
                    OpNode("same", "Identity", {"a"}, "device: '/device:CPU:0'"),
                    OpNode("n", "Neg", {"copy"}, "device: '/device:CPU:1'"),
                    OpNode("m", "Neg", {"same"}, "device: '/device:CPU:0'")));
  EXPECT_EQ(Simplify(), "a(Const);copy(Identity);m(Neg);n(Neg)|a->copy;a->m;copy->n");
}

TEST_F(SimplifyTest, AssignedDeviceWinsOverRequested) {
  Load(absl::StrCat(ConstNode("a"), OpNode("i", "Identity", {"a"}), OpNode("n", "Neg", {"i"})));
  const std::string cpu1 = "/job:localhost/replica:0/task:0/device:CPU:1";
  g_.FindNodeByName("i")->set_assigned_device_name(cpu1);
  g_.FindNodeByName("n")->set_assigned_device_name(cpu1);
  EXPECT_EQ(Simplify(),
            absl::StrCat("a(Const);i(Identity)@", cpu1, ";n(Neg)@", cpu1, "|a->i;i->n"));
}

TEST_F(SimplifyTest, NoOpThatWouldAddDeviceCrossingsIsKept) {
  // x, y and the NoOp on CPU:0, its two consumers on CPU:1: 2 * 2 edges is within the edge
  // bound, but bypassing would turn 2 device crossings into 4.
  Load(absl::StrCat(ConstNode("x", "device: '/cpu:0'"), ConstNode("y", "device: '/cpu:0'"),
                    NoOpNode("g", {"^x", "^y"}, "device: '/cpu:0'"),
                    ConstNode("k1", "input: '^g' device: '/cpu:1'"),
                    ConstNode("k2", "input: '^g' device: '/cpu:1'")));
  EXPECT_EQ(Simplify(),
            "g(NoOp);k1(Const);k2(Const);x(Const);y(Const)|"
            "^g->k1;^g->k2;^x->g;^y->g");
}

TEST_F(SimplifyTest, ControlInputsIntoMergeAreKept) {
  Load(absl::StrCat(ConstNode("a"), ConstNode("b"), ConstNode("c"),
                    OpNode("i", "Identity", {"a", "^c"}),
                    OpNode("mg", "Merge", {"i", "b"}, "attr { key: 'N' value { i: 2 } }")));
  EXPECT_EQ(Simplify(),
            "a(Const);b(Const);c(Const);i(Identity);mg(Merge)|"
            "^c->i;a->i;b->mg:1;i->mg");
}

TEST_F(SimplifyTest, NothingToDo) {
  Load(absl::StrCat(ConstNode("a"), OpNode("n", "Neg", {"a"})));
  EXPECT_EQ(Simplify(), "a(Const);n(Neg)|a->n");
  EXPECT_FALSE(changed_);
}

}  // namespace
}  // namespace sluice
