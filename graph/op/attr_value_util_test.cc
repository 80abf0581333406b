#include "graph/op/attr_value_util.h"

#include <random>
#include <string>
#include <vector>

#include "google/protobuf/text_format.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/tensor_shape.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

AttrValue FromText(const std::string& text) {
  AttrValue value;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &value)) << text;
  return value;
}

TensorProto TensorFromText(const std::string& text) {
  TensorProto tensor;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &tensor)) << text;
  return tensor;
}

std::string Summarize(const std::string& text) { return SummarizeAttrValue(FromText(text)); }

// ---- SummarizeAttrValue --------------------------------------------------------------

TEST(SummarizeAttrValueTest, Scalars) {
  EXPECT_EQ(Summarize("s: 'SAME'"), "\"SAME\"");
  EXPECT_EQ(Summarize("s: 'a\\nb\"'"), "\"a\\nb\\\"\"");
  EXPECT_EQ(Summarize("i: -3"), "-3");
  EXPECT_EQ(Summarize("f: 0.0001"), "0.0001");
  EXPECT_EQ(Summarize("f: 0.01"), "0.01");
  EXPECT_EQ(Summarize("f: 0.33333334"), "0.333333343");
  EXPECT_EQ(Summarize("f: 1e20"), "1e+20");
  EXPECT_EQ(Summarize("f: inf"), "inf");
  EXPECT_EQ(Summarize("f: nan"), "nan");
  EXPECT_EQ(Summarize("b: true"), "true");
  EXPECT_EQ(Summarize("b: false"), "false");
  EXPECT_EQ(Summarize("type: DT_FLOAT"), "DT_FLOAT");
  EXPECT_EQ(Summarize("placeholder: 'T'"), "$T");
  EXPECT_EQ(SummarizeAttrValue(AttrValue()), "<Unknown AttrValue type>");
}

TEST(SummarizeAttrValueTest, LongStringKeepsBothEnds) {
  AttrValue value;
  SetAttrValue(std::string(40, 'a') + std::string(60, 'b'), &value);
  EXPECT_EQ(SummarizeAttrValue(value), "\"aaaaaaaaaa...bbbbbbbbbb\"");
  SetAttrValue(std::string(79, 'a'), &value);
  EXPECT_EQ(SummarizeAttrValue(value), "\"" + std::string(79, 'a') + "\"");
}

TEST(SummarizeAttrValueTest, Shapes) {
  EXPECT_EQ(Summarize("shape { dim { size: 2 } dim { size: -1 } }"), "[2,?]");
  EXPECT_EQ(Summarize("shape { unknown_rank: true }"), "<unknown>");
  EXPECT_EQ(Summarize("shape { }"), "[]");
}

TEST(SummarizeAttrValueTest, Lists) {
  EXPECT_EQ(Summarize("list { i: [1, 2, 2, 1] }"), "[1, 2, 2, 1]");
  EXPECT_EQ(Summarize("list { }"), "[]");
  EXPECT_EQ(Summarize("list { s: ['NHWC', 'NCHW'] }"), "[\"NHWC\", \"NCHW\"]");
  EXPECT_EQ(Summarize("list { f: [0.5, 2] }"), "[0.5, 2]");
  EXPECT_EQ(Summarize("list { b: [true, false] }"), "[true, false]");
  EXPECT_EQ(Summarize("list { type: [DT_FLOAT, DT_INT32] }"), "[DT_FLOAT, DT_INT32]");
  EXPECT_EQ(Summarize("list { shape { dim { size: 2 } dim { size: 3 } } "
                      "shape { unknown_rank: true } }"),
            "[[2,3], <unknown>]");
  EXPECT_EQ(Summarize("list { func { name: 'f' } func { name: 'g' } }"), "[f[], g[]]");
  EXPECT_EQ(Summarize("list { tensor { dtype: DT_INT32 tensor_shape { } int_val: 4 } }"),
            "[Tensor<type: int32 shape: [] values: 4>]");
}

