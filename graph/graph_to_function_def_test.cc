// GraphToFunctionDef's rules on graphs built from text: names (normalized args, per-name
// counters, body names left as they are), inputs in function form, devices, _Retval outputs,
// malformed graphs; and FunctionDefHash against a name TensorFlow 2.21 gave. The FunctionDefs
// expected here are TensorFlow's for the same graphs (c_api/tools/graph_to_function_reference.py
// builds graphs this way); c_api_functions_test checks many more through the C API.
#include "graph/graph_to_function_def.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/util/message_differencer.h"
#include "graph/function_def_hash.h"
#include "graph/import/graph_testutil.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

class GraphToFunctionDefTest : public ::testing::Test {
 protected:
  void Build(const std::string& text) {
    const absl::Status s = GraphFromTextForTest(text, &g_);
    ASSERT_TRUE(s.ok()) << s;
  }
  const Node* N(const std::string& name) const { return g_.FindNodeByName(name); }

  void ExpectFunction(const GraphToFunctionDefSpec& spec, const std::string& expected) {
    FunctionDef got;
    const absl::Status s = GraphToFunctionDef(spec, &got);
    ASSERT_TRUE(s.ok()) << s;
    FunctionDef want;
    ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(expected, &want));
    EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(got, want))
        << "got:\n"
        << got.DebugString() << "want:\n"
        << want.DebugString();
  }

  Graph g_{OpRegistry::Global()};
};

TEST(NormalizeArgNameTest, AsTensorFlow) {
  EXPECT_EQ(NormalizeArgName("Feed-A/x"), "feed_a_x");
  EXPECT_EQ(NormalizeArgName("1mul"), "mul");
  EXPECT_EQ(NormalizeArgName("_9a.B"), "a_b");
  EXPECT_EQ(NormalizeArgName(".9"), "unknown");
  EXPECT_EQ(NormalizeArgName(""), "unknown");
  EXPECT_EQ(NormalizeArgName("x>y"), "x_y");
}

