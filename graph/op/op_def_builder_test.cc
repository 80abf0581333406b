#include "graph/op/op_def_builder.h"

#include <random>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "graph/core/types.h"
#include "graph/op/op_def_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;

OpDef ParseOpDef(const std::string& text) {
  OpDef op_def;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &op_def)) << text;
  return op_def;
}

// Finalizes `builder` and compares the result with `expected` (OpDef text without the name).
void ExpectOpDef(const OpDefBuilder& builder, const std::string& expected) {
  OpRegistrationData data;
  const absl::Status status = builder.Finalize(&data);
  ASSERT_TRUE(status.ok()) << status;
  OpDef want = ParseOpDef(expected);
  want.set_name(builder.op_name());
  EXPECT_EQ(data.op_def.DebugString(), want.DebugString());
}

// Finalizes `builder` and expects INVALID_ARGUMENT with exactly `message`.
void ExpectError(const OpDefBuilder& builder, const std::string& message) {
  OpRegistrationData data;
  const absl::Status status = builder.Finalize(&data);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_EQ(status.message(), message);
}

// As ExpectError, for ValidateOpDef messages that end with the OpDef's text.
void ExpectErrorContaining(const OpDefBuilder& builder, const std::string& fragment) {
  OpRegistrationData data;
  const absl::Status status = builder.Finalize(&data);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_THAT(std::string(status.message()), HasSubstr(fragment));
}

OpDefBuilder B() { return OpDefBuilder("Test"); }

// ---- Attr types ----------------------------------------------------------------------

TEST(OpDefBuilderAttrTest, PlainTypes) {
  ExpectOpDef(B().Attr("a: string")
                  .Attr("b: int")
                  .Attr("c: float")
                  .Attr("d: bool")
                  .Attr("e: type")
                  .Attr("f: shape")
                  .Attr("g: tensor")
                  .Attr("h: func"),
              "attr { name: 'a' type: 'string' } attr { name: 'b' type: 'int' } "
              "attr { name: 'c' type: 'float' } attr { name: 'd' type: 'bool' } "
              "attr { name: 'e' type: 'type' } attr { name: 'f' type: 'shape' } "
              "attr { name: 'g' type: 'tensor' } attr { name: 'h' type: 'func' }");
}

TEST(OpDefBuilderAttrTest, ListTypes) {
  ExpectOpDef(B().Attr("a: list(string)")
                  .Attr("b: list(int)")
                  .Attr("c: list(float)")
                  .Attr("d: list(bool)")
                  .Attr("e: list(type)")
                  .Attr("f: list(shape)")
                  .Attr("g: list(tensor)")
                  .Attr("h: list( func )"),
              "attr { name: 'a' type: 'list(string)' } attr { name: 'b' type: 'list(int)' } "
              "attr { name: 'c' type: 'list(float)' } attr { name: 'd' type: 'list(bool)' } "
              "attr { name: 'e' type: 'list(type)' } attr { name: 'f' type: 'list(shape)' } "
              "attr { name: 'g' type: 'list(tensor)' } attr { name: 'h' type: 'list(func)' }");
}

TEST(OpDefBuilderAttrTest, NamesMayBeUpperCase) {
  ExpectOpDef(B().Attr("Tidx: type").Attr("N2_x: int"),
              "attr { name: 'Tidx' type: 'type' } attr { name: 'N2_x' type: 'int' }");
}

TEST(OpDefBuilderAttrTest, Whitespace) {
  ExpectOpDef(B().Attr("a:int>=2=3").Attr("b  :  list  (  int  )  >=  1  =  [ 1 ] "),
              "attr { name: 'a' type: 'int' default_value { i: 3 } has_minimum: true minimum: 2 }"
              "attr { name: 'b' type: 'list(int)' default_value { list { i: 1 } } "
              "       has_minimum: true minimum: 1 }");
}

// ---- Constraints ---------------------------------------------------------------------

TEST(OpDefBuilderConstraintTest, TypeSets) {
  ExpectOpDef(
      B().Attr("T: {float, int32}").Attr("U: {bool,}").Attr("V: { half }"),
      "attr { name: 'T' type: 'type' allowed_values { list { type: [DT_FLOAT, DT_INT32] } } }"
      "attr { name: 'U' type: 'type' allowed_values { list { type: DT_BOOL } } }"
      "attr { name: 'V' type: 'type' allowed_values { list { type: DT_HALF } } }");
}

TEST(OpDefBuilderConstraintTest, StringSets) {
  ExpectOpDef(
      B().Attr("a: {'SAME', 'VALID'}")
          .Attr("b: {\"x\", \"y\", }")
          .Attr("c: {'it\\'s', \"tab\\t\"}"),
      "attr { name: 'a' type: 'string' allowed_values { list { s: ['SAME', 'VALID'] } } }"
      "attr { name: 'b' type: 'string' allowed_values { list { s: ['x', 'y'] } } }"
      "attr { name: 'c' type: 'string' allowed_values { list { s: ['it\\'s', 'tab\\t'] } } }");
}