TEST(SummarizeAttrValueTest, LongListKeepsFiveEachEnd) {
  AttrValue value;
  std::vector<int64_t> ints;
  for (int64_t i = 0; i < 20; ++i) ints.push_back(i);
  SetAttrValue(ints, &value);
  EXPECT_EQ(SummarizeAttrValue(value), "[0, 1, 2, 3, 4, ..., 15, 16, 17, 18, 19]");
  ints.resize(14);
  SetAttrValue(ints, &value);
  EXPECT_EQ(SummarizeAttrValue(value), "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]");
  ints.push_back(14);
  SetAttrValue(ints, &value);
  EXPECT_EQ(SummarizeAttrValue(value), "[0, 1, 2, 3, 4, ..., 10, 11, 12, 13, 14]");
}

TEST(SummarizeAttrValueTest, FuncSortsAttrs) {
  EXPECT_EQ(Summarize("func { name: 'f' attr { key: 'b' value { s: 'x' } } "
                      "attr { key: 'a' value { i: 1 } } }"),
            "f[a=1, b=\"x\"]");
}

TEST(SummarizeAttrValueTest, Tensors) {
  EXPECT_EQ(Summarize("tensor { dtype: DT_FLOAT tensor_shape { dim { size: 2 } dim { size: 2 } }"
                      " float_val: [1, 2, 3, 4] }"),
            "Tensor<type: float shape: [2,2] values: [1 2][3...]...>");
  EXPECT_EQ(Summarize("tensor { dtype: DT_FLOAT tensor_shape { dim { size: 2 } } "
                      "float_val: [1.5, 2] }"),
            "Tensor<type: float shape: [2] values: 1.5 2>");
  // A short *_val list is padded with its last value.
  EXPECT_EQ(Summarize("tensor { dtype: DT_FLOAT tensor_shape { dim { size: 4 } } float_val: 7 }"),
            "Tensor<type: float shape: [4] values: 7 7 7...>");
  EXPECT_EQ(Summarize("tensor { dtype: DT_INT64 tensor_shape { dim { size: 3 } } }"),
            "Tensor<type: int64 shape: [3] values: 0 0 0>");
  EXPECT_EQ(Summarize("tensor { dtype: DT_INT32 tensor_shape { dim { size: 2 } dim { size: 3 } "
                      "dim { size: 2 } } int_val: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] }"),
            "Tensor<type: int32 shape: [2,3,2] values: [[1 2][3...]]...>");
  EXPECT_EQ(Summarize("tensor { dtype: DT_FLOAT tensor_shape { dim { size: 0 } } }"),
            "Tensor<type: float shape: [0] values: >");
  EXPECT_EQ(Summarize("tensor { dtype: DT_DOUBLE tensor_shape { } double_val: 0.1 }"),
            "Tensor<type: double shape: [] values: 0.1>");
  EXPECT_EQ(Summarize("tensor { dtype: DT_STRING tensor_shape { dim { size: 2 } } "
                      "string_val: ['a\\n', 'b'] }"),
            "Tensor<type: string shape: [2] values: a\\n b>");
  EXPECT_EQ(Summarize("tensor { dtype: DT_BOOL tensor_shape { dim { size: 2 } } "
                      "bool_val: [true, false] }"),
            "Tensor<type: bool shape: [2] values: 1 0>");
  EXPECT_EQ(Summarize("tensor { dtype: DT_HALF tensor_shape { } half_val: 15360 }"),
            "Tensor<type: half shape: [] values: 1>");
  EXPECT_EQ(Summarize("tensor { dtype: DT_BFLOAT16 tensor_shape { } half_val: 16256 }"),
            "Tensor<type: bfloat16 shape: [] values: 1>");
  EXPECT_EQ(Summarize("tensor { dtype: DT_COMPLEX64 tensor_shape { dim { size: 1 } } "
                      "scomplex_val: [1, 2] }"),
            "Tensor<type: complex64 shape: [1] values: (1,2)>");
  EXPECT_EQ(Summarize("tensor { dtype: DT_UINT8 tensor_shape { dim { size: 2 } } "
                      "tensor_content: '\\001\\377' }"),
            "Tensor<type: uint8 shape: [2] values: 1 255>");
  EXPECT_EQ(Summarize("tensor { dtype: DT_RESOURCE tensor_shape { } }"),
            "Tensor<type: resource shape: [] values:  ?>");
}

