#include "passes/partition.h"

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/substitute.h"
#include "google/protobuf/util/message_differencer.h"
#include "graph/graph.h"
#include "graph/import/graph_constructor.h"
#include "graph/import/graph_testutil.h"
#include "graph/op/node_def_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

constexpr char kCpu0[] = "/job:localhost/replica:0/task:0/device:CPU:0";
constexpr char kCpu1[] = "/job:localhost/replica:0/task:0/device:CPU:1";
constexpr char kCpu2[] = "/job:localhost/replica:0/task:0/device:CPU:2";
constexpr char kGpu0[] = "/job:localhost/replica:0/task:0/device:GPU:0";

// A NodeDef in text form; `attrs` maps attr names to AttrValue text ("type: DT_FLOAT").
std::string N(const std::string& name, const std::string& op, const std::string& device,
              const std::vector<std::string>& inputs,
              const std::vector<std::pair<std::string, std::string>>& attrs) {
  std::string s = absl::Substitute("node { name: '$0' op: '$1' device: '$2'", name, op, device);
  for (const std::string& in : inputs) absl::StrAppend(&s, " input: '", in, "'");
  for (const auto& [key, value] : attrs) {
    absl::StrAppend(&s, " attr { key: '", key, "' value { ", value, " } }");
  }
  return absl::StrCat(s, " }\n");
}

std::string FloatConst(const std::string& name, const std::string& device) {
  return N(name, "Const", device, {},
           {{"dtype", "type: DT_FLOAT"},
            {"value", "tensor { dtype: DT_FLOAT tensor_shape {} float_val: 1 }"}});
}

std::string IntConst(const std::string& name, const std::string& device) {
  return N(name, "Const", device, {},
           {{"dtype", "type: DT_INT32"},
            {"value", "tensor { dtype: DT_INT32 tensor_shape { dim { size: 1 } } int_val: 4 }"}});
}

std::string Unary(const std::string& name, const std::string& op, const std::string& device,
                  const std::string& input, const std::string& type = "DT_FLOAT") {
  return N(name, op, device, {input}, {{"T", absl::StrCat("type: ", type)}});
}

// Imports `text` with each node's device taken as its assigned device.
absl::Status Build(const std::string& text, Graph* g) {
  GraphConstructorOptions opts;
  opts.expect_device_spec = true;
  return GraphFromTextForTest(text, opts, g);
}

// Re-imports one partition on its own (which must succeed) and returns its canonical string.
// Every node must carry the partition's device.
std::string PartitionString(const std::string& device, const GraphDef& gdef) {
  for (const NodeDef& n : gdef.node()) EXPECT_EQ(n.device(), device) << n.name();
  Graph g(OpRegistry::Global());
  GraphConstructorOptions opts;
  opts.allow_internal_ops = true;
  absl::Status s = ConvertGraphDefToGraph(opts, gdef, &g);
  EXPECT_TRUE(s.ok()) << s << "\n" << gdef.DebugString();
  return CanonicalGraphString(g);
}

const NodeDef* FindNode(const GraphDef& gdef, const std::string& name) {
  return FindNodeDefForTest(gdef, name);
}

std::vector<const NodeDef*> NodesWithOp(const GraphDef& gdef, const std::string& op) {
  std::vector<const NodeDef*> out;
  for (const NodeDef& n : gdef.node()) {
    if (n.op() == op) out.push_back(&n);
  }
  return out;
}

std::string StringAttr(const NodeDef& n, const std::string& attr) {
  std::string value;
  EXPECT_TRUE(GetNodeAttr(AttrSlice(n), attr, &value).ok()) << attr;
  return value;
}

int64_t IntAttr(const NodeDef& n, const std::string& attr) {
  int64_t value = -1;
  EXPECT_TRUE(GetNodeAttr(AttrSlice(n), attr, &value).ok()) << attr;
  return value;
}

int EdgeId(const Graph& g, const std::string& src, const std::string& dst) {
  for (const Edge* e : g.edges()) {
    if (e->src()->name() == src && e->dst()->name() == dst) return e->id();
  }
  ADD_FAILURE() << "no edge " << src << " -> " << dst;
  return -1;
}

using Partitions = GraphPartitions;

