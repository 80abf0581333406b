#include "runtime/framework/kernel_registry.h"

#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "graph/op/node_def_util.h"
#include "graph/op/op_registry.h"
#include "gtest/gtest.h"
#include "proto/kernel_def.pb.h"
#include "proto/node_def.pb.h"

namespace sluice {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;

OpKernel* NullFactory(OpKernelConstruction*) { return nullptr; }

NodeDef Node(const std::string& op, DataType t) {
  NodeDef node;
  node.set_name("m");
  node.set_op(op);
  AddNodeAttr("T", t, &node);
  return node;
}

class KernelRegistryTest : public ::testing::Test {
 protected:
  absl::Status Register(const KernelDefBuilder& builder, const char* class_name) {
    return registry_.Register(builder, class_name, &NullFactory);
  }

  // The class name of the kernel `node` resolves to on `device`, or the error.
  std::string Find(const NodeDef& node, const char* device = DEVICE_CPU) {
    const KernelDef* def = nullptr;
    std::string class_name;
    absl::Status status = registry_.FindKernel(device, node, &def, &class_name, nullptr);
    if (!status.ok()) return status.ToString();
    EXPECT_EQ(def->op(), node.op());
    return class_name;
  }

  KernelRegistry registry_;
};

TEST_F(KernelRegistryTest, MatchesOpDeviceAndTypeConstraint) {
  ASSERT_TRUE(
      Register(KernelDefBuilder("Add").Device(DEVICE_CPU).TypeConstraint<float>("T"), "AddCpuFloat")
          .ok());
  ASSERT_TRUE(
      Register(KernelDefBuilder("Add").Device(DEVICE_GPU).TypeConstraint<float>("T"), "AddGpuFloat")
          .ok());
  ASSERT_TRUE(
      Register(KernelDefBuilder("Add").Device(DEVICE_CPU).TypeConstraint("T", {DT_INT32, DT_INT64}),
               "AddCpuInt")
          .ok());
  EXPECT_EQ(Find(Node("Add", DT_FLOAT)), "AddCpuFloat");
  EXPECT_EQ(Find(Node("Add", DT_FLOAT), DEVICE_GPU), "AddGpuFloat");
  EXPECT_EQ(Find(Node("Add", DT_INT64)), "AddCpuInt");
}

TEST_F(KernelRegistryTest, ListTypeConstraintChecksEveryElement) {
  ASSERT_TRUE(
      Register(
          KernelDefBuilder("Pack").Device(DEVICE_CPU).TypeConstraint("T", {DT_FLOAT, DT_INT32}),
          "PackOp")
          .ok());
  NodeDef node = Node("Pack", DT_FLOAT);
  AddNodeAttr("T", {DT_FLOAT, DT_INT32}, &node);
  EXPECT_EQ(Find(node), "PackOp");
  AddNodeAttr("T", {DT_FLOAT, DT_BOOL}, &node);
  EXPECT_THAT(Find(node), HasSubstr("NOT_FOUND"));
}

TEST_F(KernelRegistryTest, HighestPriorityWins) {
  ASSERT_TRUE(
      Register(KernelDefBuilder("Conv").Device(DEVICE_CPU).TypeConstraint<float>("T"), "Plain")
          .ok());
  ASSERT_TRUE(
      Register(KernelDefBuilder("Conv").Device(DEVICE_CPU).TypeConstraint<float>("T").Priority(2),
               "Fast")
          .ok());
  ASSERT_TRUE(Register(KernelDefBuilder("Conv").Device(DEVICE_CPU).Priority(1), "Generic").ok());
  EXPECT_EQ(Find(Node("Conv", DT_FLOAT)), "Fast");
  EXPECT_EQ(Find(Node("Conv", DT_DOUBLE)), "Generic");
}

TEST_F(KernelRegistryTest, LabelSelectsKernel) {
  ASSERT_TRUE(Register(KernelDefBuilder("Op").Device(DEVICE_CPU), "Default").ok());
  ASSERT_TRUE(Register(KernelDefBuilder("Op").Device(DEVICE_CPU).Label("special"), "Special").ok());
  NodeDef node = Node("Op", DT_FLOAT);
  EXPECT_EQ(Find(node), "Default");
  AddNodeAttr("_kernel", "special", &node);
  EXPECT_EQ(Find(node), "Special");
  AddNodeAttr("_kernel", "other", &node);
  EXPECT_THAT(Find(node), HasSubstr("No registered 'Op' OpKernel for 'CPU' devices"));
}

TEST_F(KernelRegistryTest, NotFoundMessageListsRegisteredKernels) {
  ASSERT_TRUE(
      Register(
          KernelDefBuilder("MatMul").Device(DEVICE_CPU).TypeConstraint("T", {DT_FLOAT, DT_DOUBLE}),
          "MatMulCpu")
          .ok());
  ASSERT_TRUE(
      Register(
          KernelDefBuilder("MatMul").Device(DEVICE_GPU).Label("fast").TypeConstraint<float>("T"),
          "MatMulGpu")
          .ok());
  const KernelDef* def = nullptr;
  absl::Status status =
      registry_.FindKernel(DEVICE_CPU, Node("MatMul", DT_INT8), &def, nullptr, nullptr);
  EXPECT_EQ(status.code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(status.message(),
            "No registered 'MatMul' OpKernel for 'CPU' devices compatible with node "
            "{{node m}}\n"
            "\t (OpKernel was found, but attributes didn't match) Requested Attributes: "
            "T=DT_INT8\n"
            "\t.  Registered:  device='CPU'; T in [DT_FLOAT, DT_DOUBLE]\n"
            "  device='GPU'; label='fast'; T in [DT_FLOAT]\n");
}

TEST_F(KernelRegistryTest, NotFoundWithoutKernelsForTheOp) {
  NodeDef node = Node("Nothing", DT_FLOAT);
  node.set_device("/device:CPU:0");
  absl::Status status = registry_.FindKernel(DEVICE_CPU, node, nullptr, nullptr, nullptr);
  EXPECT_EQ(status.code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(status.message(),
            "No registered 'Nothing' OpKernel for 'CPU' devices compatible with node "
            "{{node m}}\n\t.  Registered:  <no registered kernels>\n");
}

TEST_F(KernelRegistryTest, RequestedAttributesIncludeTheDevice) {
  ASSERT_TRUE(
      Register(KernelDefBuilder("A").Device(DEVICE_CPU).TypeConstraint<float>("T"), "A").ok());
  NodeDef node = Node("A", DT_INT32);
  node.set_device("/device:CPU:0");
  EXPECT_THAT(Find(node), HasSubstr("Requested Attributes: T=DT_INT32, "
                                    "_device=\"/device:CPU:0\"\n"));
}

TEST_F(KernelRegistryTest, OverlappingRegistrationIsRejected) {
  ASSERT_TRUE(
      Register(
          KernelDefBuilder("Sub").Device(DEVICE_CPU).TypeConstraint("T", {DT_FLOAT, DT_DOUBLE}),
          "SubA")
          .ok());
  absl::Status status = Register(
      KernelDefBuilder("Sub").Device(DEVICE_CPU).TypeConstraint("T", {DT_DOUBLE, DT_HALF}), "SubB");
  EXPECT_EQ(status.code(), absl::StatusCode::kAlreadyExists);
  EXPECT_THAT(status.message(), HasSubstr("Kernel SubB"));
  EXPECT_THAT(status.message(), HasSubstr("conflicts with the registered kernel SubA"));
  // The rejected kernel is not registered.
  EXPECT_EQ(registry_.GetRegisteredKernelsForOp("Sub").kernel_size(), 1);
  // An unconstrained kernel overlaps any constrained one.
  EXPECT_EQ(Register(KernelDefBuilder("Sub").Device(DEVICE_CPU), "SubAny").code(),
            absl::StatusCode::kAlreadyExists);
}

TEST_F(KernelRegistryTest, DisjointOrDistinguishedRegistrationsAreAccepted) {
  ASSERT_TRUE(
      Register(KernelDefBuilder("Mul").Device(DEVICE_CPU).TypeConstraint<float>("T"), "MulFloat")
          .ok());
  EXPECT_TRUE(
      Register(KernelDefBuilder("Mul").Device(DEVICE_CPU).TypeConstraint<int32_t>("T"), "MulInt")
          .ok());
  EXPECT_TRUE(
      Register(KernelDefBuilder("Mul").Device(DEVICE_CPU).TypeConstraint<float>("T").Priority(1),
               "MulFloatFast")
          .ok());
  EXPECT_TRUE(
      Register(KernelDefBuilder("Mul").Device(DEVICE_CPU).TypeConstraint<float>("T").Label("l"),
               "MulLabeled")
          .ok());
  EXPECT_TRUE(
      Register(KernelDefBuilder("Mul").Device(DEVICE_GPU).TypeConstraint<float>("T"), "MulGpu")
          .ok());
  // Constraining the same attr twice intersects: {float, double} & {double} is disjoint
  // from the float kernels at priority 0.
  EXPECT_TRUE(Register(KernelDefBuilder("Mul")
                           .Device(DEVICE_CPU)
                           .TypeConstraint("T", {DT_FLOAT, DT_DOUBLE})
                           .TypeConstraint("T", {DT_DOUBLE}),
                       "MulDouble")
                  .ok());
  EXPECT_EQ(Find(Node("Mul", DT_DOUBLE)), "MulDouble");
}

TEST_F(KernelRegistryTest, ConstraintsOnDifferentAttrsOverlap) {
  ASSERT_TRUE(Register(KernelDefBuilder("Cast").Device(DEVICE_CPU).TypeConstraint<float>("SrcT"),
                       "FromFloat")
                  .ok());
  EXPECT_EQ(
      Register(KernelDefBuilder("Cast").Device(DEVICE_CPU).TypeConstraint<int32_t>("DstT"), "ToInt")
          .code(),
      absl::StatusCode::kAlreadyExists);
}

TEST_F(KernelRegistryTest, BuilderMisuseAndMissingDeviceAreErrors) {
  EXPECT_EQ(Register(KernelDefBuilder("X").Device(DEVICE_CPU).Label("a").Label("b"), "X").code(),
            absl::StatusCode::kInvalidArgument);
  absl::Status status = Register(KernelDefBuilder("X"), "XKernel");
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("Kernel XKernel for op 'X' has no device type"));
  EXPECT_EQ(registry_.GetAllRegisteredKernels().kernel_size(), 0);
}

TEST_F(KernelRegistryTest, ConstrainedAttrMissingFromNode) {
  ASSERT_TRUE(
      Register(KernelDefBuilder("Y").Device(DEVICE_CPU).TypeConstraint<float>("U"), "Y").ok());
  absl::Status status =
      registry_.FindKernel(DEVICE_CPU, Node("Y", DT_FLOAT), nullptr, nullptr, nullptr);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("OpKernel 'Y' has constraint on attr 'U' not in"));
}

TEST_F(KernelRegistryTest, ConstrainedAttrOfWrongKind) {
  ASSERT_TRUE(
      Register(KernelDefBuilder("Z").Device(DEVICE_CPU).TypeConstraint<float>("T"), "Z").ok());
  NodeDef node = Node("Z", DT_FLOAT);
  AddNodeAttr("T", int64_t{3}, &node);
  absl::Status status = registry_.FindKernel(DEVICE_CPU, node, nullptr, nullptr, nullptr);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("does not have type 'type' or 'list(type)'"));
}