TEST(SummarizeAttrValueTest, InvalidTensors) {
  EXPECT_EQ(Summarize("tensor { dtype: DT_FLOAT tensor_shape { dim { size: 2 } } "
                      "tensor_content: 'abc' }"),
            "<Invalid TensorProto: dtype: DT_FLOAT tensor_shape { dim { size: 2 } } "
            "tensor_content: \"abc\">");
  EXPECT_EQ(Summarize("tensor { dtype: DT_FLOAT tensor_shape { dim { size: -1 } } }"),
            "<Invalid TensorProto: dtype: DT_FLOAT tensor_shape { dim { size: -1 } }>");
  EXPECT_EQ(Summarize("tensor { tensor_shape { } }"), "<Invalid TensorProto: tensor_shape { }>");
}

// ---- AttrValueHasType ----------------------------------------------------------------

TEST(AttrValueHasTypeTest, MatchingTypes) {
  EXPECT_TRUE(AttrValueHasType(FromText("s: 'x'"), "string").ok());
  EXPECT_TRUE(AttrValueHasType(FromText("i: 1"), "int").ok());
  EXPECT_TRUE(AttrValueHasType(FromText("f: 1"), "float").ok());
  EXPECT_TRUE(AttrValueHasType(FromText("b: true"), "bool").ok());
  EXPECT_TRUE(AttrValueHasType(FromText("type: DT_INT32"), "type").ok());
  EXPECT_TRUE(AttrValueHasType(FromText("shape { }"), "shape").ok());
  EXPECT_TRUE(AttrValueHasType(FromText("tensor { }"), "tensor").ok());
  EXPECT_TRUE(AttrValueHasType(FromText("func { name: 'f' }"), "func").ok());
  EXPECT_TRUE(AttrValueHasType(FromText("list { i: [1, 2] }"), "list(int)").ok());
  EXPECT_TRUE(AttrValueHasType(FromText("list { type: DT_FLOAT }"), "list(type)").ok());
  EXPECT_TRUE(AttrValueHasType(FromText("list { func { name: 'f' } }"), "list(func)").ok());
}

TEST(AttrValueHasTypeTest, EmptyListMatchesAnyListType) {
  EXPECT_TRUE(AttrValueHasType(FromText("list { }"), "list(int)").ok());
  EXPECT_TRUE(AttrValueHasType(FromText("list { }"), "list(shape)").ok());
  // Old GraphDefs may drop an empty list entirely.
  EXPECT_TRUE(AttrValueHasType(AttrValue(), "list(string)").ok());
}

TEST(AttrValueHasTypeTest, Mismatches) {
  absl::Status s = AttrValueHasType(FromText("list { i: [1] }"), "int");
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "AttrValue had value with type 'list(int)' when 'int' expected");
  s = AttrValueHasType(FromText("i: 1"), "list(int)");
  EXPECT_EQ(s.message(), "AttrValue had value with type 'int' when 'list(int)' expected");
  s = AttrValueHasType(FromText("s: 'a'"), "bool");
  EXPECT_EQ(s.message(), "AttrValue had value with type 'string' when 'bool' expected");
  s = AttrValueHasType(FromText("list { s: 'a' i: 1 }"), "list(int)");
  EXPECT_EQ(s.message(), "AttrValue had value with type 'list(string)' when 'list(int)' expected");
}

TEST(AttrValueHasTypeTest, MissingAndPlaceholder) {
  absl::Status s = AttrValueHasType(AttrValue(), "int");
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "AttrValue missing value with expected type 'int'");
  s = AttrValueHasType(FromText("placeholder: 'T'"), "type");
  EXPECT_EQ(s.message(), "AttrValue had value with unexpected type 'placeholder'");
}

TEST(AttrValueHasTypeTest, InvalidDataTypes) {
  EXPECT_EQ(AttrValueHasType(FromText("type: DT_INVALID"), "type").message(),
            "AttrValue has invalid DataType");
  EXPECT_EQ(AttrValueHasType(FromText("type: DT_FLOAT_REF"), "type").message(),
            "AttrValue must not have reference type value of float_ref");
  AttrValue bad;
  bad.set_type(static_cast<DataType>(77));
  EXPECT_EQ(AttrValueHasType(bad, "type").message(), "AttrValue has invalid DataType enum: 77");
  EXPECT_EQ(
      AttrValueHasType(FromText("list { type: [DT_FLOAT, DT_INVALID] }"), "list(type)").message(),
      "AttrValue contains invalid DataType");
  EXPECT_EQ(AttrValueHasType(FromText("list { type: DT_INT32_REF }"), "list(type)").message(),
            "AttrValue must not have reference type value of int32_ref");
  bad.Clear();
  bad.mutable_list()->add_type(static_cast<DataType>(77));
  EXPECT_EQ(AttrValueHasType(bad, "list(type)").message(),
            "AttrValue has invalid DataType enum: 77");
}

