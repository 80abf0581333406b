#include "passes/placer.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "glog/logging.h"
#include "gmock/gmock.h"
#include "graph/core/errors.h"
#include "graph/graph.h"
#include "graph/import/graph_testutil.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// Test-only ops; which devices "have kernels" for them is decided by TestSupport below.
REGISTER_OP("PlTestVar")
    .Output("ref: Ref(float)")
    .SetIsStateful()
    .SetShapeFn(shape_inference::UnknownShape);
REGISTER_OP("PlTestAssign")
    .Input("ref: Ref(float)")
    .Input("value: float")
    .Output("out: Ref(float)")
    .SetShapeFn(shape_inference::UnknownShape);
REGISTER_OP("PlTestCpuRefUser")
    .Input("ref: Ref(float)")
    .Output("out: float")
    .SetShapeFn(shape_inference::UnknownShape);
REGISTER_OP("PlTestHandle")
    .Output("h: resource")
    .SetIsStateful()
    .SetShapeFn(shape_inference::ScalarShape);
REGISTER_OP("PlTestCpuHandle")
    .Output("h: resource")
    .SetIsStateful()
    .SetShapeFn(shape_inference::ScalarShape);
REGISTER_OP("PlTestRead")
    .Input("h: resource")
    .Output("v: float")
    .SetShapeFn(shape_inference::UnknownShape);
REGISTER_OP("PlTestGpuRead")
    .Input("h: resource")
    .Output("v: float")
    .SetShapeFn(shape_inference::UnknownShape);
REGISTER_OP("PlTestRead2")
    .Input("a: resource")
    .Input("b: resource")
    .Output("v: float")
    .SetShapeFn(shape_inference::UnknownShape);
REGISTER_OP("PlTestCpuOnly")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: type")
    .SetShapeFn(shape_inference::UnknownShape);
REGISTER_OP("PlTestGpuOnly")
    .Input("x: float")
    .Output("y: float")
    .SetShapeFn(shape_inference::UnknownShape);
REGISTER_OP("PlTestNoKernel").Output("y: float").SetShapeFn(shape_inference::UnknownShape);
REGISTER_OP("PlTestSupportFails").Output("y: float").SetShapeFn(shape_inference::UnknownShape);

// Kernel availability as a runtime would report it: GPU preferred where it has a kernel.
absl::Status TestSupport(const Node& node, std::vector<std::string>* types) {
  const std::string& op = node.type_string();
  if (op == "PlTestSupportFails") return absl::UnavailableError("registry unavailable");
  if (op == "PlTestNoKernel") return absl::OkStatus();
  if (op == "PlTestGpuOnly" || op == "PlTestGpuRead") {
    *types = {"GPU"};
  } else if (op == "Placeholder" || op == "NoOp" || op == "PlTestCpuOnly" ||
             op == "PlTestCpuRefUser" || op == "PlTestCpuHandle") {
    *types = {"CPU"};
  } else {
    *types = {"GPU", "CPU"};
  }
  return absl::OkStatus();
}

constexpr char kPrefix[] = "/job:localhost/replica:0/task:0/device:";

PlacementDevice Device(const std::string& type, int id) {
  return {absl::StrCat(kPrefix, type, ":", id), type};
}

std::string FloatT() { return R"(attr { key: "T" value { type: DT_FLOAT } })"; }

std::string Class(const std::vector<std::string>& groups) {
  std::string list;
  for (const std::string& g : groups) absl::StrAppend(&list, "s: \"", g, "\" ");
  return absl::StrCat(R"(attr { key: "_class" value { list { )", list, "} } }");
}

// A node in GraphDef text.
std::string NodeText(const std::string& name, const std::string& op,
                     const std::vector<std::string>& inputs, const std::string& device = "",
                     const std::string& attrs = "") {
  std::string text = absl::StrCat("node { name: \"", name, "\" op: \"", op, "\" ");
  for (const std::string& in : inputs) absl::StrAppend(&text, "input: \"", in, "\" ");
  if (!device.empty()) absl::StrAppend(&text, "device: \"", device, "\" ");
  return absl::StrCat(text, attrs, " }\n");
}