TEST(PartitionTest, OnePairPerTensorPerDestinationDevice) {
  Graph g(OpRegistry::Global());
  ASSERT_TRUE(Build(FloatConst("a", kCpu0) + Unary("b", "Identity", kCpu1, "a") +
                        Unary("c", "Neg", kCpu1, "a") + Unary("d", "Identity", kCpu1, "a") +
                        Unary("e", "Neg", kCpu2, "a") + Unary("f", "Neg", kCpu0, "a"),
                    &g)
                  .ok());
  Partitions parts;
  ASSERT_TRUE(Partition(PartitionOptions(), g, &parts).ok());
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(PartitionString(kCpu0, parts.at(kCpu0)),
            "a(Const);a/_0(_Send);a/_2(_Send);f(Neg)|a->a/_0;a->a/_2;a->f");
  EXPECT_EQ(PartitionString(kCpu1, parts.at(kCpu1)),
            "a/_1(_Recv);b(Identity);c(Neg);d(Identity)|a/_1->b;a/_1->c;a/_1->d");
  EXPECT_EQ(PartitionString(kCpu2, parts.at(kCpu2)), "a/_3(_Recv);e(Neg)|a/_3->e");

  const NodeDef& send = *FindNode(parts.at(kCpu0), "a/_0");
  const NodeDef& recv = *FindNode(parts.at(kCpu1), "a/_1");
  const std::string key = absl::StrCat("edge_", EdgeId(g, "a", "b"), "_a");
  for (const NodeDef* n : {&send, &recv}) {
    EXPECT_EQ(StringAttr(*n, "tensor_name"), key);
    EXPECT_EQ(StringAttr(*n, "send_device"), kCpu0);
    EXPECT_EQ(StringAttr(*n, "recv_device"), kCpu1);
    EXPECT_EQ(IntAttr(*n, "send_device_incarnation"), 1);
    bool client_terminated = true;
    EXPECT_TRUE(GetNodeAttr(AttrSlice(*n), "client_terminated", &client_terminated).ok());
    EXPECT_FALSE(client_terminated);
    EXPECT_EQ(StringAttr(*n, "_src"), "a");
    EXPECT_EQ(StringAttr(*n, "_dst"), "b");
  }
  DataType t = DT_INVALID;
  ASSERT_TRUE(GetNodeAttr(AttrSlice(send), "T", &t).ok());
  EXPECT_EQ(t, DT_FLOAT);
  ASSERT_TRUE(GetNodeAttr(AttrSlice(recv), "tensor_type", &t).ok());
  EXPECT_EQ(t, DT_FLOAT);
  EXPECT_EQ(StringAttr(*FindNode(parts.at(kCpu2), "a/_3"), "tensor_name"),
            absl::StrCat("edge_", EdgeId(g, "a", "e"), "_a"));
}

TEST(PartitionTest, SecondOutputIsSentFromItsPort) {
  Graph g(OpRegistry::Global());
  ASSERT_TRUE(Build(N("p", "Placeholder", kCpu0, {}, {{"dtype", "type: DT_FLOAT"}}) +
                        N("u", "Unpack", kCpu0, {"p"}, {{"T", "type: DT_FLOAT"}, {"num", "i: 2"}}) +
                        Unary("x", "Neg", kCpu1, "u:1") + Unary("y", "Neg", kCpu1, "u") +
                        N("z", "Add", kCpu1, {"u:1", "u"}, {{"T", "type: DT_FLOAT"}}),
                    &g)
                  .ok());
  Partitions parts;
  ASSERT_TRUE(Partition(PartitionOptions(), g, &parts).ok());
  EXPECT_EQ(PartitionString(kCpu0, parts.at(kCpu0)),
            "p(Placeholder);u(Unpack);u/_0(_Send);u/_2(_Send)|p->u;u->u/_2;u:1->u/_0");
  EXPECT_EQ(PartitionString(kCpu1, parts.at(kCpu1)),
            "u/_1(_Recv);u/_3(_Recv);x(Neg);y(Neg);z(Add)|u/_1->x;u/_1->z;u/_3->y;u/_3->z:1");
}