TEST(OpDefBuilderConstraintTest, TypeClasses) {
  std::string number_types;
  for (DataType t : NumberTypes()) number_types += " type: " + DataType_Name(t);
  std::string real_types;
  for (DataType t : RealNumberTypes()) real_types += " type: " + DataType_Name(t);
  const std::string quantized_types =
      "type: DT_QINT8 type: DT_QUINT8 type: DT_QINT32 type: DT_QINT16 type: DT_QUINT16";
  ExpectOpDef(B().Attr("a: numbertype")
                  .Attr("b: realnumbertype")
                  .Attr("c: quantizedtype")
                  .Attr("d: numerictype")
                  .Attr("e: realnumerictype"),
              "attr { name: 'a' type: 'type' allowed_values { list {" + number_types +
                  " } } }"
                  "attr { name: 'b' type: 'type' allowed_values { list {" +
                  real_types +
                  " } } }"
                  "attr { name: 'c' type: 'type' allowed_values { list { " +
                  quantized_types +
                  " } } }"
                  "attr { name: 'd' type: 'type' allowed_values { list {" +
                  number_types +
                  " } } }"
                  "attr { name: 'e' type: 'type' allowed_values { list {" +
                  real_types + " } } }");
  ExpectOpDef(B().Attr("T: {quantizedtype, bool}"),
              "attr { name: 'T' type: 'type' allowed_values { list { " + quantized_types +
                  " type: DT_BOOL } } }");
}

TEST(OpDefBuilderConstraintTest, ListsOfRestrictedValues) {
  ExpectOpDef(B().Attr("a: list({float, int64})").Attr("b: list({'x'}) >= 1"),
              "attr { name: 'a' type: 'list(type)' "
              "       allowed_values { list { type: [DT_FLOAT, DT_INT64] } } }"
              "attr { name: 'b' type: 'list(string)' allowed_values { list { s: 'x' } } "
              "       has_minimum: true minimum: 1 }");
}

TEST(OpDefBuilderConstraintTest, Minimums) {
  ExpectOpDef(B().Attr("a: int >= 2")
                  .Attr("b: int >= -1")
                  .Attr("c: list(type) >= 1")
                  .Attr("d: list(int) >= 0"),
              "attr { name: 'a' type: 'int' has_minimum: true minimum: 2 }"
              "attr { name: 'b' type: 'int' has_minimum: true minimum: -1 }"
              "attr { name: 'c' type: 'list(type)' has_minimum: true minimum: 1 }"
              "attr { name: 'd' type: 'list(int)' has_minimum: true minimum: 0 }");
}

// ---- Defaults ------------------------------------------------------------------------

TEST(OpDefBuilderDefaultTest, Scalars) {
  ExpectOpDef(B().Attr("a: type = DT_FLOAT")
                  .Attr("b: string = 'SAME'")
                  .Attr("c: string = \"x\"")
                  .Attr("d: bool = true")
                  .Attr("e: float = 1e-4")
                  .Attr("f: int = -1")
                  .Attr("g: string = ''"),
              "attr { name: 'a' type: 'type' default_value { type: DT_FLOAT } }"
              "attr { name: 'b' type: 'string' default_value { s: 'SAME' } }"
              "attr { name: 'c' type: 'string' default_value { s: 'x' } }"
              "attr { name: 'd' type: 'bool' default_value { b: true } }"
              "attr { name: 'e' type: 'float' default_value { f: 0.0001 } }"
              "attr { name: 'f' type: 'int' default_value { i: -1 } }"
              "attr { name: 'g' type: 'string' default_value { s: '' } }");
}

TEST(OpDefBuilderDefaultTest, Lists) {
  ExpectOpDef(B().Attr("a: list(int) = [1, 1, 1, 1]")
                  .Attr("b: list(int) = []")
                  .Attr("c: list(type) = [DT_INT32, DT_FLOAT]")
                  .Attr("d: list(string) = ['x']"),
              "attr { name: 'a' type: 'list(int)' default_value { list { i: [1, 1, 1, 1] } } }"
              "attr { name: 'b' type: 'list(int)' default_value { list { } } }"
              "attr { name: 'c' type: 'list(type)' "
              "       default_value { list { type: [DT_INT32, DT_FLOAT] } } }"
              "attr { name: 'd' type: 'list(string)' default_value { list { s: 'x' } } }");
}

TEST(OpDefBuilderDefaultTest, ShapesAndTensors) {
  ExpectOpDef(B().Attr("a: shape = { unknown_rank: true }")
                  .Attr("b: shape = { dim { size: 2 } dim { size: -1 } }")
                  .Attr("c: tensor = { dtype: DT_INT32 tensor_shape { } int_val: 7 }")
                  .Attr("d: list(shape) = []"),
              "attr { name: 'a' type: 'shape' default_value { shape { unknown_rank: true } } }"
              "attr { name: 'b' type: 'shape' "
              "       default_value { shape { dim { size: 2 } dim { size: -1 } } } }"
              "attr { name: 'c' type: 'tensor' "
              "       default_value { tensor { dtype: DT_INT32 tensor_shape { } int_val: 7 } } }"
              "attr { name: 'd' type: 'list(shape)' default_value { list { } } }");
}

