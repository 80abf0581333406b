// Functions through the public C functions: TF_GraphToFunction and
// TF_GraphToFunctionWithControlOutputs against the FunctionDefs, hashed names and errors
// TensorFlow 2.21 gives for the same graphs (recorded by
// c_api/tools/graph_to_function_reference.py, which builds each graph below the same way),
// the functions called in sessions (by name, PartitionedCall, StatefulPartitionedCall, nested),
// and the round trips of a TF_Function through FunctionDef bytes and a graph's library.
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "google/protobuf/text_format.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "proto/function.pb.h"
#include "proto/graph.pb.h"
#include "tensorflow/c/c_api.h"
#include "tensorflow/c/tf_tstring.h"

namespace {

struct StatusDeleter {
  void operator()(TF_Status* s) const { TF_DeleteStatus(s); }
};
struct GraphDeleter {
  void operator()(TF_Graph* g) const { TF_DeleteGraph(g); }
};
struct FunctionDeleter {
  void operator()(TF_Function* f) const { TF_DeleteFunction(f); }
};
struct TensorDeleter {
  void operator()(TF_Tensor* t) const { TF_DeleteTensor(t); }
};
using StatusPtr = std::unique_ptr<TF_Status, StatusDeleter>;
using GraphPtr = std::unique_ptr<TF_Graph, GraphDeleter>;
using FunctionPtr = std::unique_ptr<TF_Function, FunctionDeleter>;
using TensorPtr = std::unique_ptr<TF_Tensor, TensorDeleter>;

std::string Message(const TF_Status* s) { return TF_Message(s); }

TensorPtr FloatTensor(const std::vector<int64_t>& dims, const std::vector<float>& values) {
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, dims.data(), static_cast<int>(dims.size()),
                                   values.size() * sizeof(float));
  if (!values.empty()) std::memcpy(TF_TensorData(t), values.data(), values.size() * sizeof(float));
  return TensorPtr(t);
}

TensorPtr Int32Tensor(const std::vector<int64_t>& dims, const std::vector<int32_t>& values) {
  TF_Tensor* t = TF_AllocateTensor(TF_INT32, dims.data(), static_cast<int>(dims.size()),
                                   values.size() * sizeof(int32_t));
  if (!values.empty()) {
    std::memcpy(TF_TensorData(t), values.data(), values.size() * sizeof(int32_t));
  }
  return TensorPtr(t);
}

TensorPtr ScalarTensor(TF_DataType type, const void* value, size_t size) {
  TF_Tensor* t = TF_AllocateTensor(type, nullptr, 0, size);
  std::memcpy(TF_TensorData(t), value, size);
  return TensorPtr(t);
}

TensorPtr StringVector(const std::vector<std::string>& values) {
  const int64_t dims[] = {static_cast<int64_t>(values.size())};
  TF_Tensor* t = TF_AllocateTensor(TF_STRING, dims, 1, values.size() * sizeof(TF_TString));
  auto* strings = static_cast<TF_TString*>(TF_TensorData(t));
  for (size_t i = 0; i < values.size(); ++i) {
    TF_StringInit(&strings[i]);
    TF_StringCopy(&strings[i], values[i].data(), values[i].size());
  }
  return TensorPtr(t);
}

std::vector<float> Floats(const TF_Tensor* t) {
  const auto* data = static_cast<const float*>(TF_TensorData(t));
  return std::vector<float>(data, data + TF_TensorElementCount(t));
}

std::vector<int32_t> Int32s(const TF_Tensor* t) {
  const auto* data = static_cast<const int32_t*>(TF_TensorData(t));
  return std::vector<int32_t>(data, data + TF_TensorElementCount(t));
}

// Builds graphs through TF_NewOperation, as graph_to_function_reference.py does.
class Builder {
 public:
  Builder() : graph_(TF_NewGraph()), status_(TF_NewStatus()) {}

  TF_Graph* graph() const { return graph_.get(); }

  // `inputs` are single inputs; `lists` (if any) are added as input lists after them.
  TF_Operation* Op(const char* type, const char* name, const std::vector<TF_Output>& inputs,
                   const std::vector<TF_Operation*>& control = {},
                   const std::function<void(TF_OperationDescription*)>& attrs = nullptr,
                   const std::vector<std::vector<TF_Output>>& lists = {}) {
    TF_OperationDescription* desc = TF_NewOperation(graph(), type, name);
    for (const TF_Output& input : inputs) TF_AddInput(desc, input);
    for (const std::vector<TF_Output>& list : lists) {
      TF_AddInputList(desc, list.data(), static_cast<int>(list.size()));
    }
    for (TF_Operation* c : control) TF_AddControlInput(desc, c);
    if (attrs) attrs(desc);
    TF_Operation* op = TF_FinishOperation(desc, status_.get());
    EXPECT_EQ(TF_GetCode(status_.get()), TF_OK) << name << ": " << Message(status_.get());
    return op;
  }

  // A Placeholder; `dims` null for no shape attr.
  TF_Operation* Placeholder(const char* name, TF_DataType type,
                            const std::vector<int64_t>* dims = nullptr,
                            const std::function<void(TF_OperationDescription*)>& more = nullptr) {
    return Op("Placeholder", name, {}, {}, [&](TF_OperationDescription* desc) {
      TF_SetAttrType(desc, "dtype", type);
      if (dims != nullptr) {
        TF_SetAttrShape(desc, "shape", dims->data(), static_cast<int>(dims->size()));
      }
      if (more) more(desc);
    });
  }

  TF_Operation* Const(const char* name, TensorPtr value) {
    return Op("Const", name, {}, {}, [&](TF_OperationDescription* desc) {
      TF_SetAttrType(desc, "dtype", TF_TensorType(value.get()));
      TF_SetAttrTensor(desc, "value", value.get(), status_.get());
    });
  }

 private:
  GraphPtr graph_;
  StatusPtr status_;
};

