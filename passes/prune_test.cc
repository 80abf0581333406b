#include "passes/prune.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/graph.h"
#include "graph/import/graph_testutil.h"
#include "graph/op/node_def_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

// Text GraphDef fragments for the nodes the tests use; every value is a float scalar.
std::string ConstNode(const std::string& name, const std::string& extra = "") {
  return absl::StrCat("node { name: '", name, "' op: 'Const' ", extra,
                      " attr { key: 'dtype' value { type: DT_FLOAT } }"
                      " attr { key: 'value' value { tensor { dtype: DT_FLOAT"
                      " tensor_shape {} float_val: 1 } } } }");
}

std::string PlaceholderNode(const std::string& name) {
  return absl::StrCat("node { name: '", name,
                      "' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }");
}

std::string OpNode(const std::string& name, const std::string& op,
                   const std::vector<std::string>& inputs, bool typed = true) {
  std::string s = absl::StrCat("node { name: '", name, "' op: '", op, "'");
  for (const std::string& in : inputs) absl::StrAppend(&s, " input: '", in, "'");
  if (typed) absl::StrAppend(&s, " attr { key: 'T' value { type: DT_FLOAT } }");
  return absl::StrCat(s, " }");
}

// a = Placeholder; b = Const; c = a * b; d = c + b; n = NoOp after d; u unused.
std::string BaseGraph() {
  return absl::StrCat(PlaceholderNode("a"), ConstNode("b"), OpNode("c", "Mul", {"a", "b"}),
                      OpNode("d", "AddV2", {"c", "b"}), OpNode("n", "NoOp", {"^d"}, false),
                      ConstNode("u"));
}

// s = Unpack(v) into two outputs; x = -s:0; y = -s:1. Unpacking a scalar would fail shape
// inference, which ConvertGraphDefToGraph does not run; the pass only looks at structure.
std::string UnpackGraph() {
  return absl::StrCat(
      ConstNode("v"),
      "node { name: 's' op: 'Unpack' input: 'v' attr { key: 'num' value { i: 2 } }"
      " attr { key: 'T' value { type: DT_FLOAT } } attr { key: 'axis' value { i: 0 } } }",
      OpNode("x", "Neg", {"s"}), OpNode("y", "Neg", {"s:1"}));
}

class PruneTest : public ::testing::Test {
 protected:
  PruneTest() : g_(OpRegistry::Global()) {}

  void Load(const std::string& text) { ASSERT_TRUE(GraphFromTextForTest(text, &g_).ok()); }

  // Prunes; on success returns the canonical string, else the status text.
  std::string Prune(const PruneOptions& opts) {
    absl::Status s = Run(opts);
    if (!s.ok()) return s.ToString();
    ExpectSourceAndSinkConnected();
    return CanonicalGraphString(g_);
  }

  // PruneGraph, recording *changed in changed_.
  absl::Status Run(const PruneOptions& opts) { return PruneGraph(opts, &g_, &changed_); }

  void ExpectSourceAndSinkConnected() {
    for (const Node* n : g_.op_nodes()) {
      EXPECT_FALSE(n->in_edges().empty()) << n->name();
      EXPECT_FALSE(n->out_edges().empty()) << n->name();
    }
  }

  // "T=float index=0" for an _Arg/_Retval node.
  std::string FrameAttrs(const std::string& name) {
    const Node* n = g_.FindNodeByName(name);
    if (n == nullptr) return "missing";
    const AttrValue* t = n->attrs().Find("T");
    const AttrValue* index = n->attrs().Find("index");
    if (t == nullptr || index == nullptr) return "no attrs";
    return absl::StrCat("T=", DataTypeString(t->type()), " index=", index->i());
  }

  Graph g_;
  bool changed_ = false;
};

TEST_F(PruneTest, FetchKeepsOnlyAncestors) {
  Load(BaseGraph());
  PruneOptions opts;
  opts.fetches = {"c"};
  EXPECT_EQ(Prune(opts),
            "_retval_c_0_0(_Retval);a(Placeholder);b(Const);c(Mul)|"
            "a->c;b->c:1;c->_retval_c_0_0");
  EXPECT_EQ(FrameAttrs("_retval_c_0_0"), "T=float index=0");
}