TEST(OpDefBuilderDefaultTest, RestrictedWithDefault) {
  ExpectOpDef(
      B().Attr("T: {int32, int64} = DT_INT32").Attr("p: {'A', 'B'} = 'B'").Attr("n: int >= 1 = 2"),
      "attr { name: 'T' type: 'type' default_value { type: DT_INT32 } "
      "       allowed_values { list { type: [DT_INT32, DT_INT64] } } }"
      "attr { name: 'p' type: 'string' default_value { s: 'B' } "
      "       allowed_values { list { s: ['A', 'B'] } } }"
      "attr { name: 'n' type: 'int' default_value { i: 2 } has_minimum: true minimum: 1 }");
}

// ---- Attr errors ---------------------------------------------------------------------

TEST(OpDefBuilderAttrErrorTest, Name) {
  ExpectError(B().Attr("1a: int"), "Trouble parsing '<name>:' from Attr(\"1a: int\") for Op Test");
  ExpectError(B().Attr("a int"), "Trouble parsing '<name>:' from Attr(\"a int\") for Op Test");
  ExpectError(B().Attr(""), "Trouble parsing '<name>:' from Attr(\"\") for Op Test");
  ExpectError(B().Attr(" a: int"), "Trouble parsing '<name>:' from Attr(\" a: int\") for Op Test");
}

TEST(OpDefBuilderAttrErrorTest, Type) {
  ExpectError(B().Attr("a: bogus"),
              "Trouble parsing type string at 'bogus' from Attr(\"a: bogus\") for Op Test");
  ExpectError(B().Attr("a: int32"),
              "Extra '32' unparsed at the end from Attr(\"a: int32\") for Op Test");
  ExpectError(B().Attr("a: {bogus}"),
              "Unrecognized type string 'bogus' from Attr(\"a: {bogus}\") for Op Test");
  ExpectError(B().Attr("a: {float int32}"),
              "Expected , or } after types in list, not: 'int32}' from Attr(\"a: {float "
              "int32}\") for Op Test");
  ExpectError(B().Attr("a: {float, , }"),
              "Trouble parsing type string at ', }' from Attr(\"a: {float, , }\") for Op Test");
  ExpectError(B().Attr("a: {float"),
              "Expected , or } after types in list, not: '' from Attr(\"a: {float\") for Op Test");
}

TEST(OpDefBuilderAttrErrorTest, StringSet) {
  ExpectError(B().Attr("a: {'x', y}"),
              "Trouble parsing allowed string at 'y}' from Attr(\"a: {'x', y}\") for Op Test");
  ExpectError(B().Attr("a: {'x' 'y'}"),
              "Expected , or } after strings in list, not: ''y'}' from Attr(\"a: {'x' 'y'}\") "
              "for Op Test");
  ExpectError(B().Attr("a: {'x}"),
              "Trouble parsing allowed string at ''x}' from Attr(\"a: {'x}\") for Op Test");
  OpRegistrationData data;
  const absl::Status status = B().Attr("a: {'\\q'}").Finalize(&data);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()), HasSubstr("Trouble unescaping \"\\q\", got error: "));
}

TEST(OpDefBuilderAttrErrorTest, List) {
  ExpectError(B().Attr("a: list(int"),
              "Expected ) to close 'list(', not: '' from Attr(\"a: list(int\") for Op Test");
  ExpectError(B().Attr("a: list(int]"),
              "Expected ) to close 'list(', not: ']' from Attr(\"a: list(int]\") for Op Test");
}

TEST(OpDefBuilderAttrErrorTest, Minimum) {
  ExpectError(B().Attr("a: int >= x"),
              "Could not parse integer lower limit after '>=', found ' x' instead from "
              "Attr(\"a: int >= x\") for Op Test");
  ExpectError(B().Attr("a: int >= -"),
              "Could not parse integer lower limit after '>=', found ' -' instead from "
              "Attr(\"a: int >= -\") for Op Test");
  // Only ints and lists have minimums.
  ExpectError(B().Attr("a: float >= 2"),
              "Extra '>= 2' unparsed at the end from Attr(\"a: float >= 2\") for Op Test");
}

TEST(OpDefBuilderAttrErrorTest, Default) {
  ExpectError(B().Attr("a: int = x"),
              "Could not parse default value 'x' from Attr(\"a: int = x\") for Op Test");
  ExpectError(B().Attr("a: list(int) = 1"),
              "Could not parse default value '1' from Attr(\"a: list(int) = 1\") for Op Test");
  ExpectError(B().Attr("a: type = float"),
              "Could not parse default value 'float' from Attr(\"a: type = float\") for Op Test");
  ExpectError(B().Attr("a: int 3"),
              "Extra '3' unparsed at the end from Attr(\"a: int 3\") for Op Test");
}

