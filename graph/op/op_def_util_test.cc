#include "graph/op/op_def_util.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "google/protobuf/text_format.h"
#include "graph/op/op_def_builder.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

OpDef FromText(const std::string& text) {
  OpDef op_def;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &op_def)) << text;
  return op_def;
}

AttrValue ValueFromText(const std::string& text) {
  AttrValue value;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &value)) << text;
  return value;
}

OpDef::AttrDef AttrFromText(const std::string& text) {
  OpDef::AttrDef attr;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &attr)) << text;
  return attr;
}

// Expects ValidateOpDef to fail with `prefix` followed by "; in OpDef: <the OpDef>".
void ExpectInvalid(const std::string& text, const std::string& prefix) {
  const OpDef op_def = FromText(text);
  const absl::Status status = ValidateOpDef(op_def);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << text;
  EXPECT_EQ(status.message(), prefix + "; in OpDef: " + op_def.ShortDebugString());
}

// ---- ValidateOpDef -------------------------------------------------------------------

TEST(ValidateOpDefTest, AcceptsWellFormedOpDefs) {
  EXPECT_TRUE(ValidateOpDef(FromText(R"pb(
                name: "Foo"
                input_arg { name: "a" type_attr: "T" number_attr: "N" }
                input_arg { name: "b" type_list_attr: "L" }
                input_arg { name: "c" type: DT_FLOAT is_ref: true }
                output_arg { name: "d" type: DT_INT32 number_attr: "N" }
                attr {
                  name: "T"
                  type: "type"
                  allowed_values { list { type: DT_FLOAT } }
                }
                attr { name: "N" type: "int" has_minimum: true minimum: 0 }
                attr { name: "L" type: "list(type)" }
                attr {
                  name: "s"
                  type: "string"
                  default_value { s: "x" }
                  allowed_values { list { s: "x" } }
                }
                control_output: "done"
              )pb"))
                  .ok());
}

TEST(ValidateOpDefTest, OpNames) {
  EXPECT_TRUE(ValidateOpDef(FromText("name: 'Foo2_x'")).ok());
  EXPECT_TRUE(ValidateOpDef(FromText("name: 'Ns>Sub>Op'")).ok());
  EXPECT_TRUE(ValidateOpDef(FromText("name: '_anything-goes'")).ok());
  for (const char* bad : {"foo", "", "Foo>", ">Foo", "Foo>bar", "Foo Bar", "Foo.Bar", "9A"}) {
    ExpectInvalid(absl::StrCat("name: '", bad, "'"),
                  absl::StrCat("Invalid name: ", bad, " (Did you use CamelCase?)"));
  }
}

TEST(ValidateOpDefTest, AttrNamesAndTypes) {
  ExpectInvalid("name: 'Foo' attr { name: 'a' type: 'int' } attr { name: 'a' type: 'int' }",
                "Duplicate name: a");
  ExpectInvalid("name: 'Foo' attr { name: 'int32' type: 'int' }",
                "Attr can't have name int32 that matches a data type");
  ExpectInvalid("name: 'Foo' attr { name: 'a' type: 'bogus' }",
                "Unrecognized type 'bogus' in attr 'a'");
  ExpectInvalid("name: 'Foo' attr { name: 'a' type: 'list(bogus)' }",
                "Unrecognized type 'bogus)' in attr 'a'");
  ExpectInvalid("name: 'Foo' attr { name: 'a' type: 'list(int' }",
                "'list(' is missing ')' in attr a's type list(int");
  ExpectInvalid("name: 'Foo' attr { name: 'a' type: 'intx' }",
                "Extra 'x' at the end of attr a's type intx");
  ExpectInvalid("name: 'Foo' attr { name: 'a' type: 'list(int))' }",
                "Extra ')' at the end of attr a's type list(int))");
}

TEST(ValidateOpDefTest, AttrMinimums) {
  ExpectInvalid("name: 'Foo' attr { name: 'a' type: 'string' has_minimum: true }",
                "Attr 'a' has minimum for unsupported type string");
  ExpectInvalid("name: 'Foo' attr { name: 'a' type: 'list(int)' has_minimum: true minimum: -2 }",
                "Attr 'a' with list type must have a non-negative minimum, not -2");
  ExpectInvalid("name: 'Foo' attr { name: 'a' type: 'int' minimum: 3 }",
                "Attr 'a' with has_minimum = false but minimum 3 not equal to default of 0");
  EXPECT_TRUE(ValidateOpDef(FromText("name: 'Foo' attr { name: 'a' type: 'int' has_minimum: true "
                                     "minimum: -5 }"))
                  .ok());
}

TEST(ValidateOpDefTest, AllowedValuesAndDefaults) {
  absl::Status s = ValidateOpDef(
      FromText("name: 'Foo' attr { name: 'T' type: 'type' allowed_values { list { s: 'x' } } }"));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(),
            "AttrValue had value with type 'list(string)' when 'list(type)' expected\n\t for "
            "attr 'T' in Op 'Foo'");
  s = ValidateOpDef(
      FromText("name: 'Foo' attr { name: 'T' type: 'type' default_value { type: DT_INT8 } "
               "allowed_values { list { type: [DT_FLOAT, DT_DOUBLE] } } }"));
  EXPECT_EQ(s.message(),
            "Value for attr 'T' of int8 is not in the list of allowed values: float, double\n\t "
            "in Op 'Foo'");
  s = ValidateOpDef(
      FromText("name: 'Foo' attr { name: 'a' type: 'int' default_value { s: 'x' } }"));
  EXPECT_EQ(s.message(),
            "AttrValue had value with type 'string' when 'int' expected\n\t for attr 'a'\n\t in "
            "Op 'Foo'");
}