TEST_F(PruneTest, TargetKeepsControlAncestors) {
  Load(BaseGraph());
  PruneOptions opts;
  opts.targets = {"n"};
  EXPECT_EQ(Prune(opts),
            "a(Placeholder);b(Const);c(Mul);d(AddV2);n(NoOp)|^d->n;a->c;b->c:1;b->d:1;c->d");
}

TEST_F(PruneTest, FollowsControlEdges) {
  Load(absl::StrCat(ConstNode("x"), ConstNode("y", "input: '^x'"), ConstNode("z")));
  PruneOptions opts;
  opts.fetches = {"y:0"};
  EXPECT_EQ(Prune(opts), "_retval_y_0_0(_Retval);x(Const);y(Const)|^x->y;y->_retval_y_0_0");
}

TEST_F(PruneTest, FeedCutsItsProducer) {
  Load(BaseGraph());
  PruneOptions opts;
  opts.feeds = {"c"};
  opts.fetches = {"d"};
  EXPECT_EQ(Prune(opts),
            "_arg_c_0_0(_Arg);_retval_d_0_0(_Retval);b(Const);d(AddV2)|"
            "_arg_c_0_0->d;b->d:1;d->_retval_d_0_0");
  EXPECT_EQ(FrameAttrs("_arg_c_0_0"), "T=float index=0");
}

TEST_F(PruneTest, IndicesFollowFeedAndFetchPositions) {
  Load(BaseGraph());
  PruneOptions opts;
  opts.feeds = {"b", "a:0"};
  opts.fetches = {"d", "c"};
  EXPECT_EQ(Prune(opts),
            "_arg_a_0_1(_Arg);_arg_b_0_0(_Arg);_retval_c_0_1(_Retval);_retval_d_0_0(_Retval);"
            "c(Mul);d(AddV2)|_arg_a_0_1->c;_arg_b_0_0->c:1;_arg_b_0_0->d:1;"
            "c->_retval_c_0_1;c->d;d->_retval_d_0_0");
  EXPECT_EQ(FrameAttrs("_arg_b_0_0"), "T=float index=0");
  EXPECT_EQ(FrameAttrs("_arg_a_0_1"), "T=float index=1");
  EXPECT_EQ(FrameAttrs("_retval_d_0_0"), "T=float index=0");
  EXPECT_EQ(FrameAttrs("_retval_c_0_1"), "T=float index=1");
}

TEST_F(PruneTest, CallFrameNodesTakeTheirDevices) {
  Load(BaseGraph());
  PruneOptions opts;
  opts.feeds = {"b", "a:0"};
  opts.fetches = {"d", "c"};
  const std::string host = "/job:localhost/replica:0/task:0/device:CPU:0";
  const std::string gpu = "/job:localhost/replica:0/task:0/device:GPU:0";
  opts.call_frame_device = host;
  opts.feed_devices = {{"a:0", gpu}, {"a", "not this one: the feed is spelled a:0"}};
  opts.fetch_devices = {{"c", gpu}};
  ASSERT_TRUE(Run(opts).ok());
  for (const auto& [node, device] :
       std::vector<std::pair<std::string, std::string>>{{"_arg_b_0_0", host},
                                                        {"_arg_a_0_1", gpu},
                                                        {"_retval_d_0_0", host},
                                                        {"_retval_c_0_1", gpu}}) {
    const Node* n = g_.FindNodeByName(node);
    ASSERT_NE(n, nullptr) << node;
    EXPECT_EQ(n->assigned_device_name(), device) << node;
    EXPECT_EQ(n->requested_device(), device) << node;
  }
}

TEST_F(PruneTest, CallFrameNodesWithoutDevicesAreLeftToPlacement) {
  Load(BaseGraph());
  PruneOptions plain;
  plain.feeds = {"b"};
  plain.fetches = {"d"};
  ASSERT_TRUE(Run(plain).ok());
  EXPECT_EQ(g_.FindNodeByName("_arg_b_0_0")->assigned_device_name(), "");
  EXPECT_EQ(g_.FindNodeByName("_retval_d_0_0")->requested_device(), "");
}

