#include "cc_api/scope.h"

#include <vector>

#include "cc_api/const_op.h"
#include "cc_api/standard_ops.h"
#include "graph/op/node_def_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

TEST(ScopeTest, DefaultNamesAreUniquified) {
  Scope root = Scope::NewRootScope();
  EXPECT_EQ(root.GetUniqueNameForOp("Const"), "Const");
  EXPECT_EQ(root.GetUniqueNameForOp("Const"), "Const_1");
  EXPECT_EQ(root.GetUniqueNameForOp("Const"), "Const_2");
  EXPECT_EQ(root.GetUniqueNameForOp("Add"), "Add");
}

TEST(ScopeTest, SubScopesPrefixAndHaveTheirOwnNames) {
  Scope root = Scope::NewRootScope();
  Scope outer = root.NewSubScope("outer");
  Scope inner = outer.NewSubScope("inner");
  EXPECT_EQ(inner.GetUniqueNameForOp("MatMul"), "outer/inner/MatMul");
  EXPECT_EQ(inner.GetUniqueNameForOp("MatMul"), "outer/inner/MatMul_1");
  EXPECT_EQ(outer.GetUniqueNameForOp("MatMul"), "outer/MatMul");
  EXPECT_EQ(root.NewSubScope("outer").GetUniqueNameForOp("X"), "outer_1/X");
  EXPECT_EQ(outer.name(), "outer");
  // An empty sub-scope name keeps the prefix and copies the names taken so far.
  Scope same = outer.NewSubScope("");
  EXPECT_EQ(same.GetUniqueNameForOp("MatMul"), "outer/MatMul_1");
}

TEST(ScopeTest, WithOpNameNamesTheNextOp) {
  Scope root = Scope::NewRootScope();
  EXPECT_EQ(root.WithOpName("v").GetUniqueNameForOp("MatMul"), "v");
  EXPECT_EQ(root.WithOpName("v").GetUniqueNameForOp("MatMul"), "v_1");
  EXPECT_EQ(root.WithOpName("layer", 2).GetUniqueNameForOp("X"), "layer2");
  EXPECT_EQ(root.NewSubScope("s").WithOpName("y").GetUniqueNameForOp("X"), "s/y");
  // The receiver is unchanged.
  EXPECT_EQ(root.GetUniqueNameForOp("MatMul"), "MatMul");
}

TEST(ScopeTest, OpsGetScopedNames) {
  Scope root = Scope::NewRootScope();
  auto a = ops::Const(root, 1.f);
  auto b = ops::Const(root, 2.f);
  auto sum = ops::AddV2(root.NewSubScope("layer").WithOpName("sum"), a, b);
  auto implicit = ops::AddV2(root, a, 3.f);
  ASSERT_TRUE(root.ok()) << root.status();
  EXPECT_EQ(a.node()->name(), "Const");
  EXPECT_EQ(b.node()->name(), "Const_1");
  EXPECT_EQ(sum.node()->name(), "layer/sum");
  EXPECT_EQ(implicit.node()->name(), "AddV2");
  // A C++ value input becomes a Const in a "Const" sub-scope.
  Output three = implicit.operation.input(1);
  EXPECT_EQ(three.node()->name(), "Const_2/Const");
}

