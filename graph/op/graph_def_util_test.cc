#include "graph/op/graph_def_util.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/util/message_differencer.h"
#include "graph/op/op_def_builder.h"
#include "graph/op/op_registry.h"
#include "gtest/gtest.h"
#include "proto/graph.pb.h"

namespace sluice {
namespace {

using ::google::protobuf::util::MessageDifferencer;
using ::testing::HasSubstr;

// A registry of its own, so these tests do not depend on the standard op library.
class GraphDefUtilTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(
        registry_.Register(OpDefBuilder("In").Output("out: dtype").Attr("dtype: type")).ok());
    ASSERT_TRUE(registry_
                    .Register(OpDefBuilder("Mm")
                                  .Input("a: T")
                                  .Input("b: T")
                                  .Output("product: T")
                                  .Attr("transpose_a: bool = false")
                                  .Attr("transpose_b: bool = false")
                                  .Attr("T: {float, double}"))
                    .ok());
  }

  static GraphDef Parse(const std::string& text) {
    GraphDef graph_def;
    EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &graph_def)) << text;
    return graph_def;
  }

  // Two inputs and a product that leaves its defaulted attrs out.
  static GraphDef MatMulGraph(const std::string& product_extra = "") {
    return Parse(absl::StrCat(R"pb(
                                node {
                                  name: "a"
                                  op: "In"
                                  attr {
                                    key: "dtype"
                                    value { type: DT_FLOAT }
                                  }
                                }
                                node {
                                  name: "b"
                                  op: "In"
                                  attr {
                                    key: "dtype"
                                    value { type: DT_FLOAT }
                                  }
                                }
                                node { name: "p" op: "Mm" input: "a" input: "b"
                                       attr {
                                         key: "T"
                                         value { type: DT_FLOAT }
                                       }
                              )pb",
                              product_extra, "}"));
  }

  OpRegistry registry_;
};

TEST_F(GraphDefUtilTest, ValidGraphPassesWithoutBeingChanged) {
  const GraphDef graph_def = MatMulGraph();
  EXPECT_TRUE(ValidateGraphDefAgainstOpRegistry(graph_def, registry_).ok());
  EXPECT_TRUE(MessageDifferencer::Equals(graph_def, MatMulGraph()));
}

TEST_F(GraphDefUtilTest, AddDefaultAttrsFillsMissingAttrs) {
  GraphDef graph_def = MatMulGraph(R"pb(attr {
                                          key: "transpose_b"
                                          value { b: true }
                                        })pb");
  ASSERT_TRUE(AddDefaultAttrsToGraphDef(&graph_def, registry_).ok());
  const auto& attrs = graph_def.node(2).attr();
  ASSERT_EQ(attrs.count("transpose_a"), 1);
  EXPECT_FALSE(attrs.at("transpose_a").b());
  EXPECT_TRUE(attrs.at("transpose_b").b());
  EXPECT_TRUE(ValidateGraphDefAgainstOpRegistry(graph_def, registry_).ok());
}

TEST_F(GraphDefUtilTest, AddDefaultAttrsHonoursOffset) {
  GraphDef graph_def = MatMulGraph();
  graph_def.add_node()->CopyFrom(graph_def.node(2));
  graph_def.mutable_node(3)->set_name("q");
  ASSERT_TRUE(AddDefaultAttrsToGraphDef(&graph_def, registry_, 3).ok());
  EXPECT_EQ(graph_def.node(2).attr().count("transpose_a"), 0);
  EXPECT_EQ(graph_def.node(3).attr().count("transpose_a"), 1);
}

TEST_F(GraphDefUtilTest, AddDefaultAttrsRejectsBadOffset) {
  GraphDef graph_def = MatMulGraph();
  absl::Status status = AddDefaultAttrsToGraphDef(&graph_def, registry_, 4);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("offset 4 with total nodes in graph: 3"));
  EXPECT_EQ(AddDefaultAttrsToGraphDef(&graph_def, registry_, -1).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(AddDefaultAttrsToGraphDef(&graph_def, registry_, 3).ok());
}