// A 2x2 float Const.
std::string Const(const std::string& name, const std::string& device = "",
                  const std::string& attrs = "") {
  return NodeText(name, "Const", {}, device,
                  absl::StrCat(R"(attr { key: "dtype" value { type: DT_FLOAT } }
                 attr { key: "value" value { tensor { dtype: DT_FLOAT
                   tensor_shape { dim { size: 2 } dim { size: 2 } } float_val: 1 } } } )",
                               attrs));
}

std::string Identity(const std::string& name, const std::string& input,
                     const std::string& device = "", const std::string& attrs = "") {
  return NodeText(name, "Identity", {input}, device, FloatT() + attrs);
}

class PlacerTest : public ::testing::Test {
 protected:
  // Imports `pbtxt` and places it.
  absl::Status Place(const std::string& pbtxt) {
    RETURN_IF_ERROR(Import(pbtxt));
    return PlaceImported();
  }

  // Places the imported graph with options_, devices_ and support_; changed_ says whether a
  // node got a device.
  absl::Status PlaceImported() {
    PlacerOptions options = options_;
    options.devices = devices_;
    options.device_support = support_;
    return PlaceGraph(options, graph_.get(), &changed_);
  }

  absl::Status Import(const std::string& pbtxt) {
    graph_ = std::make_unique<Graph>(OpRegistry::Global());
    return GraphFromTextForTest(pbtxt, graph_.get());
  }

  // CanonicalGraphString without the common device prefix.
  std::string Placed() const {
    return absl::StrReplaceAll(CanonicalGraphString(*graph_), {{kPrefix, ""}});
  }

  std::vector<PlacementDevice> devices_ = {Device("CPU", 0), Device("CPU", 1), Device("GPU", 0)};
  DeviceSupport support_{TestSupport};
  PlacerOptions options_;
  bool changed_ = false;
  std::unique_ptr<Graph> graph_;
};

// ---- Defaults and preferences -------------------------------------------------------

TEST_F(PlacerTest, PrefersGpuAndPlacesGeneratorsWithConsumers) {
  ASSERT_TRUE(
      Place(Const("a") + Const("b") + NodeText("m", "MatMul", {"a", "b"}, "", FloatT())).ok());
  EXPECT_EQ(Placed(), "a(Const)@GPU:0;b(Const)@GPU:0;m(MatMul)@GPU:0|a->m;b->m:1");
  EXPECT_TRUE(changed_);
  ASSERT_TRUE(PlaceImported().ok());  // every node has its device already
  EXPECT_FALSE(changed_);
  EXPECT_EQ(Placed(), "a(Const)@GPU:0;b(Const)@GPU:0;m(MatMul)@GPU:0|a->m;b->m:1");
}

TEST_F(PlacerTest, CpuOnlyOpsGoToLowestCpu) {
  ASSERT_TRUE(Place(NodeText("p", "Placeholder", {}, "",
                             R"(attr { key: "dtype" value { type: DT_FLOAT } })") +
                    Identity("i", "p") + NodeText("n", "NoOp", {"^i"}))
                  .ok());
  EXPECT_EQ(Placed(), "i(Identity)@GPU:0;n(NoOp)@CPU:0;p(Placeholder)@CPU:0|^i->n;p->i");
}

TEST_F(PlacerTest, LowestIdWinsWhateverTheListOrder) {
  devices_ = {Device("CPU", 1), Device("GPU", 1), Device("CPU", 0), Device("GPU", 0)};
  ASSERT_TRUE(Place(Const("a") + Identity("c", "a", "/device:CPU:*") + Identity("g", "a")).ok());
  EXPECT_EQ(Placed(), "a(Const)@GPU:0;c(Identity)@CPU:0;g(Identity)@GPU:0|a->c;a->g");
}

TEST_F(PlacerTest, SupportOrderDecidesPreference) {
  support_.supported_device_types = [](const Node&, std::vector<std::string>* types) {
    *types = {"CPU", "GPU", "TPU", "CPU"};  // unknown and repeated types are ignored
    return absl::OkStatus();
  };
  ASSERT_TRUE(Place(Const("a") + Identity("b", "a")).ok());
  EXPECT_EQ(Placed(), "a(Const)@CPU:0;b(Identity)@CPU:0|a->b");
}

