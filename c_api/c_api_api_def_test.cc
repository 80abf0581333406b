// TF_ApiDefMap through the public C functions, against what TensorFlow 2.21's C API returns for
// the same calls (c_api/tools/api_def_reference.py prints those): the ApiDefs an OpList gives,
// api_def text merged into them (multi-line strings, renames, endpoints, arg_order, attr
// defaults, docs), the docs renamed on the first TF_ApiDefMapGet, and every error's code and
// message.
#include <memory>
#include <string>
#include <utility>

#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "proto/api_def.pb.h"
#include "proto/op_def.pb.h"
#include "tensorflow/c/c_api.h"

namespace {

using StatusPtr = std::unique_ptr<TF_Status, decltype(&TF_DeleteStatus)>;

// Add, MatMul and Const from the registry, MatMul with the docs api_def_reference.py gives it.
sluice::OpList TestOps() {
  TF_Buffer* all = TF_GetAllOpList();
  sluice::OpList registered;
  EXPECT_TRUE(registered.ParseFromArray(all->data, static_cast<int>(all->length)));
  TF_DeleteBuffer(all);
  sluice::OpList ops;
  for (const char* name : {"Add", "MatMul", "Const"}) {
    for (const sluice::OpDef& op : registered.op()) {
      if (op.name() == name) *ops.add_op() = op;
    }
  }
  EXPECT_EQ(ops.op_size(), 3);
  sluice::OpDef* matmul = ops.mutable_op(1);
  matmul->mutable_input_arg(0)->set_description("The `a` input, not `b`.");
  matmul->set_summary("Multiply `a` by `b` (MatMul, `MatMul`).");
  matmul->mutable_attr(0)->set_description("Transpose `a`: `transpose_a`.");
  return ops;
}

class ApiDefMapTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string bytes = TestOps().SerializeAsString();
    TF_Buffer* buffer = TF_NewBufferFromString(bytes.data(), bytes.size());
    map_ = TF_NewApiDefMap(buffer, status_.get());
    TF_DeleteBuffer(buffer);
    ASSERT_EQ(TF_GetCode(status_.get()), TF_OK) << TF_Message(status_.get());
  }
  void TearDown() override { TF_DeleteApiDefMap(map_); }

  // The code and message TF_ApiDefMapPut leaves.
  std::pair<TF_Code, std::string> Put(const std::string& text) {
    TF_ApiDefMapPut(map_, text.data(), text.size(), status_.get());
    return {TF_GetCode(status_.get()), TF_Message(status_.get())};
  }

  // The ApiDef TF_ApiDefMapGet returns, in text format.
  std::string Get(const std::string& name) {
    TF_Buffer* buffer = TF_ApiDefMapGet(map_, name.data(), name.size(), status_.get());
    EXPECT_EQ(TF_GetCode(status_.get()), TF_OK) << TF_Message(status_.get());
    if (buffer == nullptr) return "";
    sluice::ApiDef api_def;
    EXPECT_TRUE(api_def.ParseFromArray(buffer->data, static_cast<int>(buffer->length)));
    TF_DeleteBuffer(buffer);
    return api_def.DebugString();
  }

  // `text` (an ApiDef in text format) as DebugString prints it.
  static std::string Canonical(const std::string& text) {
    sluice::ApiDef api_def;
    EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &api_def)) << text;
    return api_def.DebugString();
  }

  StatusPtr status_{TF_NewStatus(), TF_DeleteStatus};
  TF_ApiDefMap* map_ = nullptr;
};

// The texts api_def_reference.py puts, in its order, and what TensorFlow answers to each.
const char kOverrides[] =
    "op {\n  graph_op_name: \"MatMul\"\n  endpoint { name: \"MatrixMultiply\" }\n"
    "  endpoint { name: \"linalg.MatMul\" deprecation_version: 9 }\n"
    "  in_arg { name: \"a\" rename_to: \"x\" }\n"
    "  attr { name: \"transpose_a\" rename_to: \"adj_a\" default_value { b: true } }\n"
    "  description: <<END\nUses `a` and\n`b` \"quoted\" \\ back\ttab.\nEND  # kept\n"
    "  description_prefix: \"PRE\"\n  description_suffix: \"SUF\"\n}\n"
    "op { graph_op_name: \"NotInTheList\" summary: \"skipped\" }\n"
    "op { graph_op_name: \"Add\" visibility: HIDDEN summary: \"new sum\" }\n";

