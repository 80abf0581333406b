#include "graph/import/function_body.h"

#include <string>

#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "graph/op/op_registry.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// f(x: T) -> (y: T): y = Mul(x, Const 2) with T a placeholder attr.
constexpr char kScale[] = R"pb(
  signature {
    name: "scale"
    input_arg { name: "x" type_attr: "T" }
    output_arg { name: "y" type_attr: "T" }
    attr { name: "T" type: "type" }
  }
  node_def {
    name: "two"
    op: "Const"
    attr {
      key: "dtype"
      value { placeholder: "T" }
    }
    attr {
      key: "value"
      value {
        tensor {
          dtype: DT_FLOAT
          tensor_shape {}
          float_val: 2
        }
      }
    }
  }
  node_def {
    name: "mul"
    op: "Mul"
    input: "x"
    input: "two:output:0"
    attr {
      key: "T"
      value { placeholder: "T" }
    }
  }
  ret { key: "y" value: "mul:z:0" }
)pb";

FunctionDef Parse(const char* text) {
  FunctionDef fdef;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &fdef));
  return fdef;
}

TEST(FunctionBodyTest, TranslatesNamesAndSubstitutesPlaceholders) {
  const FunctionDef fdef = Parse(kScale);
  AttrValueMap attrs;
  attrs["T"].set_type(DT_FLOAT);
  FunctionBody body;
  const absl::Status s =
      InstantiateFunctionBody(fdef, attrs, FunctionDefLibrary(), *OpRegistry::Global(), &body);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_THAT(body.arg_nodes, ElementsAre("x"));
  EXPECT_THAT(body.rets, ElementsAre("mul:0"));
  ASSERT_EQ(body.graph.node_size(), 3);
  EXPECT_EQ(body.graph.node(0).op(), "_Arg");
  const NodeDef& mul = body.graph.node(2);
  EXPECT_THAT(mul.input(), ElementsAre("x", "two:0"));
  EXPECT_EQ(mul.attr().at("T").type(), DT_FLOAT);
  EXPECT_EQ(body.graph.node(1).attr().at("dtype").type(), DT_FLOAT);
}

TEST(FunctionBodyTest, AMissingPlaceholderValueIsAnError) {
  FunctionBody body;
  const absl::Status s = InstantiateFunctionBody(
      Parse(kScale), AttrValueMap(), FunctionDefLibrary(), *OpRegistry::Global(), &body);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("'scale'"));
}

TEST(FunctionBodyTest, AnInputNamingNoTensorIsAnError) {
  FunctionDef fdef = Parse(kScale);
  fdef.mutable_node_def(1)->set_input(1, "two:nonexistent:0");
  AttrValueMap attrs;
  attrs["T"].set_type(DT_FLOAT);
  FunctionBody body;
  const absl::Status s =
      InstantiateFunctionBody(fdef, attrs, FunctionDefLibrary(), *OpRegistry::Global(), &body);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("two:nonexistent:0"));
}

// A body node whose op is another function's name takes that function's signature: its
// outputs are named by the signature's output args.
TEST(FunctionBodyTest, ABodyNodeMayCallAFunctionByName) {
  FunctionDefLibrary library;
  *library.add_function() = Parse(kScale);
  const FunctionDef outer = Parse(R"pb(
    signature {
      name: "outer"
      input_arg { name: "a" type: DT_FLOAT }
      output_arg { name: "b" type: DT_FLOAT }
    }
    node_def {
      name: "inner"
      op: "scale"
      input: "a"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
    }
    ret { key: "b" value: "inner:y:0" }
  )pb");
  FunctionBody body;
  absl::Status s =
      InstantiateFunctionBody(outer, AttrValueMap(), library, *OpRegistry::Global(), &body);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_THAT(body.rets, ElementsAre("inner:0"));
  ASSERT_EQ(body.graph.node_size(), 2);
  EXPECT_EQ(body.graph.node(1).op(), "scale");
  EXPECT_THAT(body.graph.node(1).input(), ElementsAre("a"));
  // Without the library the op is unknown, and the error says where.
  s = InstantiateFunctionBody(outer, AttrValueMap(), FunctionDefLibrary(), *OpRegistry::Global(),
                              &body);
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(s.message()), HasSubstr("Function 'outer', node 'inner'"));
}

}  // namespace
}  // namespace sluice
