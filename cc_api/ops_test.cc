#include "cc_api/ops.h"

#include <string>

#include "cc_api/const_op.h"
#include "cc_api/scope.h"
#include "cc_api/standard_ops.h"
#include "graph/core/tensor_types.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

TEST(InitializerTest, Scalars) {
  Input::Initializer f(1.5f), d(2.5), i(7), l(int64_t{8}), b(true), s("text");
  EXPECT_EQ(f.tensor.dtype(), DT_FLOAT);
  EXPECT_EQ(f.tensor.dims(), 0);
  EXPECT_EQ(f.tensor.scalar<float>()(), 1.5f);
  EXPECT_EQ(d.tensor.dtype(), DT_DOUBLE);
  EXPECT_EQ(i.tensor.dtype(), DT_INT32);
  EXPECT_EQ(l.tensor.dtype(), DT_INT64);
  EXPECT_EQ(b.tensor.dtype(), DT_BOOL);
  EXPECT_EQ(s.tensor.dtype(), DT_STRING);
  EXPECT_EQ(s.tensor.scalar<std::string>()(), "text");
  EXPECT_EQ(Input::Initializer(std::string("str")).tensor.scalar<std::string>()(), "str");
}

TEST(InitializerTest, Vectors) {
  Input::Initializer v({1, 2, 3});
  EXPECT_EQ(v.tensor.dtype(), DT_INT32);
  EXPECT_EQ(v.tensor.shape(), TensorShape({3}));
  EXPECT_EQ(v.tensor.flat<int32_t>()(2), 3);
  Input::Initializer strings({"a", "bc"});
  EXPECT_EQ(strings.tensor.dtype(), DT_STRING);
  EXPECT_EQ(strings.tensor.flat<std::string>()(1), "bc");
}