TEST_F(PlacerTest, UnsetSupportMeansEveryTypeInDeviceOrder) {
  support_ = DeviceSupport();
  devices_ = {Device("GPU", 0), Device("CPU", 0)};
  ASSERT_TRUE(Place(Const("a") + NodeText("p", "Placeholder", {}, "/cpu:0",
                                          R"(attr { key: "dtype" value { type: DT_FLOAT } })"))
                  .ok());
  EXPECT_EQ(Placed(), "a(Const)@GPU:0;p(Placeholder)@CPU:0|");
}

TEST_F(PlacerTest, DefaultDeviceIsPreferredAmongCandidates) {
  options_.default_device = absl::StrCat(kPrefix, "CPU:1");
  ASSERT_TRUE(Place(Const("a") + Identity("b", "a") + Identity("g", "a", "/device:GPU:0") +
                    NodeText("x", "PlTestGpuOnly", {"a"}))
                  .ok());
  EXPECT_EQ(Placed(),
            "a(Const)@CPU:1;b(Identity)@CPU:1;g(Identity)@GPU:0;x(PlTestGpuOnly)@GPU:0|"
            "a->b;a->g;a->x");
}

// ---- Explicit requests ----------------------------------------------------------------

TEST_F(PlacerTest, HonoursFullPartialAndLegacyRequests) {
  devices_.push_back(Device("GPU", 1));
  ASSERT_TRUE(Place(Const("a", "/cpu:1") + Identity("b", "a", "/device:GPU:1") +
                    Identity("c", "a", "/job:localhost/task:0") +
                    Identity("d", "a", "/device:CPU:*") + Identity("e", "a", "/GPU:*") +
                    Identity("f", "a", absl::StrCat(kPrefix, "CPU:1")) + Identity("g", "a", "/"))
                  .ok());
  EXPECT_EQ(Placed(),
            "a(Const)@CPU:1;b(Identity)@GPU:1;c(Identity)@GPU:0;d(Identity)@CPU:0;"
            "e(Identity)@GPU:0;f(Identity)@CPU:1;g(Identity)@GPU:0|"
            "a->b;a->c;a->d;a->e;a->f;a->g");
}

TEST_F(PlacerTest, MetadataOpsFollowTheirInput) {
  ASSERT_TRUE(Place(Const("a") + Identity("x", "a", "/cpu:1") +
                    NodeText("s", "Shape", {"x"}, "", FloatT()) +
                    NodeText("g", "PlTestGpuOnly", {"a"}) +
                    NodeText("t", "Shape", {"g"}, "/device:CPU:*", FloatT()))
                  .ok());
  EXPECT_EQ(Placed(),
            "a(Const)@GPU:0;g(PlTestGpuOnly)@GPU:0;s(Shape)@CPU:1;t(Shape)@CPU:0;x(Identity)@CPU:1|"
            "a->g;a->x;g->t;x->s");
}

TEST_F(PlacerTest, GeneratorWithConsumersOnDifferentDevicesTakesFirstCandidate) {
  ASSERT_TRUE(Place(Const("a") + Identity("b", "a", "/cpu:1") + Identity("c", "a", "/cpu:0") +
                    Const("k") + Identity("d", "k", "/cpu:1") + Identity("e", "k", "/cpu:1"))
                  .ok());
  EXPECT_EQ(Placed(),
            "a(Const)@GPU:0;b(Identity)@CPU:1;c(Identity)@CPU:0;d(Identity)@CPU:1;"
            "e(Identity)@CPU:1;k(Const)@CPU:1|a->b;a->c;k->d;k->e");
}

TEST_F(PlacerTest, AssignedNodesKeepTheirDeviceAndPinTheirGroup) {
  ASSERT_TRUE(Import(Const("a") + Identity("b", "a", "/device:GPU:0", Class({"loc:@a"}))).ok());
  graph_->FindNodeByName("a")->set_assigned_device_name(absl::StrCat(kPrefix, "CPU:1"));
  // As in TensorFlow, the message shows the fields merged before the conflict.
  absl::Status s = PlaceImported();
  EXPECT_EQ(std::string(s.message()),
            "Cannot colocate nodes {{colocation_node b}} and {{colocation_node a}}: Cannot merge "
            "devices with incompatible types: '/job:localhost/replica:0/task:0/device:GPU:0' and "
            "'/job:localhost/replica:0/task:0/device:CPU:1'\n\t [[{{node b}}]]");

  options_.allow_soft_placement = true;  // b's request yields to a's assignment
  ASSERT_TRUE(PlaceImported().ok());
  EXPECT_EQ(Placed(), "a(Const)@CPU:1;b(Identity)@CPU:1|a->b");
}