const char kMatMul[] = R"pb(
  graph_op_name: "MatMul"
  visibility: VISIBLE
  endpoint { name: "MatrixMultiply" }
  endpoint { name: "linalg.MatMul" deprecation_version: 9 }
  in_arg { name: "a" rename_to: "x" description: "The `x` input, not `b`." }
  in_arg { name: "b" rename_to: "b" }
  out_arg { name: "product" rename_to: "product" }
  attr {
    name: "transpose_a"
    rename_to: "adj_a"
    default_value { b: true }
    description: "Transpose `x`: `adj_a`."
  }
  attr {
    name: "transpose_b"
    rename_to: "transpose_b"
    default_value { b: false }
  }
  attr { name: "T" rename_to: "T" }
  attr {
    name: "grad_a"
    rename_to: "grad_a"
    default_value { b: false }
  }
  attr {
    name: "grad_b"
    rename_to: "grad_b"
    default_value { b: false }
  }
  summary: "Multiply `x` by `b` (MatMul, `MatrixMultiply`)."
  description: "PRE\nUses `x` and\n`b` \"quoted\" \\ back\ttab.\nSUF"
  arg_order: "a"
  arg_order: "b"
)pb";

// SKIP stays although the ApiDef that set it failed later (TensorFlow merges field by field).
const char kAdd[] = R"pb(
  graph_op_name: "Add"
  visibility: SKIP
  endpoint { name: "Add" }
  in_arg { name: "x" rename_to: "x" }
  in_arg { name: "y" rename_to: "y" }
  out_arg { name: "z" rename_to: "z" }
  attr { name: "T" rename_to: "T" }
  summary: "new sum"
  arg_order: "y"
  arg_order: "x"
)pb";

// Untouched: the put that would have set its summary did not parse, so nothing of it merged.
const char kConst[] = R"pb(
  graph_op_name: "Const"
  visibility: VISIBLE
  endpoint { name: "Const" }
  out_arg { name: "output" rename_to: "output" }
  attr { name: "value" rename_to: "value" }
  attr { name: "dtype" rename_to: "dtype" }
)pb";

TEST_F(ApiDefMapTest, MergesOverridesAndRenamesDocsAsTensorFlow) {
  using Result = std::pair<TF_Code, std::string>;
  EXPECT_EQ(Put(kOverrides), Result(TF_OK, ""));
  EXPECT_EQ(Put("op { graph_op_name: \"Add\" visibility: SKIP in_arg { name: \"zz\" } }"),
            Result(TF_FAILED_PRECONDITION, "Argument zz not defined in base api for Add"));
  EXPECT_EQ(Put("op { graph_op_name: \"Add\" out_arg { name: \"sum\" } }"),
            Result(TF_FAILED_PRECONDITION, "Argument sum not defined in base api for Add"));
  EXPECT_EQ(Put("op { graph_op_name: \"Add\" attr { name: \"U\" } }"),
            Result(TF_FAILED_PRECONDITION, "Attribute U not defined in base api for Add"));
  EXPECT_EQ(Put("op { graph_op_name: \"Add\" arg_order: \"y\" }"),
            Result(TF_FAILED_PRECONDITION, "Invalid number of arguments 1 for Add. Expected: 2"));
  EXPECT_EQ(Put("op { graph_op_name: \"Add\" arg_order: \"y\" arg_order: \"z\" }"),
            Result(TF_FAILED_PRECONDITION,
                   "Invalid arg_order: y, z for Add. All elements in arg_order override must "
                   "match base arg_order: x, y"));
  EXPECT_EQ(Put("op { graph_op_name: \"Add\" arg_order: \"y\" arg_order: \"x\" }"),
            Result(TF_OK, ""));
  // A multi-line string only after a line's first colon.
  EXPECT_EQ(Put("op {\n graph_op_name: \"Const\" description: <<END\nnot after the first "
                "colon\nEND\n}"),
            Result(TF_INVALID_ARGUMENT, "2(38): Expected string, got: <\n"));
  // TensorFlow's message names its package: "tensorflow.ApiDefs".
  EXPECT_EQ(Put("garbage {{{"),
            Result(TF_INVALID_ARGUMENT,
                   "1(9): Message type \"sluice.ApiDefs\" has no field named \"garbage\".\n"));
  EXPECT_EQ(Put("op { graph_op_name: \"Const\" summary: \"one\" }\n"
                "op { graph_op_name: \"Const\" summary: 2x }"),
            Result(TF_INVALID_ARGUMENT,
                   "2(39): Need space between number and identifier.\n"
                   "2(38): Expected string, got: 2\n"));

  EXPECT_EQ(Get("MatMul"), Canonical(kMatMul));
  EXPECT_EQ(Get("Add"), Canonical(kAdd));
  EXPECT_EQ(Get("Const"), Canonical(kConst));
  EXPECT_EQ(Put("op { graph_op_name: \"Add\" }"),
            Result(TF_FAILED_PRECONDITION,
                   "TF_ApiDefMapPut cannot be called after TF_ApiDefMapGet has been called."));
}