TEST(PartitionTest, ControlEdgesBecomeDummyTransfers) {
  Graph g(OpRegistry::Global());
  ASSERT_TRUE(Build(FloatConst("a", kCpu0) + N("b", "NoOp", kCpu1, {"^a"}, {}) +
                        N("c", "NoOp", kCpu1, {"^a"}, {}) + N("d", "NoOp", kCpu0, {"^a"}, {}),
                    &g)
                  .ok());
  Partitions parts;
  ASSERT_TRUE(Partition(PartitionOptions(), g, &parts).ok());
  EXPECT_EQ(PartitionString(kCpu0, parts.at(kCpu0)),
            "a(Const);a/_1(_Send);a/ctrl/_0(Const);d(NoOp)|^a->a/ctrl/_0;^a->d;a/ctrl/_0->a/_1");
  EXPECT_EQ(PartitionString(kCpu1, parts.at(kCpu1)),
            "a/_2(_Recv);a/_3(Identity);b(NoOp);c(NoOp)|^a/_3->b;^a/_3->c;a/_2->a/_3");

  const NodeDef& dummy = *FindNode(parts.at(kCpu0), "a/ctrl/_0");
  const AttrValue* value = AttrSlice(dummy).Find("value");
  ASSERT_NE(value, nullptr);
  EXPECT_EQ(value->tensor().dtype(), DT_FLOAT);
  ASSERT_EQ(value->tensor().tensor_shape().dim_size(), 1);
  EXPECT_EQ(value->tensor().tensor_shape().dim(0).size(), 0);
  EXPECT_EQ(StringAttr(*FindNode(parts.at(kCpu0), "a/_1"), "tensor_name"),
            StringAttr(*FindNode(parts.at(kCpu1), "a/_2"), "tensor_name"));
  EXPECT_EQ(NodesWithOp(parts.at(kCpu0), "_Send").size(), 1u);
  EXPECT_EQ(NodesWithOp(parts.at(kCpu1), "_Recv").size(), 1u);
}

TEST(PartitionTest, HostMemoryTensorsUseHostSendAndHostRecv) {
  Graph g(OpRegistry::Global());
  ASSERT_TRUE(Build(N("x", "Placeholder", kCpu0, {}, {{"dtype", "type: DT_FLOAT"}}) +
                        IntConst("k", kCpu0) + Unary("s", "Shape", kGpu0, "x") +
                        Unary("n", "Neg", kCpu0, "s", "DT_INT32") +
                        N("r", "Reshape", kGpu0, {"x", "s"}, {{"T", "type: DT_FLOAT"}}) +
                        N("r2", "Reshape", kGpu0, {"x", "k"}, {{"T", "type: DT_FLOAT"}}) +
                        Unary("m", "Neg", kGpu0, "s", "DT_INT32"),
                    &g)
                  .ok());
  PartitionOptions opts;
  opts.output_in_host_memory = [](const Node& n, int) { return n.type_string() == "Shape"; };
  opts.input_in_host_memory = [](const Node& n, int port) {
    return n.type_string() == "Reshape" && port == 1;
  };
  Partitions parts;
  ASSERT_TRUE(Partition(opts, g, &parts).ok());
  // The CPU side ignores memory types: s arrives by plain _Recv, x and k leave by _Send.
  EXPECT_EQ(PartitionString(kCpu0, parts.at(kCpu0)),
            "k(Const);k/_4(_Send);n(Neg);s/_3(_Recv);x(Placeholder);x/_0(_Send)|"
            "k->k/_4;s/_3->n;x->x/_0");
  // s (host output) leaves the GPU by _HostSend; k reaches Reshape's host input by
  // _HostRecv; s -> r:1 is host to host and stays local; s -> m crosses memory spaces on the
  // GPU, so it gets a pair inside the partition, the Recv waiting on the Send.
  EXPECT_EQ(PartitionString(kGpu0, parts.at(kGpu0)),
            "k/_5(_HostRecv);m(Neg);r(Reshape);r2(Reshape);s(Shape);s/_2(_HostSend);"
            "s/_6(_HostSend);s/_7(_Recv);x/_1(_Recv)|"
            "^s/_6->s/_7;k/_5->r2:1;s->r:1;s->s/_2;s->s/_6;s/_7->m;x/_1->r;x/_1->r2;x/_1->s");
  const NodeDef& local_recv = *FindNode(parts.at(kGpu0), "s/_7");
  EXPECT_EQ(StringAttr(local_recv, "send_device"), kGpu0);
  EXPECT_EQ(StringAttr(local_recv, "recv_device"), kGpu0);
  DataType t = DT_INVALID;
  ASSERT_TRUE(GetNodeAttr(AttrSlice(*FindNode(parts.at(kGpu0), "s/_2")), "T", &t).ok());
  EXPECT_EQ(t, DT_INT32);
}

