#include "graph/op/node_def_util.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/tensor_shape.h"
#include "graph/op/op_def_util.h"
#include "graph/op/op_registry.h"
#include "gtest/gtest.h"

// Test-only ops; the "NdTest" prefix keeps them clear of real ops registered elsewhere.
REGISTER_OP("NdTestMatMul")
    .Input("a: T")
    .Input("b: T")
    .Output("product: T")
    .Attr("transpose_a: bool = false")
    .Attr("transpose_b: bool = false")
    .Attr("T: {float, double, int32}");
REGISTER_OP("NdTestAddN")
    .Input("inputs: N * T")
    .Output("sum: T")
    .Attr("N: int >= 1")
    .Attr("T: type");
REGISTER_OP("NdTestRepeats")
    .Input("a: N * int32")
    .Input("b: N * T")
    .Output("c: T")
    .Output("d: N * string")
    .Output("e: M * bool")
    .Attr("N: int")
    .Attr("M: int")
    .Attr("T: type");
REGISTER_OP("NdTestTypeList")
    .Input("a: T1")
    .Input("b: T2")
    .Output("c: T2")
    .Output("d: T3")
    .Attr("T1: list(type) >= 1")
    .Attr("T2: list(type)")
    .Attr("T3: list(type)");
REGISTER_OP("NdTestRef")
    .Input("ref: Ref(T)")
    .Input("value: T")
    .Output("out: Ref(T)")
    .Attr("T: type");
REGISTER_OP("NdTestEnum").Attr("e: {'apple', 'orange'}");
REGISTER_OP("NdTestFixed")
    .Input("a: float")
    .Input("b: int32")
    .Output("c: string")
    .Output("d: bool");

namespace sluice {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

const OpDef& Op(const std::string& name) {
  const OpDef* op_def = nullptr;
  absl::Status status = OpRegistry::Global()->LookUpOpDef(name, &op_def);
  EXPECT_TRUE(status.ok()) << status;
  return *op_def;
}

NodeDef ToNodeDef(const std::string& text) {
  NodeDef node_def;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &node_def)) << text;
  return node_def;
}

OpDef ToOpDef(const std::string& text) {
  OpDef op_def;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &op_def)) << text;
  return op_def;
}

void ExpectError(const absl::Status& status, absl::StatusCode code, const std::string& message) {
  EXPECT_EQ(status.code(), code) << status;
  EXPECT_EQ(std::string(status.message()), message);
}

// ---- AttrSlice ----------------------------------------------------------------------------

TEST(AttrSliceTest, ViewsANodeDef) {
  const NodeDef node_def = ToNodeDef(R"pb(
    name: "n"
    op: "X"
    attr {
      key: "a"
      value { i: 1 }
    }
    attr {
      key: "b"
      value { b: true }
    })pb");
  const AttrSlice attrs(node_def);
  EXPECT_EQ(attrs.size(), 2);
  EXPECT_EQ(attrs.node_def(), &node_def);
  ASSERT_NE(attrs.Find("a"), nullptr);
  EXPECT_EQ(attrs.Find("a")->i(), 1);
  EXPECT_EQ(attrs.Find("missing"), nullptr);
  std::vector<std::string> names;
  for (const auto& entry : attrs) names.push_back(entry.first);
  EXPECT_THAT(names, ::testing::UnorderedElementsAre("a", "b"));
  EXPECT_EQ(attrs.SummarizeNode(), "{{node n}} = X[a=1, b=true]()");
}

TEST(AttrSliceTest, FindWithStatus) {
  const NodeDef node_def = ToNodeDef(R"pb(name: "n"
                                          op: "X"
                                          attr {
                                            key: "a"
                                            value { i: 1 }
                                          })pb");
  const AttrValue* value = nullptr;
  ASSERT_TRUE(AttrSlice(node_def).Find("a", &value).ok());
  EXPECT_EQ(value->i(), 1);
  ExpectError(AttrSlice(node_def).Find("x", &value), absl::StatusCode::kNotFound,
              "No attr named 'x' in NodeDef:\n\t [[{{node n}}]]");
  EXPECT_EQ(value, nullptr);
  // Internal attrs are often absent; the node is not attached for them.
  ExpectError(AttrSlice(node_def).Find("_class", &value), absl::StatusCode::kNotFound,
              "No attr named '_class' in NodeDef:");
}

TEST(AttrSliceTest, ViewsABareMap) {
  AttrValueMap map;
  map["k"].set_s("v");
  map["a"].set_f(2.5f);
  const AttrSlice attrs(&map);
  EXPECT_EQ(attrs.node_def(), nullptr);
  EXPECT_EQ(attrs.size(), 2);
  EXPECT_EQ(attrs.SummarizeNode(), "[a=2.5, k=\"v\"]");
  const AttrValue* value = nullptr;
  ExpectError(attrs.Find("x", &value), absl::StatusCode::kNotFound,
              "No attr named 'x' in NodeDef:");
}

TEST(AttrSliceTest, DefaultIsEmpty) {
  const AttrSlice attrs;
  EXPECT_EQ(attrs.size(), 0);
  EXPECT_TRUE(attrs.begin() == attrs.end());
  EXPECT_EQ(attrs.Find("a"), nullptr);
  EXPECT_EQ(attrs.SummarizeNode(), "[]");
}

// ---- GetNodeAttr / TryGetNodeAttr ---------------------------------------------------------

NodeDef AllTypesNode() {
  return ToNodeDef(R"pb(
    name: "n"
    op: "X"
    attr {
      key: "s"
      value { s: "hello" }
    }
    attr {
      key: "i"
      value { i: -7 }
    }
    attr {
      key: "big"
      value { i: 5000000000 }
    }
    attr {
      key: "f"
      value { f: 1.5 }
    }
    attr {
      key: "b"
      value { b: true }
    }
    attr {
      key: "t"
      value { type: DT_DOUBLE }
    }
    attr {
      key: "shape"
      value {
        shape {
          dim { size: 2 }
          dim { size: 3 }
        }
      }
    }
    attr {
      key: "partial"
      value {
        shape {
          dim { size: -1 }
          dim { size: 3 }
        }
      }
    }
    attr {
      key: "bad_shape"
      value { shape { dim { size: -2 } } }
    }
    attr {
      key: "tensor"
      value { tensor { dtype: DT_INT32 int_val: 4 } }
    }
    attr {
      key: "func"
      value { func { name: "f1" } }
    }
    attr {
      key: "ls"
      value { list { s: [ "a", "b" ] } }
    }
    attr {
      key: "li"
      value { list { i: [ 1, -2, 3 ] } }
    }
    attr {
      key: "lbig"
      value { list { i: [ 1, -5000000000 ] } }
    }
    attr {
      key: "lf"
      value { list { f: [ 0.5, 2 ] } }
    }
    attr {
      key: "lb"
      value { list { b: [ true, false, true ] } }
    }
    attr {
      key: "lt"
      value { list { type: [ DT_FLOAT, DT_INT64 ] } }
    }
    attr {
      key: "lshape"
      value {
        list {
          shape { dim { size: 1 } }
          shape { unknown_rank: true }
        }
      }
    }
    attr {
      key: "lknown"
      value {
        list {
          shape { dim { size: 4 } }
          shape {}
        }
      }
    }
    attr {
      key: "ltensor"
      value {
        list {
          tensor { dtype: DT_FLOAT }
          tensor { dtype: DT_BOOL }
        }
      }
    }
    attr {
      key: "lfunc"
      value {
        list {
          func { name: "g1" }
          func { name: "g2" }
        }
      }
    }
    attr {
      key: "empty_list"
      value { list {} }
    }
  )pb");
}