TEST_F(GraphDefUtilTest, UnknownOpNamesNodeAndOp) {
  GraphDef graph_def = MatMulGraph();
  graph_def.mutable_node(2)->set_op("Frobnicate");
  for (const absl::Status& status : {ValidateGraphDefAgainstOpRegistry(graph_def, registry_),
                                     AddDefaultAttrsToGraphDef(&graph_def, registry_)}) {
    EXPECT_EQ(status.code(), absl::StatusCode::kNotFound);
    EXPECT_THAT(status.message(), HasSubstr("'Frobnicate'"));
    EXPECT_THAT(status.message(), HasSubstr("{{node p}}"));
  }
}

// A function "scale" of (x: T, y: float) -> (z: T), T defaulting to float, and the graph's
// node "p" calling it by name.
GraphDef FunctionCallGraph(const std::string& call_extra = "") {
  GraphDef graph_def;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(
      absl::StrCat(R"pb(
                     node {
                       name: "a"
                       op: "In"
                       attr {
                         key: "dtype"
                         value { type: DT_FLOAT }
                       }
                     }
                     node { name: "p" op: "scale" input: "a" input: "a")pb",
                   call_extra, R"pb(}
                                    library {
                       function {
                         signature {
                           name: "scale"
                           input_arg { name: "x" type_attr: "T" }
                           input_arg { name: "y" type: DT_FLOAT }
                           output_arg { name: "z" type_attr: "T" }
                           attr {
                             name: "T"
                             type: "type"
                             default_value { type: DT_FLOAT }
                           }
                         }
                         ret { key: "z" value: "x" }
                       }
                     })pb"),
      &graph_def));
  return graph_def;
}

TEST_F(GraphDefUtilTest, LibraryFunctionCallIsCheckedAgainstItsSignature) {
  GraphDef graph_def = FunctionCallGraph();
  EXPECT_TRUE(ValidateGraphDefAgainstOpRegistry(graph_def, registry_).ok());
  // The signature's default attr is filled in like an op's.
  ASSERT_TRUE(AddDefaultAttrsToGraphDef(&graph_def, registry_).ok());
  ASSERT_EQ(graph_def.node(1).attr().count("T"), 1);
  EXPECT_EQ(graph_def.node(1).attr().at("T").type(), DT_FLOAT);
  EXPECT_TRUE(ValidateGraphDefAgainstOpRegistry(graph_def, registry_).ok());
}

TEST_F(GraphDefUtilTest, LibraryFunctionCallWithWrongInputsNamesNodeAndFunction) {
  GraphDef graph_def = FunctionCallGraph();
  graph_def.mutable_node(1)->mutable_input()->RemoveLast();
  absl::Status status = ValidateGraphDefAgainstOpRegistry(graph_def, registry_);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("scale"));
  EXPECT_THAT(status.message(), HasSubstr("{{node p}}"));
  // An attr value the signature's attr does not allow.
  graph_def = FunctionCallGraph(R"pb(attr {
                                       key: "T"
                                       value { i: 3 }
                                     })pb");
  status = ValidateGraphDefAgainstOpRegistry(graph_def, registry_);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("{{node p}}"));
}

TEST_F(GraphDefUtilTest, LibraryFunctionWithMalformedSignatureIsInvalid) {
  GraphDef graph_def = FunctionCallGraph();
  graph_def.mutable_library()->mutable_function(0)->mutable_signature()->mutable_attr()->Clear();
  for (const absl::Status& status : {ValidateGraphDefAgainstOpRegistry(graph_def, registry_),
                                     AddDefaultAttrsToGraphDef(&graph_def, registry_)}) {
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(status.message(), HasSubstr("Function 'scale' has a malformed signature"));
    EXPECT_THAT(status.message(), HasSubstr("{{node p}}"));
  }
}

TEST_F(GraphDefUtilTest, RegisteredOpWinsOverFunctionOfTheSameName) {
  GraphDef graph_def = MatMulGraph();
  graph_def.mutable_library()->add_function()->mutable_signature()->set_name("Mm");
  EXPECT_TRUE(ValidateGraphDefAgainstOpRegistry(graph_def, registry_).ok());
}