// The overload that consumes the graph takes its NodeDefs instead of copying them; what it
// writes must not differ, even with memory-type callbacks that read attrs of nodes already
// written, and for a node added from a NodeDef of its own (AddNode).
TEST(PartitionTest, ConsumingTheGraphGivesTheSamePartitions) {
  const std::string text = N("x", "Placeholder", kCpu0, {}, {{"dtype", "type: DT_FLOAT"}}) +
                           IntConst("k", kCpu0) + Unary("s", "Shape", kGpu0, "x") +
                           Unary("n", "Neg", kCpu0, "s", "DT_INT32") +
                           N("r", "Reshape", kGpu0, {"x", "s"}, {{"T", "type: DT_FLOAT"}}) +
                           N("r2", "Reshape", kGpu0, {"x", "k", "^n"}, {{"T", "type: DT_FLOAT"}}) +
                           Unary("m", "Neg", kGpu0, "s", "DT_INT32");
  PartitionOptions opts;
  opts.output_in_host_memory = [](const Node& n, int) {
    return n.type_string() == "Shape" && n.attrs().Find("out_type") != nullptr;
  };
  opts.input_in_host_memory = [](const Node& n, int port) {
    return n.type_string() == "Reshape" && port == 1 && n.attrs().Find("Tshape") != nullptr;
  };
  // A node added from a heap NodeDef, reading m.
  auto add_extra = [](Graph* g) {
    NodeDef def;
    def.set_name("extra");
    def.set_op("Neg");
    AddNodeAttr("T", DT_INT32, &def);
    Node* extra = g->AddNode(std::move(def)).value();
    extra->set_assigned_device_name(kCpu0);
    g->AddEdge(g->FindNodeByName("m"), 0, extra, 0);
    return extra;
  };
  Graph copied(OpRegistry::Global());
  ASSERT_TRUE(Build(text, &copied).ok());
  add_extra(&copied);
  Partitions want;
  ASSERT_TRUE(Partition(opts, copied, &want).ok());
  EXPECT_NE(want.arena(), copied.arena());
  auto consumed = std::make_unique<Graph>(OpRegistry::Global());
  ASSERT_TRUE(Build(text, consumed.get()).ok());
  const NodeDef* const extra_def = &add_extra(consumed.get())->def();
  google::protobuf::Arena* const graph_arena = consumed->arena();
  const NodeDef* const k_def = &consumed->FindNodeByName("k")->def();
  Partitions got;
  ASSERT_TRUE(Partition(opts, std::move(consumed), &got).ok());
  ASSERT_EQ(got.size(), want.size());
  for (const auto& [device, gdef] : want.graphs()) {
    EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(got.at(device), *gdef))
        << device << "\n"
        << got.at(device).DebugString() << "\nwant\n"
        << gdef->DebugString();
  }
  // The graph's own NodeDef, on the graph's arena, which the partitions now hold.
  EXPECT_EQ(got.arena(), graph_arena);
  EXPECT_EQ(FindNode(got.at(kCpu0), "k"), k_def);
  EXPECT_EQ(FindNode(got.at(kCpu0), "extra"), extra_def);
  EXPECT_EQ(FindNode(got.at(kCpu0), "k")->attr().count("value"), 1u);
}

TEST(PartitionTest, IncarnationsAndTensorNames) {
  Graph g(OpRegistry::Global());
  ASSERT_TRUE(Build(FloatConst("a", kCpu0) + Unary("b", "Neg", kCpu1, "a"), &g).ok());
  PartitionOptions opts;
  opts.get_incarnation = [](const std::string& device) -> uint64_t {
    return device == kCpu0 ? 0xfedcba9876543210ull : 7;
  };
  Partitions parts;
  ASSERT_TRUE(Partition(opts, g, &parts).ok());
  const NodeDef& send = *NodesWithOp(parts.at(kCpu0), "_Send").at(0);
  const NodeDef& recv = *NodesWithOp(parts.at(kCpu1), "_Recv").at(0);
  EXPECT_EQ(static_cast<uint64_t>(IntAttr(send, "send_device_incarnation")), 0xfedcba9876543210ull);
  EXPECT_EQ(IntAttr(recv, "send_device_incarnation"), IntAttr(send, "send_device_incarnation"));
  // The rendezvous key's parts (runtime/framework/rendezvous.h builds it from these).
  EXPECT_EQ(StringAttr(send, "send_device"), kCpu0);
  EXPECT_EQ(StringAttr(send, "recv_device"), kCpu1);
  EXPECT_EQ(StringAttr(recv, "send_device"), kCpu0);
  EXPECT_EQ(StringAttr(recv, "recv_device"), kCpu1);
  EXPECT_EQ(StringAttr(recv, "tensor_name"), StringAttr(send, "tensor_name"));
}