TEST(GetNodeAttrTest, Scalars) {
  const NodeDef n = AllTypesNode();
  std::string s;
  ASSERT_TRUE(GetNodeAttr(n, "s", &s).ok());
  EXPECT_EQ(s, "hello");
  int64_t i64 = 0;
  ASSERT_TRUE(GetNodeAttr(n, "big", &i64).ok());
  EXPECT_EQ(i64, 5000000000);
  int32_t i32 = 0;
  ASSERT_TRUE(GetNodeAttr(n, "i", &i32).ok());
  EXPECT_EQ(i32, -7);
  float f = 0;
  ASSERT_TRUE(GetNodeAttr(n, "f", &f).ok());
  EXPECT_EQ(f, 1.5f);
  bool b = false;
  ASSERT_TRUE(GetNodeAttr(n, "b", &b).ok());
  EXPECT_TRUE(b);
  DataType t = DT_INVALID;
  ASSERT_TRUE(GetNodeAttr(n, "t", &t).ok());
  EXPECT_EQ(t, DT_DOUBLE);
}

TEST(GetNodeAttrTest, Shapes) {
  const NodeDef n = AllTypesNode();
  TensorShapeProto proto;
  ASSERT_TRUE(GetNodeAttr(n, "partial", &proto).ok());
  EXPECT_EQ(proto.dim_size(), 2);
  EXPECT_EQ(proto.dim(0).size(), -1);
  TensorShape shape;
  ASSERT_TRUE(GetNodeAttr(n, "shape", &shape).ok());
  EXPECT_EQ(shape, TensorShape({2, 3}));
  PartialTensorShape partial;
  ASSERT_TRUE(GetNodeAttr(n, "partial", &partial).ok());
  EXPECT_TRUE(partial.IsIdenticalTo(PartialTensorShape({-1, 3})));
}

TEST(GetNodeAttrTest, InvalidShapes) {
  const NodeDef n = AllTypesNode();
  TensorShape shape({9});
  absl::Status status = GetNodeAttr(n, "partial", &shape);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()),
              HasSubstr("\n\t for attr 'partial'\n\t [[{{node n}}]]"));
  EXPECT_EQ(shape, TensorShape({9}));
  EXPECT_FALSE(TryGetNodeAttr(n, "partial", &shape));

  PartialTensorShape partial;
  status = GetNodeAttr(n, "bad_shape", &partial);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()),
              HasSubstr("\n\t for attr 'bad_shape'\n\t [[{{node n}}]]"));
  EXPECT_FALSE(TryGetNodeAttr(n, "bad_shape", &partial));
}

TEST(GetNodeAttrTest, TensorsAndFuncs) {
  const NodeDef n = AllTypesNode();
  TensorProto tensor;
  ASSERT_TRUE(GetNodeAttr(n, "tensor", &tensor).ok());
  EXPECT_EQ(tensor.dtype(), DT_INT32);
  EXPECT_EQ(tensor.int_val(0), 4);
  const TensorProto* tensor_ptr = nullptr;
  ASSERT_TRUE(GetNodeAttr(n, "tensor", &tensor_ptr).ok());
  EXPECT_EQ(tensor_ptr, &n.attr().at("tensor").tensor());
  NameAttrList func;
  ASSERT_TRUE(GetNodeAttr(n, "func", &func).ok());
  EXPECT_EQ(func.name(), "f1");
  const NameAttrList* func_ptr = nullptr;
  ASSERT_TRUE(GetNodeAttr(n, "func", &func_ptr).ok());
  EXPECT_EQ(func_ptr, &n.attr().at("func").func());
}

TEST(GetNodeAttrTest, Lists) {
  const NodeDef n = AllTypesNode();
  std::vector<std::string> ls = {"stale"};
  ASSERT_TRUE(GetNodeAttr(n, "ls", &ls).ok());
  EXPECT_EQ(ls, (std::vector<std::string>{"a", "b"}));
  std::vector<int64_t> li64;
  ASSERT_TRUE(GetNodeAttr(n, "lbig", &li64).ok());
  EXPECT_EQ(li64, (std::vector<int64_t>{1, -5000000000}));
  std::vector<int32_t> li32;
  ASSERT_TRUE(GetNodeAttr(n, "li", &li32).ok());
  EXPECT_EQ(li32, (std::vector<int32_t>{1, -2, 3}));
  std::vector<float> lf;
  ASSERT_TRUE(GetNodeAttr(n, "lf", &lf).ok());
  EXPECT_EQ(lf, (std::vector<float>{0.5f, 2.0f}));
  std::vector<bool> lb;
  ASSERT_TRUE(GetNodeAttr(n, "lb", &lb).ok());
  EXPECT_EQ(lb, (std::vector<bool>{true, false, true}));
  std::vector<DataType> lt;
  ASSERT_TRUE(GetNodeAttr(n, "lt", &lt).ok());
  EXPECT_EQ(lt, (std::vector<DataType>{DT_FLOAT, DT_INT64}));
  DataTypeVector ltv = {DT_BOOL};
  ASSERT_TRUE(GetNodeAttr(n, "lt", &ltv).ok());
  EXPECT_EQ(ltv, (DataTypeVector{DT_FLOAT, DT_INT64}));
  std::vector<std::string> empty = {"stale"};
  ASSERT_TRUE(GetNodeAttr(n, "empty_list", &empty).ok());
  EXPECT_TRUE(empty.empty());
}

TEST(GetNodeAttrTest, ListsOfMessages) {
  const NodeDef n = AllTypesNode();
  std::vector<TensorShapeProto> protos;
  ASSERT_TRUE(GetNodeAttr(n, "lshape", &protos).ok());
  ASSERT_EQ(protos.size(), 2u);
  EXPECT_TRUE(protos[1].unknown_rank());
  std::vector<PartialTensorShape> partials;
  ASSERT_TRUE(GetNodeAttr(n, "lshape", &partials).ok());
  ASSERT_EQ(partials.size(), 2u);
  EXPECT_TRUE(partials[0].IsIdenticalTo(PartialTensorShape({1})));
  EXPECT_TRUE(partials[1].unknown_rank());
  std::vector<TensorShape> shapes;
  ASSERT_TRUE(GetNodeAttr(n, "lknown", &shapes).ok());
  EXPECT_EQ(shapes, (std::vector<TensorShape>{TensorShape({4}), TensorShape()}));
  std::vector<TensorProto> tensors;
  ASSERT_TRUE(GetNodeAttr(n, "ltensor", &tensors).ok());
  ASSERT_EQ(tensors.size(), 2u);
  EXPECT_EQ(tensors[1].dtype(), DT_BOOL);
  std::vector<NameAttrList> funcs;
  ASSERT_TRUE(GetNodeAttr(n, "lfunc", &funcs).ok());
  ASSERT_EQ(funcs.size(), 2u);
  EXPECT_EQ(funcs[1].name(), "g2");
}