// ---- ParseAttrValue ------------------------------------------------------------------

void ExpectParses(const std::string& type, const std::string& text, const std::string& expected) {
  AttrValue value;
  ASSERT_TRUE(ParseAttrValue(type, text, &value)) << type << " " << text;
  EXPECT_TRUE(AreAttrValuesEqual(value, FromText(expected)))
      << type << " " << text << " -> " << value.ShortDebugString();
}

TEST(ParseAttrValueTest, Scalars) {
  ExpectParses("int", "3", "i: 3");
  ExpectParses("int", "-1", "i: -1");
  ExpectParses("float", "1e-4", "f: 0.0001");
  ExpectParses("float", "0.01", "f: 0.01");
  ExpectParses("bool", "true", "b: true");
  ExpectParses("type", "DT_FLOAT", "type: DT_FLOAT");
  ExpectParses("string", "'SAME'", "s: 'SAME'");
  ExpectParses("string", "\"NHWC\"", "s: 'NHWC'");
  ExpectParses("string", "''", "s: ''");
  ExpectParses("shape", "{ unknown_rank: true }", "shape { unknown_rank: true }");
  ExpectParses("shape", "{ dim { size: 2 } dim { size: -1 } }",
               "shape { dim { size: 2 } dim { size: -1 } }");
  ExpectParses("tensor", "{ dtype: DT_INT32 tensor_shape { } int_val: 1 }",
               "tensor { dtype: DT_INT32 tensor_shape { } int_val: 1 }");
  ExpectParses("func", "{ name: 'f' }", "func { name: 'f' }");
  ExpectParses("placeholder", "'T'", "placeholder: 'T'");
}

TEST(ParseAttrValueTest, Lists) {
  ExpectParses("list(int)", "[1, 1, 1, 1]", "list { i: [1, 1, 1, 1] }");
  ExpectParses("list(int)", " [ 7 ] ", "list { i: 7 }");
  ExpectParses("list(string)", "['a', \"b\"]", "list { s: ['a', 'b'] }");
  ExpectParses("list(type)", "[DT_FLOAT, DT_INT32]", "list { type: [DT_FLOAT, DT_INT32] }");
  ExpectParses("list(float)", "[0.5]", "list { f: 0.5 }");
  ExpectParses("list(bool)", "[true, false]", "list { b: [true, false] }");
  ExpectParses("list(shape)", "[{ dim { size: 1 } }, { unknown_rank: true }]",
               "list { shape { dim { size: 1 } } shape { unknown_rank: true } }");
}

TEST(ParseAttrValueTest, EmptyList) {
  AttrValue value;
  SetAttrValue(5, &value);
  ASSERT_TRUE(ParseAttrValue("list(int)", "[]", &value));
  EXPECT_TRUE(value.has_list());
  EXPECT_EQ(value.list().i_size(), 0);
  ASSERT_TRUE(ParseAttrValue("list(type)", "[  ]", &value));
  EXPECT_TRUE(value.has_list());
}

TEST(ParseAttrValueTest, Rejects) {
  AttrValue value;
  EXPECT_FALSE(ParseAttrValue("int", "x", &value));
  EXPECT_FALSE(ParseAttrValue("int", "1.5", &value));
  EXPECT_FALSE(ParseAttrValue("int", "", &value));
  EXPECT_FALSE(ParseAttrValue("int", "1 2", &value));
  EXPECT_FALSE(ParseAttrValue("bool", "yes", &value));
  EXPECT_FALSE(ParseAttrValue("type", "DT_BOGUS", &value));
  EXPECT_FALSE(ParseAttrValue("string", "'unterminated", &value));
  EXPECT_FALSE(ParseAttrValue("list(int)", "7", &value));  // lists need brackets
  EXPECT_FALSE(ParseAttrValue("list(int)", "[1, 'a']", &value));
  EXPECT_FALSE(ParseAttrValue("list(int", "[1]", &value));
  EXPECT_FALSE(ParseAttrValue("integer", "1", &value));
  EXPECT_FALSE(ParseAttrValue("list(bogus)", "[]", &value));
  EXPECT_FALSE(ParseAttrValue("shape", "[2, 3]", &value));
}