TEST(CheckFunctionSignatureTest, ArgsNeedOneTypeSource) {
  OpDef signature;
  signature.set_name("f");
  EXPECT_TRUE(CheckFunctionSignature(signature).ok());
  OpDef::ArgDef* arg = signature.add_input_arg();
  arg->set_name("x");
  EXPECT_THAT(CheckFunctionSignature(signature).message(),
              HasSubstr("argument 'x' needs exactly one of a type"));
  arg->set_type(DT_FLOAT);
  arg->set_type_attr("T");
  EXPECT_EQ(CheckFunctionSignature(signature).code(), absl::StatusCode::kInvalidArgument);
  arg->clear_type();
  EXPECT_THAT(CheckFunctionSignature(signature).message(),
              HasSubstr("names attr 'T', which is not declared"));
  OpDef::AttrDef* attr = signature.add_attr();
  attr->set_name("T");
  attr->set_type("int");
  EXPECT_THAT(CheckFunctionSignature(signature).message(), HasSubstr("of type 'int'"));
  attr->set_type("type");
  EXPECT_TRUE(CheckFunctionSignature(signature).ok());
  arg->set_number_attr("N");
  EXPECT_THAT(CheckFunctionSignature(signature).message(), HasSubstr("names attr 'N'"));
}

TEST(LibraryOpRegistryTest, ResolvesBaseOpsThenFunctions) {
  OpRegistry base;
  ASSERT_TRUE(base.Register(OpDefBuilder("In").Output("out: float")).ok());
  LibraryOpRegistry registry(&base);
  FunctionDefLibrary library;
  library.add_function()->mutable_signature()->set_name("f");
  library.add_function()->mutable_signature()->set_name("In");  // shadowed by the op
  const OpDef* op_def = nullptr;
  EXPECT_EQ(registry.LookUpOpDef("f", &op_def).code(), absl::StatusCode::kNotFound);
  registry.AddFunctions(library);
  EXPECT_TRUE(registry.IsFunction("f"));
  ASSERT_TRUE(registry.LookUpOpDef("f", &op_def).ok());
  EXPECT_EQ(op_def->name(), "f");
  const OpDef* first = op_def;
  ASSERT_TRUE(registry.LookUpOpDef("In", &op_def).ok());
  EXPECT_EQ(op_def->output_arg_size(), 1);  // the op's, not the function's
  // Adding again keeps what was handed out.
  registry.AddFunctions(library);
  ASSERT_TRUE(registry.LookUpOpDef("f", &op_def).ok());
  EXPECT_EQ(op_def, first);
  // RetainOnly forgets the rest; the OpDef handed out stays readable.
  registry.RetainOnly(FunctionDefLibrary());
  EXPECT_FALSE(registry.IsFunction("f"));
  EXPECT_EQ(registry.LookUpOpDef("f", &op_def).code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(first->name(), "f");
}

TEST(LibraryOpRegistryTest, MalformedSignatureIsKnownButInvalid) {
  OpRegistry base;
  LibraryOpRegistry registry(&base);
  FunctionDefLibrary library;
  OpDef* signature = library.add_function()->mutable_signature();
  signature->set_name("g");
  signature->add_output_arg()->set_name("y");
  registry.AddFunctions(library);
  EXPECT_TRUE(registry.IsFunction("g"));
  const OpDef* op_def = nullptr;
  EXPECT_EQ(registry.LookUpOpDef("g", &op_def).code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(GraphDefUtilTest, MissingRequiredAttrNamesNodeAndOp) {
  GraphDef graph_def = MatMulGraph();
  graph_def.mutable_node(2)->mutable_attr()->erase("T");
  absl::Status status = ValidateGraphDefAgainstOpRegistry(graph_def, registry_);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("'T'"));
  EXPECT_THAT(status.message(), HasSubstr("Mm"));
  EXPECT_THAT(status.message(), HasSubstr("{{node p}}"));
}

TEST_F(GraphDefUtilTest, DisallowedTypeNamesNodeAndOp) {
  GraphDef graph_def = MatMulGraph();
  (*graph_def.mutable_node(2)->mutable_attr())["T"].set_type(DT_INT32);
  absl::Status status = ValidateGraphDefAgainstOpRegistry(graph_def, registry_);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("Mm"));
  EXPECT_THAT(status.message(), HasSubstr("{{node p}}"));
}

TEST_F(GraphDefUtilTest, WrongInputCountNamesNodeAndOp) {
  GraphDef graph_def = MatMulGraph();
  graph_def.mutable_node(2)->mutable_input()->RemoveLast();
  absl::Status status = ValidateGraphDefAgainstOpRegistry(graph_def, registry_);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("Mm"));
  EXPECT_THAT(status.message(), HasSubstr("{{node p}}"));
}