TEST(GetNodeAttrTest, MissingIsNotFound) {
  const NodeDef n = AllTypesNode();
  int64_t value = 42;
  ExpectError(GetNodeAttr(n, "nope", &value), absl::StatusCode::kNotFound,
              "No attr named 'nope' in NodeDef:\n\t [[{{node n}}]]");
  EXPECT_EQ(value, 42);
  EXPECT_FALSE(TryGetNodeAttr(n, "nope", &value));
  EXPECT_EQ(value, 42);
}

TEST(GetNodeAttrTest, WrongTypeNamesAttrAndNode) {
  const NodeDef n = AllTypesNode();
  int64_t i = 42;
  ExpectError(GetNodeAttr(n, "li", &i), absl::StatusCode::kInvalidArgument,
              "AttrValue had value with type 'list(int)' when 'int' expected\n\t for attr "
              "'li'\n\t [[{{node n}}]]");
  EXPECT_EQ(i, 42);
  EXPECT_FALSE(TryGetNodeAttr(n, "li", &i));
  std::vector<std::string> strings = {"kept"};
  ExpectError(GetNodeAttr(n, "s", &strings), absl::StatusCode::kInvalidArgument,
              "AttrValue had value with type 'string' when 'list(string)' expected\n\t for attr "
              "'s'\n\t [[{{node n}}]]");
  EXPECT_EQ(strings, (std::vector<std::string>{"kept"}));
  DataType t = DT_INVALID;
  EXPECT_EQ(GetNodeAttr(n, "f", &t).code(), absl::StatusCode::kInvalidArgument);
  const TensorProto* tensor = nullptr;
  EXPECT_EQ(GetNodeAttr(n, "func", &tensor).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(TryGetNodeAttr(n, "func", &tensor));
  const NameAttrList* func = nullptr;
  EXPECT_EQ(GetNodeAttr(n, "tensor", &func).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(TryGetNodeAttr(n, "tensor", &func));
  EXPECT_EQ(tensor, nullptr);
  EXPECT_EQ(func, nullptr);
}

TEST(GetNodeAttrTest, WrongTypeInABareMapNamesOnlyTheAttr) {
  AttrValueMap map;
  map["x"].set_b(true);
  std::string s;
  ExpectError(GetNodeAttr(AttrSlice(&map), "x", &s), absl::StatusCode::kInvalidArgument,
              "AttrValue had value with type 'bool' when 'string' expected\n\t for attr 'x'");
}

TEST(GetNodeAttrTest, Int32RangeIsChecked) {
  const NodeDef n = AllTypesNode();
  int32_t i = 42;
  ExpectError(GetNodeAttr(n, "big", &i), absl::StatusCode::kInvalidArgument,
              "Attr big has value 5000000000 out of range for an int32\n\t [[{{node n}}]]");
  EXPECT_EQ(i, 42);
  EXPECT_FALSE(TryGetNodeAttr(n, "big", &i));
  std::vector<int32_t> list = {7};
  ExpectError(GetNodeAttr(n, "lbig", &list), absl::StatusCode::kInvalidArgument,
              "Attr lbig has value -5000000000 out of range for an int32\n\t [[{{node n}}]]");
  EXPECT_EQ(list, (std::vector<int32_t>{7}));
  EXPECT_FALSE(TryGetNodeAttr(n, "lbig", &list));
}

TEST(TryGetNodeAttrTest, ReadsEveryType) {
  const NodeDef n = AllTypesNode();
  std::string s;
  EXPECT_TRUE(TryGetNodeAttr(n, "s", &s));
  EXPECT_EQ(s, "hello");
  int32_t i = 0;
  EXPECT_TRUE(TryGetNodeAttr(n, "i", &i));
  EXPECT_EQ(i, -7);
  std::vector<bool> lb;
  EXPECT_TRUE(TryGetNodeAttr(n, "lb", &lb));
  EXPECT_EQ(lb.size(), 3u);
  DataTypeVector types;
  EXPECT_TRUE(TryGetNodeAttr(n, "lt", &types));
  EXPECT_EQ(types, (DataTypeVector{DT_FLOAT, DT_INT64}));
  const TensorProto* tensor = nullptr;
  EXPECT_TRUE(TryGetNodeAttr(n, "tensor", &tensor));
  EXPECT_EQ(tensor->int_val(0), 4);
  PartialTensorShape partial;
  EXPECT_TRUE(TryGetNodeAttr(n, "partial", &partial));
  EXPECT_EQ(partial.dims(), 2);
  EXPECT_FALSE(TryGetNodeAttr(n, "s", &i));
}

TEST(GetNodeAttrOrTest, ValueOrFallback) {
  const NodeDef n = AllTypesNode();
  EXPECT_EQ(GetNodeAttrOr<std::string>(n, "s", "none"), "hello");
  EXPECT_EQ(GetNodeAttrOr<std::string>(n, "missing", "none"), "none");
  EXPECT_EQ(GetNodeAttrOr<std::string>(n, "i", "wrong type"), "wrong type");
  EXPECT_EQ(GetNodeAttrOr<int32_t>(n, "i", 0), -7);
  EXPECT_EQ(GetNodeAttrOr<std::vector<int64_t>>(n, "missing", {}), std::vector<int64_t>{});
  EXPECT_TRUE(GetNodeAttrOr(n, "missing", true));
}

// ---- HasNodeAttr / AddNodeAttr ------------------------------------------------------------

TEST(AddNodeAttrTest, SetsEveryKindOfValue) {
  NodeDef n;
  AddNodeAttr("s", "text", &n);
  AddNodeAttr("str", std::string("owned"), &n);
  AddNodeAttr("i", 3, &n);
  AddNodeAttr("i64", int64_t{1} << 40, &n);
  AddNodeAttr("f", 0.25f, &n);
  AddNodeAttr("b", true, &n);
  AddNodeAttr("t", DT_HALF, &n);
  AddNodeAttr("shape", TensorShape({2, 5}), &n);
  AddNodeAttr("li", {1, 2, 3}, &n);
  AddNodeAttr("lt", {DT_FLOAT, DT_INT32}, &n);
  AddNodeAttr("ls", std::vector<std::string>{"x", "y"}, &n);
  AddNodeAttr("lb", std::vector<bool>{false, true}, &n);
  AttrValue raw;
  raw.set_placeholder("P");
  AddNodeAttr("raw", raw, &n);

  EXPECT_TRUE(HasNodeAttr(n, "s"));
  EXPECT_FALSE(HasNodeAttr(n, "nope"));
  EXPECT_EQ(n.attr().at("s").s(), "text");
  EXPECT_EQ(n.attr().at("str").s(), "owned");
  EXPECT_EQ(n.attr().at("i").i(), 3);
  EXPECT_EQ(n.attr().at("i64").i(), int64_t{1} << 40);
  EXPECT_EQ(n.attr().at("f").f(), 0.25f);
  EXPECT_TRUE(n.attr().at("b").b());
  EXPECT_EQ(n.attr().at("t").type(), DT_HALF);
  TensorShape shape;
  ASSERT_TRUE(GetNodeAttr(n, "shape", &shape).ok());
  EXPECT_EQ(shape, TensorShape({2, 5}));
  std::vector<int64_t> li;
  ASSERT_TRUE(GetNodeAttr(n, "li", &li).ok());
  EXPECT_EQ(li, (std::vector<int64_t>{1, 2, 3}));
  DataTypeVector lt;
  ASSERT_TRUE(GetNodeAttr(n, "lt", &lt).ok());
  EXPECT_EQ(lt, (DataTypeVector{DT_FLOAT, DT_INT32}));
  std::vector<std::string> ls;
  ASSERT_TRUE(GetNodeAttr(n, "ls", &ls).ok());
  EXPECT_EQ(ls, (std::vector<std::string>{"x", "y"}));
  std::vector<bool> lb;
  ASSERT_TRUE(GetNodeAttr(n, "lb", &lb).ok());
  EXPECT_EQ(lb, (std::vector<bool>{false, true}));
  EXPECT_EQ(n.attr().at("raw").placeholder(), "P");
}

TEST(AddNodeAttrTest, ReplacesAnExistingValue) {
  NodeDef n;
  AddNodeAttr("T", DT_FLOAT, &n);
  AddNodeAttr("T", DT_INT32, &n);
  EXPECT_EQ(n.attr_size(), 1);
  EXPECT_EQ(n.attr().at("T").type(), DT_INT32);
}

TEST(AddNodeAttrTest, EmptyListIsStillAList) {
  NodeDef n;
  AddNodeAttr("l", std::vector<int64_t>{}, &n);
  EXPECT_TRUE(n.attr().at("l").has_list());
  AddNodeAttr("lb", std::vector<bool>{}, &n);
  EXPECT_TRUE(n.attr().at("lb").has_list());
}

// ---- ValidateNodeDef ----------------------------------------------------------------------

NodeDef GoodMatMul() {
  return ToNodeDef(R"pb(
    name: "m"
    op: "NdTestMatMul"
    input: [ "a", "b:1", "^c" ]
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
    attr {
      key: "transpose_a"
      value { b: true }
    }
    attr {
      key: "transpose_b"
      value { b: false }
    }
  )pb");
}

TEST(ValidateNodeDefTest, AcceptsAGoodNode) {
  const OpDef& op = Op("NdTestMatMul");
  EXPECT_TRUE(ValidateNodeDef(GoodMatMul(), op).ok());
}

TEST(ValidateNodeDefTest, MissingDefaultedAttrsAreFine) {
  NodeDef n = GoodMatMul();
  n.mutable_attr()->erase("transpose_a");
  n.mutable_attr()->erase("transpose_b");
  EXPECT_TRUE(ValidateNodeDef(n, Op("NdTestMatMul")).ok());
}

TEST(ValidateNodeDefTest, InternalAttrsAreAllowed) {
  NodeDef n = GoodMatMul();
  AddNodeAttr("_class", {"loc:@a"}, &n);
  AddNodeAttr("_output_shapes", 7, &n);
  EXPECT_TRUE(ValidateNodeDef(n, Op("NdTestMatMul")).ok());
}

TEST(ValidateNodeDefTest, OpNameMismatch) {
  const OpDef& op = Op("NdTestMatMul");
  NodeDef n = GoodMatMul();
  n.set_op("Wrong");
  ExpectError(ValidateNodeDef(n, op), absl::StatusCode::kInvalidArgument,
              absl::StrCat("NodeDef op 'Wrong' does not match ", SummarizeOpDef(op),
                           "; NodeDef: {{node m}}"));
}

TEST(ValidateNodeDefTest, ControlInputs) {
  const OpDef& op = Op("NdTestMatMul");
  NodeDef n = GoodMatMul();
  n.clear_input();
  n.add_input("a");
  n.add_input("^c");
  n.add_input("b");
  ExpectError(ValidateNodeDef(n, op), absl::StatusCode::kInvalidArgument,
              "Non-control input 'b' after control input in NodeDef: {{node m}}");
  n = GoodMatMul();
  n.add_input("^d:0");
  ExpectError(ValidateNodeDef(n, op), absl::StatusCode::kInvalidArgument,
              "Control input '^d:0' must not have ':' in NodeDef: {{node m}}");
}

TEST(ValidateNodeDefTest, UnknownAttr) {
  const OpDef& op = Op("NdTestMatMul");
  NodeDef n = GoodMatMul();
  AddNodeAttr("bogus", 17, &n);
  ExpectError(ValidateNodeDef(n, op), absl::StatusCode::kInvalidArgument,
              absl::StrCat("NodeDef mentions attr 'bogus' not in ", SummarizeOpDef(op),
                           "; NodeDef: {{node m}}. (Check whether your GraphDef-interpreting "
                           "binary is up to date with your GraphDef-generating binary.)."));
}

TEST(ValidateNodeDefTest, MissingAttrs) {
  const OpDef& matmul = Op("NdTestMatMul");
  NodeDef n = GoodMatMul();
  n.mutable_attr()->erase("T");
  ExpectError(ValidateNodeDef(n, matmul), absl::StatusCode::kInvalidArgument,
              absl::StrCat("NodeDef missing attr 'T' from ", SummarizeOpDef(matmul),
                           "; NodeDef: {{node m}}"));
  const OpDef& add_n = Op("NdTestAddN");
  const NodeDef bare = ToNodeDef(R"pb(name: "s" op: "NdTestAddN" input: "x")pb");
  ExpectError(ValidateNodeDef(bare, add_n), absl::StatusCode::kInvalidArgument,
              absl::StrCat("NodeDef missing attrs 'N', 'T' from ", SummarizeOpDef(add_n),
                           "; NodeDef: {{node s}}"));
}

TEST(ValidateNodeDefTest, AttrOfTheWrongType) {
  const OpDef& op = Op("NdTestMatMul");
  NodeDef n = GoodMatMul();
  (*n.mutable_attr())["T"].mutable_list()->add_i(1);
  const absl::Status status = ValidateNodeDef(n, op);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()),
              StartsWith("AttrValue had value with type 'list(int)' when 'type' expected"));
  EXPECT_THAT(std::string(status.message()),
              HasSubstr(absl::StrCat("\n\t; NodeDef: {{node m}}; ", SummarizeOpDef(op))));
}