TEST(ValidateOpDefTest, ArgTypes) {
  ExpectInvalid("name: 'Foo' input_arg { name: 'x' }", "Missing type for input 'x'");
  ExpectInvalid(
      "name: 'Foo' output_arg { name: 'y' type: DT_FLOAT type_attr: 'T' } "
      "attr { name: 'T' type: 'type' }",
      "Exactly one of type, type_attr, type_list_attr must be set for output 'y'");
  ExpectInvalid("name: 'Foo' input_arg { name: 'x' type_attr: 'T' }",
                "No attr with name 'T' for input 'x'");
  ExpectInvalid(
      "name: 'Foo' input_arg { name: 'x' type_attr: 'T' } "
      "attr { name: 'T' type: 'int' }",
      "Attr 'T' used as type_attr for input 'x' has type int != type");
  ExpectInvalid("name: 'Foo' input_arg { name: 'x' type_list_attr: 'T' }",
                "No attr with name 'T' for input 'x'");
  ExpectInvalid(
      "name: 'Foo' input_arg { name: 'x' type_list_attr: 'T' } "
      "attr { name: 'T' type: 'type' }",
      "Attr 'T' used as type_list_attr for input 'x' has type type != list(type)");
  ExpectInvalid("name: 'Foo' input_arg { name: 'x' type: DT_FLOAT_REF }",
                "Illegal use of ref type 'float_ref'. Use 'Ref(type)' instead for input 'x'");
}

TEST(ValidateOpDefTest, NumberAttrs) {
  ExpectInvalid("name: 'Foo' input_arg { name: 'x' type: DT_FLOAT number_attr: 'N' }",
                "No attr with name 'N' for input 'x'");
  ExpectInvalid(
      "name: 'Foo' input_arg { name: 'x' type: DT_FLOAT number_attr: 'N' } "
      "attr { name: 'N' type: 'string' }",
      "Attr 'N' used as length for input 'x' has type string != int");
  ExpectInvalid(
      "name: 'Foo' input_arg { name: 'x' type: DT_FLOAT number_attr: 'N' } "
      "attr { name: 'N' type: 'int' }",
      "Attr 'N' used as length for input 'x' must have minimum");
  ExpectInvalid(
      "name: 'Foo' input_arg { name: 'x' type: DT_FLOAT number_attr: 'N' } "
      "attr { name: 'N' type: 'int' has_minimum: true minimum: -1 }",
      "Attr 'N' used as length for input 'x' must have minimum >= 0");
  ExpectInvalid(
      "name: 'Foo' input_arg { name: 'x' type_list_attr: 'L' number_attr: 'N' } "
      "attr { name: 'N' type: 'int' has_minimum: true minimum: 1 } "
      "attr { name: 'L' type: 'list(type)' }",
      "Can't have both number_attr and type_list_attr for input 'x'");
  ExpectInvalid(
      "name: 'Foo' input_arg { name: 'x' type: DT_FLOAT type_attr: 'T' "
      "number_attr: 'N' } attr { name: 'N' type: 'int' has_minimum: true minimum: 1 } "
      "attr { name: 'T' type: 'type' }",
      "Exactly one of type, type_attr must be set for input 'x'");
}