TEST(PartitionTest, SingleDeviceKeepsGraphAndVersions) {
  Graph g(OpRegistry::Global());
  ASSERT_TRUE(Build("versions { producer: 27 min_consumer: 3 }\n" + FloatConst("a", kCpu0) +
                        Unary("b", "Neg", kCpu0, "a") + N("c", "NoOp", kCpu0, {"^b"}, {}),
                    &g)
                  .ok());
  Partitions parts;
  ASSERT_TRUE(Partition(PartitionOptions(), g, &parts).ok());
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(PartitionString(kCpu0, parts.at(kCpu0)), "a(Const);b(Neg);c(NoOp)|^b->c;a->b");
  EXPECT_EQ(parts.at(kCpu0).versions().producer(), 27);
  EXPECT_EQ(parts.at(kCpu0).versions().min_consumer(), 3);
}

TEST(PartitionTest, NewNamesAvoidExistingNodes) {
  Graph g(OpRegistry::Global());
  ASSERT_TRUE(Build(FloatConst("a", kCpu0) + Unary("a/_0", "Neg", kCpu0, "a") +
                        Unary("b", "Neg", kCpu1, "a"),
                    &g)
                  .ok());
  Partitions parts;
  ASSERT_TRUE(Partition(PartitionOptions(), g, &parts).ok());
  EXPECT_EQ(PartitionString(kCpu0, parts.at(kCpu0)),
            "a(Const);a/_0(Neg);a/_1(_Send)|a->a/_0;a->a/_1");
  EXPECT_EQ(PartitionString(kCpu1, parts.at(kCpu1)), "a/_2(_Recv);b(Neg)|a/_2->b");
}

TEST(PartitionTest, UnassignedNodeIsAnError) {
  Graph g(OpRegistry::Global());
  ASSERT_TRUE(GraphFromTextForTest(FloatConst("a", "") + Unary("b", "Neg", "", "a"), &g).ok());
  Partitions parts;
  absl::Status s = Partition(PartitionOptions(), g, &parts);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(s.message(), "'a' (Const) has no assigned device")) << s;
}

TEST(PartitionTest, MalformedAssignedDeviceIsAnError) {
  Graph g(OpRegistry::Global());
  ASSERT_TRUE(Build(FloatConst("a", kCpu0), &g).ok());
  g.FindNodeByName("a")->set_assigned_device_name("not a device");
  Partitions parts;
  absl::Status s = Partition(PartitionOptions(), g, &parts);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(
      absl::StrContains(s.message(), "Malformed assigned device 'not a device' of node 'a'"))
      << s;
}

TEST(PartitionTest, MissingDataInputIsAnError) {
  Graph g(OpRegistry::Global());
  ASSERT_TRUE(Build(FloatConst("a", kCpu0), &g).ok());
  NodeDef def;
  def.set_name("lonely");
  def.set_op("Neg");
  AddNodeAttr("T", DT_FLOAT, &def);
  absl::StatusOr<Node*> n = g.AddNode(def);
  ASSERT_TRUE(n.ok());
  (*n)->set_assigned_device_name(kCpu0);
  Partitions parts;
  absl::Status s = Partition(PartitionOptions(), g, &parts);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "Incomplete graph, missing 1 inputs for lonely");
}

// i = 0; while (i < 4) i = body(i); out = i. `body_device` places the loop body.
std::string WhileLoop(const std::string& body_device, const std::string& outside_device) {
  const std::string int_t = "type: DT_INT32";
  return N("init", "Const", outside_device, {},
           {{"dtype", int_t}, {"value", "tensor { dtype: DT_INT32 tensor_shape {} int_val: 0 }"}}) +
         N("limit", "Const", kCpu0, {},
           {{"dtype", int_t}, {"value", "tensor { dtype: DT_INT32 tensor_shape {} int_val: 4 }"}}) +
         N("enter", "Enter", kCpu0, {"init"}, {{"T", int_t}, {"frame_name", "s: 'loop'"}}) +
         N("limit_enter", "Enter", kCpu0, {"limit"},
           {{"T", int_t}, {"frame_name", "s: 'loop'"}, {"is_constant", "b: true"}}) +
         N("merge", "Merge", kCpu0, {"enter", "next"}, {{"T", int_t}, {"N", "i: 2"}}) +
         N("less", "Less", kCpu0, {"merge", "limit_enter"}, {{"T", int_t}}) +
         N("cond", "LoopCond", kCpu0, {"less"}, {}) +
         N("switch", "Switch", kCpu0, {"merge", "cond"}, {{"T", int_t}}) +
         Unary("body", "Neg", body_device, "switch:1", "DT_INT32") +
         Unary("next", "NextIteration", kCpu0, "body", "DT_INT32") +
         Unary("exit", "Exit", kCpu0, "switch", "DT_INT32") +
         Unary("out", "Identity", outside_device, "exit", "DT_INT32");
}