TEST(ValidateNodeDefTest, DisallowedValue) {
  const OpDef& op = Op("NdTestMatMul");
  NodeDef n = GoodMatMul();
  AddNodeAttr("T", DT_BOOL, &n);
  const absl::Status status = ValidateNodeDef(n, op);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()),
              StartsWith("Value for attr 'T' of bool is not in the list of allowed values: "
                         "float, double, int32"));
  EXPECT_THAT(std::string(status.message()), HasSubstr("\n\t; NodeDef: {{node m}}; Op<"));

  const OpDef& enum_op = Op("NdTestEnum");
  NodeDef e = ToNodeDef(R"pb(name: "e"
                             op: "NdTestEnum"
                             attr {
                               key: "e"
                               value { s: "pear" }
                             })pb");
  EXPECT_THAT(std::string(ValidateNodeDef(e, enum_op).message()),
              StartsWith("Value for attr 'e' of \"pear\" is not in the list of allowed values: "
                         "\"apple\", \"orange\""));
  AddNodeAttr("e", "orange", &e);
  EXPECT_TRUE(ValidateNodeDef(e, enum_op).ok());
}

TEST(ValidateNodeDefTest, PlaceholderValuesAreNotChecked) {
  NodeDef n = GoodMatMul();
  (*n.mutable_attr())["transpose_a"].set_placeholder("outer_attr");
  EXPECT_TRUE(ValidateNodeDef(n, Op("NdTestMatMul")).ok());
}