struct FunctionArgs {
  const char* name = "f";
  bool append_hash = false;
  // Null for num_opers == -1.
  const std::vector<TF_Operation*>* body = nullptr;
  std::vector<TF_Output> inputs;
  std::vector<TF_Output> outputs;
  std::vector<const char*> output_names;
  std::vector<TF_Operation*> control_outputs;
  std::vector<const char*> control_output_names;
  const char* description = nullptr;
};

FunctionPtr ToFunction(TF_Graph* graph, const FunctionArgs& args, TF_Status* status) {
  std::vector<const TF_Operation*> body;
  if (args.body != nullptr) body.assign(args.body->begin(), args.body->end());
  std::vector<const TF_Operation*> controls(args.control_outputs.begin(),
                                            args.control_outputs.end());
  return FunctionPtr(TF_GraphToFunctionWithControlOutputs(
      graph, args.name, args.append_hash, args.body == nullptr ? -1 : static_cast<int>(body.size()),
      body.data(), static_cast<int>(args.inputs.size()), args.inputs.data(),
      static_cast<int>(args.outputs.size()), args.outputs.data(),
      args.output_names.empty() ? nullptr : args.output_names.data(),
      static_cast<int>(controls.size()), controls.data(),
      args.control_output_names.empty() ? nullptr : args.control_output_names.data(), nullptr,
      args.description, status));
}

sluice::FunctionDef FunctionDefOf(TF_Function* func) {
  StatusPtr s(TF_NewStatus());
  TF_Buffer* buffer = TF_NewBuffer();
  TF_FunctionToFunctionDef(func, buffer, s.get());
  EXPECT_EQ(TF_GetCode(s.get()), TF_OK) << Message(s.get());
  sluice::FunctionDef fdef;
  EXPECT_TRUE(fdef.ParseFromArray(buffer->data, static_cast<int>(buffer->length)));
  TF_DeleteBuffer(buffer);
  return fdef;
}

// The function `args` makes of `graph` equals the text-format FunctionDef `expected`.
void ExpectFunction(TF_Graph* graph, const FunctionArgs& args, const std::string& expected) {
  StatusPtr s(TF_NewStatus());
  FunctionPtr func = ToFunction(graph, args, s.get());
  ASSERT_EQ(TF_GetCode(s.get()), TF_OK) << Message(s.get());
  ASSERT_NE(func, nullptr);
  sluice::FunctionDef want;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(expected, &want));
  const sluice::FunctionDef got = FunctionDefOf(func.get());
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(got, want))
      << "got:\n"
      << got.DebugString() << "want:\n"
      << want.DebugString();
}

// The name of the function `args` (with append_hash set) makes of `graph`.
std::string HashedName(TF_Graph* graph, FunctionArgs args) {
  StatusPtr s(TF_NewStatus());
  args.append_hash = true;
  FunctionPtr func = ToFunction(graph, args, s.get());
  EXPECT_EQ(TF_GetCode(s.get()), TF_OK) << Message(s.get());
  return func == nullptr ? "" : TF_FunctionName(func.get());
}

void ExpectError(TF_Graph* graph, const FunctionArgs& args, TF_Code code,
                 const std::string& message) {
  StatusPtr s(TF_NewStatus());
  FunctionPtr func = ToFunction(graph, args, s.get());
  EXPECT_EQ(func, nullptr);
  EXPECT_EQ(TF_GetCode(s.get()), code) << Message(s.get());
  EXPECT_EQ(Message(s.get()), message);
}

// Runs `fetches` of `graph` in a new session; an empty vector (and `error` set) on failure.
std::vector<TensorPtr> RunGraph(TF_Graph* graph, const std::vector<TF_Output>& feeds,
                                const std::vector<TF_Tensor*>& values,
                                const std::vector<TF_Output>& fetches,
                                std::string* error = nullptr) {
  StatusPtr s(TF_NewStatus());
  TF_SessionOptions* options = TF_NewSessionOptions();
  TF_Session* session = TF_NewSession(graph, options, s.get());
  TF_DeleteSessionOptions(options);
  EXPECT_EQ(TF_GetCode(s.get()), TF_OK) << Message(s.get());
  std::vector<TF_Tensor*> outputs(fetches.size(), nullptr);
  TF_SessionRun(session, nullptr, feeds.data(), values.data(), static_cast<int>(feeds.size()),
                fetches.data(), outputs.data(), static_cast<int>(fetches.size()), nullptr, 0,
                nullptr, s.get());
  std::vector<TensorPtr> result;
  if (TF_GetCode(s.get()) == TF_OK) {
    for (TF_Tensor* t : outputs) result.emplace_back(t);
  } else if (error != nullptr) {
    *error = Message(s.get());
  } else {
    ADD_FAILURE() << Message(s.get());
  }
  StatusPtr close(TF_NewStatus());
  TF_CloseSession(session, close.get());
  TF_DeleteSession(session, close.get());
  return result;
}

// ---- The graphs of graph_to_function_reference.py -----------------------------------------

// Placeholders "Feed-A/x" (shape [2]) and "b"; Add = a + b; 1mul = Add * a after z_init.
struct BasicGraph {
  Builder b;
  TF_Operation* a;
  TF_Operation* bb;
  TF_Operation* add;
  TF_Operation* init;
  TF_Operation* mul;

  BasicGraph() {
    const std::vector<int64_t> dims = {2};
    a = b.Placeholder("Feed-A/x", TF_FLOAT, &dims);
    bb = b.Placeholder("b", TF_FLOAT);
    add = b.Op("AddV2", "Add", {{a, 0}, {bb, 0}});
    init = b.Op("NoOp", "z_init", {});
    mul = b.Op("Mul", "1mul", {{add, 0}, {a, 0}}, {init});
  }

  FunctionArgs Args() const {
    FunctionArgs args;
    args.name = "basic";
    args.inputs = {{a, 0}, {bb, 0}};
    args.outputs = {{mul, 0}, {add, 0}};
    return args;
  }
};