TEST(OpDefBuilderAttrErrorTest, DefaultViolatesConstraint) {
  ExpectError(B().Attr("T: {float} = DT_INT32"),
              "Value for attr 'T' of int32 is not in the list of allowed values: float\n\t in Op "
              "'Test'");
  ExpectError(B().Attr("a: int >= 2 = 1"),
              "Value for attr 'a' of 1 must be at least minimum 2\n\t in Op 'Test'");
  ExpectError(B().Attr("a: list(int) >= 2 = [1]"),
              "Length for attr 'a' of 1 must be at least minimum 2\n\t in Op 'Test'");
  ExpectError(B().Attr("p: {'A'} = 'B'"),
              "Value for attr 'p' of \"B\" is not in the list of allowed values: \"A\"\n\t in Op "
              "'Test'");
  ExpectError(B().Attr("a: int = 'x'"),
              "Could not parse default value ''x'' from Attr(\"a: int = 'x'\") for Op Test");
}

TEST(OpDefBuilderAttrErrorTest, ValidationOfAttrs) {
  ExpectErrorContaining(B().Attr("float: int"),
                        "Attr can't have name float that matches a data type; in OpDef: ");
  ExpectErrorContaining(B().Attr("a: int").Attr("a: float"), "Duplicate name: a; in OpDef: ");
  ExpectErrorContaining(B().Attr("a: list(int) >= -1"),
                        "Attr 'a' with list type must have a non-negative minimum, not -1");
  ExpectErrorContaining(B().Attr("T: {float_ref}"),
                        "AttrValue must not have reference type value of float_ref\n\t for attr "
                        "'T' in Op 'Test'");
}

// ---- Inputs and outputs --------------------------------------------------------------

TEST(OpDefBuilderArgTest, TypeAttrAndFixedTypes) {
  ExpectOpDef(B().Input("a: T").Input("b: float").Output("c: T").Output("d:int32").Attr("T: type"),
              "input_arg { name: 'a' type_attr: 'T' } input_arg { name: 'b' type: DT_FLOAT }"
              "output_arg { name: 'c' type_attr: 'T' } output_arg { name: 'd' type: DT_INT32 }"
              "attr { name: 'T' type: 'type' }");
}

TEST(OpDefBuilderArgTest, NumberAttrGetsMinimumOne) {
  ExpectOpDef(
      B().Input("a: N * T").Input("b: M*float").Attr("N: int").Attr("M: int").Attr("T: type"),
      "input_arg { name: 'a' type_attr: 'T' number_attr: 'N' }"
      "input_arg { name: 'b' type: DT_FLOAT number_attr: 'M' }"
      "attr { name: 'N' type: 'int' has_minimum: true minimum: 1 }"
      "attr { name: 'M' type: 'int' has_minimum: true minimum: 1 }"
      "attr { name: 'T' type: 'type' }");
}

TEST(OpDefBuilderArgTest, ExplicitMinimumIsKept) {
  ExpectOpDef(B().Input("a: N * T").Attr("N: int >= 0").Attr("T: type"),
              "input_arg { name: 'a' type_attr: 'T' number_attr: 'N' }"
              "attr { name: 'N' type: 'int' has_minimum: true minimum: 0 }"
              "attr { name: 'T' type: 'type' }");
  ExpectOpDef(B().Input("a: T").Attr("T: list(type) >= 0"),
              "input_arg { name: 'a' type_list_attr: 'T' }"
              "attr { name: 'T' type: 'list(type)' has_minimum: true minimum: 0 }");
}

TEST(OpDefBuilderArgTest, TypeListAttrGetsMinimumOne) {
  ExpectOpDef(B().Input("a: T").Output("b: T").Attr("T: list(type)"),
              "input_arg { name: 'a' type_list_attr: 'T' }"
              "output_arg { name: 'b' type_list_attr: 'T' }"
              "attr { name: 'T' type: 'list(type)' has_minimum: true minimum: 1 }");
}

TEST(OpDefBuilderArgTest, Refs) {
  ExpectOpDef(B().Input("a: Ref(T)")
                  .Input("b: Ref( float )")
                  .Output("c: Ref(N * T)")
                  .Attr("T: type")
                  .Attr("N: int"),
              "input_arg { name: 'a' type_attr: 'T' is_ref: true }"
              "input_arg { name: 'b' type: DT_FLOAT is_ref: true }"
              "output_arg { name: 'c' type_attr: 'T' number_attr: 'N' is_ref: true }"
              "attr { name: 'T' type: 'type' }"
              "attr { name: 'N' type: 'int' has_minimum: true minimum: 1 }");
}

TEST(OpDefBuilderArgTest, ResourceArgMakesOpStateful) {
  ExpectOpDef(B().Input("h: resource").Output("y: float"),
              "input_arg { name: 'h' type: DT_RESOURCE } output_arg { name: 'y' type: DT_FLOAT }"
              "is_stateful: true");
}