TEST_F(ApiDefMapTest, OpNotInTheMapIsNotFound) {
  // TensorFlow dereferences a null pointer here (api_def_reference.py: SIGSEGV).
  EXPECT_EQ(TF_ApiDefMapGet(map_, "NoSuchOp", 8, status_.get()), nullptr);
  EXPECT_EQ(TF_GetCode(status_.get()), TF_NOT_FOUND);
  EXPECT_NE(std::string(TF_Message(status_.get())).find("'NoSuchOp'"), std::string::npos);
}

TEST(ApiDefMapCreationTest, RejectsWhatIsNotAnOpList) {
  StatusPtr status(TF_NewStatus(), TF_DeleteStatus);
  TF_Buffer* garbage = TF_NewBufferFromString("\xff\xff", 2);
  EXPECT_EQ(TF_NewApiDefMap(garbage, status.get()), nullptr);
  EXPECT_EQ(TF_GetCode(status.get()), TF_INVALID_ARGUMENT);
  EXPECT_STREQ(TF_Message(status.get()), "Unparseable OpList");
  TF_DeleteBuffer(garbage);
  EXPECT_EQ(TF_NewApiDefMap(nullptr, status.get()), nullptr);
  EXPECT_EQ(TF_GetCode(status.get()), TF_INVALID_ARGUMENT);
}

// Every op of the registry, as TensorFlow's Go op generator reads them: an ApiDef per op with
// its OpDef's arguments and attrs under their own names.
TEST(ApiDefMapCreationTest, EveryRegisteredOpHasItsApiDef) {
  StatusPtr status(TF_NewStatus(), TF_DeleteStatus);
  TF_Buffer* all = TF_GetAllOpList();
  TF_ApiDefMap* map = TF_NewApiDefMap(all, status.get());
  ASSERT_EQ(TF_GetCode(status.get()), TF_OK);
  sluice::OpList ops;
  ASSERT_TRUE(ops.ParseFromArray(all->data, static_cast<int>(all->length)));
  TF_DeleteBuffer(all);
  ASSERT_GT(ops.op_size(), 0);
  for (const sluice::OpDef& op : ops.op()) {
    TF_Buffer* buffer = TF_ApiDefMapGet(map, op.name().data(), op.name().size(), status.get());
    ASSERT_EQ(TF_GetCode(status.get()), TF_OK) << op.name();
    sluice::ApiDef api_def;
    ASSERT_TRUE(api_def.ParseFromArray(buffer->data, static_cast<int>(buffer->length)));
    TF_DeleteBuffer(buffer);
    EXPECT_EQ(api_def.graph_op_name(), op.name());
    ASSERT_EQ(api_def.endpoint_size(), 1);
    EXPECT_EQ(api_def.endpoint(0).name(), op.name());
    ASSERT_EQ(api_def.in_arg_size(), op.input_arg_size()) << op.name();
    ASSERT_EQ(api_def.arg_order_size(), op.input_arg_size()) << op.name();
    ASSERT_EQ(api_def.attr_size(), op.attr_size()) << op.name();
    for (int i = 0; i < op.attr_size(); ++i) {
      EXPECT_EQ(api_def.attr(i).name(), op.attr(i).name());
      EXPECT_EQ(api_def.attr(i).has_default_value(), op.attr(i).has_default_value());
    }
  }
  TF_DeleteApiDefMap(map);
}

}  // namespace