constexpr char kBasic[] = R"pb(
  signature {
    name: "basic"
    input_arg { name: "feed_a_x" type: DT_FLOAT }
    input_arg { name: "b" type: DT_FLOAT }
    output_arg { name: "mul" type: DT_FLOAT }
    output_arg { name: "add" type: DT_FLOAT }
    description: "adds then multiplies"
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
  arg_attr {
    key: 1
    value {
      attr {
        key: "_output_shapes"
        value { list { shape { unknown_rank: true } } }
      }
    }
  }
)pb";

TEST(GraphToFunctionTest, BasicAsTensorFlow) {
  BasicGraph g;
  FunctionArgs args = g.Args();
  args.description = "adds then multiplies";
  ExpectFunction(g.b.graph(), args, kBasic);
  EXPECT_EQ(HashedName(g.b.graph(), g.Args()), "basic_Is2GZQrA0o0");
  // TF_GraphToFunction is the same without control outputs.
  StatusPtr s(TF_NewStatus());
  const TF_Output inputs[] = {{g.a, 0}, {g.bb, 0}};
  const TF_Output outputs[] = {{g.mul, 0}, {g.add, 0}};
  FunctionPtr func(TF_GraphToFunction(g.b.graph(), "basic", 0, -1, nullptr, 2, inputs, 2, outputs,
                                      nullptr, nullptr, "adds then multiplies", s.get()));
  ASSERT_EQ(TF_GetCode(s.get()), TF_OK) << Message(s.get());
  sluice::FunctionDef want;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(kBasic, &want));
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(FunctionDefOf(func.get()), want));
  EXPECT_STREQ(TF_FunctionName(func.get()), "basic");
}

TEST(GraphToFunctionTest, BasicErrorsAsTensorFlow) {
  BasicGraph g;
  FunctionArgs args = g.Args();
  args.output_names = {"x", "x"};
  ExpectError(g.b.graph(), args, TF_INVALID_ARGUMENT,
              "Cannot have duplicate output names. Name 'x' appears more than once in "
              "'output_names' array.");

  const std::vector<TF_Operation*> only_mul = {g.mul};
  args = g.Args();
  args.body = &only_mul;
  args.outputs = {{g.mul, 0}};
  ExpectError(g.b.graph(), args, TF_INVALID_ARGUMENT,
              "Input 0, 'Add:0', of node '1mul' in function 'basic' is not available. You might "
              "need to include it in inputs or include its source node in the body");

  const std::vector<TF_Operation*> no_init = {g.mul, g.add};
  args.body = &no_init;
  ExpectError(g.b.graph(), args, TF_INVALID_ARGUMENT,
              "The source of control edge [id=5 z_init:-1 -> 1mul:-1] is not in the body. "
              "Encountered while creating function 'basic'");

  const std::vector<TF_Operation*> only_add = {g.add};
  args.body = &only_add;
  ExpectError(g.b.graph(), args, TF_INVALID_ARGUMENT,
              "TF_Output 1mul:0 is neither in the function body nor among function inputs. "
              "Encountered while creating function 'basic'");
}

// "in" (shape [4, ?], attr _foo) split in two, Unique of "v", IdentityN of all three.
struct ListsGraph {
  Builder b;
  TF_Operation* x;
  TF_Operation* v;
  TF_Operation* uniq;
  TF_Operation* dim;
  TF_Operation* split;
  TF_Operation* idn;
  std::vector<TF_Operation*> body;

  ListsGraph() {
    const std::vector<int64_t> dims = {4, -1};
    x = b.Placeholder("in", TF_FLOAT, &dims,
                      [](TF_OperationDescription* d) { TF_SetAttrString(d, "_foo", "bar", 3); });
    v = b.Placeholder("v", TF_INT32);
    uniq = b.Op("Unique", "uniq", {{v, 0}});
    const int32_t zero = 0;
    dim = b.Const("dim", ScalarTensor(TF_INT32, &zero, sizeof(zero)));
    split = b.Op("Split", "split", {{dim, 0}, {x, 0}}, {},
                 [](TF_OperationDescription* d) { TF_SetAttrInt(d, "num_split", 2); });
    idn = b.Op("IdentityN", "idn", {}, {}, nullptr, {{{split, 0}, {split, 1}, {uniq, 1}}});
    body = {split, idn, dim};
  }

  FunctionArgs Args() const {
    FunctionArgs args;
    args.name = "lists";
    args.body = &body;
    args.inputs = {{x, 0}, {uniq, 0}, {uniq, 1}};
    args.outputs = {{idn, 2}, {split, 1}, {x, 0}};
    args.output_names = {"in", "b", "c"};
    return args;
  }
};

TEST(GraphToFunctionTest, ListsAsTensorFlow) {
  ListsGraph g;
  ExpectFunction(g.b.graph(), g.Args(), R"pb(
    signature {
      name: "lists"
      input_arg { name: "in_0" type: DT_FLOAT }
      input_arg { name: "uniq" type: DT_INT32 }
      input_arg { name: "uniq_0" type: DT_INT32 }
      output_arg { name: "in" type: DT_INT32 }
      output_arg { name: "b" type: DT_FLOAT }
      output_arg { name: "c" type: DT_FLOAT }
    }
    node_def {
      name: "split"
      op: "Split"
      input: "dim:output:0"
      input: "in_0"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
      attr {
        key: "num_split"
        value { i: 2 }
      }
    }
    node_def {
      name: "idn"
      op: "IdentityN"
      input: "split:output:0"
      input: "split:output:1"
      input: "uniq_0"
      attr {
        key: "T"
        value { list { type: DT_FLOAT type: DT_FLOAT type: DT_INT32 } }
      }
    }
    node_def {
      name: "dim"
      op: "Const"
      attr {
        key: "dtype"
        value { type: DT_INT32 }
      }
      attr {
        key: "value"
        value {
          tensor {
            dtype: DT_INT32
            tensor_shape {}
            int_val: 0
          }
        }
      }
    }
    ret { key: "b" value: "split:output:1" }
    ret { key: "c" value: "in_0" }
    ret { key: "in" value: "idn:output:2" }
    arg_attr {
      value {
        attr {
          key: "_foo"
          value { s: "bar" }
        }
        attr {
          key: "_output_shapes"
          value {
            list {
              shape {
                dim { size: 4 }
                dim { size: -1 }
              }
            }
          }
        }
      }
    }
  )pb");
  EXPECT_EQ(HashedName(g.b.graph(), g.Args()), "lists_Va4KyEOaI0M");
}