// ---- Colocation groups ------------------------------------------------------------------

TEST_F(PlacerTest, ColocationGroupsShareOneDevice) {
  ASSERT_TRUE(Place(Const("a", "/cpu:1") + Identity("b", "a", "", Class({"loc:@a"})) +
                    Identity("c", "b", "", Class({"loc:@b", "not a group"})) +
                    Const("k", "", Class({"loc:@a"})) + Identity("d", "k"))
                  .ok());
  EXPECT_EQ(Placed(),
            "a(Const)@CPU:1;b(Identity)@CPU:1;c(Identity)@CPU:1;d(Identity)@GPU:0;"
            "k(Const)@CPU:1|a->b;b->c;k->d");
}

TEST_F(PlacerTest, GroupRequestsMergeAndTypesIntersect) {
  // b asks for any CPU, a for task 0: together the lowest CPU. c lacks a GPU kernel, so
  // its group {c, d} avoids the GPU.
  ASSERT_TRUE(Place(Const("a", "/job:localhost/task:0") +
                    Identity("b", "a", "/device:CPU:*", Class({"loc:@a"})) +
                    NodeText("c", "PlTestCpuOnly", {"a"}, "", FloatT()) +
                    Identity("d", "c", "", Class({"loc:@c"})))
                  .ok());
  EXPECT_EQ(Placed(),
            "a(Const)@CPU:0;b(Identity)@CPU:0;c(PlTestCpuOnly)@CPU:0;d(Identity)@CPU:0|"
            "a->b;a->c;c->d");
}

TEST_F(PlacerTest, SingleStringClassIsIgnored) {
  ASSERT_TRUE(Place(Const("a", "/cpu:1") +
                    Identity("b", "a", "", R"(attr { key: "_class" value { s: "loc:@a" } })"))
                  .ok());
  EXPECT_EQ(Placed(), "a(Const)@CPU:1;b(Identity)@GPU:0|a->b");
}

TEST_F(PlacerTest, ColocationConflictIsAnError) {
  absl::Status s = Place(Const("a", "/cpu:0") + Identity("b", "a", "/cpu:1", Class({"loc:@a"})));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(
      s.message(),
      "Cannot colocate nodes {{colocation_node b}} and {{colocation_node a}}: Cannot merge "
      "devices with incompatible ids: '/device:CPU:1' and '/device:CPU:0'\n\t [[{{node b}}]]");
}

TEST_F(PlacerTest, SoftPlacementDropsAColocationItCannotMeet) {
  devices_.push_back({"/job:localhost/replica:0/task:1/device:CPU:0", "CPU"});
  const std::string graph =
      Const("a", "/task:0") + Identity("b", "a", "/task:1", Class({"loc:@a"}));
  absl::Status s = Place(graph);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(),
            "Cannot colocate nodes {{colocation_node b}} and {{colocation_node a}}: Cannot merge "
            "devices with incompatible tasks: '/task:1' and '/task:0'\n\t [[{{node b}}]]");
  options_.allow_soft_placement = true;
  ASSERT_TRUE(Place(graph).ok());
  EXPECT_EQ(Placed(),
            "a(Const)@GPU:0;b(Identity)@/job:localhost/replica:0/task:1/device:CPU:0|a->b");
}