TEST(ValidateNodeDefTest, WrongNumberOfInputs) {
  const OpDef& op = Op("NdTestMatMul");
  NodeDef n = GoodMatMul();
  n.clear_input();
  n.add_input("a");
  ExpectError(ValidateNodeDef(n, op), absl::StatusCode::kInvalidArgument,
              absl::StrCat("NodeDef expected inputs 'float, float' do not match 1 inputs "
                           "specified; ",
                           SummarizeOpDef(op), "; NodeDef: {{node m}}"));
}

TEST(ValidateNodeDefTest, NumberAttrSetsTheInputCount) {
  const OpDef& op = Op("NdTestAddN");
  NodeDef n = ToNodeDef(R"pb(
    name: "s"
    op: "NdTestAddN"
    input: [ "x", "y", "z" ]
    attr {
      key: "N"
      value { i: 3 }
    }
    attr {
      key: "T"
      value { type: DT_INT64 }
    }
  )pb");
  EXPECT_TRUE(ValidateNodeDef(n, op).ok());
  AddNodeAttr("N", 2, &n);
  ExpectError(ValidateNodeDef(n, op), absl::StatusCode::kInvalidArgument,
              absl::StrCat("NodeDef expected inputs 'int64, int64' do not match 3 inputs "
                           "specified; ",
                           SummarizeOpDef(op), "; NodeDef: {{node s}}"));
  AddNodeAttr("N", 0, &n);
  EXPECT_THAT(std::string(ValidateNodeDef(n, op).message()),
              StartsWith("Value for attr 'N' of 0 must be at least minimum 1"));
}

// A 200,000-entry input list does not make a 200,000-entry message: the first 16 types are
// named and the rest counted.
TEST(ValidateNodeDefTest, LongExpectedInputListsAreCut) {
  const OpDef& op = Op("NdTestAddN");
  NodeDef n = GoodMatMul();
  n.set_op("NdTestAddN");
  n.clear_attr();
  AddNodeAttr("N", 200000, &n);
  AddNodeAttr("T", DT_INT64, &n);
  const absl::Status s = ValidateNodeDef(n, op);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()),
              StartsWith(absl::StrCat("NodeDef expected inputs '",
                                      absl::StrJoin(std::vector<std::string>(16, "int64"), ", "),
                                      ", ... (199984 more)' do not match 2 inputs specified")));
  EXPECT_LT(s.message().size(), 2000u);
}

TEST(ValidateNodeDefTest, NumberAttrOutOfRange) {
  const OpDef& op = Op("NdTestRepeats");
  NodeDef n = ToNodeDef(R"pb(
    name: "r"
    op: "NdTestRepeats"
    input: [ "x", "y" ]
    attr {
      key: "N"
      value { i: -1 }
    }
    attr {
      key: "M"
      value { i: 1 }
    }
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  )pb");
  EXPECT_THAT(std::string(ValidateNodeDef(n, op).message()),
              StartsWith("Value for attr 'N' of -1 must be at least minimum 1"));
  AddNodeAttr("N", int64_t{1} << 40, &n);
  ExpectError(ValidateNodeDef(n, op), absl::StatusCode::kInvalidArgument,
              "Number of outputs is too big: 1099511627776 for attr 'N'\n\t [[{{node r}}]]");
  AddNodeAttr("N", 1, &n);
  EXPECT_TRUE(ValidateNodeDef(n, op).ok());
  AddNodeAttr("M", int64_t{1} << 30, &n);
  ExpectError(ValidateNodeDef(n, op), absl::StatusCode::kInvalidArgument,
              "Arg 'e' brings the node to 1073741826 inputs or outputs (attr 'M'); at most "
              "262144 are supported\n\t [[{{node r}}]]");
}

TEST(ValidateNodeDefTest, TypeListSetsTheInputCount) {
  const OpDef& op = Op("NdTestTypeList");
  NodeDef n = ToNodeDef(R"pb(
    name: "l"
    op: "NdTestTypeList"
    input: [ "x", "y", "z" ]
    attr {
      key: "T1"
      value { list { type: [ DT_INT32, DT_STRING ] } }
    }
    attr {
      key: "T2"
      value { list { type: DT_BOOL } }
    }
    attr {
      key: "T3"
      value { list { type: DT_HALF } }
    }
  )pb");
  EXPECT_TRUE(ValidateNodeDef(n, op).ok());
  n.add_input("w");
  ExpectError(ValidateNodeDef(n, op), absl::StatusCode::kInvalidArgument,
              absl::StrCat("NodeDef expected inputs 'int32, string, bool' do not match 4 inputs "
                           "specified; ",
                           SummarizeOpDef(op), "; NodeDef: {{node l}}"));
  (*n.mutable_attr())["T1"].mutable_list()->clear_type();
  EXPECT_THAT(std::string(ValidateNodeDef(n, op).message()),
              StartsWith("Length for attr 'T1' of 0 must be at least minimum 1"));
}

TEST(ValidateNodeDefTest, DuplicateOpDefAttr) {
  OpDef op = ToOpDef(R"pb(
    name: "Dup"
    attr { name: "a" type: "int" }
    attr { name: "a" type: "int" })pb");
  const NodeDef n = ToNodeDef(R"pb(name: "d" op: "Dup")pb");
  ExpectError(ValidateNodeDef(n, op), absl::StatusCode::kInvalidArgument,
              absl::StrCat("OpDef has duplicate attr name 'a': ", SummarizeOpDef(op)));
}

// ---- AddDefaultsToNodeDef -----------------------------------------------------------------

TEST(AddDefaultsToNodeDefTest, FillsOnlyMissingDefaultedAttrs) {
  NodeDef n = ToNodeDef(R"pb(
    name: "m"
    op: "NdTestMatMul"
    attr {
      key: "transpose_b"
      value { b: true }
    })pb");
  AddDefaultsToNodeDef(Op("NdTestMatMul"), &n);
  EXPECT_EQ(n.attr_size(), 2);
  EXPECT_FALSE(n.attr().at("transpose_a").b());
  EXPECT_TRUE(n.attr().at("transpose_b").b());
  EXPECT_FALSE(HasNodeAttr(n, "T"));
}

// ---- Input and output types ---------------------------------------------------------------