// A caller that keeps its graph cannot have control loops added to it.
TEST(PartitionTest, LoopAcrossDevicesNeedsControlLoopsInAKeptGraph) {
  Graph g(OpRegistry::Global());
  ASSERT_TRUE(Build(WhileLoop(kCpu1, kCpu0), &g).ok());
  Partitions parts;
  absl::Status s = Partition(PartitionOptions(), g, &parts);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(absl::StrContains(s.message(), "while loop frame 'loop'")) << s;
  EXPECT_TRUE(absl::StrContains(s.message(),
                                "'body' (Neg) on /job:localhost/replica:0/task:0/device:CPU:1"))
      << s;
}

// The body on CPU:1 gets a control loop there, whose Switch reads the LoopCond from CPU:0
// and whose Merge triggers, each iteration, the Recvs of the frame's tensors from CPU:0
// (the condition's and switch:1's). CPU:0 receives body's output inside the frame too, so
// it gets a control loop of its own, reading its LoopCond locally.
TEST(PartitionTest, LoopAcrossDevicesGetsAControlLoopPerDevice) {
  auto g = std::make_unique<Graph>(OpRegistry::Global());
  ASSERT_TRUE(Build(WhileLoop(kCpu1, kCpu0), g.get()).ok());
  Partitions parts;
  absl::Status s = Partition(PartitionOptions(), std::move(g), &parts);
  ASSERT_TRUE(s.ok()) << s;
  for (const char* device : {kCpu0, kCpu1}) {
    SCOPED_TRACE(device);
    const GraphDef& part = parts.at(device);
    PartitionString(device, part);  // each partition imports on its own
    std::vector<const NodeDef*> enters;
    for (const NodeDef* n : NodesWithOp(part, "Enter")) {
      if (absl::StartsWith(n->name(), "_cloop")) enters.push_back(n);
    }
    ASSERT_EQ(enters.size(), 1u);
    EXPECT_EQ(StringAttr(*enters[0], "frame_name"), "loop");
    std::string merge;
    for (const NodeDef* n : NodesWithOp(part, "Merge")) {
      if (absl::StartsWith(n->name(), "_cloop")) merge = n->name();
    }
    ASSERT_FALSE(merge.empty());
    // Every Recv inside the frame waits for the control loop's iteration.
    int triggered = 0;
    for (const NodeDef* recv : NodesWithOp(part, "_Recv")) {
      for (const std::string& in : recv->input()) triggered += in == "^" + merge;
    }
    EXPECT_EQ(triggered, device == std::string(kCpu1) ? 2 : 1);
  }
  // Nothing reads a control loop's Merge as a data dependency but its own Switch.
  for (const NodeDef& n : parts.at(kCpu1).node()) {
    if (n.name() == "body") {
      for (const std::string& in : n.input()) EXPECT_FALSE(absl::StrContains(in, "_cloop")) << in;
    }
  }
}