// ---- Equality and hashing ------------------------------------------------------------

void ExpectEqualAndSameHash(const AttrValue& a, const AttrValue& b) {
  EXPECT_TRUE(AreAttrValuesEqual(a, b)) << a.ShortDebugString() << " vs " << b.ShortDebugString();
  EXPECT_EQ(AttrValueHash(a), AttrValueHash(b));
}

void ExpectDifferent(const AttrValue& a, const AttrValue& b) {
  EXPECT_FALSE(AreAttrValuesEqual(a, b)) << a.ShortDebugString() << " vs " << b.ShortDebugString();
  EXPECT_NE(AttrValueHash(a), AttrValueHash(b));
}

TEST(AttrValueEqualityTest, PlainValues) {
  ExpectEqualAndSameHash(FromText("i: 3"), FromText("i: 3"));
  ExpectDifferent(FromText("i: 3"), FromText("i: 4"));
  ExpectDifferent(FromText("i: 1"), FromText("b: true"));
  ExpectDifferent(FromText("s: 'a'"), FromText("s: 'b'"));
  ExpectEqualAndSameHash(FromText("f: 0.5"), FromText("f: 0.5"));
  ExpectDifferent(FromText("f: 0"), FromText("f: -0"));
  ExpectEqualAndSameHash(FromText("f: nan"), FromText("f: nan"));
  ExpectDifferent(FromText("type: DT_FLOAT"), FromText("type: DT_INT32"));
  ExpectEqualAndSameHash(FromText("shape { dim { size: 2 } }"),
                         FromText("shape { dim { size: 2 } }"));
  ExpectDifferent(FromText("shape { dim { size: 2 } }"), FromText("shape { unknown_rank: true }"));
  ExpectEqualAndSameHash(FromText("placeholder: 'T'"), FromText("placeholder: 'T'"));
  ExpectEqualAndSameHash(AttrValue(), AttrValue());
  ExpectDifferent(AttrValue(), FromText("list { }"));
}

TEST(AttrValueEqualityTest, Lists) {
  ExpectEqualAndSameHash(FromText("list { i: [1, 2] }"), FromText("list { i: [1, 2] }"));
  ExpectDifferent(FromText("list { i: [1, 2] }"), FromText("list { i: [2, 1] }"));
  ExpectDifferent(FromText("list { i: [1] }"), FromText("list { b: [true] }"));
  ExpectDifferent(FromText("list { s: ['ab'] }"), FromText("list { s: ['a', 'b'] }"));
  ExpectEqualAndSameHash(FromText("list { }"), FromText("list { }"));
  ExpectDifferent(FromText("list { type: DT_FLOAT }"), FromText("list { type: DT_DOUBLE }"));
  ExpectDifferent(FromText("list { shape { } }"), FromText("list { shape { dim { size: 1 } } }"));
  ExpectDifferent(FromText("list { func { name: 'f' } }"), FromText("list { func { name: 'g' } }"));
}