// X -> x (Identity) -> x_1 (Identity, after x) -> y (Identity, after b and a).
constexpr char kChain[] = R"pb(
  node {
    name: "X"
    op: "Placeholder"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
  }
  node {
    name: "x"
    op: "Identity"
    input: "X"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
  node {
    name: "x_1"
    op: "Identity"
    input: "x"
    input: "^x"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
  node { name: "b" op: "NoOp" }
  node { name: "a" op: "NoOp" }
  node {
    name: "y"
    op: "Identity"
    input: "x_1"
    input: "^b"
    input: "^a"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  })pb";

TEST_F(GraphToFunctionDefTest, NamesCountOnPerBaseNameAsTensorFlow) {
  Build(kChain);
  GraphToFunctionDefSpec spec;
  spec.name = "u";
  spec.body = {N("x"), N("x_1"), N("b"), N("a"), N("y")};
  spec.inputs = {{N("X"), 0}};
  spec.outputs = {{N("x_1"), 0}, {N("x"), 0}};
  // Outputs "x_1" and "x" first; input X then takes x_0 (x's counter moves to 1); body node x
  // tries x_1 (taken) and gets x_2; x_1 gets x_1_0. Control inputs are sorted by name.
  ExpectFunction(spec, R"pb(
    signature {
      name: "u"
      input_arg { name: "x_0" type: DT_FLOAT }
      output_arg { name: "x_1" type: DT_FLOAT }
      output_arg { name: "x" type: DT_FLOAT }
    }
    node_def {
      name: "x_2"
      op: "Identity"
      input: "x_0"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
    }
    node_def {
      name: "x_1_0"
      op: "Identity"
      input: "x_2:output:0"
      input: "^x_2"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
    }
    node_def { name: "b" op: "NoOp" }
    node_def { name: "a" op: "NoOp" }
    node_def {
      name: "y"
      op: "Identity"
      input: "x_1_0:output:0"
      input: "^a"
      input: "^b"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
    }
    ret { key: "x" value: "x_2:output:0" }
    ret { key: "x_1" value: "x_1_0:output:0" }
    arg_attr {
      value {
        attr {
          key: "_output_shapes"
          value { list { shape { unknown_rank: true } } }
        }
      }
    }
  )pb");

  // Given output names are taken as they are; "X" and "x" differ.
  spec.output_names = {"x_0", "X"};
  spec.outputs = {{N("x_1"), 0}, {N("y"), 0}};
  FunctionDef fdef;
  ASSERT_TRUE(GraphToFunctionDef(spec, &fdef).ok());
  EXPECT_EQ(fdef.signature().input_arg(0).name(), "x");
  EXPECT_EQ(fdef.node_def(0).name(), "x_1");
  EXPECT_EQ(fdef.node_def(1).name(), "x_1_0");
  EXPECT_EQ(fdef.ret().at("x_0"), "x_1_0:output:0");
  EXPECT_EQ(fdef.ret().at("X"), "y:output:0");
}

TEST_F(GraphToFunctionDefTest, AssignedDeviceDescriptionAndDebugInfo) {
  Build(R"pb(
    node {
      name: "X"
      op: "Placeholder"
      attr {
        key: "dtype"
        value { type: DT_FLOAT }
      }
    }
    node {
      name: "x"
      op: "Identity"
      input: "X"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
      experimental_debug_info {
        original_node_names: [ "b", "a", "b" ]
        original_func_names: "f"
      }
    })pb");
  g_.FindNodeByName("x")->set_assigned_device_name("/job:localhost/replica:0/task:0/device:CPU:0");
  GraphToFunctionDefSpec spec;
  spec.name = "d";
  spec.body = {N("x")};
  spec.inputs = {{N("X"), 0}};
  spec.outputs = {{N("x"), 0}};
  spec.description = "one identity";
  FunctionDef fdef;
  ASSERT_TRUE(GraphToFunctionDef(spec, &fdef).ok());
  EXPECT_EQ(fdef.signature().description(), "one identity");
  EXPECT_EQ(fdef.node_def(0).device(), "/job:localhost/replica:0/task:0/device:CPU:0");
  EXPECT_FALSE(fdef.signature().is_stateful());
  const NodeDef::ExperimentalDebugInfo& got = fdef.node_def(0).experimental_debug_info();
  EXPECT_EQ(
      std::vector<std::string>(got.original_node_names().begin(), got.original_node_names().end()),
      (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(got.original_func_names_size(), 1);
}

TEST_F(GraphToFunctionDefTest, RetvalOutputReturnsItsInput) {
  Build(std::string(kChain) + R"pb(
    node {
      name: "out"
      op: "_Retval"
      input: "x"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
      attr {
        key: "index"
        value { i: 0 }
      }
    })pb");
  GraphToFunctionDefSpec spec;
  spec.name = "r";
  spec.body = {N("x")};
  spec.inputs = {{N("X"), 0}};
  spec.outputs = {{N("out"), 0}};
  FunctionDef fdef;
  ASSERT_TRUE(GraphToFunctionDef(spec, &fdef).ok());
  ASSERT_EQ(fdef.signature().output_arg_size(), 1);
  EXPECT_EQ(fdef.signature().output_arg(0).type(), DT_FLOAT);
  EXPECT_EQ(fdef.ret().at("out"), "x_0:output:0");
}

TEST_F(GraphToFunctionDefTest, MissingInputEdgeIsMalformed) {
  NodeDef mul;
  mul.set_name("m");
  mul.set_op("Mul");
  (*mul.mutable_attr())["T"].set_type(DT_FLOAT);
  absl::StatusOr<Node*> m = g_.AddNode(mul);
  ASSERT_TRUE(m.ok()) << m.status();
  GraphToFunctionDefSpec spec;
  spec.name = "bad";
  spec.body = {*m};
  spec.outputs = {{*m, 0}};
  FunctionDef fdef;
  const absl::Status s = GraphToFunctionDef(spec, &fdef);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(),
            "Graph to be converted to function appears to be malformed. Node m is missing input "
            "edge 0");
}

TEST_F(GraphToFunctionDefTest, PlaceholderAttrsBecomeFunctionAttrs) {
  NodeDef assert_def;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(R"pb(
                                                              name: "check"
                                                              op: "Assert"
                                                              attr {
                                                                key: "T"
                                                                value { list {} }
                                                              }
                                                              attr {
                                                                key: "summarize"
                                                                value { placeholder: "n" }
                                                              }
                                                            )pb",
                                                            &assert_def));
  absl::StatusOr<Node*> check = g_.AddNode(assert_def);
  ASSERT_TRUE(check.ok()) << check.status();
  NodeDef ok_def;
  ok_def.set_name("ok");
  ok_def.set_op("Placeholder");
  (*ok_def.mutable_attr())["dtype"].set_type(DT_BOOL);
  absl::StatusOr<Node*> ok = g_.AddNode(ok_def);
  ASSERT_TRUE(ok.ok()) << ok.status();
  g_.AddEdge(*ok, 0, *check, 0);
  GraphToFunctionDefSpec spec;
  spec.name = "p";
  spec.body = {*check};
  spec.inputs = {{*ok, 0}};
  FunctionDef fdef;
  ASSERT_TRUE(GraphToFunctionDef(spec, &fdef).ok());
  ASSERT_EQ(fdef.signature().attr_size(), 1);
  EXPECT_EQ(fdef.signature().attr(0).name(), "n");
  EXPECT_EQ(fdef.signature().attr(0).type(), "int");
  EXPECT_TRUE(fdef.signature().is_stateful());

  // A placeholder for an attr the op does not declare.
  AttrValue placeholder;
  placeholder.set_placeholder("e");
  (*check)->AddAttr("extra", placeholder);
  const absl::Status s = GraphToFunctionDef(spec, &fdef);
  EXPECT_EQ(s.code(), absl::StatusCode::kUnimplemented) << s;
  EXPECT_EQ(s.message().rfind("Placeholder value is not supported for attributes not in OpDef. "
                              "Attribute: extra, OpDef: ",
                              0),
            0u)
      << s;
}