TEST_F(PlacerTest, ColocationWithoutCommonTypeIsAnError) {
  absl::Status s = Place(Const("a") + NodeText("c", "PlTestCpuOnly", {"a"}, "", FloatT()) +
                         NodeText("g", "PlTestGpuOnly", {"a"}, "", Class({"loc:@c"})));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()),
              StartsWith("Cannot colocate nodes {{colocation_node g}} and {{colocation_node c}} "
                         "because no device type supports both of those nodes and the other "
                         "nodes colocated with them.\nColocation Debug Info:\n"
                         "Colocation group had the following types and supported devices: \n"
                         "Root Member(requested_device_name_='' assigned_device_name_='' "
                         "resource_device_name_='' supported_device_types_=[GPU] "
                         "possible_devices_=[]\nPlTestGpuOnly: GPU \n\n"
                         "Colocation members, user-requested devices, and framework assigned "
                         "devices, if any:\n  g (PlTestGpuOnly) \n"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("\nPlTestCpuOnly: CPU \n"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("\n\t [[{{node g}}]]"));
}

// ---- Reference and resource edges -------------------------------------------------------

TEST_F(PlacerTest, RefConsumerFollowsProducer) {
  ASSERT_TRUE(Place(NodeText("v", "PlTestVar", {}, "/cpu:1") + Const("c") +
                    NodeText("asg", "PlTestAssign", {"v", "c"}, "/cpu:0"))
                  .ok());
  EXPECT_EQ(Placed(), "asg(PlTestAssign)@CPU:1;c(Const)@CPU:1;v(PlTestVar)@CPU:1|c->asg:1;v->asg");
}

TEST_F(PlacerTest, ResourceConsumersFollowTheHandle) {
  ASSERT_TRUE(Place(NodeText("h", "PlTestHandle", {}, "/cpu:1") +
                    NodeText("r", "PlTestRead", {"h"}, "/device:GPU:0") +
                    NodeText("i", "Identity", {"h"}, "",
                             R"(attr { key: "T" value { type: DT_RESOURCE } })"))
                  .ok());
  EXPECT_EQ(Placed(), "h(PlTestHandle)@CPU:1;i(Identity)@CPU:1;r(PlTestRead)@CPU:1|h->i;h->r");
}

TEST_F(PlacerTest, RefProducerWithoutConsumerKernelNeedsSoftPlacement) {
  const std::string graph =
      NodeText("v", "PlTestVar", {}, "/device:GPU:0") + NodeText("u", "PlTestCpuRefUser", {"v"});
  absl::Status s = Place(graph);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()),
              StartsWith("Cannot assign a device for operation v: Could not satisfy explicit "
                         "device specification '/device:GPU:0' because no supported kernel for "
                         "GPU devices is available.\nColocation Debug Info:\n"));
  EXPECT_THAT(std::string(s.message()),
              HasSubstr("\nOp: PlTestVar\nNode attrs: \nRegistered kernels:\n"
                        "  device='GPU'\n  device='CPU'\n"));
  options_.allow_soft_placement = true;
  ASSERT_TRUE(Place(graph).ok());
  EXPECT_EQ(Placed(), "u(PlTestCpuRefUser)@CPU:0;v(PlTestVar)@CPU:0|v->u");
}

TEST_F(PlacerTest, RefEdgeBetweenDifferentlyAssignedGroupsIsAnError) {
  ASSERT_TRUE(Import(NodeText("v", "PlTestVar", {}) + Const("c") +
                     NodeText("asg", "PlTestAssign", {"v", "c"}))
                  .ok());
  graph_->FindNodeByName("v")->set_assigned_device_name(absl::StrCat(kPrefix, "CPU:1"));
  graph_->FindNodeByName("asg")->set_assigned_device_name(absl::StrCat(kPrefix, "CPU:0"));
  absl::Status s = PlaceImported();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(),
            "Cannot place the graph because a reference or resource edge connects colocation "
            "groups with incompatible assigned devices: "
            "/job:localhost/replica:0/task:0/device:CPU:1 vs "
            "/job:localhost/replica:0/task:0/device:CPU:0. The edge src node is v , and the dst "
            "node is asg");
}

TEST_F(PlacerTest, TwoHandlesOnDifferentDevicesIsAnError) {
  absl::Status s = Place(NodeText("h1", "PlTestHandle", {}, "/cpu:0") +
                         NodeText("h2", "PlTestHandle", {}, "/cpu:1") +
                         NodeText("r", "PlTestRead2", {"h1", "h2"}));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(),
            "Cannot place the graph because a reference or resource edge connects colocation "
            "groups with incompatible resource devices: /device:CPU:1 vs /device:CPU:0. The "
            "edge src node is h2 , and the dst node is r");
}