TEST_F(PruneTest, FedPlaceholderHandsItsControlConsumersToTheArg) {
  Load(absl::StrCat(PlaceholderNode("p"), ConstNode("k", "input: '^p'"),
                    OpNode("m", "Mul", {"p", "k"})));
  PruneOptions opts;
  opts.feeds = {"p"};
  opts.fetches = {"m"};
  EXPECT_EQ(Prune(opts),
            "_arg_p_0_0(_Arg);_retval_m_0_0(_Retval);k(Const);m(Mul)|"
            "^_arg_p_0_0->k;_arg_p_0_0->m;k->m:1;m->_retval_m_0_0");
}

TEST_F(PruneTest, FedPlaceholderShapeCarriesOverToTheArg) {
  Load(absl::StrCat(
      "node { name: 'p' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } "
      "attr { key: 'shape' value { shape { dim { size: -1 } dim { size: 3 } } } } }",
      OpNode("m", "Neg", {"p"})));
  PruneOptions opts;
  opts.feeds = {"p"};
  opts.fetches = {"m"};
  ASSERT_TRUE(Run(opts).ok());
  const Node* arg = g_.FindNodeByName("_arg_p_0_0");
  ASSERT_NE(arg, nullptr);
  std::vector<PartialTensorShape> shapes;
  ASSERT_TRUE(GetNodeAttr(arg->attrs(), "_output_shapes", &shapes).ok());
  ASSERT_EQ(shapes.size(), 1u);
  EXPECT_EQ(shapes[0].DebugString(), "[?,3]");
}

TEST_F(PruneTest, FedPlaceholderWithUnknownRankAddsNoShape) {
  Load(absl::StrCat(PlaceholderNode("p"), OpNode("m", "Neg", {"p"})));
  PruneOptions opts;
  opts.feeds = {"p"};
  opts.fetches = {"m"};
  ASSERT_TRUE(Run(opts).ok());
  EXPECT_EQ(g_.FindNodeByName("_arg_p_0_0")->attrs().Find("_output_shapes"), nullptr);
}

TEST_F(PruneTest, FeedingOneOutputKeepsAProducerStillNeeded) {
  Load(UnpackGraph());
  PruneOptions opts;
  opts.feeds = {"s:0"};
  opts.fetches = {"x", "y"};
  EXPECT_EQ(Prune(opts),
            "_arg_s_0_0(_Arg);_retval_x_0_0(_Retval);_retval_y_0_1(_Retval);"
            "s(Unpack);v(Const);x(Neg);y(Neg)|"
            "_arg_s_0_0->x;s:1->y;v->s;x->_retval_x_0_0;y->_retval_y_0_1");
}

TEST_F(PruneTest, FeedingEveryNeededOutputDropsTheProducer) {
  Load(BaseGraph());
  PruneOptions opts;
  opts.feeds = {"a"};
  opts.fetches = {"c"};
  EXPECT_EQ(Prune(opts),
            "_arg_a_0_0(_Arg);_retval_c_0_0(_Retval);b(Const);c(Mul)|"
            "_arg_a_0_0->c;b->c:1;c->_retval_c_0_0");
}

TEST_F(PruneTest, FeedNothingNeedsIsPrunedWithItsArg) {
  Load(BaseGraph());
  PruneOptions opts;
  opts.feeds = {"a", "b"};
  opts.fetches = {"u"};
  EXPECT_EQ(Prune(opts), "_retval_u_0_0(_Retval);u(Const)|u->_retval_u_0_0");
}

TEST_F(PruneTest, WithoutRewriteFeedsOnlyCutTheWalk) {
  Load(BaseGraph());
  PruneOptions opts;
  opts.feeds = {"c"};
  opts.fetches = {"d"};
  opts.rewrite_feeds_and_fetches = false;
  // c is dropped, so d's input 0 has no edge: the runtime supplies the fed value there.
  EXPECT_EQ(Prune(opts), "b(Const);d(AddV2)|b->d:1");
}

TEST_F(PruneTest, WithoutRewriteAFedProducerNeededElsewhereStays) {
  Load(UnpackGraph());
  PruneOptions opts;
  opts.feeds = {"s:0"};
  opts.fetches = {"x", "y"};
  opts.rewrite_feeds_and_fetches = false;
  // s stays for y. The edge s->x stays too: the runtime supplies the fed s:0 to x.
  EXPECT_EQ(Prune(opts), "s(Unpack);v(Const);x(Neg);y(Neg)|s->x;s:1->y;v->s");
  opts.fetches = {"x"};
  EXPECT_EQ(Prune(opts), "x(Neg)|");
}

