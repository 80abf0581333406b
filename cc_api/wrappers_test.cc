// The generated wrappers (standard_ops.h): constructors, attrs, outputs, inferred attrs.
#include <vector>

#include "cc_api/const_op.h"
#include "cc_api/scope.h"
#include "cc_api/standard_ops.h"
#include "graph/op/node_def_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

template <typename T>
T Attr(const Node* node, const char* name) {
  T value{};
  EXPECT_TRUE(GetNodeAttr(node->attrs(), name, &value).ok()) << name;
  return value;
}

TEST(WrappersTest, AttrsChainAndShortcuts) {
  Scope root = Scope::NewRootScope();
  auto a = ops::Const(root, {{1.f, 2.f}, {3.f, 4.f}});
  auto plain = ops::MatMul(root, a, a);
  auto tb = ops::MatMul(root, a, a, ops::MatMul::TransposeB(true));
  auto both = ops::MatMul(root, a, a, ops::MatMul::TransposeA(true).TransposeB(true));
  ops::MatMul::Attrs attrs;
  auto from_struct = ops::MatMul(root, a, a, attrs.TransposeA(true));
  ASSERT_TRUE(root.ok()) << root.status();
  EXPECT_FALSE(Attr<bool>(plain.node(), "transpose_a"));  // the OpDef's default
  EXPECT_TRUE(Attr<bool>(tb.node(), "transpose_b"));
  EXPECT_FALSE(Attr<bool>(tb.node(), "transpose_a"));
  EXPECT_TRUE(Attr<bool>(both.node(), "transpose_a"));
  EXPECT_TRUE(Attr<bool>(both.node(), "transpose_b"));
  EXPECT_TRUE(Attr<bool>(from_struct.node(), "transpose_a"));
  EXPECT_FALSE(attrs.transpose_a_.has_value());  // setters copy
  EXPECT_EQ(Attr<DataType>(plain.node(), "T"), DT_FLOAT);
}

TEST(WrappersTest, ListAndStringAttrs) {
  Scope root = Scope::NewRootScope();
  auto x = ops::Placeholder(root, DT_FLOAT, ops::Placeholder::Shape({1, 4, 4, 1}));
  auto pool =
      ops::MaxPool(root, x, {1, 2, 2, 1}, {1, 2, 2, 1}, "VALID", ops::MaxPool::DataFormat("NHWC"));
  ASSERT_TRUE(root.ok()) << root.status();
  EXPECT_EQ(Attr<std::vector<int64_t>>(pool.node(), "ksize"), (std::vector<int64_t>{1, 2, 2, 1}));
  EXPECT_EQ(Attr<std::string>(pool.node(), "padding"), "VALID");
  EXPECT_EQ(Attr<PartialTensorShape>(x.node(), "shape").DebugString(), "[1,4,4,1]");
  std::vector<int> ksize = {1, 1, 1, 1};
  ops::MaxPool(root, x, ksize, ksize, "SAME");
  EXPECT_TRUE(root.ok()) << root.status();
}

TEST(WrappersTest, MultiOutputOpsHaveNamedOutputs) {
  Scope root = Scope::NewRootScope();
  auto x = ops::Const(root, {{1.f, 5.f, 3.f}});
  auto top = ops::TopK(root, x, 2);
  ASSERT_TRUE(root.ok()) << root.status();
  EXPECT_EQ(top.node()->type_string(), "TopKV2");
  EXPECT_EQ(top.values.index(), 0);
  EXPECT_EQ(top.indices.index(), 1);
  EXPECT_EQ(top.indices.type(), DT_INT32);
  auto bn = ops::FusedBatchNormV3(root, ops::Const(root, 1.f, {1, 2, 2, 3}),
                                  ops::Const(root, 1.f, {3}), ops::Const(root, 0.f, {3}),
                                  ops::Const(root, 0.f, {3}), ops::Const(root, 1.f, {3}),
                                  ops::FusedBatchNormV3::IsTraining(false).Epsilon(0.01f));
  ASSERT_TRUE(root.ok()) << root.status();
  EXPECT_EQ(bn.y.index(), 0);
  EXPECT_EQ(bn.batch_mean.index(), 1);
  EXPECT_EQ(bn.reserve_space_3.index(), 5);
  EXPECT_FLOAT_EQ(Attr<float>(bn.node(), "epsilon"), 0.01f);
}

