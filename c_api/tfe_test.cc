// The eager C API (tensorflow/c/eager/c_api.h) through its public functions. Values, codes and
// messages are TensorFlow 2.21's answers to the same calls, recorded by
// c_api/tools/eager_reference.py from the TFE_ functions of TensorFlow's own library.
#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "proto/config.pb.h"
#include "tensorflow/c/c_api.h"
#include "tensorflow/c/eager/c_api.h"

namespace {

class EagerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    status_ = TF_NewStatus();
    TFE_ContextOptions* options = TFE_NewContextOptions();
    ctx_ = TFE_NewContext(options, status_);
    TFE_DeleteContextOptions(options);
    ASSERT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
  }
  void TearDown() override {
    for (TFE_TensorHandle* h : handles_) TFE_DeleteTensorHandle(h);
    for (TFE_Op* op : ops_) TFE_DeleteOp(op);
    TFE_DeleteContext(ctx_);
    TF_DeleteStatus(status_);
  }

  // A handle to a new tensor of `dims` holding `values`; deleted with the test.
  template <typename T>
  TFE_TensorHandle* Handle(TF_DataType dtype, std::vector<int64_t> dims, std::vector<T> values) {
    TF_Tensor* t = TF_AllocateTensor(dtype, dims.data(), static_cast<int>(dims.size()),
                                     values.size() * sizeof(T));
    if (!values.empty()) std::memcpy(TF_TensorData(t), values.data(), values.size() * sizeof(T));
    TFE_TensorHandle* h = TFE_NewTensorHandle(t, status_);
    TF_DeleteTensor(t);  // The handle keeps the bytes.
    EXPECT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
    handles_.push_back(h);
    return h;
  }
  TFE_TensorHandle* Floats(std::vector<int64_t> dims, std::vector<float> values) {
    return Handle(TF_FLOAT, std::move(dims), std::move(values));
  }

  TFE_Op* Op(const char* type) {
    TFE_Op* op = TFE_NewOp(ctx_, type, status_);
    EXPECT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
    ops_.push_back(op);
    return op;
  }
  TFE_Op* Binary(const char* type, TFE_TensorHandle* a, TFE_TensorHandle* b) {
    TFE_Op* op = Op(type);
    TFE_OpAddInput(op, a, status_);
    TFE_OpAddInput(op, b, status_);
    return op;
  }

  // Runs `op` with room for `capacity` outputs; the outputs are deleted with the test.
  std::vector<TFE_TensorHandle*> Run(TFE_Op* op, int capacity = 4) {
    std::vector<TFE_TensorHandle*> retvals(capacity, nullptr);
    int n = capacity;
    TFE_Execute(op, retvals.data(), &n, status_);
    if (TF_GetCode(status_) != TF_OK) return {};
    retvals.resize(n);
    handles_.insert(handles_.end(), retvals.begin(), retvals.end());
    return retvals;
  }

  template <typename T>
  std::vector<T> Values(TFE_TensorHandle* h) {
    TF_Tensor* t = TFE_TensorHandleResolve(h, status_);
    EXPECT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
    if (t == nullptr) return {};
    const T* data = static_cast<const T*>(TF_TensorData(t));
    std::vector<T> values(data, data + TF_TensorByteSize(t) / sizeof(T));
    TF_DeleteTensor(t);
    return values;
  }

  void ExpectError(TF_Code code, const std::string& message) {
    EXPECT_EQ(TF_GetCode(status_), code) << TF_Message(status_);
    EXPECT_EQ(std::string(TF_Message(status_)), message);
  }

  static constexpr char kCpu[] = "/job:localhost/replica:0/task:0/device:CPU:0";
  TF_Status* status_ = nullptr;
  TFE_Context* ctx_ = nullptr;
  std::vector<TFE_TensorHandle*> handles_;
  std::vector<TFE_Op*> ops_;
};

