#include "tools/op_gen/cc_op_gen.h"

#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "tools/op_gen/api_names.h"

namespace sluice {
namespace op_gen {
namespace {

OpList ParseOps(const char* text) {
  OpList ops;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &ops));
  return ops;
}

constexpr char kOps[] = R"pb(
  op {
    name: "MatMul"
    input_arg { name: "a" type_attr: "T" }
    input_arg { name: "b" type_attr: "T" }
    output_arg { name: "product" type_attr: "T" }
    attr {
      name: "transpose_a"
      type: "bool"
      default_value { b: false }
    }
    attr {
      name: "T"
      type: "type"
      allowed_values { list { type: DT_FLOAT } }
    }
  }
  op {
    name: "Split"
    input_arg { name: "split_dim" type: DT_INT32 }
    input_arg { name: "value" type_attr: "T" }
    output_arg { name: "output" type_attr: "T" number_attr: "num_split" }
    attr { name: "num_split" type: "int" has_minimum: true minimum: 1 }
    attr { name: "T" type: "type" }
  }
  op {
    name: "Weird"
    input_arg { name: "default" type: DT_FLOAT }
    input_arg { name: "values" type: DT_FLOAT number_attr: "N" }
    output_arg { name: "operator" type: DT_FLOAT }
    output_arg { name: "rest" type: DT_FLOAT number_attr: "N" }
    attr { name: "N" type: "int" }
    attr {
      name: "list"
      type: "list(int)"
      default_value { list { i: 1 } }
    }
  }
  op { name: "_Internal" }
  op {
    name: "Const"
    output_arg { name: "output" type: DT_FLOAT }
  }
  op {
    name: "Sum"
    input_arg { name: "input" type: DT_FLOAT }
    input_arg { name: "reduction_indices" type: DT_INT32 }
    output_arg { name: "output" type: DT_FLOAT }
  }
  op { name: "Concat" }
  op { name: "Pack" }
)pb";

TEST(CcOpGenTest, SingleOutputOpWithOptionalAttr) {
  GeneratedCode code = GenerateCcOps(ParseOps(kOps), "gen/ops.h");
  const std::string& h = code.header;
  EXPECT_TRUE(absl::StrContains(h, "#ifndef SLUICE_GENERATED_GEN_OPS_H_"));
  EXPECT_TRUE(absl::StrContains(
      h, "MatMul(const ::sluice::Scope& scope, ::sluice::Input a, ::sluice::Input b);"));
  EXPECT_TRUE(absl::StrContains(h, "const MatMul::Attrs& attrs);"));
  EXPECT_TRUE(absl::StrContains(h, "Attrs TransposeA(bool x) const {"));
  EXPECT_TRUE(absl::StrContains(h, "static Attrs TransposeA(bool x) {"));
  EXPECT_TRUE(absl::StrContains(h, "std::optional<bool> transpose_a_;"));
  EXPECT_TRUE(absl::StrContains(h, "operator ::sluice::Output() const { return product; }"));
  EXPECT_TRUE(absl::StrContains(h, "/// * transpose_a: bool, defaults to false"));
  EXPECT_TRUE(absl::StrContains(code.source, "#include \"gen/ops.h\""));
  EXPECT_TRUE(absl::StrContains(code.source, "if (attrs.transpose_a_) builder.Attr("));
}

TEST(CcOpGenTest, ListOutputAndRequiredAttr) {
  GeneratedCode code = GenerateCcOps(ParseOps(kOps), "ops.h");
  EXPECT_TRUE(absl::StrContains(code.header,
                                "Split(const ::sluice::Scope& scope, ::sluice::Input axis, "
                                "::sluice::Input value, int64_t num_split);"));
  EXPECT_TRUE(absl::StrContains(code.header, "::sluice::OutputList output;"));
  EXPECT_TRUE(absl::StrContains(code.header, "::sluice::Output operator[](size_t index)"));
  EXPECT_TRUE(absl::StrContains(code.source, "OutputsOf(scope, ret, \"output\")"));
}

TEST(CcOpGenTest, ReservedNamesAreEscapedAndInferredAttrsHidden) {
  GeneratedCode code = GenerateCcOps(ParseOps(kOps), "ops.h");
  EXPECT_TRUE(
      absl::StrContains(code.header, "::sluice::Input default_, ::sluice::InputList values"));
  EXPECT_TRUE(absl::StrContains(code.header, "::sluice::Output operator_;"));
  EXPECT_TRUE(absl::StrContains(code.header, "::sluice::OutputList rest;"));
  EXPECT_TRUE(absl::StrContains(code.header, "Attrs List(absl::Span<const int> x) const"));
  EXPECT_FALSE(absl::StrContains(code.header, "int64_t N"));
}

TEST(CcOpGenTest, SkipsInternalConstAndHiddenOpsAndAppliesApiNames) {
  GeneratedCode code = GenerateCcOps(ParseOps(kOps), "ops.h");
  EXPECT_FALSE(absl::StrContains(code.header, "_Internal"));
  EXPECT_FALSE(absl::StrContains(code.header, "class Const "));
  EXPECT_FALSE(absl::StrContains(code.header, "class Concat "));
  EXPECT_TRUE(absl::StrContains(code.header, "class Stack {"));
  EXPECT_TRUE(absl::StrContains(code.source, "\"Stack\"), \"Pack\")"));
  EXPECT_TRUE(absl::StrContains(code.header, "using ReduceSum = Sum;"));
  EXPECT_TRUE(absl::StrContains(code.header, "::sluice::Input input, ::sluice::Input axis)"));
}