TEST(OpDefBuilderArgErrorTest, Parsing) {
  ExpectError(B().Input("X: float"),
              "Trouble parsing 'name:' from Input(\"X: float\") for Op Test");
  ExpectError(B().Output("x float"),
              "Trouble parsing 'name:' from Output(\"x float\") for Op Test");
  ExpectError(B().Input("x: 3"),
              "Trouble parsing either a type or an attr name at '3' from Input(\"x: 3\") for Op "
              "Test");
  ExpectError(B().Input("x: Ref(float"),
              "Did not find closing ')' for 'Ref(', instead found: '' from Input(\"x: "
              "Ref(float\") for Op Test");
  ExpectError(B().Input("x: float)"),
              "Extra ')' unparsed at the end from Input(\"x: float)\") for Op Test");
  ExpectError(B().Input("x: float float"),
              "Extra 'float' unparsed at the end from Input(\"x: float float\") for Op Test");
}

TEST(OpDefBuilderArgErrorTest, AttrReferences) {
  ExpectError(B().Input("x: U"), "Reference to unknown attr 'U' from Input(\"x: U\") for Op Test");
  ExpectError(B().Output("x: N").Attr("N: int"),
              "Reference to attr 'N' with type int that isn't type or list(type) from "
              "Output(\"x: N\") for Op Test");
  ExpectError(B().Input("x: N * U").Attr("N: int"),
              "Reference to unknown attr 'U' from Input(\"x: N * U\") for Op Test");
}

TEST(OpDefBuilderArgErrorTest, Validation) {
  // As in TensorFlow, the implied minimum lands on the misused attr first.
  ExpectErrorContaining(B().Input("x: N * T").Attr("N: string").Attr("T: type"),
                        "Attr 'N' has minimum for unsupported type string; in OpDef: ");
  ExpectErrorContaining(B().Input("x: N * T").Attr("N: float >= 1").Attr("T: type"),
                        "Extra '>= 1' unparsed at the end");
  ExpectErrorContaining(B().Input("x: N * T").Attr("N: int >= -1").Attr("T: type"),
                        "Attr 'N' used as length for input 'x' must have minimum >= 0");
  ExpectErrorContaining(B().Input("x: N * float").Output("x: float").Attr("N: int"),
                        "Duplicate name: x");
  ExpectErrorContaining(B().Input("T: float").Attr("T: type"), "Trouble parsing 'name:'");
  ExpectErrorContaining(B().Input("x: float_ref"),
                        "Illegal use of ref type 'float_ref'. Use 'Ref(type)' instead for input "
                        "'x'");
  ExpectErrorContaining(B().Input("x: N * T").Attr("N: int").Attr("T: list(type)"),
                        "Can't have both number_attr and type_list_attr for input 'x'");
  ExpectErrorContaining(B().Input("x: M * float").Attr("N: int"),
                        "No attr with name 'M' for input 'x'");
}

// ---- Flags, deprecation, control outputs, shape function ------------------------------

TEST(OpDefBuilderTest, Flags) {
  ExpectOpDef(B().SetIsCommutative()
                  .SetIsAggregate()
                  .SetIsStateful()
                  .SetAllowsUninitializedInput()
                  .SetIsDistributedCommunication(),
              "is_commutative: true is_aggregate: true is_stateful: true "
              "allows_uninitialized_input: true is_distributed_communication: true");
}

TEST(OpDefBuilderTest, Deprecated) {
  ExpectOpDef(B().Deprecated(8, "Use Other"),
              "deprecation { version: 8 explanation: 'Use Other' }");
  ExpectError(B().Deprecated(8, "a").Deprecated(9, "b"), "Deprecated called twice for Op Test");
}

TEST(OpDefBuilderTest, ControlOutputs) {
  ExpectOpDef(B().ControlOutput("done").ControlOutput("Also_2"),
              "control_output: ['done', 'Also_2']");
  ExpectError(B().ControlOutput("a b"),
              "Trouble parsing 'name:' from ControlOutput(\"a b\") for Op Test");
  ExpectError(B().ControlOutput(""),
              "Trouble parsing 'name:' from ControlOutput(\"\") for Op Test");
  ExpectErrorContaining(B().ControlOutput("a").ControlOutput("a"),
                        "Duplicate control output name: a");
}

TEST(OpDefBuilderTest, ShapeFnIsCopied) {
  OpRegistrationData data;
  ASSERT_TRUE(B().SetShapeFn([](shape_inference::InferenceContext*) {
                   return absl::UnimplementedError("called");
                 })
                  .Finalize(&data)
                  .ok());
  ASSERT_NE(data.shape_inference_fn, nullptr);
  EXPECT_EQ(data.shape_inference_fn(nullptr).message(), "called");
  OpRegistrationData none;
  ASSERT_TRUE(B().Finalize(&none).ok());
  EXPECT_EQ(none.shape_inference_fn, nullptr);
  auto fn = [](shape_inference::InferenceContext*) { return absl::OkStatus(); };
  ExpectError(B().SetShapeFn(fn).SetShapeFn(fn), "SetShapeFn called twice for Op Test");
}