TEST(AttrValueEqualityTest, TensorsCompareByValue) {
  const AttrValue typed =
      FromText("tensor { dtype: DT_FLOAT tensor_shape { dim { size: 3 } } float_val: [1, 2, 2] }");
  const AttrValue padded =
      FromText("tensor { dtype: DT_FLOAT tensor_shape { dim { size: 3 } } float_val: [1, 2] }");
  AttrValue content;
  TensorProto* t = content.mutable_tensor();
  t->set_dtype(DT_FLOAT);
  t->mutable_tensor_shape()->add_dim()->set_size(3);
  const float values[] = {1, 2, 2};
  t->set_tensor_content(std::string(reinterpret_cast<const char*>(values), sizeof(values)));
  ExpectEqualAndSameHash(typed, padded);
  ExpectEqualAndSameHash(typed, content);

  ExpectDifferent(typed, FromText("tensor { dtype: DT_FLOAT tensor_shape { dim { size: 3 } } "
                                  "float_val: [1, 2, 3] }"));
  ExpectDifferent(typed, FromText("tensor { dtype: DT_FLOAT tensor_shape { dim { size: 1 } "
                                  "dim { size: 3 } } float_val: [1, 2] }"));
  ExpectDifferent(FromText("tensor { dtype: DT_INT32 tensor_shape { } int_val: 1 }"),
                  FromText("tensor { dtype: DT_INT64 tensor_shape { } int64_val: 1 }"));
  // An empty value list means zeros.
  ExpectEqualAndSameHash(
      FromText("tensor { dtype: DT_INT32 tensor_shape { dim { size: 2 } } }"),
      FromText("tensor { dtype: DT_INT32 tensor_shape { dim { size: 2 } } int_val: [0, 0] }"));
  ExpectEqualAndSameHash(
      FromText("tensor { dtype: DT_STRING tensor_shape { dim { size: 3 } } string_val: ['a'] }"),
      FromText("tensor { dtype: DT_STRING tensor_shape { dim { size: 3 } } "
               "string_val: ['a', 'a', 'a'] }"));
  ExpectDifferent(
      FromText("tensor { dtype: DT_STRING tensor_shape { dim { size: 2 } } string_val: ['a'] }"),
      FromText("tensor { dtype: DT_STRING tensor_shape { dim { size: 2 } } "
               "string_val: ['a', 'b'] }"));
  ExpectEqualAndSameHash(
      FromText(
          "list { tensor { dtype: DT_BOOL tensor_shape { dim { size: 2 } } bool_val: true } }"),
      FromText("list { tensor { dtype: DT_BOOL tensor_shape { dim { size: 2 } } "
               "bool_val: [true, true] } }"));
}

TEST(AttrValueEqualityTest, HugeSparseTensorIsNotExpanded) {
  // 2^40 elements written as one padded value: compared without materializing them.
  const AttrValue a = FromText(
      "tensor { dtype: DT_DOUBLE tensor_shape { dim { size: 1048576 } "
      "dim { size: 1048576 } } double_val: 1 }");
  const AttrValue b = FromText(
      "tensor { dtype: DT_DOUBLE tensor_shape { dim { size: 1048576 } "
      "dim { size: 1048576 } } double_val: [1, 1] }");
  ExpectEqualAndSameHash(a, b);
  EXPECT_EQ(SummarizeAttrValue(a),
            "Tensor<type: double shape: [1048576,1048576] values: [1 1 1...]...>");
}

TEST(AttrValueEqualityTest, UndecodableTensorsCompareByEncoding) {
  const AttrValue bad = FromText(
      "tensor { dtype: DT_FLOAT tensor_shape { dim { size: 2 } } "
      "tensor_content: 'abc' }");
  ExpectEqualAndSameHash(bad, bad);
  ExpectDifferent(bad, FromText("tensor { dtype: DT_FLOAT tensor_shape { dim { size: 2 } } "
                                "tensor_content: 'abd' }"));
  const AttrValue resource = FromText(
      "tensor { dtype: DT_RESOURCE tensor_shape { } "
      "resource_handle_val { name: 'v' } }");
  ExpectEqualAndSameHash(resource, resource);
  ExpectDifferent(resource, FromText("tensor { dtype: DT_RESOURCE tensor_shape { } "
                                     "resource_handle_val { name: 'w' } }"));
}

// Arbitrary TensorProtos (bad dtypes, negative dims, wrong content sizes) are summarized,
// compared and hashed without crashing, and equality stays reflexive and hash-consistent.
TEST(AttrValueEqualityTest, RandomTensorProtosNeverCrash) {
  std::mt19937 rng(99);
  std::uniform_int_distribution<int> small(0, 4);
  std::uniform_int_distribution<int> dtype(0, 30);
  for (int i = 0; i < 2000; ++i) {
    AttrValue value;
    TensorProto* t = value.mutable_tensor();
    t->set_dtype(static_cast<DataType>(rng() % 4 == 0 ? dtype(rng) + 100 : dtype(rng)));
    for (int d = small(rng); d > 0; --d) {
      t->mutable_tensor_shape()->add_dim()->set_size(small(rng) - 1);
    }
    if (rng() % 5 == 0) t->mutable_tensor_shape()->set_unknown_rank(true);
    const int values = small(rng);
    switch (small(rng)) {
      case 0:
        t->set_tensor_content(std::string(values * 4, 'x'));
        break;
      case 1:
        for (int k = 0; k < values; ++k) t->add_float_val(k);
        break;
      case 2:
        for (int k = 0; k < values; ++k) t->add_int_val(k);
        break;
      case 3:
        for (int k = 0; k < values; ++k) t->add_string_val("s");
        break;
      default:
        for (int k = 0; k < values; ++k) t->add_scomplex_val(k);
        break;
    }
    EXPECT_FALSE(SummarizeAttrValue(value).empty());
    const AttrValue copy = value;
    EXPECT_TRUE(AreAttrValuesEqual(value, copy));
    EXPECT_EQ(AttrValueHash(value), AttrValueHash(copy));
  }
}