TEST_F(PruneTest, WithoutRewriteFetchesAndTargetsKeepAncestors) {
  Load(BaseGraph());
  PruneOptions opts;
  opts.fetches = {"c"};
  opts.rewrite_feeds_and_fetches = false;
  EXPECT_EQ(Prune(opts), "a(Placeholder);b(Const);c(Mul)|a->c;b->c:1");
}

TEST_F(PruneTest, UnknownNamesAreNotFound) {
  Load(BaseGraph());
  const std::string before = CanonicalGraphString(g_);
  PruneOptions opts;
  opts.feeds = {"zz"};
  opts.fetches = {"c"};
  EXPECT_EQ(
      Prune(opts),
      "INVALID_ARGUMENT: Tensor zz:0, specified in either feed_devices or fetch_devices was not "
      "found in the Graph");
  opts.feeds = {};
  opts.fetches = {"c", "yy:1"};
  EXPECT_EQ(
      Prune(opts),
      "INVALID_ARGUMENT: Tensor yy:1, specified in either feed_devices or fetch_devices was not "
      "found in the Graph");
  opts.fetches = {};
  opts.targets = {"n", "t1", "t2"};
  EXPECT_EQ(Prune(opts), "NOT_FOUND: PruneForTargets: Some target nodes not found: t1 t2 ");
  opts.targets = {"_SOURCE"};
  EXPECT_EQ(Prune(opts), "NOT_FOUND: PruneForTargets: Some target nodes not found: _SOURCE ");
  EXPECT_EQ(CanonicalGraphString(g_), before);
}

TEST_F(PruneTest, OutputIndexOutOfRange) {
  Load(BaseGraph());
  PruneOptions opts;
  opts.fetches = {"c:3"};
  EXPECT_EQ(Prune(opts),
            "OUT_OF_RANGE: Node 'c' (type: 'Mul', num of outputs: 1) does not have output 3");
  opts.fetches = {"n"};
  EXPECT_EQ(Prune(opts),
            "OUT_OF_RANGE: Node 'n' (type: 'NoOp', num of outputs: 0) does not have output 0");
  opts.fetches = {"d"};
  opts.feeds = {"a:1"};
  EXPECT_EQ(
      Prune(opts),
      "OUT_OF_RANGE: Node 'a' (type: 'Placeholder', num of outputs: 1) does not have output 1");
}

TEST_F(PruneTest, InvalidRequests) {
  Load(BaseGraph());
  const std::string before = CanonicalGraphString(g_);
  PruneOptions opts;
  EXPECT_EQ(Prune(opts), "INVALID_ARGUMENT: Must specify at least one target to fetch or execute.");
  opts.fetches = {"d"};
  opts.feeds = {"a", "a:0"};
  EXPECT_EQ(Prune(opts), "INVALID_ARGUMENT: Endpoint \"a:0\" fed more than once.");
  opts.feeds = {"c"};
  opts.fetches = {"d", "c:0"};
  EXPECT_EQ(Prune(opts), "INVALID_ARGUMENT: c:0 is both fed and fetched.");
  opts.feeds = {};
  for (const std::string bad : {"c:", "^c", ":0", "", "c:01"}) {
    opts.fetches = {bad};
    absl::Status s = Run(opts);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(s.message().find(absl::StrCat("'", bad, "'")), std::string::npos) << s;
  }
  opts.fetches = {"d"};
  opts.feeds = {"^a"};
  EXPECT_EQ(Run(opts).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(CanonicalGraphString(g_), before);
}

TEST_F(PruneTest, ChangedSaysWhetherNodesWereAddedOrRemoved) {
  Load(BaseGraph());
  PruneOptions opts;
  opts.targets = {"n"};
  opts.rewrite_feeds_and_fetches = false;
  Prune(opts);  // drops u
  EXPECT_TRUE(changed_);
  EXPECT_EQ(Prune(opts),
            "a(Placeholder);b(Const);c(Mul);d(AddV2);n(NoOp)|^d->n;a->c;b->c:1;b->d:1;c->d");
  EXPECT_FALSE(changed_);  // nothing left to drop
  opts.rewrite_feeds_and_fetches = true;
  opts.targets = {};
  opts.fetches = {"d"};
  Prune(opts);  // adds a _Retval, drops n
  EXPECT_TRUE(changed_);
}

TEST_F(PruneTest, TargetsAcceptTensorSpellings) {
  Load(BaseGraph());
  PruneOptions opts;
  opts.targets = {"c:0", "^b"};
  EXPECT_EQ(Prune(opts), "a(Placeholder);b(Const);c(Mul)|a->c;b->c:1");
}

TEST_F(PruneTest, FetchedIntTensorGetsItsDtype) {
  Load(
      "node { name: 'i' op: 'Const' attr { key: 'dtype' value { type: DT_INT32 } }"
      " attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape {} int_val: 3 } } } }");
  PruneOptions opts;
  opts.fetches = {"i"};
  EXPECT_EQ(Prune(opts), "_retval_i_0_0(_Retval);i(Const)|i->_retval_i_0_0");
  EXPECT_EQ(FrameAttrs("_retval_i_0_0"), "T=int32 index=0");
}

TEST_F(PruneTest, CallFrameNameTakenIsAnError) {
  Load(absl::StrCat(ConstNode("c"), OpNode("_retval_c_0_0", "Neg", {"c"})));
  PruneOptions opts;
  opts.fetches = {"c"};
  absl::Status s = Run(opts);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("_retval_c_0_0"), std::string::npos) << s;
}