TEST(OpDefBuilderTest, AllErrorsAreReported) {
  ExpectError(B().Attr("a int").Input("x: U").Output("Y: float"),
              "Trouble parsing '<name>:' from Attr(\"a int\") for Op Test\n"
              "Reference to unknown attr 'U' from Input(\"x: U\") for Op Test\n"
              "Trouble parsing 'name:' from Output(\"Y: float\") for Op Test");
}

TEST(OpDefBuilderTest, OpNames) {
  ExpectOpDef(OpDefBuilder("Namespace>Op_2"), "");
  ExpectOpDef(OpDefBuilder("_Internal"), "");
  ExpectErrorContaining(OpDefBuilder("lower"),
                        "Invalid name: lower (Did you use CamelCase?); in OpDef: name: \"lower\"");
  ExpectErrorContaining(OpDefBuilder(""), "Invalid name:  (Did you use CamelCase?)");
  ExpectErrorContaining(OpDefBuilder("Bad-Name"), "Invalid name: Bad-Name");
}

// ---- Doc -----------------------------------------------------------------------------

TEST(OpDefBuilderDocTest, SummaryDescriptionAndArgs) {
  ExpectOpDef(B().Input("a: T").Output("b: T").Attr("T: type").Doc(R"doc(

Summary line.  

Description first line.

Description second paragraph.

a: input a.
  continued
    more
b: output b.
T: the type.
)doc"),
              "input_arg { name: 'a' type_attr: 'T' description: 'input a.\\ncontinued\\n  more' }"
              "output_arg { name: 'b' type_attr: 'T' description: 'output b.' }"
              "attr { name: 'T' type: 'type' description: 'the type.' }"
              "summary: 'Summary line.'"
              "description: 'Description first line.\\n\\nDescription second paragraph.'");
}

TEST(OpDefBuilderDocTest, SummaryOnly) {
  ExpectOpDef(B().Doc("Just a summary."), "summary: 'Just a summary.'");
}

TEST(OpDefBuilderDocTest, Errors) {
  ExpectError(B().Input("a: float").Doc("S.\n\nb: no such arg."),
              "No matching input/output/attr for name 'b' from Doc() for Op Test");
  ExpectError(B().Doc("a").Doc("b"), "Extra call to Doc() for Op Test");
}

// ---- Robustness ----------------------------------------------------------------------

// Random specs built from the grammar's own tokens must never crash; they either parse or
// fail with INVALID_ARGUMENT.
TEST(OpDefBuilderFuzzTest, RandomSpecsNeverCrash) {
  const std::vector<std::string> tokens = {"a",
                                           "T",
                                           "N",
                                           "x",
                                           ":",
                                           " ",
                                           "int",
                                           "list",
                                           "(",
                                           ")",
                                           "{",
                                           "}",
                                           ",",
                                           "'",
                                           "\"",
                                           "\\",
                                           "=",
                                           ">=",
                                           "-",
                                           "7",
                                           "*",
                                           "Ref",
                                           "float",
                                           "type",
                                           "shape",
                                           "string",
                                           "numbertype",
                                           "[",
                                           "]",
                                           "DT_FLOAT",
                                           "1e-4",
                                           "true",
                                           "unknown_rank",
                                           "tensor",
                                           "func",
                                           "_",
                                           "99999999999999999999"};
  std::mt19937 rng(1234);
  std::uniform_int_distribution<size_t> pick(0, tokens.size() - 1);
  std::uniform_int_distribution<int> length(0, 12);
  auto random_spec = [&] {
    std::string spec;
    for (int i = length(rng); i > 0; --i) spec += tokens[pick(rng)];
    return spec;
  };
  for (int i = 0; i < 3000; ++i) {
    OpDefBuilder builder("Fuzz");
    builder.Attr(random_spec())
        .Attr("T: type")
        .Attr("N: int")
        .Input(random_spec())
        .Output(random_spec())
        .ControlOutput(random_spec())
        .Doc(random_spec());
    OpRegistrationData data;
    const absl::Status status = builder.Finalize(&data);
    EXPECT_TRUE(status.ok() || status.code() == absl::StatusCode::kInvalidArgument) << status;
  }
}

// ---- TensorFlow's own ops: the OpDefs real TensorFlow 2.21 reports -------------------

TEST(OpDefBuilderTensorFlowTest, MatMul) {
  ExpectOpDef(OpDefBuilder("MatMul")
                  .Input("a: T")
                  .Input("b: T")
                  .Output("product: T")
                  .Attr("transpose_a: bool = false")
                  .Attr("transpose_b: bool = false")
                  .Attr("T: {bfloat16, half, float, double, int32, int64, uint8, uint16, uint32, "
                        "uint64, complex64, complex128}")
                  .Attr("grad_a: bool = false")
                  .Attr("grad_b: bool = false"),
              R"pb(
                input_arg { name: "a" type_attr: "T" }
                input_arg { name: "b" type_attr: "T" }
                output_arg { name: "product" type_attr: "T" }
                attr {
                  name: "transpose_a"
                  type: "bool"
                  default_value { b: false }
                }
                attr {
                  name: "transpose_b"
                  type: "bool"
                  default_value { b: false }
                }
                attr {
                  name: "T"
                  type: "type"
                  allowed_values {
                    list {
                      type: DT_BFLOAT16
                      type: DT_HALF
                      type: DT_FLOAT
                      type: DT_DOUBLE
                      type: DT_INT32
                      type: DT_INT64
                      type: DT_UINT8
                      type: DT_UINT16
                      type: DT_UINT32
                      type: DT_UINT64
                      type: DT_COMPLEX64
                      type: DT_COMPLEX128
                    }
                  }
                }
                attr {
                  name: "grad_a"
                  type: "bool"
                  default_value { b: false }
                }
                attr {
                  name: "grad_b"
                  type: "bool"
                  default_value { b: false }
                }
              )pb");
}