TEST_F(EagerTest, ContextHasTheHostCpuAndSilentPlacement) {
  TF_DeviceList* devices = TFE_ContextListDevices(ctx_, status_);
  ASSERT_EQ(TF_GetCode(status_), TF_OK);
  ASSERT_EQ(TF_DeviceListCount(devices), 1);
  EXPECT_STREQ(TF_DeviceListName(devices, 0, status_), kCpu);
  TF_DeleteDeviceList(devices);
  EXPECT_EQ(TFE_ContextGetDevicePlacementPolicy(ctx_), TFE_DEVICE_PLACEMENT_SILENT);
}

TEST_F(EagerTest, ThreadLocalPolicyAppliesToItsThreadOnly) {
  std::thread other([this] {
    TFE_ContextSetThreadLocalDevicePlacementPolicy(ctx_, TFE_DEVICE_PLACEMENT_EXPLICIT);
    EXPECT_EQ(TFE_ContextGetDevicePlacementPolicy(ctx_), TFE_DEVICE_PLACEMENT_EXPLICIT);
  });
  other.join();
  EXPECT_EQ(TFE_ContextGetDevicePlacementPolicy(ctx_), TFE_DEVICE_PLACEMENT_SILENT);
}

TEST_F(EagerTest, HandleQueries) {
  TFE_TensorHandle* h = Floats({2, 3}, {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(TFE_TensorHandleDataType(h), TF_FLOAT);
  EXPECT_EQ(TFE_TensorHandleNumDims(h, status_), 2);
  EXPECT_EQ(TFE_TensorHandleNumElements(h, status_), 6);
  EXPECT_EQ(TFE_TensorHandleDim(h, 1, status_), 3);
  EXPECT_STREQ(TFE_TensorHandleDeviceName(h, status_), kCpu);
  EXPECT_STREQ(TFE_TensorHandleBackingDeviceName(h, status_), kCpu);
  // TensorFlow aborts the process here; Sluice reports it.
  EXPECT_EQ(TFE_TensorHandleDim(h, 2, status_), -1);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);

  TFE_TensorHandle* copy = TFE_TensorHandleCopySharingTensor(h, status_);
  handles_.push_back(copy);
  EXPECT_EQ(Values<float>(copy), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  TFE_TensorDebugInfo* info = TFE_TensorHandleTensorDebugInfo(h, status_);
  ASSERT_EQ(TFE_TensorDebugInfoOnDeviceNumDims(info), 2);
  EXPECT_EQ(TFE_TensorDebugInfoOnDeviceDim(info, 0), 2);
  TFE_DeleteTensorDebugInfo(info);

  TFE_TensorHandle* moved = TFE_TensorHandleCopyToDevice(h, ctx_, "/device:CPU:0", status_);
  handles_.push_back(moved);
  EXPECT_STREQ(TFE_TensorHandleDeviceName(moved, status_), kCpu);
  EXPECT_EQ(TFE_TensorHandleCopyToDevice(h, ctx_, "/device:GPU:0", status_), nullptr);
  ExpectError(TF_INVALID_ARGUMENT, "/device:GPU:0 unknown device.");
}

TEST_F(EagerTest, AddsAndReportsTheDevice) {
  TFE_TensorHandle* a = Floats({2}, {1, 2});
  std::vector<TFE_TensorHandle*> out = Run(Binary("AddV2", a, a));
  ASSERT_EQ(out.size(), 1u) << TF_Message(status_);
  EXPECT_EQ(Values<float>(out[0]), (std::vector<float>{2, 4}));
  EXPECT_STREQ(TFE_TensorHandleDeviceName(out[0], status_), kCpu);
}

TEST_F(EagerTest, MatMulThenRelu) {
  TFE_TensorHandle* x = Floats({2, 2}, {1, -2, 3, 4});
  TFE_TensorHandle* w = Floats({2, 2}, {0.5, -1, 2, 0.25});
  TFE_Op* matmul = Binary("MatMul", x, w);
  TFE_OpSetAttrBool(matmul, "transpose_b", 1);
  std::vector<TFE_TensorHandle*> m = Run(matmul);
  ASSERT_EQ(m.size(), 1u) << TF_Message(status_);
  EXPECT_EQ(Values<float>(m[0]), (std::vector<float>{2.5, 1.5, -2.5, 7}));
  TFE_Op* relu = Op("Relu");
  TFE_OpAddInput(relu, m[0], status_);
  std::vector<TFE_TensorHandle*> r = Run(relu);
  ASSERT_EQ(r.size(), 1u) << TF_Message(status_);
  EXPECT_EQ(Values<float>(r[0]), (std::vector<float>{2.5, 1.5, 0, 7}));
}

TEST_F(EagerTest, KernelErrorsCarryNoNode) {
  Run(Binary("AddV2", Floats({2}, {1, 2}), Floats({3}, {1, 2, 3})));
  ExpectError(TF_INVALID_ARGUMENT, "Incompatible shapes: [2] vs. [3]");
  TFE_Op* reshape = Binary("Reshape", Floats({2}, {1, 2}), Handle<int32_t>(TF_INT32, {1}, {3}));
  Run(reshape);
  ExpectError(TF_INVALID_ARGUMENT,
              "Input to reshape is a tensor with 2 values, but the requested shape has 3");
}

TEST_F(EagerTest, InputChecks) {
  TFE_TensorHandle* a = Floats({2}, {1, 2});
  TFE_TensorHandle* i = Handle<int32_t>(TF_INT32, {2}, {1, 2});
  Run(Binary("AddV2", a, i));
  ExpectError(TF_INVALID_ARGUMENT,
              "cannot compute AddV2 as input #1(zero-based) was expected to be a float tensor "
              "but is a int32 tensor");
  TFE_Op* explicit_type = Op("AddV2");
  TFE_OpSetAttrType(explicit_type, "T", TF_INT32);
  TFE_OpAddInput(explicit_type, a, status_);
  TFE_OpAddInput(explicit_type, a, status_);
  Run(explicit_type);
  ExpectError(TF_INVALID_ARGUMENT,
              "cannot compute AddV2 as input #0(zero-based) was expected to be a int32 tensor "
              "but is a float tensor");
  TFE_Op* one_input = Op("AddV2");
  TFE_OpAddInput(one_input, a, status_);
  Run(one_input);
  ExpectError(TF_INVALID_ARGUMENT, "expected 2 inputs, got 1");
  TFE_Op* list_for_single = Op("AddV2");
  std::array<TFE_TensorHandle*, 2> pair = {a, a};
  TFE_OpAddInputList(list_for_single, pair.data(), 2, status_);
  ExpectError(TF_INVALID_ARGUMENT, "Invalid input list definition");
}

TEST_F(EagerTest, RetvalCapacity) {
  TFE_TensorHandle* a = Floats({2}, {1, 2});
  Run(Binary("AddV2", a, a), 0);
  ExpectError(TF_INVALID_ARGUMENT, "Expecting 1 outputs, but *num_retvals is 0");
}

TEST_F(EagerTest, AttrChecks) {
  TFE_Op* cast = Op("Cast");
  TFE_OpAddInput(cast, Floats({1}, {1}), status_);
  Run(cast);
  ExpectError(TF_NOT_FOUND, "No attr named 'DstT' in NodeDef:\n\t [[{{node Cast}}]]");

  TFE_Op* add_n = Op("AddN");
  TFE_OpAddInputList(add_n, nullptr, 0, status_);
  ASSERT_EQ(TF_GetCode(status_), TF_OK);
  Run(add_n);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(TF_Message(status_))
                .rfind("Value for attr 'N' of 0 must be at least minimum 1\n\t; NodeDef: "
                       "{{node AddN}}; Op<name=AddN; signature=inputs:N*T -> sum:T",
                       0),
            0u)
      << TF_Message(status_);

  // An attr the op does not declare is ignored.
  TFE_TensorHandle* a = Floats({2}, {1, 2});
  TFE_Op* bogus = Binary("AddV2", a, a);
  TFE_OpSetAttrType(bogus, "bogus", TF_INT32);
  EXPECT_EQ(Run(bogus).size(), 1u) << TF_Message(status_);

  TFE_Op* placeholder = Op("Placeholder");
  std::vector<int64_t> dims(300, 1);
  TFE_OpSetAttrShape(placeholder, "shape", dims.data(), 300, status_);
  ExpectError(TF_INVALID_ARGUMENT,
              "Value specified for `shape` has 300 dimensions which is over the limit of 254.");
}

TEST_F(EagerTest, AttrTypes) {
  unsigned char is_list = 7;
  TFE_Op* add = Op("AddV2");
  EXPECT_EQ(TFE_OpGetAttrType(add, "T", &is_list, status_), TF_ATTR_TYPE);
  EXPECT_EQ(is_list, 0);
  TFE_OpGetAttrType(add, "bogus", &is_list, status_);
  ExpectError(TF_INVALID_ARGUMENT, "Attribute 'bogus' does not exist for this operation");
  EXPECT_EQ(TFE_OpNameGetAttrType(ctx_, "ConcatV2", "N", &is_list, status_), TF_ATTR_INT);
  EXPECT_EQ(TFE_OpNameGetAttrType(ctx_, "Transpose", "Tperm", &is_list, status_), TF_ATTR_TYPE);
  EXPECT_EQ(TFE_OpNameGetAttrType(ctx_, "Conv2D", "strides", &is_list, status_), TF_ATTR_INT);
  EXPECT_EQ(is_list, 1);
}

TEST_F(EagerTest, UnknownOp) {
  EXPECT_EQ(TFE_NewOp(ctx_, "NoSuchOp", status_), nullptr);
  EXPECT_EQ(TF_GetCode(status_), TF_NOT_FOUND);
  EXPECT_EQ(std::string(TF_Message(status_))
                .rfind("'NoSuchOp' is neither a type of a primitive operation nor a name of a "
                       "function registered in binary running on ",
                       0),
            0u)
      << TF_Message(status_);
}

TEST_F(EagerTest, ListInputsAndOutputs) {
  TFE_TensorHandle* a = Floats({2}, {1, 2});
  TFE_TensorHandle* b = Floats({3}, {1, 2, 3});
  TFE_Op* concat = Op("ConcatV2");
  std::array<TFE_TensorHandle*, 3> values = {a, b, a};
  TFE_OpAddInputList(concat, values.data(), 3, status_);
  EXPECT_EQ(TFE_OpGetInputLength(concat, "values", status_), 3);
  EXPECT_EQ(TFE_OpGetInputLength(concat, "axis", status_), 1);
  EXPECT_EQ(TFE_OpGetOutputLength(concat, "output", status_), 1);
  EXPECT_EQ(TFE_OpGetInputLength(concat, "bogus", status_), -1);
  ExpectError(TF_INVALID_ARGUMENT, "Input 'bogus' not found");
  TFE_OpAddInput(concat, Handle<int32_t>(TF_INT32, {}, {0}), status_);
  EXPECT_EQ(TFE_OpGetFlatInputCount(concat, status_), 4);
  EXPECT_EQ(TFE_TensorHandleNumElements(TFE_OpGetFlatInput(concat, 1, status_), status_), 3);
  std::vector<TFE_TensorHandle*> out = Run(concat);
  ASSERT_EQ(out.size(), 1u) << TF_Message(status_);
  EXPECT_EQ(Values<float>(out[0]), (std::vector<float>{1, 2, 1, 2, 3, 1, 2}));

  TFE_Op* unpack = Op("Unpack");
  TFE_OpAddInput(unpack, Floats({3, 2}, {0, 1, 2, 3, 4, 5}), status_);
  TFE_OpSetAttrInt(unpack, "num", 3);
  EXPECT_EQ(TFE_OpGetOutputLength(unpack, "output", status_), 3);
  Run(unpack, 2);
  ExpectError(TF_INVALID_ARGUMENT, "Expecting 3 outputs, but *num_retvals is 2");
  std::vector<TFE_TensorHandle*> rows = Run(unpack, 8);
  ASSERT_EQ(rows.size(), 3u) << TF_Message(status_);
  EXPECT_EQ(Values<float>(rows[2]), (std::vector<float>{4, 5}));
}

TEST_F(EagerTest, VariablesLiveInTheContext) {
  TFE_Op* var = Op("VarHandleOp");
  TFE_OpSetAttrType(var, "dtype", TF_FLOAT);
  const int64_t dims[] = {2};
  TFE_OpSetAttrShape(var, "shape", dims, 1, status_);
  TFE_OpSetAttrString(var, "shared_name", "v", 1);
  std::vector<TFE_TensorHandle*> v = Run(var);
  ASSERT_EQ(v.size(), 1u) << TF_Message(status_);
  EXPECT_EQ(TFE_TensorHandleDataType(v[0]), TF_RESOURCE);

  auto read = [&] {
    TFE_Op* op = Op("ReadVariableOp");
    TFE_OpAddInput(op, v[0], status_);
    TFE_OpSetAttrType(op, "dtype", TF_FLOAT);
    return Run(op);
  };
  read();
  ExpectError(TF_FAILED_PRECONDITION,
              "Could not find variable v. This could mean that the variable has been deleted. "
              "In TF1, it can also mean the variable is uninitialized. Debug info: "
              "container=localhost, status error message=Container localhost does not exist. "
              "(Could not find resource: localhost/v)");
  TFE_TensorHandle* a = Floats({2}, {1, 2});
  for (const char* type : {"AssignVariableOp", "AssignAddVariableOp"}) {
    TFE_Op* assign = Binary(type, v[0], a);
    TFE_OpSetAttrType(assign, "dtype", TF_FLOAT);
    EXPECT_EQ(Run(assign, 0).size(), 0u);
    EXPECT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
  }
  std::vector<TFE_TensorHandle*> value = read();
  ASSERT_EQ(value.size(), 1u) << TF_Message(status_);
  EXPECT_EQ(Values<float>(value[0]), (std::vector<float>{2, 4}));
  // A resource handle resolves to a scalar TF_RESOURCE tensor.
  TF_Tensor* resolved = TFE_TensorHandleResolve(v[0], status_);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
  EXPECT_EQ(TF_TensorType(resolved), TF_RESOURCE);
  TF_DeleteTensor(resolved);
}

// As in TensorFlow, operations of one signature share a kernel, so a seeded random op continues
// its stream from one operation to the next.
TEST_F(EagerTest, SeededRandomOpsContinueTheirStream) {
  TFE_TensorHandle* shape = Handle<int32_t>(TF_INT32, {1}, {3});
  auto draw = [&] {
    TFE_Op* op = Op("RandomUniform");
    TFE_OpAddInput(op, shape, status_);
    TFE_OpSetAttrType(op, "dtype", TF_FLOAT);
    TFE_OpSetAttrInt(op, "seed", 1);
    TFE_OpSetAttrInt(op, "seed2", 2);
    std::vector<TFE_TensorHandle*> out = Run(op);
    EXPECT_EQ(out.size(), 1u) << TF_Message(status_);
    return out.empty() ? std::vector<float>() : Values<float>(out[0]);
  };
  EXPECT_EQ(draw(), (std::vector<float>{0x1.a02678p-2f, 0x1.b7174cp-1f, 0x1.c5cd8p-5f}));
  EXPECT_EQ(draw(), (std::vector<float>{0x1.58e5fp-3f, 0x1.c738ecp-1f, 0x1.122ca8p-1f}));
  EXPECT_EQ(draw(), (std::vector<float>{0x1.ff712p-2f, 0x1.016bep-4f, 0x1.d71b8p-2f}));
}

TEST_F(EagerTest, Devices) {
  TFE_TensorHandle* a = Floats({2}, {1, 2});
  TFE_Op* op = Binary("AddV2", a, a);
  TFE_OpSetDevice(op, "/device:CPU:0", status_);
  EXPECT_EQ(TF_GetCode(status_), TF_OK);
  EXPECT_STREQ(TFE_OpGetDevice(op, status_), "/device:CPU:0");
  TFE_OpSetDevice(op, "GPU:0", status_);
  ExpectError(TF_INVALID_ARGUMENT, "Malformed device specification 'GPU:0' in eager op: AddV2");
  EXPECT_STREQ(TFE_OpGetDevice(op, status_), "/device:CPU:0");
  std::vector<TFE_TensorHandle*> out = Run(op);
  ASSERT_EQ(out.size(), 1u) << TF_Message(status_);
  EXPECT_STREQ(TFE_TensorHandleDeviceName(out[0], status_), kCpu);

  TFE_OpSetDevice(op, "/device:GPU:0", status_);
  Run(op);
  ExpectError(TF_INVALID_ARGUMENT,
              "Could not satisfy device specification '/device:GPU:0'. "
              "enable_soft_placement=0. Supported device types [CPU]. All available devices "
              "[/job:localhost/replica:0/task:0/device:CPU:0].");
}

// x * x + 1 as a TF_Function named square_plus_one.
TF_Function* SquarePlusOne(TF_Status* status) {
  TF_Graph* graph = TF_NewGraph();
  TF_OperationDescription* desc = TF_NewOperation(graph, "Placeholder", "x");
  TF_SetAttrType(desc, "dtype", TF_FLOAT);
  TF_Operation* x = TF_FinishOperation(desc, status);
  desc = TF_NewOperation(graph, "Mul", "square");
  TF_AddInput(desc, {x, 0});
  TF_AddInput(desc, {x, 0});
  TF_Operation* square = TF_FinishOperation(desc, status);
  const int64_t no_dims[] = {0};
  TF_Tensor* one = TF_AllocateTensor(TF_FLOAT, no_dims, 0, sizeof(float));
  *static_cast<float*>(TF_TensorData(one)) = 1;
  desc = TF_NewOperation(graph, "Const", "one");
  TF_SetAttrType(desc, "dtype", TF_FLOAT);
  TF_SetAttrTensor(desc, "value", one, status);
  TF_Operation* one_op = TF_FinishOperation(desc, status);
  TF_DeleteTensor(one);
  desc = TF_NewOperation(graph, "AddV2", "sum");
  TF_AddInput(desc, {square, 0});
  TF_AddInput(desc, {one_op, 0});
  TF_Operation* sum = TF_FinishOperation(desc, status);
  TF_Output input = {x, 0};
  TF_Output output = {sum, 0};
  TF_Function* function = TF_GraphToFunction(graph, "square_plus_one", 0, -1, nullptr, 1, &input, 1,
                                             &output, nullptr, nullptr, nullptr, status);
  TF_DeleteGraph(graph);
  return function;
}

TEST_F(EagerTest, Functions) {
  TF_Function* function = SquarePlusOne(status_);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
  TFE_ContextAddFunction(ctx_, function, status_);
  TF_DeleteFunction(function);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
  EXPECT_EQ(TFE_ContextHasFunction(ctx_, "square_plus_one"), 1);
  TFE_TensorHandle* a = Floats({2}, {1, 2});

  // Called by name, and through StatefulPartitionedCall's function attr.
  TFE_Op* call = Op("square_plus_one");
  TFE_OpAddInput(call, a, status_);
  std::vector<TFE_TensorHandle*> out = Run(call);
  ASSERT_EQ(out.size(), 1u) << TF_Message(status_);
  EXPECT_EQ(Values<float>(out[0]), (std::vector<float>{2, 5}));
  TFE_Op* partitioned = Op("StatefulPartitionedCall");
  TFE_OpAddInputList(partitioned, &a, 1, status_);
  const TF_DataType tout[] = {TF_FLOAT};
  TFE_OpSetAttrTypeList(partitioned, "Tout", tout, 1);
  TFE_OpSetAttrFunctionName(partitioned, "f", "square_plus_one", 15);
  out = Run(partitioned);
  ASSERT_EQ(out.size(), 1u) << TF_Message(status_);
  EXPECT_EQ(Values<float>(out[0]), (std::vector<float>{2, 5}));

  TFE_ContextRemoveFunction(ctx_, "square_plus_one", status_);
  EXPECT_EQ(TF_GetCode(status_), TF_OK);
  EXPECT_EQ(TFE_ContextHasFunction(ctx_, "square_plus_one"), 0);
  TFE_ContextRemoveFunction(ctx_, "square_plus_one", status_);
  ExpectError(TF_INVALID_ARGUMENT, "Tried to remove non-existent function 'square_plus_one'.");
}

TEST_F(EagerTest, RunMetadataHoldsTheStepStatsOfTracedOps) {
  TFE_TensorHandle* a = Floats({2}, {1, 2});
  Run(Binary("AddV2", a, a));  // Before tracing: not collected.
  TFE_ContextEnableRunMetadata(ctx_);
  Run(Binary("Mul", a, a));
  TFE_ContextDisableRunMetadata(ctx_);
  TF_Buffer* buffer = TF_NewBuffer();
  TFE_ContextExportRunMetadata(ctx_, buffer, status_);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
  sluice::RunMetadata metadata;
  ASSERT_TRUE(metadata.ParseFromArray(buffer->data, static_cast<int>(buffer->length)));
  TF_DeleteBuffer(buffer);
  std::vector<std::string> ops;
  for (const auto& device : metadata.step_stats().dev_stats()) {
    for (const auto& node : device.node_stats()) ops.push_back(node.timeline_label());
  }
  EXPECT_TRUE(std::any_of(ops.begin(), ops.end(), [](const std::string& label) {
    return label.find("Mul") != label.npos;
  })) << ::testing::PrintToString(ops);
  EXPECT_FALSE(std::any_of(ops.begin(), ops.end(), [](const std::string& label) {
    return label.find("AddV2") != label.npos;
  }));
  buffer = TF_NewBuffer();
  TFE_ContextExportRunMetadata(ctx_, buffer, status_);
  EXPECT_EQ(buffer->length, 0u);  // Collecting starts anew after an export.
  TF_DeleteBuffer(buffer);
}

TEST_F(EagerTest, StringsRoundTrip) {
  const int64_t dims[] = {2};
  TF_Tensor* t = TF_AllocateTensor(TF_STRING, dims, 1, 2 * sizeof(TF_TString));
  auto* strings = static_cast<TF_TString*>(TF_TensorData(t));
  TF_TString_Init(&strings[0]);
  TF_TString_Copy(&strings[0], "ab", 2);
  TF_TString_Init(&strings[1]);
  TF_TString_Copy(&strings[1], "cde", 3);
  TFE_TensorHandle* h = TFE_NewTensorHandle(t, status_);
  TF_DeleteTensor(t);
  handles_.push_back(h);
  TFE_Op* length = Op("StringLength");
  TFE_OpAddInput(length, h, status_);
  std::vector<TFE_TensorHandle*> out = Run(length);
  ASSERT_EQ(out.size(), 1u) << TF_Message(status_);
  EXPECT_EQ(Values<int32_t>(out[0]), (std::vector<int32_t>{2, 3}));
  TF_Tensor* back = TFE_TensorHandleResolve(h, status_);
  ASSERT_EQ(TF_TensorType(back), TF_STRING);
  const auto* resolved = static_cast<const TF_TString*>(TF_TensorData(back));
  EXPECT_EQ(std::string(TF_TString_GetDataPointer(&resolved[1]), TF_TString_GetSize(&resolved[1])),
            "cde");
  TF_DeleteTensor(back);
}

// An op without a kernel for its attrs: the error names the node by the op's name, as
// TensorFlow names an eager op's node, never by the session's internal name.
TEST_F(EagerTest, MissingKernelCarriesNoInternalNode) {
  TFE_Op* op = Op("Range");  // Its OpDef takes int8; no kernel does.
  TFE_OpAddInput(op, Handle<int8_t>(TF_INT8, {}, {0}), status_);
  TFE_OpAddInput(op, Handle<int8_t>(TF_INT8, {}, {5}), status_);
  TFE_OpAddInput(op, Handle<int8_t>(TF_INT8, {}, {1}), status_);
  Run(op);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT) << TF_Message(status_);
  const std::string message = TF_Message(status_);
  EXPECT_EQ(message.rfind("No OpKernel was registered to support Op 'Range'", 0), 0u) << message;
  EXPECT_EQ(message.find("eager_op_"), std::string::npos) << message;
  EXPECT_NE(message.find("used by {{node Range}} with these attrs: [Tidx=DT_INT8]"),
            std::string::npos)
      << message;
  EXPECT_NE(message.back(), '\n') << message;
}

TEST_F(EagerTest, ServerDefIsUnimplemented) {
  TFE_ContextSetServerDef(ctx_, 0, nullptr, 0, status_);
  EXPECT_EQ(TF_GetCode(status_), TF_UNIMPLEMENTED);
}

}  // namespace