TEST_F(KernelRegistryTest, HasKernelReportsPriority) {
  ASSERT_TRUE(Register(KernelDefBuilder("P").Device(DEVICE_CPU).Priority(5), "P").ok());
  bool found = false;
  int32_t priority = 0;
  ASSERT_TRUE(registry_.HasKernel(DEVICE_CPU, Node("P", DT_FLOAT), &found, &priority).ok());
  EXPECT_TRUE(found);
  EXPECT_EQ(priority, 5);
  ASSERT_TRUE(registry_.HasKernel(DEVICE_GPU, Node("P", DT_FLOAT), &found, &priority).ok());
  EXPECT_FALSE(found);
}

TEST_F(KernelRegistryTest, ListsKernelsInRegistrationOrder) {
  ASSERT_TRUE(Register(KernelDefBuilder("B").Device(DEVICE_CPU), "B").ok());
  ASSERT_TRUE(Register(KernelDefBuilder("A").Device(DEVICE_CPU), "A").ok());
  ASSERT_TRUE(Register(KernelDefBuilder("B").Device(DEVICE_GPU), "B").ok());
  KernelList all = registry_.GetAllRegisteredKernels();
  ASSERT_EQ(all.kernel_size(), 3);
  EXPECT_EQ(all.kernel(0).op(), "B");
  EXPECT_EQ(all.kernel(1).op(), "A");
  EXPECT_EQ(all.kernel(2).device_type(), "GPU");
  KernelList b = registry_.GetRegisteredKernelsForOp("B");
  ASSERT_EQ(b.kernel_size(), 2);
  EXPECT_EQ(b.kernel(1).device_type(), "GPU");
  EXPECT_EQ(registry_.GetRegisteredKernelsForOp("C").kernel_size(), 0);
}