TEST(InOutTypesTest, FixedTypes) {
  const OpDef& op = Op("NdTestFixed");
  const NodeDef n = ToNodeDef(R"pb(name: "f"
                                   op: "NdTestFixed"
                                   input: [ "a", "b" ])pb");
  DataTypeVector inputs;
  DataTypeVector outputs;
  ASSERT_TRUE(InOutTypesForNode(n, op, &inputs, &outputs).ok());
  EXPECT_EQ(inputs, (DataTypeVector{DT_FLOAT, DT_INT32}));
  EXPECT_EQ(outputs, (DataTypeVector{DT_STRING, DT_BOOL}));
  int num_outputs = 0;
  ASSERT_TRUE(NumOutputsForNode(n, op, &num_outputs).ok());
  EXPECT_EQ(num_outputs, 2);
}

TEST(InOutTypesTest, SinglePorts) {
  const OpDef& op = Op("NdTestFixed");
  const NodeDef n = ToNodeDef(R"pb(name: "f" op: "NdTestFixed")pb");
  DataType type = DT_INVALID;
  ASSERT_TRUE(InputTypeForNode(n, op, 1, &type).ok());
  EXPECT_EQ(type, DT_INT32);
  ASSERT_TRUE(OutputTypeForNode(n, op, 0, &type).ok());
  EXPECT_EQ(type, DT_STRING);
  ExpectError(InputTypeForNode(n, op, 2, &type), absl::StatusCode::kInvalidArgument,
              "Input 2 not found for node f");
  ExpectError(InputTypeForNode(n, op, -1, &type), absl::StatusCode::kInvalidArgument,
              "Input -1 not found for node f");
  ExpectError(OutputTypeForNode(n, op, 5, &type), absl::StatusCode::kInvalidArgument,
              "Output 5 not found for node f");
}

TEST(InOutTypesTest, NumberAndTypeAttrs) {
  const OpDef& op = Op("NdTestRepeats");
  const NodeDef n = ToNodeDef(R"pb(
    name: "r"
    op: "NdTestRepeats"
    attr {
      key: "N"
      value { i: 2 }
    }
    attr {
      key: "M"
      value { i: 3 }
    }
    attr {
      key: "T"
      value { type: DT_DOUBLE }
    }
  )pb");
  DataTypeVector inputs;
  DataTypeVector outputs;
  ASSERT_TRUE(InOutTypesForNode(n, op, &inputs, &outputs).ok());
  EXPECT_EQ(inputs, (DataTypeVector{DT_INT32, DT_INT32, DT_DOUBLE, DT_DOUBLE}));
  EXPECT_EQ(outputs, (DataTypeVector{DT_DOUBLE, DT_STRING, DT_STRING, DT_BOOL, DT_BOOL, DT_BOOL}));
  DataType type = DT_INVALID;
  ASSERT_TRUE(InputTypeForNode(n, op, 3, &type).ok());
  EXPECT_EQ(type, DT_DOUBLE);
  ASSERT_TRUE(OutputTypeForNode(n, op, 5, &type).ok());
  EXPECT_EQ(type, DT_BOOL);
  int num_outputs = 0;
  ASSERT_TRUE(NumOutputsForNode(n, op, &num_outputs).ok());
  EXPECT_EQ(num_outputs, 6);
}

TEST(InOutTypesTest, TypeLists) {
  const OpDef& op = Op("NdTestTypeList");
  const NodeDef n = ToNodeDef(R"pb(
    name: "l"
    op: "NdTestTypeList"
    attr {
      key: "T1"
      value { list { type: [ DT_INT32, DT_STRING ] } }
    }
    attr {
      key: "T2"
      value { list { type: DT_BOOL } }
    }
    attr {
      key: "T3"
      value { list { type: [ DT_HALF, DT_UINT8 ] } }
    }
  )pb");
  DataTypeVector inputs;
  DataTypeVector outputs;
  ASSERT_TRUE(InOutTypesForNode(n, op, &inputs, &outputs).ok());
  EXPECT_EQ(inputs, (DataTypeVector{DT_INT32, DT_STRING, DT_BOOL}));
  EXPECT_EQ(outputs, (DataTypeVector{DT_BOOL, DT_HALF, DT_UINT8}));
}

// A type list counts toward the same bound as a number attr: the outputs after T2's entries
// pass it, and the error names the arg and attr that did.
TEST(InOutTypesTest, TypeListsPastThePortBoundAreRefused) {
  const OpDef& op = Op("NdTestTypeList");
  NodeDef n = ToNodeDef(R"pb(
    name: "l"
    op: "NdTestTypeList"
    attr {
      key: "T1"
      value { list { type: DT_INT32 } }
    }
  )pb");
  AttrValue t2;
  for (int i = 0; i < 262144; ++i) t2.mutable_list()->add_type(DT_BOOL);
  AttrValue t3;
  t3.mutable_list()->add_type(DT_HALF);
  (*n.mutable_attr())["T2"] = t2;
  (*n.mutable_attr())["T3"] = t3;
  DataTypeVector inputs;
  DataTypeVector outputs;
  ExpectError(InOutTypesForNode(n, op, &inputs, &outputs), absl::StatusCode::kInvalidArgument,
              "Arg 'b' brings the node to 262145 inputs or outputs (attr 'T2'); at most 262144 "
              "are supported\n\t [[{{node l}}]]");
  int num_outputs = 0;
  ExpectError(NumOutputsForNode(n, op, &num_outputs), absl::StatusCode::kInvalidArgument,
              "Arg 'd' brings the node to 262145 inputs or outputs (attr 'T3'); at most 262144 "
              "are supported\n\t [[{{node l}}]]");
}

TEST(InOutTypesTest, RefArgsGiveRefTypes) {
  const OpDef& op = Op("NdTestRef");
  NodeDef n = ToNodeDef(R"pb(
    name: "v"
    op: "NdTestRef"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    })pb");
  DataTypeVector inputs;
  DataTypeVector outputs;
  ASSERT_TRUE(InOutTypesForNode(n, op, &inputs, &outputs).ok());
  EXPECT_EQ(inputs, (DataTypeVector{DT_FLOAT_REF, DT_FLOAT}));
  EXPECT_EQ(outputs, (DataTypeVector{DT_FLOAT_REF}));

  // A type attr may not hold a ref type, so Ref() of it is never a ref to a ref...
  AddNodeAttr("T", DT_FLOAT_REF, &n);
  inputs.clear();
  ExpectError(InputTypesForNode(n, op, &inputs), absl::StatusCode::kInvalidArgument,
              "AttrValue must not have reference type value of float_ref\n\t for attr 'T'\n\t "
              "[[{{node v}}]]");
  // ...but a fixed type in an OpDef may be one.
  const OpDef ref_to_ref = ToOpDef(R"pb(
    name: "RefRef"
    input_arg { name: "a" type: DT_INT32_REF is_ref: true })pb");
  inputs.clear();
  ExpectError(InputTypesForNode(n, ref_to_ref, &inputs), absl::StatusCode::kInvalidArgument,
              "Requested reference to a reference type: name: \"a\" type: DT_INT32_REF is_ref: "
              "true\n\t [[{{node v}}]]");
}