TEST(InitializerTest, NestedLists) {
  Input::Initializer m({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
  ASSERT_TRUE(m.status.ok()) << m.status;
  EXPECT_EQ(m.tensor.shape(), TensorShape({2, 3}));
  EXPECT_EQ(m.tensor.matrix<float>()(1, 0), 4.f);
  Input::Initializer cube({{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}});
  ASSERT_TRUE(cube.status.ok());
  EXPECT_EQ(cube.tensor.shape(), TensorShape({2, 2, 2}));
  EXPECT_EQ(cube.tensor.flat<int32_t>()(7), 8);
  Input::Initializer strings({{"a", "b"}, {"c", "d"}});
  ASSERT_TRUE(strings.status.ok());
  EXPECT_EQ(strings.tensor.flat<std::string>()(2), "c");
}

TEST(InitializerTest, ExplicitShape) {
  Input::Initializer m({1, 2, 3, 4, 5, 6}, TensorShape({3, 2}));
  ASSERT_TRUE(m.status.ok());
  EXPECT_EQ(m.tensor.shape(), TensorShape({3, 2}));
  EXPECT_EQ(m.tensor.matrix<int32_t>()(2, 1), 6);
  Input::Initializer bad({1, 2, 3}, TensorShape({2, 2}));
  EXPECT_EQ(bad.status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(bad.status.message(),
            "Cannot construct a tensor with 4 from an initializer list with 3 elements");
}

TEST(InitializerTest, RaggedOrMixedListsAreErrors) {
  Input::Initializer ragged({{1, 2}, {3}});
  EXPECT_EQ(ragged.status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ragged.status.message(), "Initializer list components should all have the same shape");
  Input::Initializer mixed({{1, 2}, {3.f, 4.f}});
  EXPECT_EQ(mixed.status.message(), "Initializer list components should all have the same type");
  // An error deep inside is carried out.
  Input::Initializer deep({{{1, 2}, {3}}, {{1, 2}, {3}}});
  EXPECT_FALSE(deep.status.ok());
}

TEST(InitializerTest, EmptyListIsAnEmptyFloatVector) {
  Input::Initializer empty(std::initializer_list<Input::Initializer>{});
  EXPECT_EQ(empty.tensor.dtype(), DT_FLOAT);
  EXPECT_EQ(empty.tensor.shape(), TensorShape({0}));
}

TEST(InitializerTest, TensorAndProto) {
  Tensor t(DT_INT64, TensorShape({2}));
  t.flat<int64_t>()(0) = 5;
  t.flat<int64_t>()(1) = 6;
  Input::Initializer init(t);
  EXPECT_TRUE(init.tensor.SharesBufferWith(t));
  TensorProto proto = init.AsTensorProto();
  EXPECT_EQ(proto.dtype(), DT_INT64);
  EXPECT_EQ(proto.tensor_shape().dim_size(), 1);
  TensorProto scalar = Input::Initializer(3.f).AsTensorProto();
  ASSERT_EQ(scalar.float_val_size(), 1);
  EXPECT_EQ(scalar.float_val(0), 3.f);
}

TEST(InputTest, Kinds) {
  Scope root = Scope::NewRootScope();
  auto c = ops::Const(root, 1.f);
  Input from_output(c);
  EXPECT_EQ(from_output.node(), c.node());
  EXPECT_EQ(from_output.index(), 0);
  Input from_value = 3;
  EXPECT_EQ(from_value.node(), nullptr);
  EXPECT_EQ(from_value.tensor().dtype(), DT_INT32);
  Input from_list = {{1, 2}, {3, 4}};
  EXPECT_EQ(from_list.tensor().shape(), TensorShape({2, 2}));
  Input ragged = {{1, 2}, {3}};
  EXPECT_FALSE(ragged.status().ok());
  Input by_name("Const", 0, DT_FLOAT);
  EXPECT_EQ(by_name.node_name(), "Const");
  EXPECT_EQ(by_name.data_type(), DT_FLOAT);
}

TEST(InputTest, ErrorsReachTheScope) {
  Scope root = Scope::NewRootScope();
  auto bad = ops::Identity(root, {{1, 2}, {3}});
  EXPECT_EQ(bad.node(), nullptr);
  EXPECT_EQ(root.status().message(), "Initializer list components should all have the same shape");
}

TEST(InputTest, ByNameResolvesInTheGraph) {
  Scope root = Scope::NewRootScope();
  ops::Const(root.WithOpName("c"), 2.f);
  auto id = ops::Identity(root, Input("c", 0, DT_FLOAT));
  ASSERT_TRUE(root.ok()) << root.status();
  EXPECT_EQ(id.operation.input(0).node()->name(), "c");
  ops::Identity(root, Input("missing", 0, DT_FLOAT));
  EXPECT_EQ(root.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(ConstTest, Forms) {
  Scope root = Scope::NewRootScope();
  auto filled = ops::Const(root, 10, {2, 2});
  auto shaped = ops::Const(root, {1.f, 2.f, 3.f, 4.f}, {2, 2});
  auto cast = ops::Const<float>(root, {1, 2});
  auto text = ops::Const(root, "hello");
  auto bad = ops::Const(root.NewSubScope("bad"), {1, 2, 3}, {2, 2});
  EXPECT_EQ(bad.node(), nullptr);
  EXPECT_FALSE(root.ok());
  EXPECT_EQ(filled.type(), DT_INT32);
  EXPECT_EQ(shaped.type(), DT_FLOAT);
  EXPECT_EQ(cast.type(), DT_FLOAT);
  EXPECT_EQ(text.type(), DT_STRING);
  Scope other = Scope::NewRootScope();
  ops::Const<int32_t>(other, "not a number");
  EXPECT_EQ(other.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(OutputTest, NameHashAndEquality) {
  Scope root = Scope::NewRootScope();
  auto c = ops::Const(root.WithOpName("c"), {1.f, 2.f});
  Output o(c.node(), 0);
  EXPECT_EQ(o.name(), "c:0");
  EXPECT_EQ(o, c);
  EXPECT_EQ(OutputHash()(o), OutputHash()(c));
  EXPECT_FALSE(o == Output(c.node(), 1));
  EXPECT_EQ(o.op().num_outputs(), 1);
  EXPECT_EQ(o.op().output_type(0), DT_FLOAT);
}

}  // namespace
}  // namespace sluice