TEST_F(GraphToFunctionDefTest, BadSpecsAreErrorsNotCrashes) {
  Build(kChain);
  GraphToFunctionDefSpec spec;
  spec.name = "bad";
  spec.outputs = {{N("x"), 1}};
  FunctionDef fdef;
  absl::Status s = GraphToFunctionDef(spec, &fdef);
  EXPECT_EQ(s.code(), absl::StatusCode::kOutOfRange) << s;
  spec.outputs = {{nullptr, 0}};
  EXPECT_EQ(GraphToFunctionDef(spec, &fdef).code(), absl::StatusCode::kInvalidArgument);
  spec.outputs = {{N("x"), 0}};
  spec.output_names = {"a", "b"};
  EXPECT_EQ(GraphToFunctionDef(spec, &fdef).code(), absl::StatusCode::kInvalidArgument);
  spec.output_names.clear();
  spec.body = {nullptr};
  EXPECT_EQ(GraphToFunctionDef(spec, &fdef).code(), absl::StatusCode::kInvalidArgument);
  spec.body = {N("x")};
  spec.inputs = {{N("X"), 0}};
  spec.control_outputs = {N("x")};
  spec.control_output_names = {"c1", "c2"};
  s = GraphToFunctionDef(spec, &fdef);
  EXPECT_EQ(s.message(),
            "Expected number of control outputs (1) and the number of control output names (2) "
            "to match but they do not.");
  spec.control_output_names = {""};
  s = GraphToFunctionDef(spec, &fdef);
  EXPECT_EQ(s.message(), "Control output name must be not empty");
}