TEST(OpDefBuilderTensorFlowTest, Conv2D) {
  ExpectOpDef(
      OpDefBuilder("Conv2D")
          .Input("input: T")
          .Input("filter: T")
          .Output("output: T")
          .Attr("T: {half, bfloat16, float, double, int32}")
          .Attr("strides: list(int)")
          .Attr("use_cudnn_on_gpu: bool = true")
          .Attr("padding: {'SAME', 'VALID', 'EXPLICIT'}")
          .Attr("explicit_paddings: list(int) = []")
          .Attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
          .Attr("dilations: list(int) = [1, 1, 1, 1]"),
      R"pb(
        input_arg { name: "input" type_attr: "T" }
        input_arg { name: "filter" type_attr: "T" }
        output_arg { name: "output" type_attr: "T" }
        attr {
          name: "T"
          type: "type"
          allowed_values {
            list { type: DT_HALF type: DT_BFLOAT16 type: DT_FLOAT type: DT_DOUBLE type: DT_INT32 }
          }
        }
        attr { name: "strides" type: "list(int)" }
        attr {
          name: "use_cudnn_on_gpu"
          type: "bool"
          default_value { b: true }
        }
        attr {
          name: "padding"
          type: "string"
          allowed_values { list { s: "SAME" s: "VALID" s: "EXPLICIT" } }
        }
        attr {
          name: "explicit_paddings"
          type: "list(int)"
          default_value { list {} }
        }
        attr {
          name: "data_format"
          type: "string"
          default_value { s: "NHWC" }
          allowed_values { list { s: "NHWC" s: "NCHW" } }
        }
        attr {
          name: "dilations"
          type: "list(int)"
          default_value { list { i: 1 i: 1 i: 1 i: 1 } }
        }
      )pb");
}

TEST(OpDefBuilderTensorFlowTest, ConcatV2) {
  ExpectOpDef(OpDefBuilder("ConcatV2")
                  .Input("values: N * T")
                  .Input("axis: Tidx")
                  .Output("output: T")
                  .Attr("N: int >= 2")
                  .Attr("T: type")
                  .Attr("Tidx: {int32, int64} = DT_INT32"),
              R"pb(
                input_arg { name: "values" type_attr: "T" number_attr: "N" }
                input_arg { name: "axis" type_attr: "Tidx" }
                output_arg { name: "output" type_attr: "T" }
                attr { name: "N" type: "int" has_minimum: true minimum: 2 }
                attr { name: "T" type: "type" }
                attr {
                  name: "Tidx"
                  type: "type"
                  default_value { type: DT_INT32 }
                  allowed_values { list { type: DT_INT32 type: DT_INT64 } }
                }
              )pb");
}

TEST(OpDefBuilderTensorFlowTest, AddN) {
  ExpectOpDef(OpDefBuilder("AddN")
                  .Input("inputs: N * T")
                  .Output("sum: T")
                  .Attr("N: int >= 1")
                  .Attr("T: {numbertype, variant}")
                  .SetIsCommutative()
                  .SetIsAggregate(),
              R"pb(
                input_arg { name: "inputs" type_attr: "T" number_attr: "N" }
                output_arg { name: "sum" type_attr: "T" }
                attr { name: "N" type: "int" has_minimum: true minimum: 1 }
                attr {
                  name: "T"
                  type: "type"
                  allowed_values {
                    list {
                      type: DT_FLOAT
                      type: DT_DOUBLE
                      type: DT_INT32
                      type: DT_UINT8
                      type: DT_INT16
                      type: DT_INT8
                      type: DT_COMPLEX64
                      type: DT_INT64
                      type: DT_QINT8
                      type: DT_QUINT8
                      type: DT_QINT32
                      type: DT_BFLOAT16
                      type: DT_QINT16
                      type: DT_QUINT16
                      type: DT_UINT16
                      type: DT_COMPLEX128
                      type: DT_HALF
                      type: DT_UINT32
                      type: DT_UINT64
                      type: DT_VARIANT
                    }
                  }
                }
                is_aggregate: true
                is_commutative: true
              )pb");
}

TEST(OpDefBuilderTensorFlowTest, Const) {
  ExpectOpDef(
      OpDefBuilder("Const").Output("output: dtype").Attr("value: tensor").Attr("dtype: type"),
      R"pb(
        output_arg { name: "output" type_attr: "dtype" }
        attr { name: "value" type: "tensor" }
        attr { name: "dtype" type: "type" }
      )pb");
}