TEST_F(KernelRegistryTest, WatcherSeesEveryAttempt) {
  std::vector<std::pair<absl::StatusCode, std::string>> seen;
  ASSERT_TRUE(registry_
                  .SetWatcher([&seen](const absl::Status& status, const KernelDef& def) {
                    seen.emplace_back(status.code(), def.op());
                  })
                  .ok());
  EXPECT_EQ(registry_.SetWatcher([](const absl::Status&, const KernelDef&) {}).code(),
            absl::StatusCode::kFailedPrecondition);
  registry_.RegisterFromStaticInitializer(KernelDefBuilder("W").Device(DEVICE_CPU), "W",
                                          &NullFactory);
  registry_.RegisterFromStaticInitializer(KernelDefBuilder("W").Device(DEVICE_CPU), "W2",
                                          &NullFactory);
  ASSERT_TRUE(registry_.SetWatcher(nullptr).ok());
  EXPECT_THAT(seen, ElementsAre(Pair(absl::StatusCode::kOk, "W"),
                                Pair(absl::StatusCode::kAlreadyExists, "W")));
  // Errors a watcher took are not kept.
  EXPECT_TRUE(registry_.registration_errors().empty());
}

TEST_F(KernelRegistryTest, StaticRegistrationErrorsAreKept) {
  registry_.RegisterFromStaticInitializer(KernelDefBuilder("V").Device(DEVICE_CPU), "V",
                                          &NullFactory);
  registry_.RegisterFromStaticInitializer(KernelDefBuilder("V").Device(DEVICE_CPU), "V2",
                                          &NullFactory);
  std::vector<absl::Status> errors = registry_.registration_errors();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].code(), absl::StatusCode::kAlreadyExists);
}