// The FunctionDef TensorFlow 2.21 made of c_api_functions_test's "basic" graph, named
// basic_Is2GZQrA0o0 when asked to append its hash; the hash is taken before the name is set.
constexpr char kBasicUnnamed[] = R"pb(
  signature {
    input_arg { name: "feed_a_x" type: DT_FLOAT }
    input_arg { name: "b" type: DT_FLOAT }
    output_arg { name: "mul" type: DT_FLOAT }
    output_arg { name: "add" type: DT_FLOAT }
  }
  node_def {
    name: "Add"
    op: "AddV2"
    input: "feed_a_x"
    input: "b"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
  node_def { name: "z_init" op: "NoOp" }
  node_def {
    name: "1mul"
    op: "Mul"
    input: "Add:z:0"
    input: "feed_a_x"
    input: "^z_init"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
  ret { key: "add" value: "Add:z:0" }
  ret { key: "mul" value: "1mul:z:0" }
  arg_attr {
    value {
      attr {
        key: "_output_shapes"
        value { list { shape { dim { size: 2 } } } }
      }
    }
  }
)pb";

std::string EncodedHash(const FunctionDef& fdef) {
  const uint64_t hash = tf_hash::FunctionDefHash(fdef);
  std::string bytes;
  for (int i = 0; i < 8; ++i) bytes.push_back(static_cast<char>((hash >> (8 * i)) & 0xff));
  std::string encoded;
  absl::WebSafeBase64Escape(bytes, &encoded);
  std::replace(encoded.begin(), encoded.end(), '-', 'a');
  std::replace(encoded.begin(), encoded.end(), '_', 'A');
  return encoded;
}

TEST(FunctionDefHashTest, AsTensorFlow) {
  FunctionDef fdef;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(kBasicUnnamed, &fdef));
  EXPECT_EQ(EncodedHash(fdef), "Is2GZQrA0o0");
  // arg_attr, internal node attrs, the order of nodes and of control inputs take no part; a
  // data input's place does.
  FunctionDef same = fdef;
  same.clear_arg_attr();
  (*same.mutable_node_def(0)->mutable_attr())["_class"].set_s("loc:@b");
  same.mutable_node_def()->SwapElements(0, 2);
  EXPECT_EQ(tf_hash::FunctionDefHash(same), tf_hash::FunctionDefHash(fdef));
  FunctionDef swapped = fdef;
  swapped.mutable_node_def(0)->mutable_input()->SwapElements(0, 1);
  EXPECT_NE(tf_hash::FunctionDefHash(swapped), tf_hash::FunctionDefHash(fdef));
}

TEST(FunctionDefHashTest, TensorsHashByValue) {
  // int_val and tensor_content encodings of one tensor hash alike.
  FunctionDef a;
  ASSERT_TRUE(
      google::protobuf::TextFormat::ParseFromString(R"pb(
                                                      node_def {
                                                        name: "c"
                                                        op: "Const"
                                                        attr {
                                                          key: "value"
                                                          value {
                                                            tensor {
                                                              dtype: DT_INT32
                                                              tensor_shape { dim { size: 2 } }
                                                              int_val: 7
                                                            }
                                                          }
                                                        }
                                                      }
                                                    )pb",
                                                    &a));
  FunctionDef b = a;
  TensorProto* t = (*b.mutable_node_def(0)->mutable_attr())["value"].mutable_tensor();
  t->clear_int_val();
  const char content[] = {7, 0, 0, 0, 7, 0, 0, 0};
  t->set_tensor_content(std::string(content, sizeof(content)));
  EXPECT_EQ(tf_hash::FunctionDefHash(a), tf_hash::FunctionDefHash(b));
  t->set_tensor_content(std::string(content, 4) + std::string("\x08\0\0\0", 4));
  EXPECT_NE(tf_hash::FunctionDefHash(a), tf_hash::FunctionDefHash(b));
}

}  // namespace
}  // namespace sluice