TEST(AttrValueEqualityTest, FuncsIgnoreMapOrder) {
  AttrValue a = FromText(
      "func { name: 'f' attr { key: 'x' value { i: 1 } } "
      "attr { key: 'y' value { s: 'z' } } }");
  AttrValue b = FromText(
      "func { name: 'f' attr { key: 'y' value { s: 'z' } } "
      "attr { key: 'x' value { i: 1 } } }");
  ExpectEqualAndSameHash(a, b);
  ExpectDifferent(a, FromText("func { name: 'f' attr { key: 'x' value { i: 1 } } }"));
  ExpectDifferent(a, FromText("func { name: 'g' attr { key: 'x' value { i: 1 } } "
                              "attr { key: 'y' value { s: 'z' } } }"));
  ExpectDifferent(a, FromText("func { name: 'f' attr { key: 'x' value { i: 2 } } "
                              "attr { key: 'y' value { s: 'z' } } }"));
  ExpectDifferent(a, FromText("func { name: 'f' attr { key: 'x' value { i: 1 } } "
                              "attr { key: 'w' value { s: 'z' } } }"));
}

TEST(AttrValueHashTest, DistinguishesKinds) {
  EXPECT_NE(AttrValueHash(FromText("i: 3")), AttrValueHash(FromText("f: 3")));
  EXPECT_NE(AttrValueHash(FromText("s: ''")), AttrValueHash(AttrValue()));
  EXPECT_NE(AttrValueHash(FromText("list { i: 1 }")), AttrValueHash(FromText("list { f: 1 }")));
}

// ---- SetAttrValue --------------------------------------------------------------------

TEST(SetAttrValueTest, Scalars) {
  AttrValue v;
  SetAttrValue("SAME", &v);
  EXPECT_EQ(v.s(), "SAME");
  SetAttrValue(std::string("x"), &v);
  EXPECT_EQ(v.s(), "x");
  SetAttrValue(absl::string_view("yz"), &v);
  EXPECT_EQ(v.s(), "yz");
  SetAttrValue(int64_t{1} << 40, &v);
  EXPECT_EQ(v.i(), int64_t{1} << 40);
  SetAttrValue(7, &v);
  EXPECT_EQ(v.i(), 7);
  SetAttrValue(0.5f, &v);
  EXPECT_EQ(v.f(), 0.5f);
  SetAttrValue(0.25, &v);
  EXPECT_EQ(v.f(), 0.25f);
  SetAttrValue(true, &v);
  EXPECT_TRUE(v.b());
  SetAttrValue(DT_HALF, &v);
  EXPECT_EQ(v.type(), DT_HALF);
  NameAttrList func;
  func.set_name("f");
  SetAttrValue(func, &v);
  EXPECT_EQ(v.func().name(), "f");
  TensorProto tensor;
  tensor.set_dtype(DT_INT32);
  SetAttrValue(tensor, &v);
  EXPECT_EQ(v.tensor().dtype(), DT_INT32);
  AttrValue copy;
  SetAttrValue(v, &copy);
  EXPECT_TRUE(AreAttrValuesEqual(v, copy));
}