// Free functions over the global registries.

REGISTER_OP("KernelRegistryTestPlaced").Input("x: T").Output("y: T").Attr("T: type");

class KernelRegistryGlobalTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    KernelRegistry* global = KernelRegistry::Global();
    ASSERT_TRUE(global
                    ->Register(KernelDefBuilder("KernelRegistryTestPlaced").Device(DEVICE_CPU),
                               "Cpu", &NullFactory)
                    .ok());
    ASSERT_TRUE(global
                    ->Register(KernelDefBuilder("KernelRegistryTestPlaced")
                                   .Device(DEVICE_GPU)
                                   .TypeConstraint<float>("T")
                                   .Priority(1),
                               "Gpu", &NullFactory)
                    .ok());
  }
};

TEST_F(KernelRegistryGlobalTest, FindKernelDef) {
  const KernelDef* def = nullptr;
  std::string class_name;
  ASSERT_TRUE(
      FindKernelDef(DEVICE_GPU, Node("KernelRegistryTestPlaced", DT_FLOAT), &def, &class_name)
          .ok());
  EXPECT_EQ(def->device_type(), "GPU");
  EXPECT_EQ(class_name, "Gpu");
  EXPECT_EQ(GetRegisteredKernelsForOp("KernelRegistryTestPlaced").kernel_size(), 2);
  EXPECT_GE(GetAllRegisteredKernels().kernel_size(), 2);
}

TEST_F(KernelRegistryGlobalTest, SupportedDeviceTypesSortedByPriority) {
  std::vector<std::pair<DeviceType, int32_t>> types;
  ASSERT_TRUE(SupportedDeviceTypesForNode({DEVICE_CPU, DEVICE_GPU},
                                          Node("KernelRegistryTestPlaced", DT_FLOAT), &types)
                  .ok());
  EXPECT_THAT(types, ElementsAre(Pair(DeviceType(DEVICE_GPU), 1), Pair(DeviceType(DEVICE_CPU), 0)));
  types.clear();
  ASSERT_TRUE(SupportedDeviceTypesForNode({DEVICE_CPU, DEVICE_GPU},
                                          Node("KernelRegistryTestPlaced", DT_INT32), &types)
                  .ok());
  EXPECT_THAT(types, ElementsAre(Pair(DeviceType(DEVICE_CPU), 0)));
}

TEST_F(KernelRegistryGlobalTest, UnknownOpRunsAnywhere) {
  std::vector<std::pair<DeviceType, int32_t>> types;
  ASSERT_TRUE(SupportedDeviceTypesForNode({DEVICE_GPU, DEVICE_CPU},
                                          Node("KernelRegistryTestUnknownOp", DT_FLOAT), &types)
                  .ok());
  EXPECT_THAT(types, ElementsAre(Pair(DeviceType(DEVICE_GPU), 0), Pair(DeviceType(DEVICE_CPU), 0)));
}

TEST_F(KernelRegistryGlobalTest, NoDeviceForAnInvalidNodeSaysWhy) {
  // No GPU kernel takes int32, and the node lacks its input.
  NodeDef node = Node("KernelRegistryTestPlaced", DT_INT32);
  std::vector<std::pair<DeviceType, int32_t>> types;
  absl::Status status = SupportedDeviceTypesForNode({DEVICE_GPU}, node, &types);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(types.empty());
}

}  // namespace
}  // namespace sluice