// Nested loops: the inner frame's control loop on the other device is started by each
// iteration of the outer frame's control loop there.
TEST(PartitionTest, NestedLoopAcrossDevicesStacksControlLoops) {
  const std::string int_t = "type: DT_INT32";
  auto frame = [](const std::string& name) { return "s: '" + name + "'"; };
  auto scalar = [](int v) {
    return absl::StrCat("tensor { dtype: DT_INT32 tensor_shape {} int_val: ", v, " }");
  };
  std::string text =
      N("zero", "Const", kCpu0, {}, {{"dtype", int_t}, {"value", scalar(0)}}) +
      N("two", "Const", kCpu0, {}, {{"dtype", int_t}, {"value", scalar(2)}}) +
      N("o_enter", "Enter", kCpu0, {"zero"}, {{"T", int_t}, {"frame_name", frame("outer")}}) +
      N("o_limit", "Enter", kCpu0, {"two"},
        {{"T", int_t}, {"frame_name", frame("outer")}, {"is_constant", "b: true"}}) +
      N("o_merge", "Merge", kCpu0, {"o_enter", "o_next"}, {{"T", int_t}, {"N", "i: 2"}}) +
      N("o_less", "Less", kCpu0, {"o_merge", "o_limit"}, {{"T", int_t}}) +
      N("o_cond", "LoopCond", kCpu0, {"o_less"}, {}) +
      N("o_switch", "Switch", kCpu0, {"o_merge", "o_cond"}, {{"T", int_t}}) +
      N("i_enter", "Enter", kCpu0, {"o_switch:1"}, {{"T", int_t}, {"frame_name", frame("inner")}}) +
      N("i_merge", "Merge", kCpu0, {"i_enter", "i_next"}, {{"T", int_t}, {"N", "i: 2"}}) +
      N("i_cond_in", "Identity", kCpu0, {"i_merge"}, {{"T", int_t}}) +
      N("i_limit", "Const", kCpu0, {"^i_merge"}, {{"dtype", int_t}, {"value", scalar(5)}}) +
      N("i_less", "Less", kCpu0, {"i_cond_in", "i_limit"}, {{"T", int_t}}) +
      N("i_cond", "LoopCond", kCpu0, {"i_less"}, {}) +
      N("i_switch", "Switch", kCpu0, {"i_merge", "i_cond"}, {{"T", int_t}}) +
      Unary("i_body", "Neg", kCpu1, "i_switch:1", "DT_INT32") +
      Unary("i_next", "NextIteration", kCpu0, "i_body", "DT_INT32") +
      Unary("i_exit", "Exit", kCpu0, "i_switch", "DT_INT32") +
      Unary("o_next", "NextIteration", kCpu0, "i_exit", "DT_INT32") +
      Unary("o_exit", "Exit", kCpu0, "o_switch", "DT_INT32");
  auto g = std::make_unique<Graph>(OpRegistry::Global());
  ASSERT_TRUE(Build(text, g.get()).ok());
  Partitions parts;
  absl::Status s = Partition(PartitionOptions(), std::move(g), &parts);
  ASSERT_TRUE(s.ok()) << s;
  const GraphDef& cpu1 = parts.at(kCpu1);
  PartitionString(kCpu1, cpu1);
  std::map<std::string, const NodeDef*> enters;  // control loop Enters by frame
  for (const NodeDef* n : NodesWithOp(cpu1, "Enter")) enters[StringAttr(*n, "frame_name")] = n;
  ASSERT_EQ(enters.size(), 2u);
  ASSERT_EQ(enters["outer"]->input_size(), 1);
  ASSERT_EQ(enters["inner"]->input_size(), 1);
  EXPECT_EQ(FindNode(cpu1, enters["outer"]->input(0))->op(), "Const");
  const NodeDef* inner_source = FindNode(cpu1, enters["inner"]->input(0));
  ASSERT_NE(inner_source, nullptr);
  EXPECT_EQ(inner_source->op(), "Merge");
}