TEST_F(PlacerTest, ResourceEdgeWithoutCommonTypeIsAnError) {
  absl::Status s =
      Place(NodeText("h", "PlTestCpuHandle", {}) + NodeText("r", "PlTestGpuRead", {"h"}));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()),
              StartsWith("Nodes were connected by a reference connection (requiring them to be "
                         "on the same device), but the two nodes were assigned two different "
                         "devices: Cannot colocate nodes {{colocation_node h}} and "
                         "{{colocation_node r}} because no device type supports both"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("\n\t [[{{node r}}]]"));
}

// ---- Soft placement ----------------------------------------------------------------------

TEST_F(PlacerTest, SoftPlacementFallsBack) {
  options_.allow_soft_placement = true;
  ASSERT_TRUE(Place(Const("a") + NodeText("c", "PlTestCpuOnly", {"a"}, "/device:GPU:0", FloatT()) +
                    Identity("g", "a", "/device:GPU:3") +
                    Identity("x", "a", "/cpu:0", Class({"loc:@y"})) +
                    Identity("y", "a", "/device:GPU:0", Class({"loc:@x"})))
                  .ok());
  EXPECT_EQ(Placed(),
            "a(Const)@GPU:0;c(PlTestCpuOnly)@CPU:0;g(Identity)@GPU:0;x(Identity)@GPU:0;"
            "y(Identity)@GPU:0|a->c;a->g;a->x;a->y");
}

TEST_F(PlacerTest, SoftPlacementKeepsTheJob) {
  options_.allow_soft_placement = true;
  absl::Status s = Place(Const("a") + Identity("b", "a", "/job:foo"));
  EXPECT_EQ(s.message(),
            "Cannot assign a device for operation b: {{node b}} was explicitly assigned to "
            "/job:foo but available devices are [ /job:localhost/replica:0/task:0/device:CPU:0, "
            "/job:localhost/replica:0/task:0/device:CPU:1, "
            "/job:localhost/replica:0/task:0/device:GPU:0 ]. Make sure the device specification "
            "refers to a valid device.\n\t [[b]]");
}

// ---- Errors --------------------------------------------------------------------------------

TEST_F(PlacerTest, NoSuchDevice) {
  absl::Status s = Place(Const("a") + Identity("b", "a", "/device:GPU:3"));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(),
            "Cannot assign a device for operation b: {{node b}} was explicitly assigned to "
            "/device:GPU:3 but available devices are [ "
            "/job:localhost/replica:0/task:0/device:CPU:0, "
            "/job:localhost/replica:0/task:0/device:CPU:1, "
            "/job:localhost/replica:0/task:0/device:GPU:0 ]. Make sure the device specification "
            "refers to a valid device.\n\t [[b]]");
  EXPECT_EQ(graph_->FindNodeByName("b")->assigned_device_name(), "");
}

TEST_F(PlacerTest, NoKernelForRequestedType) {
  absl::Status s =
      Place(Const("a") + NodeText("c", "PlTestCpuOnly", {"a"}, "/device:GPU:0", FloatT()));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()),
              StartsWith("Cannot assign a device for operation c: Could not satisfy explicit "
                         "device specification '/device:GPU:0' because no supported kernel for "
                         "GPU devices is available.\nColocation Debug Info:\n"));
  EXPECT_THAT(std::string(s.message()),
              HasSubstr("\nPlTestCpuOnly: CPU \n\nColocation members, user-requested devices, "
                        "and framework assigned devices, if any:\n  c (PlTestCpuOnly) "
                        "/device:GPU:0\n\nOp: PlTestCpuOnly\nNode attrs: T=DT_FLOAT\n"
                        "Registered kernels:\n  device='CPU'\n\n\t [[{{node c}}]]"));
}

TEST_F(PlacerTest, RequestWithoutTypeMatchingOnlyUnsupportedDevices) {
  absl::Status s = Place(Const("a") + NodeText("g", "PlTestGpuOnly", {"a"}, "/device:*:1"));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()),
              StartsWith("Cannot assign a device for operation g: Could not satisfy explicit "
                         "device specification '/device:*:1'\nColocation Debug Info:\n"));
}