TEST(ValidateOpDefTest, DuplicateNames) {
  ExpectInvalid(
      "name: 'Foo' input_arg { name: 'x' type: DT_FLOAT } "
      "output_arg { name: 'x' type: DT_FLOAT }",
      "Duplicate name: x");
  ExpectInvalid("name: 'Foo' attr { name: 'x' type: 'int' } input_arg { name: 'x' type: DT_FLOAT }",
                "Duplicate name: x");
  ExpectInvalid("name: 'Foo' control_output: ['a', 'b', 'a']", "Duplicate control output name: a");
}

// ---- ValidateAttrValue ---------------------------------------------------------------

TEST(ValidateAttrValueTest, Type) {
  const absl::Status s =
      ValidateAttrValue(ValueFromText("i: 1"), AttrFromText("name: 'a' type: 'string'"));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(),
            "AttrValue had value with type 'int' when 'string' expected\n\t for attr 'a'");
  EXPECT_TRUE(
      ValidateAttrValue(ValueFromText("s: 'x'"), AttrFromText("name: 'a' type: 'string'")).ok());
}

TEST(ValidateAttrValueTest, Minimum) {
  const OpDef::AttrDef n = AttrFromText("name: 'N' type: 'int' has_minimum: true minimum: 2");
  EXPECT_TRUE(ValidateAttrValue(ValueFromText("i: 2"), n).ok());
  EXPECT_EQ(ValidateAttrValue(ValueFromText("i: 1"), n).message(),
            "Value for attr 'N' of 1 must be at least minimum 2");
  for (const char* kind : {"string", "int", "float", "bool", "type", "shape", "tensor", "func"}) {
    const OpDef::AttrDef list = AttrFromText(
        absl::StrCat("name: 'l' type: 'list(", kind, ")' has_minimum: true minimum: 1"));
    EXPECT_EQ(ValidateAttrValue(ValueFromText("list { }"), list).message(),
              "Length for attr 'l' of 0 must be at least minimum 1")
        << kind;
  }
  const OpDef::AttrDef funcs = AttrFromText(
      "name: 'l' type: 'list(func)' has_minimum: true "
      "minimum: 1");
  EXPECT_TRUE(ValidateAttrValue(ValueFromText("list { func { name: 'f' } }"), funcs).ok());
}

TEST(ValidateAttrValueTest, AllowedValues) {
  const OpDef::AttrDef t = AttrFromText(
      "name: 'T' type: 'type' allowed_values { list { type: [DT_FLOAT, DT_DOUBLE] } }");
  EXPECT_TRUE(ValidateAttrValue(ValueFromText("type: DT_DOUBLE"), t).ok());
  EXPECT_EQ(ValidateAttrValue(ValueFromText("type: DT_INT8"), t).message(),
            "Value for attr 'T' of int8 is not in the list of allowed values: float, double");

  const OpDef::AttrDef lt =
      AttrFromText("name: 'L' type: 'list(type)' allowed_values { list { type: [DT_FLOAT] } }");
  EXPECT_TRUE(ValidateAttrValue(ValueFromText("list { type: [DT_FLOAT, DT_FLOAT] }"), lt).ok());
  EXPECT_EQ(ValidateAttrValue(ValueFromText("list { type: [DT_FLOAT, DT_BOOL] }"), lt).message(),
            "Value for attr 'L' of bool is not in the list of allowed values: float");

  const OpDef::AttrDef s =
      AttrFromText("name: 'p' type: 'string' allowed_values { list { s: ['A', 'B'] } }");
  EXPECT_TRUE(ValidateAttrValue(ValueFromText("s: 'B'"), s).ok());
  EXPECT_EQ(ValidateAttrValue(ValueFromText("s: 'X'"), s).message(),
            "Value for attr 'p' of \"X\" is not in the list of allowed values: \"A\", \"B\"");

  const OpDef::AttrDef ls =
      AttrFromText("name: 'q' type: 'list(string)' allowed_values { list { s: ['A'] } }");
  EXPECT_TRUE(ValidateAttrValue(ValueFromText("list { s: ['A'] }"), ls).ok());
  EXPECT_EQ(ValidateAttrValue(ValueFromText("list { s: ['A', 'Z'] }"), ls).message(),
            "Value for attr 'q' of \"Z\" is not in the list of allowed values: \"A\"");

  const absl::Status unsupported =
      ValidateAttrValue(ValueFromText("i: 1"),
                        AttrFromText("name: 'i' type: 'int' allowed_values { list { i: 1 } }"));
  EXPECT_EQ(unsupported.code(), absl::StatusCode::kUnimplemented);
  EXPECT_EQ(unsupported.message(), "Support for allowed_values not implemented for type int");
}