// One non-constant Enter read by loop variables on two devices (as CSE leaves identical
// Enters): each device gets its own copy, since an Enter's value is sent in the first
// iteration only. The Merge on CPU:1 then reads its Enter directly, not through a Recv.
TEST(PartitionTest, EnterReadOnTwoDevicesIsCopiedToEach) {
  const std::string int_t = "type: DT_INT32";
  std::string text =
      N("init", "Const", kCpu0, {},
        {{"dtype", int_t}, {"value", "tensor { dtype: DT_INT32 tensor_shape {} int_val: 0 }"}}) +
      N("limit", "Const", kCpu0, {},
        {{"dtype", int_t}, {"value", "tensor { dtype: DT_INT32 tensor_shape {} int_val: 4 }"}}) +
      N("enter", "Enter", kCpu0, {"init"}, {{"T", int_t}, {"frame_name", "s: 'loop'"}}) +
      N("limit_enter", "Enter", kCpu0, {"limit"},
        {{"T", int_t}, {"frame_name", "s: 'loop'"}, {"is_constant", "b: true"}}) +
      N("merge_a", "Merge", kCpu0, {"enter", "next_a"}, {{"T", int_t}, {"N", "i: 2"}}) +
      N("merge_b", "Merge", kCpu1, {"enter", "next_b"}, {{"T", int_t}, {"N", "i: 2"}}) +
      N("less", "Less", kCpu0, {"merge_a", "limit_enter"}, {{"T", int_t}}) +
      N("cond", "LoopCond", kCpu0, {"less"}, {}) +
      N("switch_a", "Switch", kCpu0, {"merge_a", "cond"}, {{"T", int_t}}) +
      N("switch_b", "Switch", kCpu1, {"merge_b", "cond"}, {{"T", int_t}}) +
      Unary("body_a", "Neg", kCpu0, "switch_a:1", "DT_INT32") +
      Unary("body_b", "Neg", kCpu1, "switch_b:1", "DT_INT32") +
      Unary("next_a", "NextIteration", kCpu0, "body_a", "DT_INT32") +
      Unary("next_b", "NextIteration", kCpu1, "body_b", "DT_INT32") +
      Unary("exit_a", "Exit", kCpu0, "switch_a", "DT_INT32") +
      Unary("exit_b", "Exit", kCpu1, "switch_b", "DT_INT32");
  auto g = std::make_unique<Graph>(OpRegistry::Global());
  ASSERT_TRUE(Build(text, g.get()).ok());
  Partitions parts;
  absl::Status s = Partition(PartitionOptions(), std::move(g), &parts);
  ASSERT_TRUE(s.ok()) << s;
  const GraphDef& cpu1 = parts.at(kCpu1);
  PartitionString(kCpu1, cpu1);
  const NodeDef* merge_b = FindNode(cpu1, "merge_b");
  ASSERT_NE(merge_b, nullptr);
  const NodeDef* enter_copy = FindNode(cpu1, merge_b->input(0));
  ASSERT_NE(enter_copy, nullptr);
  EXPECT_EQ(enter_copy->op(), "Enter");
  EXPECT_EQ(StringAttr(*enter_copy, "frame_name"), "loop");
  EXPECT_EQ(FindNode(parts.at(kCpu0), "merge_a")->input(0), "enter");
}

// A frame that crosses devices (a loop invariant read on another device) but has no
// LoopCond cannot be given control loops.
TEST(PartitionTest, CrossDeviceFrameWithoutLoopCondIsAnError) {
  const std::string int_t = "type: DT_INT32";
  std::string text =
      N("zero", "Const", kCpu0, {},
        {{"dtype", int_t}, {"value", "tensor { dtype: DT_INT32 tensor_shape {} int_val: 0 }"}}) +
      N("enter", "Enter", kCpu0, {"zero"},
        {{"T", int_t}, {"frame_name", "s: 'f'"}, {"is_constant", "b: true"}}) +
      Unary("neg", "Neg", kCpu1, "enter", "DT_INT32");
  auto g = std::make_unique<Graph>(OpRegistry::Global());
  ASSERT_TRUE(Build(text, g.get()).ok());
  Partitions parts;
  absl::Status s = Partition(PartitionOptions(), std::move(g), &parts);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "A cross-device loop must have a pivot predicate: f");
}

TEST(PartitionTest, LoopFedAndReadFromAnotherDeviceIsFine) {
  Graph g(OpRegistry::Global());
  ASSERT_TRUE(Build(WhileLoop(kCpu0, kCpu1), &g).ok());
  Partitions parts;
  absl::Status s = Partition(PartitionOptions(), g, &parts);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(NodesWithOp(parts.at(kCpu0), "_Recv").size(), 1u);  // init -> enter
  EXPECT_EQ(NodesWithOp(parts.at(kCpu1), "_Recv").size(), 1u);  // exit -> out
  PartitionString(kCpu0, parts.at(kCpu0));
  PartitionString(kCpu1, parts.at(kCpu1));
}

TEST(PartitionTest, EnterWithoutFrameNameIsAnError) {
  Graph g(OpRegistry::Global());
  ASSERT_TRUE(Build(FloatConst("a", kCpu0), &g).ok());
  NodeDef def;
  def.set_name("enter");
  def.set_op("Enter");
  AddNodeAttr("T", DT_FLOAT, &def);
  absl::StatusOr<Node*> enter = g.AddNode(def);
  ASSERT_TRUE(enter.ok()) << enter.status();
  (*enter)->set_assigned_device_name(kCpu1);
  g.AddEdge(g.FindNodeByName("a"), 0, *enter, 0);
  Partitions parts;
  absl::Status s = Partition(PartitionOptions(), g, &parts);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(s.message(), "Enter node 'enter' has no valid frame_name")) << s;
}

}  // namespace
}  // namespace sluice