TEST(InOutTypesTest, MissingTypeAttrIsInvalidArgument) {
  const OpDef& op = Op("NdTestMatMul");
  const NodeDef n = ToNodeDef(R"pb(name: "m"
                                   op: "NdTestMatMul"
                                   input: [ "a", "b" ])pb");
  DataTypeVector inputs;
  ExpectError(InputTypesForNode(n, op, &inputs), absl::StatusCode::kInvalidArgument,
              "No attr named 'T' in NodeDef:\n\t [[{{node m}}]]");
  DataType type;
  ExpectError(OutputTypeForNode(n, op, 0, &type), absl::StatusCode::kInvalidArgument,
              "No attr named 'T' in NodeDef:\n\t [[{{node m}}]]");
}

TEST(InOutTypesTest, TypeAttrOfTheWrongType) {
  const OpDef& op = Op("NdTestMatMul");
  const NodeDef n = ToNodeDef(R"pb(
    name: "m"
    op: "NdTestMatMul"
    attr {
      key: "T"
      value { i: 1 }
    })pb");
  DataTypeVector outputs;
  ExpectError(OutputTypesForNode(n, op, &outputs), absl::StatusCode::kInvalidArgument,
              "AttrValue had value with type 'int' when 'type' expected\n\t for attr 'T'\n\t "
              "[[{{node m}}]]");
}

TEST(InOutTypesTest, BadNumberAttrs) {
  const OpDef& op = Op("NdTestAddN");
  NodeDef n = ToNodeDef(R"pb(
    name: "s"
    op: "NdTestAddN"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    })pb");
  DataTypeVector inputs;
  ExpectError(InputTypesForNode(n, op, &inputs), absl::StatusCode::kInvalidArgument,
              "No attr named 'N' in NodeDef:\n\t [[{{node s}}]]");
  AddNodeAttr("N", "three", &n);
  ExpectError(InputTypesForNode(n, op, &inputs), absl::StatusCode::kInvalidArgument,
              "AttrValue had value with type 'string' when 'int' expected\n\t for attr 'N'\n\t "
              "[[{{node s}}]]");
  AddNodeAttr("N", -3, &n);
  ExpectError(InputTypesForNode(n, op, &inputs), absl::StatusCode::kInvalidArgument,
              "Value for number_attr() -3 < 0 for attr 'N'\n\t [[{{node s}}]]");
  AddNodeAttr("N", int64_t{3000000000}, &n);
  ExpectError(InputTypesForNode(n, op, &inputs), absl::StatusCode::kInvalidArgument,
              "Number of outputs is too big: 3000000000 for attr 'N'\n\t [[{{node s}}]]");
  EXPECT_TRUE(inputs.empty());
}

TEST(InOutTypesTest, TypeListOfTheWrongType) {
  const OpDef& op = Op("NdTestTypeList");
  const NodeDef n = ToNodeDef(R"pb(
    name: "l"
    op: "NdTestTypeList"
    attr {
      key: "T1"
      value { type: DT_INT32 }
    })pb");
  DataTypeVector inputs;
  ExpectError(InputTypesForNode(n, op, &inputs), absl::StatusCode::kInvalidArgument,
              "AttrValue had value with type 'type' when 'list(type)' expected\n\t for attr "
              "'T1'\n\t [[{{node l}}]]");
}

TEST(InOutTypesTest, MalformedArgSpecs) {
  const NodeDef n = ToNodeDef(R"pb(name: "x"
                                   op: "Bad"
                                   attr {
                                     key: "N"
                                     value { i: 2 }
                                   })pb");
  DataTypeVector types;
  const OpDef no_type = ToOpDef(R"pb(name: "Bad"
                                     input_arg { name: "a" })pb");
  ExpectError(InputTypesForNode(n, no_type, &types), absl::StatusCode::kInvalidArgument,
              "No type fields in name: \"a\"\n\t [[{{node x}}]]");
  const OpDef number_without_type = ToOpDef(R"pb(
    name: "Bad"
    output_arg { name: "o" number_attr: "N" })pb");
  ExpectError(OutputTypesForNode(n, number_without_type, &types),
              absl::StatusCode::kInvalidArgument,
              "Missing type or type_attr field in name: \"o\" number_attr: \"N\"\n\t [[{{node "
              "x}}]]");
}

// ---- Name ranges --------------------------------------------------------------------------

TEST(NameRangesForNodeTest, Repeats) {
  const OpDef& op = Op("NdTestRepeats");
  const NodeDef n = ToNodeDef(R"pb(
    name: "r"
    op: "NdTestRepeats"
    attr {
      key: "N"
      value { i: 4 }
    }
    attr {
      key: "M"
      value { i: 3 }
    }
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  )pb");
  NameRangeMap inputs;
  NameRangeMap outputs;
  ASSERT_TRUE(NameRangesForNode(n, op, &inputs, &outputs).ok());
  EXPECT_EQ(inputs, (NameRangeMap{{"a", {0, 4}}, {"b", {4, 8}}}));
  EXPECT_EQ(outputs, (NameRangeMap{{"c", {0, 1}}, {"d", {1, 5}}, {"e", {5, 8}}}));
}

TEST(NameRangesForNodeTest, TypeListsAndNullMaps) {
  const OpDef& op = Op("NdTestTypeList");
  const NodeDef n = ToNodeDef(R"pb(
    name: "l"
    op: "NdTestTypeList"
    attr {
      key: "T1"
      value { list { type: [ DT_INT32, DT_STRING ] } }
    }
    attr {
      key: "T2"
      value { list { type: [ DT_BOOL, DT_BOOL, DT_BOOL ] } }
    }
    attr {
      key: "T3"
      value { list {} }
    }
  )pb");
  NameRangeMap inputs;
  ASSERT_TRUE(NameRangesForNode(n, op, &inputs, nullptr).ok());
  EXPECT_EQ(inputs, (NameRangeMap{{"a", {0, 2}}, {"b", {2, 5}}}));
  NameRangeMap outputs;
  ASSERT_TRUE(NameRangesForNode(n, op, nullptr, &outputs).ok());
  EXPECT_EQ(outputs, (NameRangeMap{{"c", {0, 3}}, {"d", {3, 3}}}));
}

TEST(NameRangesForNodeTest, BareAttrMap) {
  AttrValueMap map;
  map["N"].set_i(2);
  map["T"].set_type(DT_FLOAT);
  NameRangeMap inputs;
  ASSERT_TRUE(NameRangesForNode(AttrSlice(&map), Op("NdTestAddN"), &inputs, nullptr).ok());
  EXPECT_EQ(inputs, (NameRangeMap{{"inputs", {0, 2}}}));
}