TEST_F(GraphDefUtilTest, BadSyntaxNamesNodeAndOp) {
  GraphDef graph_def = MatMulGraph();
  graph_def.mutable_node(2)->set_input(1, "b:not_a_number");
  absl::Status status = ValidateGraphDefAgainstOpRegistry(graph_def, registry_);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("b:not_a_number"));
  EXPECT_THAT(status.message(), HasSubstr("Mm"));
  EXPECT_THAT(status.message(), HasSubstr("{{node p}}"));
}

TEST_F(GraphDefUtilTest, StripUndoesAddDefaults) {
  GraphDef graph_def = MatMulGraph(R"pb(attr {
                                          key: "transpose_b"
                                          value { b: true }
                                        })pb");
  const GraphDef original = graph_def;
  ASSERT_TRUE(AddDefaultAttrsToGraphDef(&graph_def, registry_).ok());
  EXPECT_FALSE(MessageDifferencer::Equals(graph_def, original));
  StripDefaultAttributes(registry_, graph_def.mutable_node());
  EXPECT_TRUE(MessageDifferencer::Equals(graph_def, original));
  EXPECT_TRUE(graph_def.node(2).attr().at("transpose_b").b());
}

TEST_F(GraphDefUtilTest, StripLeavesUnknownOpsAlone) {
  GraphDef graph_def = MatMulGraph(R"pb(attr {
                                          key: "transpose_a"
                                          value { b: false }
                                        })pb");
  graph_def.mutable_node(2)->set_op("Unknown");
  StripDefaultAttributes(registry_, graph_def.mutable_node());
  EXPECT_EQ(graph_def.node(2).attr().count("transpose_a"), 1);
}

TEST(CheckGraphDefVersionsTest, AcceptsTensorFlowGraphs) {
  VersionDef versions;
  EXPECT_TRUE(CheckGraphDefVersions(versions).ok());
  versions.set_producer(kGraphDefVersion);
  EXPECT_TRUE(CheckGraphDefVersions(versions).ok());
  versions.set_producer(kGraphDefVersion + 100);  // A newer TensorFlow, same min consumer.
  versions.add_bad_consumers(kGraphDefVersion - 1);
  EXPECT_TRUE(CheckGraphDefVersions(versions).ok());
}

TEST(CheckGraphDefVersionsTest, ProducerTooOld) {
  VersionDef versions;
  versions.set_producer(-1);
  absl::Status status = CheckGraphDefVersions(versions);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(),
            "GraphDef producer version -1 below min producer 0 supported by Sluice.  Please "
            "regenerate your graph.");
}

TEST(CheckGraphDefVersionsTest, MinConsumerTooNew) {
  VersionDef versions;
  versions.set_min_consumer(kGraphDefVersion + 1);
  absl::Status status = CheckGraphDefVersions(versions);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), absl::StrCat("GraphDef min consumer version ", kGraphDefVersion + 1,
                                           " above current version ", kGraphDefVersion,
                                           " for Sluice.  Please upgrade Sluice."));
}

TEST(CheckGraphDefVersionsTest, BadConsumer) {
  VersionDef versions;
  versions.set_producer(kGraphDefVersion + 1);
  versions.add_bad_consumers(kGraphDefVersion);
  absl::Status status = CheckGraphDefVersions(versions);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), absl::StrCat("GraphDef disallows consumer version ", kGraphDefVersion,
                                           ".  Please upgrade Sluice: this version is likely "
                                           "buggy."));
}

}  // namespace
}  // namespace sluice