TEST(GraphToFunctionTest, ListsErrorsAsTensorFlow) {
  ListsGraph g;
  FunctionArgs args = g.Args();
  args.body = nullptr;
  args.outputs = {{g.idn, 2}};
  args.output_names.clear();
  ExpectError(g.b.graph(), args, TF_INVALID_ARGUMENT,
              "When `num_opers` is set to -1, nodes referenced in `inputs` must have a single "
              "output. Node uniq has 2 outputs. Encountered while creating function 'lists'");
  args.body = &g.body;
  args.inputs = {{g.x, 0}, {g.uniq, 0}, {g.uniq, 0}};
  ExpectError(g.b.graph(), args, TF_INVALID_ARGUMENT,
              "TF_Output uniq:0 appears more than once in the input list");
  args.inputs = {{g.x, 0}, {g.uniq, 5}};
  ExpectError(g.b.graph(), args, TF_OUT_OF_RANGE,
              "Node 'uniq' (type: 'Unique', num of outputs: 2) does not have output 5\n\t"
              "Encountered while processing input 1 into function 'lists'");
  args.inputs = {{g.x, 0}, {g.uniq, 1}};
  args.outputs = {{g.idn, 7}};
  ExpectError(g.b.graph(), args, TF_OUT_OF_RANGE,
              "Node 'idn' (type: 'IdentityN', num of outputs: 3) does not have output 7\n\t"
              "Encountered while processing output 0 from function 'lists'");
  args.outputs = {{g.idn, -1}};
  ExpectError(g.b.graph(), args, TF_OUT_OF_RANGE,
              "Node 'idn' (type: 'IdentityN', num of outputs: 3) does not have output -1\n\t"
              "Encountered while processing output 0 from function 'lists'");

  TF_Operation* var = g.b.Op("VariableV2", "var", {}, {}, [](TF_OperationDescription* d) {
    TF_SetAttrType(d, "dtype", TF_FLOAT);
    TF_SetAttrShape(d, "shape", nullptr, 0);
  });
  const std::vector<TF_Operation*> empty;
  args = FunctionArgs();
  args.name = "lists";
  args.body = &empty;
  args.outputs = {{var, 0}};
  ExpectError(g.b.graph(), args, TF_INVALID_ARGUMENT,
              "Output 0 of node 'var' has a reference type float_ref\n\t"
              "Encountered while creating function 'lists'");
  args.outputs.clear();
  args.inputs = {{var, 0}};
  ExpectError(g.b.graph(), args, TF_INVALID_ARGUMENT,
              "Output 0 of node 'var' has a reference type float_ref\n\t"
              "Encountered while processing input 0 into function 'lists'");
}

// x * c (a Const [[1, 2, 3]]), NoOps n1 and n2 after it; "res" a resource Placeholder.
struct ControlGraph {
  Builder b;
  TF_Operation* x;
  TF_Operation* c;
  TF_Operation* res;
  TF_Operation* m;
  TF_Operation* n1;
  TF_Operation* n2;
  std::vector<TF_Operation*> body;

  ControlGraph() {
    x = b.Placeholder("x", TF_FLOAT);
    c = b.Const("c", FloatTensor({1, 3}, {1, 2, 3}));
    const std::vector<int64_t> scalar;
    res = b.Placeholder("res", TF_RESOURCE, &scalar, [](TF_OperationDescription* d) {
      TF_SetAttrInt(d, "_resource_arg_unique_id", 7);
    });
    m = b.Op("Mul", "m", {{x, 0}, {c, 0}});
    n1 = b.Op("NoOp", "n1", {}, {m});
    n2 = b.Op("NoOp", "n2", {}, {m});
    body = {m, n1, n2};
  }

  FunctionArgs Args() const {
    FunctionArgs args;
    args.name = "control";
    args.body = &body;
    args.inputs = {{x, 0}, {c, 0}};
    args.outputs = {{m, 0}};
    args.output_names = {"o"};
    args.control_outputs = {n2, n1};
    args.control_output_names = {"q", "p"};
    return args;
  }
};