TEST(ScopeTest, FirstErrorIsKeptAndSharedAndLaterOpsAreSkipped) {
  Scope root = Scope::NewRootScope();
  Scope child = root.NewSubScope("child");
  auto a = ops::Const(child, 1.f);
  auto i = ops::Const(child, 1);
  auto bad = ops::AddV2(child, a, i);
  EXPECT_FALSE(root.ok());
  EXPECT_EQ(root.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(bad.node(), nullptr);
  const std::string first = std::string(root.status().message());
  root.UpdateStatus(absl::InternalError("later"));
  EXPECT_EQ(root.status().message(), first);
  auto skipped = ops::Const(root, 2.f);
  EXPECT_EQ(skipped.node(), nullptr);
  GraphDef graph_def;
  EXPECT_FALSE(root.ToGraphDef(&graph_def).ok());
}

TEST(ScopeTest, ShapeInferenceErrorsAreRecorded) {
  Scope root = Scope::NewRootScope();
  auto a = ops::Const(root, {{1.f, 2.f}});
  auto b = ops::Const(root, {{1.f, 2.f}});
  ops::MatMul(root, a, b);  // [1, 2] x [1, 2]
  EXPECT_EQ(root.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(root.status().message().find("Dimensions must be equal"), std::string::npos)
      << root.status();
}

TEST(ScopeTest, ShapesAreInferredWhileBuilding) {
  Scope root = Scope::NewRootScope();
  auto a = ops::Const(root, {{1.f, 2.f}, {3.f, 4.f}, {5.f, 6.f}});
  auto m = ops::MatMul(root, a, a, ops::MatMul::TransposeA(true));
  ASSERT_TRUE(root.ok()) << root.status();
  PartialTensorShape shape;
  ASSERT_TRUE(root.refiner()->GetOutputShape(m.node(), 0, &shape).ok());
  EXPECT_EQ(shape.DebugString(), "[2,2]");
}

TEST(ScopeTest, ControlDependencies) {
  Scope root = Scope::NewRootScope();
  auto a = ops::Const(root, 1.f);
  auto b = ops::Const(root, 2.f);
  Scope with_a = root.WithControlDependencies(a);
  Scope with_ab = with_a.WithControlDependencies({b.op()});
  auto c = ops::Identity(with_ab, 3.f);
  auto d = ops::Identity(with_ab.WithNoControlDependencies(), 4.f);
  ASSERT_TRUE(root.ok()) << root.status();
  EXPECT_EQ(with_ab.control_deps().size(), 2u);
  EXPECT_EQ(root.control_deps().size(), 0u);
  std::vector<std::string> controls;
  for (const std::string& in : c.node()->def().input()) {
    if (in[0] == '^') controls.push_back(in);
  }
  EXPECT_EQ(controls, (std::vector<std::string>{"^Const", "^Const_1"}));
  for (const std::string& in : d.node()->def().input()) EXPECT_NE(in[0], '^');
}

TEST(ScopeTest, DeviceColocationAndKernelLabel) {
  Scope root = Scope::NewRootScope();
  auto a = ops::Const(root.WithDevice("/cpu:0"), 1.f);
  auto b = ops::Identity(root.ColocateWith(a).WithKernelLabel("special"), a);
  auto c = ops::Identity(root.ColocateWith(b), b);
  auto d = ops::Identity(root.ColocateWith(a).ClearColocation().WithDevice("/device:CPU:1"), a);
  auto e =
      ops::Identity(root.WithAssignedDevice("/job:localhost/replica:0/task:0/device:CPU:0"), a);
  ASSERT_TRUE(root.ok()) << root.status();
  EXPECT_EQ(a.node()->requested_device(), "/cpu:0");
  std::vector<std::string> classes;
  ASSERT_TRUE(GetNodeAttr(b.node()->attrs(), "_class", &classes).ok());
  EXPECT_EQ(classes, std::vector<std::string>{"loc:@Const"});
  std::string label;
  ASSERT_TRUE(GetNodeAttr(b.node()->attrs(), "_kernel", &label).ok());
  EXPECT_EQ(label, "special");
  // Colocating with b inherits b's group.
  ASSERT_TRUE(GetNodeAttr(c.node()->attrs(), "_class", &classes).ok());
  EXPECT_EQ(classes, std::vector<std::string>{"loc:@Const"});
  EXPECT_FALSE(HasNodeAttr(d.node()->def(), "_class"));
  EXPECT_EQ(d.node()->requested_device(), "/device:CPU:1");
  EXPECT_EQ(e.node()->assigned_device_name(), "/job:localhost/replica:0/task:0/device:CPU:0");
}

TEST(ScopeTest, ToGraphDefAndToGraph) {
  Scope root = Scope::NewRootScope();
  auto a = ops::Const(root, {1.f, 2.f});
  auto b = ops::Identity(root.WithOpName("b"), a);
  ASSERT_TRUE(root.ok());
  GraphDef graph_def;
  ASSERT_TRUE(root.ToGraphDef(&graph_def).ok());
  ASSERT_EQ(graph_def.node_size(), 2);
  EXPECT_EQ(graph_def.node(1).name(), "b");
  EXPECT_EQ(graph_def.node(1).op(), "Identity");
  ASSERT_EQ(graph_def.node(1).input_size(), 1);
  EXPECT_EQ(graph_def.node(1).input(0), "Const");
  Graph g(OpRegistry::Global());
  ASSERT_TRUE(root.ToGraph(&g).ok());
  EXPECT_EQ(g.num_op_nodes(), 2);
  EXPECT_NE(g.FindNodeByName("b"), nullptr);
}

TEST(ScopeTest, CopiesShareTheGraph) {
  Scope root = Scope::NewRootScope();
  Scope copy = root;
  ops::Const(copy, 1.f);
  EXPECT_EQ(root.graph(), copy.graph());
  EXPECT_EQ(root.graph()->num_op_nodes(), 1);
  Scope assigned = Scope::NewRootScope();
  assigned = root.NewSubScope("x");
  EXPECT_EQ(assigned.graph(), root.graph());
}

TEST(ScopeTest, InternalScopeAddsToAnExistingGraphAroundItsNames) {
  Scope builder = Scope::NewRootScope();
  ops::Const(builder.NewSubScope("gradients").WithOpName("c"), 1.f);
  ops::Const(builder, 2.f);
  ASSERT_TRUE(builder.ok());
  absl::Status status;
  Scope internal = Scope::NewInternalScope(builder.graph(), &status, builder.refiner());
  // "gradients" is taken as the prefix of "gradients/c", "Const" as a node's name.
  EXPECT_EQ(internal.NewSubScope("gradients").GetUniqueNameForOp("X"), "gradients_1/X");
  EXPECT_EQ(internal.GetUniqueNameForOp("Const"), "Const_1");
  auto sum = ops::Add(internal, ops::Const(internal, 3.f), ops::Const(internal, 4.f));
  EXPECT_TRUE(internal.ok());
  EXPECT_EQ(internal.graph(), builder.graph());
  EXPECT_EQ(builder.graph()->num_op_nodes(), 5);
  // Shapes go to the graph's refiner; errors to the caller's status.
  PartialTensorShape shape;
  EXPECT_TRUE(builder.refiner()->GetOutputShape(sum.node(), 0, &shape).ok());
  EXPECT_EQ(shape.DebugString(), "[]");
  ops::Add(internal, ops::Const(internal, 1.f), ops::Const(internal, 1));
  EXPECT_FALSE(status.ok());
  EXPECT_FALSE(internal.ok());
  EXPECT_TRUE(builder.ok());
}

TEST(ScopeDeathTest, ExitOnErrorAborts) {
  Scope root = Scope::NewRootScope().ExitOnError();
  EXPECT_DEATH(root.UpdateStatus(absl::InvalidArgumentError("boom")), "boom");
}

}  // namespace
}  // namespace sluice