TEST_F(PlacerTest, GroupRequiresDeviceTheNodeCannotUse) {
  absl::Status s = Place(NodeText("c", "PlTestCpuOnly", {"k"}, "", FloatT() + Class({"loc:@k"})) +
                         Const("k", "/device:GPU:0"));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()),
              StartsWith("Cannot assign a device for operation c: Could not satisfy explicit "
                         "device specification '' because the node {{colocation_node c}} was "
                         "colocated with a group of nodes that required incompatible device "
                         "'/device:GPU:0'. All available devices "
                         "[/job:localhost/replica:0/task:0/device:CPU:0, "
                         "/job:localhost/replica:0/task:0/device:CPU:1, "
                         "/job:localhost/replica:0/task:0/device:GPU:0]. \nColocation Debug"));
}

TEST_F(PlacerTest, NoKernelAnywhere) {
  absl::Status s = Place(NodeText("k", "PlTestNoKernel", {}));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(),
            "No OpKernel was registered to support Op 'PlTestNoKernel' used by {{node k}} with "
            "these attrs: []\nRegistered devices: [CPU, GPU]\nRegistered kernels:\n"
            "  <no registered kernels>\n\n\t [[k]]");

  devices_ = {Device("CPU", 0)};
  s = Place(Const("a") + NodeText("g", "PlTestGpuOnly", {"a"}));
  EXPECT_EQ(s.message(),
            "No OpKernel was registered to support Op 'PlTestGpuOnly' used by {{node g}} with "
            "these attrs: []\nRegistered devices: [CPU]\nRegistered kernels:\n"
            "  device='GPU'\n\n\t [[g]]");
}

TEST_F(PlacerTest, SupportErrorsNameTheNode) {
  absl::Status s = Place(NodeText("f", "PlTestSupportFails", {}));
  EXPECT_EQ(s.code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(s.message(), "registry unavailable\n\t [[{{node f}}]]");
}

TEST_F(PlacerTest, MalformedRequest) {
  absl::Status s = Place(Const("a") + Identity("b", "a", "/bogus:0"));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()),
              StartsWith("Malformed device specification '/bogus:0' in node: {name:'b'"));
}

TEST_F(PlacerTest, BadDeviceLists) {
  devices_.clear();
  absl::Status s = Place(Const("a"));
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(s.message(), "No devices are registered");

  devices_ = {{"/device:CPU:0", "CPU"}};
  s = Place(Const("a"));
  EXPECT_EQ(s.message(),
            "Device '/device:CPU:0' of type 'CPU' is not a full device name of that type");
  devices_ = {{absl::StrCat(kPrefix, "CPU:0"), "GPU"}};
  EXPECT_EQ(Place(Const("a")).code(), absl::StatusCode::kInvalidArgument);
  devices_ = {Device("CPU", 0), {absl::StrCat("/job:localhost/replica:0/task:0/cpu:0"), "CPU"}};
  s = Place(Const("a"));
  EXPECT_EQ(s.message(), "Device '/job:localhost/replica:0/task:0/cpu:0' is listed twice");
}

TEST_F(PlacerTest, MalformedDefaultDevice) {
  options_.default_device = "/gpu:x";
  absl::Status s = Place(Const("a"));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "Malformed default device specification '/gpu:x'");
}

TEST_F(PlacerTest, BadPreassignedDevices) {
  ASSERT_TRUE(Import(Const("a") + NodeText("c", "PlTestCpuOnly", {"a"}, "", FloatT())).ok());
  graph_->FindNodeByName("a")->set_assigned_device_name(absl::StrCat(kPrefix, "CPU:7"));
  absl::Status s = PlaceImported();
  EXPECT_EQ(s.code(), absl::StatusCode::kInternal);
  EXPECT_THAT(std::string(s.message()),
              StartsWith("Assigned device '/job:localhost/replica:0/task:0/device:CPU:7' does "
                         "not match any device."));

  graph_->FindNodeByName("a")->set_assigned_device_name("");
  graph_->FindNodeByName("c")->set_assigned_device_name(absl::StrCat(kPrefix, "GPU:0"));
  s = PlaceImported();
  EXPECT_EQ(s.code(), absl::StatusCode::kInternal);
  EXPECT_EQ(s.message(),
            "Assigned device '/job:localhost/replica:0/task:0/device:GPU:0' does not have "
            "registered OpKernel support for PlTestCpuOnly\n\t [[{{node c}}]]");
}