TEST(CcOpGenTest, OutputIsDeterministic) {
  EXPECT_EQ(GenerateCcOps(ParseOps(kOps), "ops.h").header,
            GenerateCcOps(ParseOps(kOps), "ops.h").header);
}

// The names below are TensorFlow's (its generated tensorflow/cc/ops headers).
TEST(ApiNamesTest, TensorFlowEndpoints) {
  EXPECT_EQ(ApiNamesForOp("TopKV2").class_name, "TopK");
  EXPECT_EQ(ApiNamesForOp("Unpack").class_name, "Unstack");
  EXPECT_EQ(ApiNamesForOp("MatMul").class_name, "MatMul");
  EXPECT_EQ(ApiNamesForOp("VariableV2").class_name, "Variable");
  EXPECT_EQ(ApiNamesForOp("TensorArrayReadV3").class_name, "TensorArrayRead");
  const ApiNames mul = ApiNamesForOp("Mul");
  EXPECT_EQ(mul.class_name, "Multiply");
  EXPECT_EQ(mul.aliases, std::vector<std::string>{"Mul"});
  // Superseded versions whose name a newer version's wrapper took get none.
  EXPECT_FALSE(ApiNamesForOp("Concat").visible);
  EXPECT_FALSE(ApiNamesForOp("Variable").visible);
  EXPECT_TRUE(ApiNamesForOp("ConcatV2").visible);
}

TEST(ApiNamesTest, HiddenOpsAreInternal) {
  EXPECT_TRUE(ApiNamesForOp("ReluGrad").internal);
  EXPECT_TRUE(ApiNamesForOp("BroadcastGradientArgs").internal);
  EXPECT_TRUE(ApiNamesForOp("Enter").internal);
  EXPECT_FALSE(ApiNamesForOp("Relu").internal);
}

TEST(ApiNamesTest, RenamedParamsSettersAndOutputs) {
  const ApiNames select = ApiNamesForOp("Select");
  EXPECT_EQ(select.class_name, "Where3");
  ASSERT_EQ(select.params.size(), 3);
  EXPECT_EQ(select.params[1].graph_name, "t");
  EXPECT_EQ(select.params[1].cpp_name, "x");
  EXPECT_EQ(select.params[2].cpp_name, "y");
  const ApiNames sum = ApiNamesForOp("Sum");
  ASSERT_EQ(sum.params.size(), 2);
  EXPECT_EQ(sum.params[1].graph_name, "reduction_indices");
  EXPECT_EQ(sum.params[1].cpp_name, "axis");
  EXPECT_EQ(sum.setters.at("keep_dims"), "KeepDims");
  EXPECT_EQ(ApiNamesForOp("Squeeze").setters.at("squeeze_dims"), "Axis");
  EXPECT_EQ(ApiNamesForOp("Unique").outputs.at("idx"), "idx");
}

TEST(ApiNamesTest, OpsTensorFlowDoesNotWrapKeepTheirNames) {
  const ApiNames custom = ApiNamesForOp("ZeroOut");
  EXPECT_TRUE(custom.visible);
  EXPECT_FALSE(custom.internal);
  EXPECT_EQ(custom.class_name, "ZeroOut");
  EXPECT_TRUE(custom.params.empty());
}

// Every class TensorFlow records is generated for the op it names, with its names: the
// generator applied to a one-op OpList shows the class, parameters, setters and outputs.
TEST(CcOpGenTest, GeneratesTensorFlowsNames) {
  const char* kSelectAndSqueeze = R"pb(
    op {
      name: "Select"
      input_arg { name: "condition" type: DT_BOOL }
      input_arg { name: "t" type_attr: "T" }
      input_arg { name: "e" type_attr: "T" }
      output_arg { name: "output" type_attr: "T" }
      attr { name: "T" type: "type" }
    }
    op {
      name: "Squeeze"
      input_arg { name: "input" type_attr: "T" }
      output_arg { name: "output" type_attr: "T" }
      attr { name: "T" type: "type" }
      attr {
        name: "squeeze_dims"
        type: "list(int)"
        default_value { list {} }
        has_minimum: true
      }
    }
    op {
      name: "ReluGrad"
      input_arg { name: "gradients" type_attr: "T" }
      input_arg { name: "features" type_attr: "T" }
      output_arg { name: "backprops" type_attr: "T" }
      attr { name: "T" type: "type" }
    }
  )pb";
  GeneratedCode code = GenerateCcOps(ParseOps(kSelectAndSqueeze), "ops.h");
  EXPECT_TRUE(absl::StrContains(
      code.header,
      "Where3(const ::sluice::Scope& scope, ::sluice::Input condition, ::sluice::Input x, "
      "::sluice::Input y);"))
      << code.header;
  EXPECT_TRUE(absl::StrContains(code.source, "\"Where3\"), \"Select\")"));
  EXPECT_FALSE(absl::StrContains(code.header, "class Select "));
  EXPECT_TRUE(absl::StrContains(code.header, "static Attrs Axis(absl::Span<const int> x)"));
  EXPECT_TRUE(absl::StrContains(code.source, "builder.Attr(\"squeeze_dims\""));
  // Hidden ops follow the others, in ops::internal.
  const size_t internal = code.header.find("namespace internal {");
  ASSERT_NE(internal, std::string::npos);
  EXPECT_GT(code.header.find("class ReluGrad {"), internal);
  EXPECT_LT(code.header.find("class Where3 {"), internal);
  EXPECT_TRUE(absl::StrContains(code.source, "namespace internal {"));
}

}  // namespace
}  // namespace op_gen
}  // namespace sluice