// ---- Lookups -------------------------------------------------------------------------

TEST(FindTest, AttrsAndInputs) {
  OpDef op_def = FromText(
      "name: 'Foo' input_arg { name: 'x' type_attr: 'T' } "
      "output_arg { name: 'y' type_attr: 'T' } attr { name: 'T' type: 'type' }");
  ASSERT_NE(FindAttr("T", op_def), nullptr);
  EXPECT_EQ(FindAttr("T", op_def)->type(), "type");
  EXPECT_EQ(FindAttr("U", op_def), nullptr);
  FindAttrMutable("T", &op_def)->set_description("d");
  EXPECT_EQ(op_def.attr(0).description(), "d");
  EXPECT_EQ(FindAttrMutable("x", &op_def), nullptr);
  ASSERT_NE(FindInputArg("x", op_def), nullptr);
  EXPECT_EQ(FindInputArg("x", op_def)->type_attr(), "T");
  EXPECT_EQ(FindInputArg("y", op_def), nullptr);
}

// ---- SummarizeOpDef: the strings real TensorFlow 2.21 prints for the same OpDefs -----

std::string SummarizeBuilt(const OpDefBuilder& builder) {
  OpRegistrationData data;
  const absl::Status status = builder.Finalize(&data);
  EXPECT_TRUE(status.ok()) << status;
  return SummarizeOpDef(data.op_def);
}