TEST(OpDefBuilderTensorFlowTest, PlaceholderQuantizeV2IdentityNAssignVarHandleOp) {
  ExpectOpDef(OpDefBuilder("Placeholder")
                  .Output("output: dtype")
                  .Attr("dtype: type")
                  .Attr("shape: shape = { unknown_rank: true }"),
              R"pb(
                output_arg { name: "output" type_attr: "dtype" }
                attr { name: "dtype" type: "type" }
                attr {
                  name: "shape"
                  type: "shape"
                  default_value { shape { unknown_rank: true } }
                }
              )pb");
  ExpectOpDef(
      OpDefBuilder("QuantizeV2")
          .Input("input: float")
          .Input("min_range: float")
          .Input("max_range: float")
          .Output("output: T")
          .Output("output_min: float")
          .Output("output_max: float")
          .Attr("T: quantizedtype")
          .Attr("mode: {'MIN_COMBINED', 'MIN_FIRST', 'SCALED'} = 'MIN_COMBINED'")
          .Attr("round_mode: {'HALF_AWAY_FROM_ZERO', 'HALF_TO_EVEN'} = "
                "'HALF_AWAY_FROM_ZERO'")
          .Attr("narrow_range: bool = false")
          .Attr("axis: int = -1")
          .Attr("ensure_minimum_range: float = 0.01"),
      R"pb(
        input_arg { name: "input" type: DT_FLOAT }
        input_arg { name: "min_range" type: DT_FLOAT }
        input_arg { name: "max_range" type: DT_FLOAT }
        output_arg { name: "output" type_attr: "T" }
        output_arg { name: "output_min" type: DT_FLOAT }
        output_arg { name: "output_max" type: DT_FLOAT }
        attr {
          name: "T"
          type: "type"
          allowed_values {
            list { type: DT_QINT8 type: DT_QUINT8 type: DT_QINT32 type: DT_QINT16 type: DT_QUINT16 }
          }
        }
        attr {
          name: "mode"
          type: "string"
          default_value { s: "MIN_COMBINED" }
          allowed_values { list { s: "MIN_COMBINED" s: "MIN_FIRST" s: "SCALED" } }
        }
        attr {
          name: "round_mode"
          type: "string"
          default_value { s: "HALF_AWAY_FROM_ZERO" }
          allowed_values { list { s: "HALF_AWAY_FROM_ZERO" s: "HALF_TO_EVEN" } }
        }
        attr {
          name: "narrow_range"
          type: "bool"
          default_value { b: false }
        }
        attr {
          name: "axis"
          type: "int"
          default_value { i: -1 }
        }
        attr {
          name: "ensure_minimum_range"
          type: "float"
          default_value { f: 0.01 }
        }
      )pb");
  ExpectOpDef(OpDefBuilder("IdentityN").Input("input: T").Output("output: T").Attr("T: list(type)"),
              R"pb(
                input_arg { name: "input" type_list_attr: "T" }
                output_arg { name: "output" type_list_attr: "T" }
                attr { name: "T" type: "list(type)" has_minimum: true minimum: 1 }
              )pb");
  ExpectOpDef(OpDefBuilder("Assign")
                  .Input("ref: Ref(T)")
                  .Input("value: T")
                  .Output("output_ref: Ref(T)")
                  .Attr("T: type")
                  .Attr("validate_shape: bool = true")
                  .Attr("use_locking: bool = true")
                  .SetAllowsUninitializedInput(),
              R"pb(
                input_arg { name: "ref" type_attr: "T" is_ref: true }
                input_arg { name: "value" type_attr: "T" }
                output_arg { name: "output_ref" type_attr: "T" is_ref: true }
                attr { name: "T" type: "type" }
                attr {
                  name: "validate_shape"
                  type: "bool"
                  default_value { b: true }
                }
                attr {
                  name: "use_locking"
                  type: "bool"
                  default_value { b: true }
                }
                allows_uninitialized_input: true
              )pb");
  ExpectOpDef(OpDefBuilder("VarHandleOp")
                  .Output("resource: resource")
                  .Attr("container: string = ''")
                  .Attr("shared_name: string = ''")
                  .Attr("debug_name: string = ''")
                  .Attr("dtype: type")
                  .Attr("shape: shape")
                  .Attr("allowed_devices: list(string) = []"),
              R"pb(
                output_arg { name: "resource" type: DT_RESOURCE }
                attr {
                  name: "container"
                  type: "string"
                  default_value { s: "" }
                }
                attr {
                  name: "shared_name"
                  type: "string"
                  default_value { s: "" }
                }
                attr {
                  name: "debug_name"
                  type: "string"
                  default_value { s: "" }
                }
                attr { name: "dtype" type: "type" }
                attr { name: "shape" type: "shape" }
                attr {
                  name: "allowed_devices"
                  type: "list(string)"
                  default_value { list {} }
                }
                is_stateful: true
              )pb");
}

}  // namespace
}  // namespace sluice