TEST(NameRangesForNodeTest, Errors) {
  NameRangeMap ranges;
  const NodeDef no_attrs = ToNodeDef(R"pb(name: "r" op: "NdTestRepeats")pb");
  ExpectError(NameRangesForNode(no_attrs, Op("NdTestRepeats"), &ranges, nullptr),
              absl::StatusCode::kInvalidArgument,
              "No attr named 'N' in NodeDef:\n\t [[{{node r}}]]");
  ExpectError(NameRangesForNode(no_attrs, Op("NdTestTypeList"), &ranges, nullptr),
              absl::StatusCode::kInvalidArgument,
              "No attr named 'T1' in NodeDef:\n\t [[{{node r}}]]");
  const NodeDef wrong = ToNodeDef(R"pb(
    name: "l"
    op: "NdTestTypeList"
    attr {
      key: "T1"
      value { i: 1 }
    })pb");
  ExpectError(NameRangesForNode(wrong, Op("NdTestTypeList"), &ranges, nullptr),
              absl::StatusCode::kInvalidArgument,
              "AttrValue had value with type 'int' when 'list(type)' expected\n\t for attr "
              "'T1'\n\t [[{{node l}}]]");
  const OpDef bad_op = ToOpDef(R"pb(name: "Bad"
                                    output_arg { name: "o" })pb");
  ExpectError(NameRangesForNode(no_attrs, bad_op, nullptr, &ranges),
              absl::StatusCode::kInvalidArgument,
              absl::StrCat("Argument 'o' incorrectly specified in op definition: ",
                           SummarizeOpDef(bad_op)));
  const NodeDef huge = ToNodeDef(R"pb(
    name: "h"
    op: "NdTestAddN"
    attr {
      key: "N"
      value { i: 1099511627776 }
    })pb");
  ExpectError(NameRangesForNode(huge, Op("NdTestAddN"), &ranges, nullptr),
              absl::StatusCode::kInvalidArgument,
              "Number of outputs is too big: 1099511627776 for attr 'N'\n\t [[{{node h}}]]");
}

// ---- ValidateExternalNodeDefSyntax --------------------------------------------------------

TEST(ValidateExternalNodeDefSyntaxTest, AcceptsGoodNames) {
  EXPECT_TRUE(
      ValidateExternalNodeDefSyntax(ToNodeDef(R"pb(name: "n"
                                                   op: "X"
                                                   input: [ "a", "b:0", "c:123", "^d" ])pb"))
          .ok());
  EXPECT_TRUE(ValidateExternalNodeDefSyntax(ToNodeDef(R"pb(name: "scope/n-1.x>inner_2"
                                                           op: "X"
                                                           input: "s>t/u:7")pb"))
                  .ok());
  EXPECT_TRUE(ValidateExternalNodeDefSyntax(ToNodeDef(R"pb(name: ".hidden" op: "X")pb")).ok());
}

TEST(ValidateExternalNodeDefSyntaxTest, RejectsBadNames) {
  for (const char* name : {"", "_n", "n:0", "n\\\\", "-n", "a>", "a>_b", "a b"}) {
    const NodeDef n = ToNodeDef(absl::StrCat("name: \"", name, "\" op: \"X\""));
    ExpectError(ValidateExternalNodeDefSyntax(n), absl::StatusCode::kInvalidArgument,
                absl::StrCat("Illegal op name '", n.name(), "'\n\t [[{{node ", n.name(), "}}]]"));
  }
}

TEST(IsValidNodeNameTest, InternalNamesOnlyWhenAllowed) {
  EXPECT_TRUE(IsValidNodeName("a/b-1.c>d_2"));
  EXPECT_FALSE(IsValidNodeName("_arg_x_0_0"));
  EXPECT_TRUE(IsValidNodeName("_arg_x_0_0", /*allow_internal=*/true));
  // Only the first part may start with '_'.
  EXPECT_FALSE(IsValidNodeName("a>_b", /*allow_internal=*/true));
  EXPECT_TRUE(IsValidNodeName("_a>b", /*allow_internal=*/true));
  for (const char* bad : {"", "a>", ">a", "a b", "-a", "a:0", "__>"}) {
    EXPECT_FALSE(IsValidNodeName(bad, /*allow_internal=*/true)) << bad;
  }
}

TEST(ValidateExternalNodeDefSyntaxTest, RejectsBadInputs) {
  for (const char* input : {"_a", "a:", "a:b", "a:00", "a:01", "a:-1", "^b:0", "^", "^_b", ""}) {
    NodeDef n = ToNodeDef(R"pb(name: "n" op: "X")pb");
    n.add_input(input);
    ExpectError(ValidateExternalNodeDefSyntax(n), absl::StatusCode::kInvalidArgument,
                absl::StrCat("Illegal op input name '", input, "'\n\t [[{{node n}}]]"));
  }
}

TEST(ValidateExternalNodeDefSyntaxTest, ControlInputsLast) {
  const NodeDef n = ToNodeDef(R"pb(name: "n"
                                   op: "X"
                                   input: [ "^a", "b" ])pb");
  ExpectError(ValidateExternalNodeDefSyntax(n), absl::StatusCode::kInvalidArgument,
              "All control inputs must follow all data inputs\n\t [[{{node n}}]]");
}

// ---- Summaries and error context ----------------------------------------------------------

TEST(SummarizeNodeDefTest, SortsAttrsAndAddsDevice) {
  NodeDef n = GoodMatMul();
  EXPECT_EQ(SummarizeNodeDef(n),
            "{{node m}} = NdTestMatMul[T=DT_FLOAT, transpose_a=true, transpose_b=false](a, b:1, "
            "^c)");
  n.set_device("/cpu:0");
  EXPECT_EQ(SummarizeNodeDef(n),
            "{{node m}} = NdTestMatMul[T=DT_FLOAT, transpose_a=true, transpose_b=false, "
            "_device=\"/cpu:0\"](a, b:1, ^c)");
  const NodeDef bare = ToNodeDef(R"pb(name: "d" op: "NoOp" device: "/gpu:1")pb");
  EXPECT_EQ(SummarizeNodeDef(bare), "{{node d}} = NoOp[_device=\"/gpu:1\"]()");
}

TEST(SummarizeNodeDefTest, LimitsInputs) {
  const NodeDef n = ToNodeDef(R"pb(name: "n"
                                   op: "X"
                                   input: [ "a", "b", "c" ])pb");
  EXPECT_EQ(SummarizeNodeDef(n, 2), "{{node n}} = X[](a, b, ...)");
  EXPECT_EQ(SummarizeNodeDef(n, 0), "{{node n}} = X[](...)");
  EXPECT_EQ(SummarizeNodeDef(n, 3), "{{node n}} = X[](a, b, c)");
}

TEST(FormatNodeDefForErrorTest, UsesOriginalNamesWhenPresent) {
  NodeDef n = ToNodeDef(R"pb(name: "fused" op: "X")pb");
  EXPECT_EQ(FormatNodeDefForError(n), "{{node fused}}");
  n.mutable_experimental_debug_info()->add_original_node_names("a");
  n.mutable_experimental_debug_info()->add_original_node_names("b");
  EXPECT_EQ(FormatNodeDefForError(n), "{{node a}}, {{node b}}");
}

TEST(AttachDefTest, AppendsTheNode) {
  NodeDef a = ToNodeDef(R"pb(name: "a" op: "X")pb");
  NodeDef b = ToNodeDef(R"pb(name: "b" op: "X")pb");
  const absl::Status s = AttachDef(absl::CancelledError("Error"), a);
  ExpectError(s, absl::StatusCode::kCancelled, "Error\n\t [[{{node a}}]]");
  // Only the innermost node is formatted for rewriting.
  ExpectError(AttachDef(s, b), absl::StatusCode::kCancelled, "Error\n\t [[{{node a}}]]\n\t [[b]]");
  EXPECT_TRUE(AttachDef(absl::OkStatus(), a).ok());
}

}  // namespace
}  // namespace sluice