TEST(WrappersTest, ListOutputsAreIndexableAndPassable) {
  Scope root = Scope::NewRootScope();
  auto x = ops::Const(root, {{1, 2, 3, 4}, {5, 6, 7, 8}});
  auto split = ops::Split(root, 1, x, 4);
  ASSERT_TRUE(root.ok()) << root.status();
  ASSERT_EQ(split.output.size(), 4u);
  EXPECT_EQ(split[3].index(), 3);
  EXPECT_EQ(Attr<int64_t>(split.node(), "num_split"), 4);
  // As an InputList: N and T are inferred.
  auto joined = ops::Concat(root, split.output, 1);
  auto joined_again = ops::Concat(root, split, 0);
  auto added = ops::AddN(root, {split[0], split[1], split[2]});
  ASSERT_TRUE(root.ok()) << root.status();
  EXPECT_EQ(joined.node()->type_string(), "ConcatV2");
  EXPECT_EQ(Attr<int64_t>(joined.node(), "N"), 4);
  EXPECT_EQ(Attr<DataType>(joined.node(), "T"), DT_INT32);
  EXPECT_EQ(Attr<int64_t>(joined_again.node(), "N"), 4);
  EXPECT_EQ(Attr<int64_t>(added.node(), "N"), 3);
  auto rows = ops::Unstack(root, x, 2, ops::Unstack::Axis(0));
  auto shapes = ops::ShapeN(root, {x, rows[0]});
  ASSERT_TRUE(root.ok()) << root.status();
  EXPECT_EQ(rows.output.size(), 2u);
  EXPECT_EQ(shapes.output.size(), 2u);
  EXPECT_EQ(shapes[1].type(), DT_INT32);
  auto ids = ops::IdentityN(root, {x, 1.f});
  ASSERT_TRUE(root.ok()) << root.status();
  EXPECT_EQ(Attr<DataTypeVector>(ids.node(), "T"), (DataTypeVector{DT_INT32, DT_FLOAT}));
  EXPECT_EQ(ids[1].type(), DT_FLOAT);
}

TEST(WrappersTest, OpsWithoutOutputsConvertToOperation) {
  Scope root = Scope::NewRootScope();
  auto noop = ops::NoOp(root.WithOpName("init"));
  Operation op = noop;
  ASSERT_TRUE(root.ok());
  EXPECT_EQ(op.node()->name(), "init");
  EXPECT_EQ(op.num_outputs(), 0);
}

TEST(WrappersTest, RenamedAndAliasedOps) {
  Scope root = Scope::NewRootScope();
  auto x = ops::Const(root, {{1.f, 2.f}, {3.f, 4.f}});
  auto sum = ops::ReduceSum(root, x, 0, ops::ReduceSum::KeepDims(true));
  auto mean = ops::Mean(root, x, {0, 1});
  auto stacked = ops::Stack(root, {x, x});
  auto expanded = ops::ExpandDims(root, x, -1);
  ASSERT_TRUE(root.ok()) << root.status();
  EXPECT_EQ(sum.node()->type_string(), "Sum");
  EXPECT_TRUE(Attr<bool>(sum.node(), "keep_dims"));
  EXPECT_EQ(mean.node()->type_string(), "Mean");
  EXPECT_EQ(stacked.node()->type_string(), "Pack");
  EXPECT_EQ(stacked.node()->name(), "Stack");
  EXPECT_EQ(expanded.node()->type_string(), "ExpandDims");
}

TEST(WrappersTest, TypeErrors) {
  Scope root = Scope::NewRootScope();
  ops::MatMul(root, ops::Const(root, {{1.f}}), ops::Const(root, {{1}}));
  EXPECT_EQ(root.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(root.status().message().find("was passed int32"), std::string::npos) << root.status();
  Scope other = Scope::NewRootScope();
  ops::Cast(other, ops::Const(other, 1.f), DT_INT32);
  EXPECT_TRUE(other.ok()) << other.status();
  // A type attr outside the allowed list.
  ops::MatMul(other, ops::Const(other, {{true}}), ops::Const(other, {{true}}));
  EXPECT_EQ(other.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(WrappersTest, FailedInputLeavesTheWrapperEmpty) {
  Scope root = Scope::NewRootScope();
  auto bad = ops::Split(root, 0, {{1}, {2, 3}}, 2);
  EXPECT_EQ(bad.node(), nullptr);
  EXPECT_TRUE(bad.output.empty());
  EXPECT_FALSE(root.ok());
}

}  // namespace
}  // namespace sluice