TEST(GraphToFunctionTest, ControlOutputsAsTensorFlow) {
  ControlGraph g;
  FunctionArgs args = g.Args();
  args.inputs.push_back({g.res, 0});
  args.output_names.clear();
  args.control_output_names.clear();
  ExpectFunction(g.b.graph(), args, R"pb(
    signature {
      name: "control"
      input_arg { name: "x" type: DT_FLOAT }
      input_arg { name: "c" type: DT_FLOAT }
      input_arg { name: "res" type: DT_RESOURCE }
      output_arg { name: "m" type: DT_FLOAT }
      control_output: "n1"
      control_output: "n2"
    }
    node_def {
      name: "m_0"
      op: "Mul"
      input: "x"
      input: "c"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
    }
    node_def { name: "n1" op: "NoOp" input: "^m_0" }
    node_def { name: "n2" op: "NoOp" input: "^m_0" }
    ret { key: "m" value: "m_0:z:0" }
    control_ret { key: "n1" value: "n1" }
    control_ret { key: "n2" value: "n2" }
    arg_attr {
      value {
        attr {
          key: "_output_shapes"
          value { list { shape { unknown_rank: true } } }
        }
      }
    }
    arg_attr {
      key: 1
      value {
        attr {
          key: "_output_shapes"
          value {
            list {
              shape {
                dim { size: 1 }
                dim { size: 3 }
              }
            }
          }
        }
      }
    }
    arg_attr {
      key: 2
      value {
        attr {
          key: "_resource_arg_unique_id"
          value { i: 7 }
        }
      }
    }
    resource_arg_unique_id { value: 7 }
  )pb");

  ExpectFunction(g.b.graph(), g.Args(), R"pb(
    signature {
      name: "control"
      input_arg { name: "x" type: DT_FLOAT }
      input_arg { name: "c" type: DT_FLOAT }
      output_arg { name: "o" type: DT_FLOAT }
      control_output: "p"
      control_output: "q"
    }
    node_def {
      name: "m"
      op: "Mul"
      input: "x"
      input: "c"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
    }
    node_def { name: "n1" op: "NoOp" input: "^m" }
    node_def { name: "n2" op: "NoOp" input: "^m" }
    ret { key: "o" value: "m:z:0" }
    control_ret { key: "p" value: "n1" }
    control_ret { key: "q" value: "n2" }
    arg_attr {
      value {
        attr {
          key: "_output_shapes"
          value { list { shape { unknown_rank: true } } }
        }
      }
    }
    arg_attr {
      key: 1
      value {
        attr {
          key: "_output_shapes"
          value {
            list {
              shape {
                dim { size: 1 }
                dim { size: 3 }
              }
            }
          }
        }
      }
    }
  )pb");
  // The hash is taken before control outputs are added, as in TensorFlow.
  EXPECT_EQ(HashedName(g.b.graph(), g.Args()), "control_hDQA7Ko8r0g");

  const std::vector<TF_Operation*> no_n2 = {g.m, g.n1};
  args = g.Args();
  args.body = &no_n2;
  args.output_names.clear();
  args.control_outputs = {g.n2};
  args.control_output_names.clear();
  ExpectError(g.b.graph(), args, TF_INVALID_ARGUMENT, "Control output node name must be not empty");
  args.body = &g.body;
  args.control_outputs = {g.n1, g.n1};
  ExpectError(g.b.graph(), args, TF_INVALID_ARGUMENT, "Repeated control output name: n1");
}

// A random tensor plus x, and -x with a control input from x itself.
struct StatefulGraph {
  Builder b;
  TF_Operation* x;
  TF_Operation* shape;
  TF_Operation* rnd;
  TF_Operation* out;
  TF_Operation* neg;
  std::vector<TF_Operation*> body;

  StatefulGraph() {
    x = b.Placeholder("x", TF_FLOAT);
    shape = b.Const("shape", Int32Tensor({1}, {2}));
    rnd = b.Op("RandomUniform", "rnd", {{shape, 0}}, {},
               [](TF_OperationDescription* d) { TF_SetAttrType(d, "dtype", TF_FLOAT); });
    out = b.Op("AddV2", "out", {{rnd, 0}, {x, 0}});
    neg = b.Op("Neg", "neg", {{x, 0}}, {x});
    body = {shape, rnd, out, neg};
  }

  FunctionArgs Args() const {
    FunctionArgs args;
    args.name = "stateful";
    args.body = &body;
    args.inputs = {{x, 0}};
    args.outputs = {{out, 0}, {neg, 0}};
    return args;
  }
};

TEST(GraphToFunctionTest, StatefulAsTensorFlow) {
  StatefulGraph g;
  ExpectFunction(g.b.graph(), g.Args(), R"pb(
    signature {
      name: "stateful"
      input_arg { name: "x" type: DT_FLOAT }
      output_arg { name: "out" type: DT_FLOAT }
      output_arg { name: "neg" type: DT_FLOAT }
      is_stateful: true
    }
    node_def {
      name: "shape"
      op: "Const"
      attr {
        key: "dtype"
        value { type: DT_INT32 }
      }
      attr {
        key: "value"
        value {
          tensor {
            dtype: DT_INT32
            tensor_shape { dim { size: 1 } }
            int_val: 2
          }
        }
      }
    }
    node_def {
      name: "rnd"
      op: "RandomUniform"
      input: "shape:output:0"
      attr {
        key: "T"
        value { type: DT_INT32 }
      }
      attr {
        key: "dtype"
        value { type: DT_FLOAT }
      }
      attr {
        key: "seed"
        value { i: 0 }
      }
      attr {
        key: "seed2"
        value { i: 0 }
      }
    }
    node_def {
      name: "out_0"
      op: "AddV2"
      input: "rnd:output:0"
      input: "x"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
    }
    node_def {
      name: "neg_0"
      op: "Neg"
      input: "x"
      input: "^x"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
    }
    ret { key: "neg" value: "neg_0:y:0" }
    ret { key: "out" value: "out_0:z:0" }
    arg_attr {
      value {
        attr {
          key: "_output_shapes"
          value { list { shape { unknown_rank: true } } }
        }
      }
    }
  )pb");
  EXPECT_EQ(HashedName(g.b.graph(), g.Args()), "stateful_TixTWAcsnnE");
}

TEST(GraphToFunctionTest, ConstantsHashAsTensorFlow) {
  Builder b;
  TF_Operation* f32 = b.Const("f32", FloatTensor({2, 2}, {1.5, 2, 3, 4}));
  TF_Operation* strs = b.Const("strs", StringVector({"ab", "c"}));
  const int64_t minus_seven = -7;
  TF_Operation* i64 = b.Const("i64", ScalarTensor(TF_INT64, &minus_seven, sizeof(minus_seven)));
  const bool yes = true;
  TF_Operation* flag = b.Const("flag", ScalarTensor(TF_BOOL, &yes, sizeof(yes)));
  FunctionArgs args;
  args.name = "constants";
  args.outputs = {{f32, 0}, {strs, 0}, {i64, 0}, {flag, 0}};
  EXPECT_EQ(HashedName(b.graph(), args), "constants_m6NKEiFaEk4");
}