TEST(SetAttrValueTest, Shapes) {
  AttrValue v;
  SetAttrValue(TensorShape({2, 3}), &v);
  EXPECT_EQ(SummarizeAttrValue(v), "[2,3]");
  SetAttrValue(PartialTensorShape({-1, 3}), &v);
  EXPECT_EQ(SummarizeAttrValue(v), "[?,3]");
  SetAttrValue(PartialTensorShape(), &v);
  EXPECT_EQ(SummarizeAttrValue(v), "<unknown>");
  TensorShapeProto proto;
  proto.add_dim()->set_size(4);
  SetAttrValue(proto, &v);
  EXPECT_EQ(SummarizeAttrValue(v), "[4]");

  SetAttrValue(std::vector<TensorShape>{TensorShape({1}), TensorShape()}, &v);
  EXPECT_EQ(SummarizeAttrValue(v), "[[1], []]");
  SetAttrValue(std::vector<PartialTensorShape>{PartialTensorShape(), PartialTensorShape({-1})}, &v);
  EXPECT_EQ(SummarizeAttrValue(v), "[<unknown>, [?]]");
  SetAttrValue(std::vector<TensorShapeProto>{proto}, &v);
  EXPECT_EQ(SummarizeAttrValue(v), "[[4]]");
}

TEST(SetAttrValueTest, BracedLists) {
  AttrValue v;
  SetAttrValue({1, 2}, &v);
  EXPECT_EQ(SummarizeAttrValue(v), "[1, 2]");
  SetAttrValue({int64_t{1} << 40}, &v);
  EXPECT_EQ(v.list().i(0), int64_t{1} << 40);
  SetAttrValue({0.5f, 1.5f}, &v);
  EXPECT_EQ(SummarizeAttrValue(v), "[0.5, 1.5]");
  SetAttrValue({0.25, 2.0}, &v);
  EXPECT_EQ(SummarizeAttrValue(v), "[0.25, 2]");
  SetAttrValue({true, false}, &v);
  EXPECT_EQ(SummarizeAttrValue(v), "[true, false]");
  SetAttrValue({DT_FLOAT, DT_INT32}, &v);
  EXPECT_EQ(SummarizeAttrValue(v), "[DT_FLOAT, DT_INT32]");
  SetAttrValue({"a", "b"}, &v);
  EXPECT_EQ(SummarizeAttrValue(v), "[\"a\", \"b\"]");
}

TEST(SetAttrValueTest, SpansAndVectors) {
  AttrValue v;
  SetAttrValue(std::vector<std::string>{"x", "y"}, &v);
  EXPECT_EQ(SummarizeAttrValue(v), "[\"x\", \"y\"]");
  SetAttrValue(std::vector<absl::string_view>{"p"}, &v);
  EXPECT_EQ(SummarizeAttrValue(v), "[\"p\"]");
  SetAttrValue(std::vector<const char*>{"q"}, &v);
  EXPECT_EQ(SummarizeAttrValue(v), "[\"q\"]");
  SetAttrValue(std::vector<int32_t>{3, 4}, &v);
  EXPECT_EQ(SummarizeAttrValue(v), "[3, 4]");
  SetAttrValue(std::vector<int64_t>{5}, &v);
  EXPECT_EQ(SummarizeAttrValue(v), "[5]");
  SetAttrValue(std::vector<float>{2.5f}, &v);
  EXPECT_EQ(SummarizeAttrValue(v), "[2.5]");
  SetAttrValue(std::vector<bool>{false, true}, &v);
  EXPECT_EQ(SummarizeAttrValue(v), "[false, true]");
  const bool bools[] = {true};
  SetAttrValue(absl::Span<const bool>(bools), &v);
  EXPECT_EQ(SummarizeAttrValue(v), "[true]");
  SetAttrValue(std::vector<DataType>{DT_BOOL}, &v);
  EXPECT_EQ(SummarizeAttrValue(v), "[DT_BOOL]");
  TensorProto tensor;
  tensor.set_dtype(DT_INT32);
  tensor.add_int_val(9);
  SetAttrValue(std::vector<TensorProto>{tensor}, &v);
  EXPECT_EQ(SummarizeAttrValue(v), "[Tensor<type: int32 shape: [] values: 9>]");
  NameAttrList func;
  func.set_name("f");
  SetAttrValue(std::vector<NameAttrList>{func}, &v);
  EXPECT_EQ(SummarizeAttrValue(v), "[f[]]");
}

TEST(SetAttrValueTest, EmptyListIsStillAList) {
  AttrValue v;
  SetAttrValue(3, &v);
  SetAttrValue(std::vector<int64_t>{}, &v);
  EXPECT_TRUE(v.has_list());
  EXPECT_TRUE(AttrValueHasType(v, "list(int)").ok());
  EXPECT_EQ(SummarizeAttrValue(v), "[]");
}

}  // namespace
}  // namespace sluice