TEST(SummarizeOpDefTest, MatchesTensorFlow) {
  EXPECT_EQ(
      SummarizeBuilt(OpDefBuilder("MatMul")
                         .Input("a: T")
                         .Input("b: T")
                         .Output("product: T")
                         .Attr("transpose_a: bool = false")
                         .Attr("transpose_b: bool = false")
                         .Attr("T: {bfloat16, half, float, double, int32, int64, uint8, uint16, "
                               "uint32, uint64, complex64, complex128}")
                         .Attr("grad_a: bool = false")
                         .Attr("grad_b: bool = false")),
      "Op<name=MatMul; signature=a:T, b:T -> product:T; attr=transpose_a:bool,default=false; "
      "attr=transpose_b:bool,default=false; attr=T:type,allowed=[DT_BFLOAT16, DT_HALF, DT_FLOAT, "
      "DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT8, DT_UINT16, DT_UINT32, DT_UINT64, DT_COMPLEX64, "
      "DT_COMPLEX128]; attr=grad_a:bool,default=false; attr=grad_b:bool,default=false>");
  EXPECT_EQ(
      SummarizeBuilt(OpDefBuilder("Conv2D")
                         .Input("input: T")
                         .Input("filter: T")
                         .Output("output: T")
                         .Attr("T: {half, bfloat16, float, double, int32}")
                         .Attr("strides: list(int)")
                         .Attr("use_cudnn_on_gpu: bool = true")
                         .Attr("padding: {'SAME', 'VALID', 'EXPLICIT'}")
                         .Attr("explicit_paddings: list(int) = []")
                         .Attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
                         .Attr("dilations: list(int) = [1, 1, 1, 1]")),
      "Op<name=Conv2D; signature=input:T, filter:T -> output:T; attr=T:type,allowed=[DT_HALF, "
      "DT_BFLOAT16, DT_FLOAT, DT_DOUBLE, DT_INT32]; attr=strides:list(int); "
      "attr=use_cudnn_on_gpu:bool,default=true; attr=padding:string,allowed=[\"SAME\", "
      "\"VALID\", \"EXPLICIT\"]; attr=explicit_paddings:list(int),default=[]; "
      "attr=data_format:string,default=\"NHWC\",allowed=[\"NHWC\", \"NCHW\"]; "
      "attr=dilations:list(int),default=[1, 1, 1, 1]>");
  EXPECT_EQ(SummarizeBuilt(OpDefBuilder("QuantizeV2")
                               .Input("input: float")
                               .Input("min_range: float")
                               .Input("max_range: float")
                               .Output("output: T")
                               .Output("output_min: float")
                               .Output("output_max: float")
                               .Attr("T: quantizedtype")
                               .Attr("axis: int = -1")
                               .Attr("ensure_minimum_range: float = 0.01")),
            "Op<name=QuantizeV2; signature=input:float, min_range:float, max_range:float -> "
            "output:T, output_min:float, output_max:float; attr=T:type,allowed=[DT_QINT8, "
            "DT_QUINT8, DT_QINT32, DT_QINT16, DT_QUINT16]; attr=axis:int,default=-1; "
            "attr=ensure_minimum_range:float,default=0.01>");
  EXPECT_EQ(SummarizeBuilt(OpDefBuilder("Placeholder")
                               .Output("output: dtype")
                               .Attr("dtype: type")
                               .Attr("shape: shape = { unknown_rank: true }")),
            "Op<name=Placeholder; signature= -> output:dtype; attr=dtype:type; "
            "attr=shape:shape,default=<unknown>>");
  EXPECT_EQ(SummarizeBuilt(OpDefBuilder("ConcatV2")
                               .Input("values: N * T")
                               .Input("axis: Tidx")
                               .Output("output: T")
                               .Attr("N: int >= 2")
                               .Attr("T: type")
                               .Attr("Tidx: {int32, int64} = DT_INT32")),
            "Op<name=ConcatV2; signature=values:N*T, axis:Tidx -> output:T; attr=N:int,min=2; "
            "attr=T:type; attr=Tidx:type,default=DT_INT32,allowed=[DT_INT32, DT_INT64]>");
  EXPECT_EQ(SummarizeBuilt(OpDefBuilder("Assign")
                               .Input("ref: Ref(T)")
                               .Input("value: T")
                               .Output("output_ref: Ref(T)")
                               .Attr("T: type")
                               .Attr("validate_shape: bool = true")
                               .Attr("use_locking: bool = true")
                               .SetAllowsUninitializedInput()),
            "Op<name=Assign; signature=ref:Ref(T), value:T -> output_ref:Ref(T); attr=T:type; "
            "attr=validate_shape:bool,default=true; attr=use_locking:bool,default=true; "
            "allows_uninitialized_input=true>");
  EXPECT_EQ(SummarizeBuilt(OpDefBuilder("_Send")
                               .Input("tensor: T")
                               .Attr("T: type")
                               .Attr("client_terminated: bool = false")
                               .SetIsStateful()),
            "Op<name=_Send; signature=tensor:T -> ; attr=T:type; "
            "attr=client_terminated:bool,default=false; is_stateful=true>");
  EXPECT_EQ(SummarizeBuilt(OpDefBuilder("VarHandleOp")
                               .Output("resource: resource")
                               .Attr("container: string = ''")
                               .Attr("allowed_devices: list(string) = []")),
            "Op<name=VarHandleOp; signature= -> resource:resource; "
            "attr=container:string,default=\"\"; attr=allowed_devices:list(string),default=[]; "
            "is_stateful=true>");
}

TEST(SummarizeOpDefTest, FlagsAndTypeLists) {
  EXPECT_EQ(SummarizeBuilt(OpDefBuilder("AddN")
                               .Input("inputs: N * T")
                               .Output("sum: T")
                               .Attr("N: int >= 1")
                               .Attr("T: {float, variant}")
                               .SetIsCommutative()
                               .SetIsAggregate()
                               .SetIsDistributedCommunication()),
            "Op<name=AddN; signature=inputs:N*T -> sum:T; attr=N:int,min=1; "
            "attr=T:type,allowed=[DT_FLOAT, DT_VARIANT]; is_commutative=true; "
            "is_aggregate=true; is_distributed_communication=true>");
  // TensorFlow prints nothing after "input:" for a type-list arg; naming the attr is clearer.
  EXPECT_EQ(
      SummarizeBuilt(
          OpDefBuilder("IdentityN").Input("input: T").Output("output: T").Attr("T: list(type)")),
      "Op<name=IdentityN; signature=input:T -> output:T; attr=T:list(type),min=1>");
}

}  // namespace
}  // namespace sluice