TEST(GraphToFunctionTest, MisuseIsInvalidArgument) {
  BasicGraph g;
  BasicGraph other;
  StatusPtr s(TF_NewStatus());
  const TF_Output inputs[] = {{g.a, 0}, {g.bb, 0}};
  const TF_Output outputs[] = {{g.mul, 0}};
  auto expect = [&](TF_Function* func, const std::string& message) {
    EXPECT_EQ(func, nullptr);
    TF_DeleteFunction(func);
    EXPECT_EQ(TF_GetCode(s.get()), TF_INVALID_ARGUMENT);
    EXPECT_EQ(Message(s.get()), message);
  };
  expect(TF_GraphToFunction(nullptr, "f", 0, -1, nullptr, 2, inputs, 1, outputs, nullptr, nullptr,
                            nullptr, s.get()),
         "'fn_body' is null");
  expect(TF_GraphToFunction(g.b.graph(), nullptr, 0, -1, nullptr, 2, inputs, 1, outputs, nullptr,
                            nullptr, nullptr, s.get()),
         "'fn_name' is null");
  expect(TF_GraphToFunction(g.b.graph(), "f", 0, 2, nullptr, 2, inputs, 1, outputs, nullptr,
                            nullptr, nullptr, s.get()),
         "'opers' is null but its count is 2");
  expect(TF_GraphToFunction(g.b.graph(), "f", 0, -2, nullptr, 2, inputs, 1, outputs, nullptr,
                            nullptr, nullptr, s.get()),
         "'num_opers' is below -1");
  expect(TF_GraphToFunction(g.b.graph(), "f", 0, -1, nullptr, 2, nullptr, 1, outputs, nullptr,
                            nullptr, nullptr, s.get()),
         "'inputs' is null but its count is 2");
  expect(TF_GraphToFunction(g.b.graph(), "f", 0, -1, nullptr, 2, inputs, -1, outputs, nullptr,
                            nullptr, nullptr, s.get()),
         "'outputs' count is negative");
  const TF_Output null_input[] = {{nullptr, 0}};
  expect(TF_GraphToFunction(g.b.graph(), "f", 0, -1, nullptr, 1, null_input, 1, outputs, nullptr,
                            nullptr, nullptr, s.get()),
         "Node is null\n\tEncountered while processing input 0 into function 'f'");
  const TF_Output foreign[] = {{other.mul, 0}};
  expect(TF_GraphToFunction(g.b.graph(), "f", 0, -1, nullptr, 2, inputs, 1, foreign, nullptr,
                            nullptr, nullptr, s.get()),
         "Node with id 6 is different from the passed in node. Does it belong to a different "
         "graph?\n\tEncountered while processing output 0 from function 'f'");
  const TF_Operation* foreign_body[] = {g.add, other.init, g.mul};
  expect(TF_GraphToFunction(g.b.graph(), "f", 0, 3, foreign_body, 2, inputs, 1, outputs, nullptr,
                            nullptr, nullptr, s.get()),
         "Node with id 5 is different from the passed in node. Does it belong to a different "
         "graph?\n\tEncountered while processing operation 1 of the body of function 'f'");
  const char* null_name[] = {nullptr};
  expect(TF_GraphToFunction(g.b.graph(), "f", 0, -1, nullptr, 2, inputs, 1, outputs, null_name,
                            nullptr, nullptr, s.get()),
         "'output_names[0]' is null");
  const TF_Operation* null_control[] = {nullptr};
  expect(TF_GraphToFunctionWithControlOutputs(g.b.graph(), "f", 0, -1, nullptr, 2, inputs, 1,
                                              outputs, nullptr, 1, null_control, nullptr, nullptr,
                                              nullptr, s.get()),
         "Node is null\n\tEncountered while processing control output 0 of function 'f'");
}

// ---- Calling the functions --------------------------------------------------------------

// Copies `func` into `graph`'s library.
void CopyFunction(TF_Graph* graph, TF_Function* func) {
  StatusPtr s(TF_NewStatus());
  TF_GraphCopyFunction(graph, func, nullptr, s.get());
  ASSERT_EQ(TF_GetCode(s.get()), TF_OK) << Message(s.get());
}

FunctionPtr MakeFunction(TF_Graph* graph, const FunctionArgs& args) {
  StatusPtr s(TF_NewStatus());
  FunctionPtr func = ToFunction(graph, args, s.get());
  EXPECT_EQ(TF_GetCode(s.get()), TF_OK) << Message(s.get());
  return func;
}

void SetTypes(TF_OperationDescription* d, const char* attr, const std::vector<TF_DataType>& types) {
  TF_SetAttrTypeList(d, attr, types.data(), static_cast<int>(types.size()));
}

TEST(FunctionCallTest, BasicByNameAndThroughPartitionedCalls) {
  BasicGraph g;
  FunctionPtr func = MakeFunction(g.b.graph(), g.Args());
  ASSERT_NE(func, nullptr);
  Builder caller;
  CopyFunction(caller.graph(), func.get());
  TF_Operation* p = caller.Placeholder("p", TF_FLOAT);
  TF_Operation* q = caller.Placeholder("q", TF_FLOAT);
  TF_Operation* by_name = caller.Op("basic", "by_name", {{p, 0}, {q, 0}});
  auto call_attrs = [](TF_OperationDescription* d) {
    SetTypes(d, "Tin", {TF_FLOAT, TF_FLOAT});
    SetTypes(d, "Tout", {TF_FLOAT, TF_FLOAT});
    TF_SetAttrFuncName(d, "f", "basic", 5);
  };
  TF_Operation* partitioned =
      caller.Op("PartitionedCall", "partitioned", {}, {}, call_attrs, {{{p, 0}, {q, 0}}});
  TF_Operation* stateful =
      caller.Op("StatefulPartitionedCall", "stateful", {}, {}, call_attrs, {{{p, 0}, {q, 0}}});
  TensorPtr pv = FloatTensor({2}, {1, 2});
  TensorPtr qv = FloatTensor({2}, {3, 4});
  std::vector<TensorPtr> out = RunGraph(caller.graph(), {{p, 0}, {q, 0}}, {pv.get(), qv.get()},
                                        {{by_name, 0},
                                         {by_name, 1},
                                         {partitioned, 0},
                                         {partitioned, 1},
                                         {stateful, 0},
                                         {stateful, 1}});
  ASSERT_EQ(out.size(), 6u);
  for (int i = 0; i < 6; i += 2) {
    EXPECT_EQ(Floats(out[i].get()), (std::vector<float>{4, 12})) << i;  // (p + q) * p
    EXPECT_EQ(Floats(out[i + 1].get()), (std::vector<float>{4, 6})) << i;
  }
}