// ---- Logging -------------------------------------------------------------------------------

class CapturingSink : public google::LogSink {
 public:
  void send(google::LogSeverity severity, const char*, const char* base_filename, int,
            const google::LogMessageTime&, const char* message, size_t length) override {
    if (severity == google::GLOG_INFO) lines.emplace_back(message, length);
  }
  std::vector<std::string> lines;
};

TEST_F(PlacerTest, LogsOneLinePerNodeAndIgnoredRequests) {
  options_.log_device_placement = true;
  options_.allow_soft_placement = true;
  ASSERT_TRUE(Import(NodeText("v", "PlTestVar", {}, "/cpu:1") + Const("c") +
                     NodeText("asg", "PlTestAssign", {"v", "c"}, "/cpu:0") +
                     Identity("i", "c", "/cpu:0", Class({"loc:@v"})))
                  .ok());
  CapturingSink sink;
  google::AddLogSink(&sink);
  absl::Status s = PlaceImported();
  google::RemoveLogSink(&sink);
  ASSERT_TRUE(s.ok());
  const std::string cpu1 = absl::StrCat(kPrefix, "CPU:1");
  EXPECT_THAT(sink.lines,
              ::testing::ElementsAre(
                  "Ignoring device specification /device:CPU:0 for node 'asg' because the input "
                  "edge from 'v' is a reference connection and already has a device field set "
                  "to /device:CPU:1",
                  "v: (PlTestVar): " + cpu1, "asg: (PlTestAssign): " + cpu1,
                  "i: (Identity): " + cpu1, "c: (Const): " + cpu1));
}

TEST_F(PlacerTest, LogsIgnoredColocations) {
  devices_.push_back({"/job:localhost/replica:0/task:1/device:CPU:0", "CPU"});
  options_.log_device_placement = true;
  options_.allow_soft_placement = true;
  ASSERT_TRUE(
      Import(Const("a", "/task:0") + Identity("b", "a", "/task:1", Class({"loc:@a"}))).ok());
  CapturingSink sink;
  google::AddLogSink(&sink);
  absl::Status s = PlaceImported();
  google::RemoveLogSink(&sink);
  ASSERT_TRUE(s.ok());
  ASSERT_EQ(sink.lines.size(), 3);
  EXPECT_EQ(sink.lines[0],
            "Ignoring request to colocate node 'b' with nodes in colocation group 'a' because "
            "soft placement is on and an attempt at doing so resulted in the following error: "
            "INVALID_ARGUMENT: Cannot colocate nodes {{colocation_node b}} and {{colocation_node "
            "a}}: Cannot merge devices with incompatible tasks: '/task:1' and '/task:0'\n\t "
            "[[{{node b}}]]");
}

// ---- One device ------------------------------------------------------------------------

// One device and no requests take a shortcut (no colocation forest); the answers are those
// of the general case.
TEST_F(PlacerTest, SingleDevicePlacesEverythingThere) {
  devices_ = {Device("CPU", 0)};
  ASSERT_TRUE(Place(Const("a", "", Class({"loc:@c"})) + Const("c") + Identity("b", "a") +
                    NodeText("s", "Shape", {"b"}, "", FloatT()))
                  .ok());
  EXPECT_EQ(Placed(), "a(Const)@CPU:0;b(Identity)@CPU:0;c(Const)@CPU:0;s(Shape)@CPU:0|a->b;b->s");

  support_ = DeviceSupport();
  ASSERT_TRUE(Place(Const("a") + Identity("b", "a")).ok());
  EXPECT_EQ(Placed(), "a(Const)@CPU:0;b(Identity)@CPU:0|a->b");

  support_ = DeviceSupport{TestSupport};
  absl::Status s = Place(Const("a") + NodeText("f", "PlTestSupportFails", {}));
  EXPECT_EQ(s.code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(s.message(), "registry unavailable\n\t [[{{node f}}]]");
}

}  // namespace
}  // namespace sluice