// Partial runs: feeds arrive through client-terminated _Recvs and fetches leave through _Sends,
// keyed by the names as the caller spelled them, on the client's device.
TEST_F(PruneTest, ClientRendezvousFeedsAndFetchesThroughRecvAndSend) {
  Load(absl::StrCat(PlaceholderNode("p"), ConstNode("k", "input: '^p'"),
                    OpNode("m", "Mul", {"p", "k"}), ConstNode("u")));
  const std::string cpu = "/job:localhost/replica:0/task:0/device:CPU:0";
  PruneOptions opts;
  opts.feeds = {"p"};
  opts.fetches = {"m:0"};
  opts.client_rendezvous = PruneOptions::ClientRendezvous{cpu, 0xabcdef0123456789ULL};
  EXPECT_EQ(Prune(opts), absl::StrCat("_recv_p_0_0(_Recv)@", cpu, ";_send_m_0_0(_Send)@", cpu,
                                      ";k(Const);m(Mul)|"
                                      "^_recv_p_0_0->k;_recv_p_0_0->m;k->m:1;m->_send_m_0_0"));
  EXPECT_TRUE(changed_);
  for (const char* name : {"_recv_p_0_0", "_send_m_0_0"}) {
    const Node* n = g_.FindNodeByName(name);
    ASSERT_NE(n, nullptr) << name;
    EXPECT_EQ(n->requested_device(), cpu);
    EXPECT_EQ(n->assigned_device_name(), cpu);
    EXPECT_EQ(GetNodeAttrOr<std::string>(n->attrs(), "send_device", ""), cpu);
    EXPECT_EQ(GetNodeAttrOr<std::string>(n->attrs(), "recv_device", ""), cpu);
    EXPECT_EQ(GetNodeAttrOr<int64_t>(n->attrs(), "send_device_incarnation", 0),
              static_cast<int64_t>(0xabcdef0123456789ULL));
    EXPECT_TRUE(GetNodeAttrOr<bool>(n->attrs(), "client_terminated", false));
  }
  const Node* recv = g_.FindNodeByName("_recv_p_0_0");
  EXPECT_EQ(GetNodeAttrOr<std::string>(recv->attrs(), "tensor_name", ""), "p");
  EXPECT_EQ(GetNodeAttrOr<DataType>(recv->attrs(), "tensor_type", DT_INVALID), DT_FLOAT);
  const Node* send = g_.FindNodeByName("_send_m_0_0");
  EXPECT_EQ(GetNodeAttrOr<std::string>(send->attrs(), "tensor_name", ""), "m:0");
  EXPECT_EQ(GetNodeAttrOr<DataType>(send->attrs(), "T", DT_INVALID), DT_FLOAT);
}

}  // namespace
}  // namespace sluice