TEST(FunctionCallTest, ListsAndArgumentsReturnedAsOutputs) {
  ListsGraph g;
  FunctionPtr func = MakeFunction(g.b.graph(), g.Args());
  ASSERT_NE(func, nullptr);
  Builder caller;
  CopyFunction(caller.graph(), func.get());
  TF_Operation* x = caller.Placeholder("x", TF_FLOAT);
  TF_Operation* y = caller.Placeholder("y", TF_INT32);
  TF_Operation* idx = caller.Placeholder("idx", TF_INT32);
  TF_Operation* call = caller.Op("lists", "call", {{x, 0}, {y, 0}, {idx, 0}});
  TensorPtr xv = FloatTensor({4, 1}, {1, 2, 3, 4});
  TensorPtr yv = Int32Tensor({2}, {5, 6});
  TensorPtr iv = Int32Tensor({3}, {0, 1, 0});
  std::vector<TensorPtr> out =
      RunGraph(caller.graph(), {{x, 0}, {y, 0}, {idx, 0}}, {xv.get(), yv.get(), iv.get()},
               {{call, 0}, {call, 1}, {call, 2}});
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(Int32s(out[0].get()), (std::vector<int32_t>{0, 1, 0}));   // idn:2 is input 2
  EXPECT_EQ(Floats(out[1].get()), (std::vector<float>{3, 4}));        // the second half of x
  EXPECT_EQ(Floats(out[2].get()), (std::vector<float>{1, 2, 3, 4}));  // x itself
}

TEST(FunctionCallTest, ControlOutputsRunBeforeTheCallCompletes) {
  // ok -> Assert(ok, [x]) as a control output; the function returns -x.
  Builder b;
  TF_Operation* x = b.Placeholder("x", TF_FLOAT);
  TF_Operation* ok = b.Placeholder("ok", TF_BOOL);
  TF_Operation* check =
      b.Op("Assert", "check", {{ok, 0}}, {},
           [](TF_OperationDescription* d) { SetTypes(d, "T", {TF_FLOAT}); }, {{{x, 0}}});
  TF_Operation* neg = b.Op("Neg", "neg", {{x, 0}});
  const std::vector<TF_Operation*> body = {check, neg};
  FunctionArgs args;
  args.name = "checked";
  args.body = &body;
  args.inputs = {{x, 0}, {ok, 0}};
  args.outputs = {{neg, 0}};
  args.control_outputs = {check};
  FunctionPtr func = MakeFunction(b.graph(), args);
  ASSERT_NE(func, nullptr);
  EXPECT_TRUE(FunctionDefOf(func.get()).signature().is_stateful());

  Builder caller;
  CopyFunction(caller.graph(), func.get());
  TF_Operation* cx = caller.Placeholder("x", TF_FLOAT);
  TF_Operation* cok = caller.Placeholder("ok", TF_BOOL);
  TF_Operation* call = caller.Op("checked", "call", {{cx, 0}, {cok, 0}});
  TensorPtr xv = FloatTensor({2}, {1, -2});
  const bool yes = true;
  const bool no = false;
  TensorPtr yes_v = ScalarTensor(TF_BOOL, &yes, 1);
  TensorPtr no_v = ScalarTensor(TF_BOOL, &no, 1);
  std::vector<TensorPtr> out =
      RunGraph(caller.graph(), {{cx, 0}, {cok, 0}}, {xv.get(), yes_v.get()}, {{call, 0}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(Floats(out[0].get()), (std::vector<float>{-1, 2}));
  std::string error;
  out = RunGraph(caller.graph(), {{cx, 0}, {cok, 0}}, {xv.get(), no_v.get()}, {{call, 0}}, &error);
  EXPECT_TRUE(out.empty());
  EXPECT_NE(error.find("assertion failed"), std::string::npos) << error;
}

TEST(FunctionCallTest, StatefulWithControlInputFromAnArgument) {
  StatefulGraph g;
  FunctionPtr func = MakeFunction(g.b.graph(), g.Args());
  ASSERT_NE(func, nullptr);
  Builder caller;
  CopyFunction(caller.graph(), func.get());
  TF_Operation* x = caller.Placeholder("x", TF_FLOAT);
  TF_Operation* call = caller.Op("stateful", "call", {{x, 0}});
  TensorPtr xv = FloatTensor({}, {10});
  std::vector<TensorPtr> out =
      RunGraph(caller.graph(), {{x, 0}}, {xv.get()}, {{call, 0}, {call, 1}});
  ASSERT_EQ(out.size(), 2u);
  const std::vector<float> random = Floats(out[0].get());
  ASSERT_EQ(random.size(), 2u);
  for (float r : random) {
    EXPECT_GE(r, 10.0f);
    EXPECT_LT(r, 11.0f);
  }
  EXPECT_EQ(Floats(out[1].get()), (std::vector<float>{-10}));
}

TEST(FunctionCallTest, NestedFunctionAsTensorFlowAndRun) {
  BasicGraph g;
  FunctionArgs basic_args = g.Args();
  basic_args.append_hash = true;
  FunctionPtr basic = MakeFunction(g.b.graph(), basic_args);
  ASSERT_NE(basic, nullptr);
  ASSERT_STREQ(TF_FunctionName(basic.get()), "basic_Is2GZQrA0o0");

  Builder outer;
  CopyFunction(outer.graph(), basic.get());
  const std::vector<int64_t> dims = {2};
  TF_Operation* p = outer.Placeholder("p", TF_FLOAT, &dims);
  TF_Operation* q = outer.Placeholder("q", TF_FLOAT, &dims);
  TF_Operation* call = outer.Op("PartitionedCall", "call", {}, {},
                                [](TF_OperationDescription* d) {
                                  SetTypes(d, "Tin", {TF_FLOAT, TF_FLOAT});
                                  SetTypes(d, "Tout", {TF_FLOAT, TF_FLOAT});
                                  TF_SetAttrFuncName(d, "f", "basic_Is2GZQrA0o0", 17);
                                },
                                {{{p, 0}, {q, 0}}});
  FunctionArgs args;
  args.name = "outer";
  args.inputs = {{p, 0}, {q, 0}};
  args.outputs = {{call, 1}};
  ExpectFunction(outer.graph(), args, R"pb(
    signature {
      name: "outer"
      input_arg { name: "p" type: DT_FLOAT }
      input_arg { name: "q" type: DT_FLOAT }
      output_arg { name: "call" type: DT_FLOAT }
    }
    node_def {
      name: "call_0"
      op: "PartitionedCall"
      input: "p"
      input: "q"
      attr {
        key: "Tin"
        value { list { type: DT_FLOAT type: DT_FLOAT } }
      }
      attr {
        key: "Tout"
        value { list { type: DT_FLOAT type: DT_FLOAT } }
      }
      attr {
        key: "config"
        value { s: "" }
      }
      attr {
        key: "config_proto"
        value { s: "" }
      }
      attr {
        key: "executor_type"
        value { s: "" }
      }
      attr {
        key: "f"
        value { func { name: "basic_Is2GZQrA0o0" } }
      }
    }
    ret { key: "call" value: "call_0:output:1" }
    arg_attr {
      value {
        attr {
          key: "_output_shapes"
          value { list { shape { dim { size: 2 } } } }
        }
      }
    }
    arg_attr {
      key: 1
      value {
        attr {
          key: "_output_shapes"
          value { list { shape { dim { size: 2 } } } }
        }
      }
    }
  )pb");
  EXPECT_EQ(HashedName(outer.graph(), args), "outer_O12hUXhSNAA");

  // Both functions in a third graph; the outer one called by name.
  FunctionPtr outer_func = MakeFunction(outer.graph(), args);
  ASSERT_NE(outer_func, nullptr);
  Builder caller;
  CopyFunction(caller.graph(), basic.get());
  CopyFunction(caller.graph(), outer_func.get());
  TF_Operation* a = caller.Placeholder("a", TF_FLOAT);
  TF_Operation* c = caller.Placeholder("c", TF_FLOAT);
  TF_Operation* run = caller.Op("outer", "run", {{a, 0}, {c, 0}});
  TensorPtr av = FloatTensor({2}, {1, 2});
  TensorPtr cv = FloatTensor({2}, {10, 20});
  std::vector<TensorPtr> out =
      RunGraph(caller.graph(), {{a, 0}, {c, 0}}, {av.get(), cv.get()}, {{run, 0}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(Floats(out[0].get()), (std::vector<float>{11, 22}));
}

// ---- Round trips ---------------------------------------------------------------------------

TEST(FunctionRoundTripTest, FunctionDefBytesAndGraphLibrary) {
  ControlGraph g;
  FunctionPtr func = MakeFunction(g.b.graph(), g.Args());
  ASSERT_NE(func, nullptr);
  const sluice::FunctionDef fdef = FunctionDefOf(func.get());

  StatusPtr s(TF_NewStatus());
  const std::string bytes = fdef.SerializeAsString();
  FunctionPtr imported(TF_FunctionImportFunctionDef(bytes.data(), bytes.size(), s.get()));
  ASSERT_EQ(TF_GetCode(s.get()), TF_OK) << Message(s.get());
  EXPECT_TRUE(
      google::protobuf::util::MessageDifferencer::Equals(FunctionDefOf(imported.get()), fdef));
  EXPECT_STREQ(TF_FunctionName(imported.get()), "control");

  Builder other;
  CopyFunction(other.graph(), func.get());
  ASSERT_EQ(TF_GraphNumFunctions(other.graph()), 1);
  TF_Function* listed[1] = {nullptr};
  ASSERT_EQ(TF_GraphGetFunctions(other.graph(), listed, 1, s.get()), 1);
  FunctionPtr listed_func(listed[0]);
  EXPECT_TRUE(
      google::protobuf::util::MessageDifferencer::Equals(FunctionDefOf(listed_func.get()), fdef));

  TF_Buffer* graph_def_bytes = TF_NewBuffer();
  TF_GraphToGraphDef(other.graph(), graph_def_bytes, s.get());
  ASSERT_EQ(TF_GetCode(s.get()), TF_OK) << Message(s.get());
  sluice::GraphDef graph_def;
  ASSERT_TRUE(
      graph_def.ParseFromArray(graph_def_bytes->data, static_cast<int>(graph_def_bytes->length)));
  TF_DeleteBuffer(graph_def_bytes);
  ASSERT_EQ(graph_def.library().function_size(), 1);
  EXPECT_TRUE(
      google::protobuf::util::MessageDifferencer::Equals(graph_def.library().function(0), fdef));

  // The same function copied again is accepted; a different one under its name is not.
  CopyFunction(other.graph(), func.get());
  FunctionArgs changed = g.Args();
  changed.output_names = {"renamed"};
  FunctionPtr clash = MakeFunction(g.b.graph(), changed);
  TF_GraphCopyFunction(other.graph(), clash.get(), nullptr, s.get());
  EXPECT_EQ(TF_GetCode(s.get()), TF_INVALID_ARGUMENT);
}

}  // namespace
