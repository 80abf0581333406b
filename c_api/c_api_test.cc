// The C API through its public functions only: status and buffers, tensors and their
// deallocators, strings, graph building and queries, attrs, import, sessions and misuse.
// Expected messages and codes are TensorFlow 2.21's where it defines them.
#include "tensorflow/c/c_api.h"

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "proto/config.pb.h"
#include "proto/graph.pb.h"
#include "proto/node_def.pb.h"
#include "proto/op_def.pb.h"

namespace {

// Deleters, so a failing assertion leaks nothing under ASan.
struct StatusDeleter {
  void operator()(TF_Status* s) const { TF_DeleteStatus(s); }
};
using StatusPtr = std::unique_ptr<TF_Status, StatusDeleter>;

std::string Message(const TF_Status* s) { return TF_Message(s); }

int deallocations = 0;
void CountingDeallocator(void*, size_t, void*) { ++deallocations; }

TEST(StatusTest, CodesMessagesAndPayloads) {
  StatusPtr s(TF_NewStatus());
  EXPECT_EQ(TF_GetCode(s.get()), TF_OK);
  EXPECT_STREQ(TF_Message(s.get()), "");
  TF_SetStatus(s.get(), TF_INVALID_ARGUMENT, "bad input");
  EXPECT_EQ(TF_GetCode(s.get()), TF_INVALID_ARGUMENT);
  EXPECT_EQ(Message(s.get()), "bad input");
  TF_SetPayload(s.get(), "key", "value");
  std::vector<std::string> seen;
  TF_ForEachPayload(
      s.get(),
      [](const char* key, const char* value, void* capture) {
        static_cast<std::vector<std::string>*>(capture)->push_back(std::string(key) + "=" + value);
      },
      &seen);
  EXPECT_EQ(seen, std::vector<std::string>{"key=value"});
  // An OK status drops the message, as TensorFlow's does.
  TF_SetStatus(s.get(), TF_OK, "ignored");
  EXPECT_STREQ(TF_Message(s.get()), "");
  TF_SetStatusFromIOError(s.get(), ENOENT, "opening x");
  EXPECT_EQ(TF_GetCode(s.get()), TF_NOT_FOUND);
  EXPECT_EQ(Message(s.get()), "opening x; No such file or directory");
  TF_SetStatusFromIOError(s.get(), EAGAIN, "ctx");
  EXPECT_EQ(TF_GetCode(s.get()), TF_UNAVAILABLE);
  TF_DeleteStatus(nullptr);  // Deletion functions accept null.
}

TEST(BufferTest, FromStringCopiesAndDeleteFrees) {
  const char bytes[] = "abc";
  TF_Buffer* buffer = TF_NewBufferFromString(bytes, 3);
  ASSERT_NE(buffer->data, static_cast<const void*>(bytes));
  EXPECT_EQ(buffer->length, 3u);
  EXPECT_EQ(std::memcmp(buffer->data, "abc", 3), 0);
  TF_Buffer copy = TF_GetBuffer(buffer);
  EXPECT_EQ(copy.data, buffer->data);
  TF_DeleteBuffer(buffer);
  TF_Buffer* empty = TF_NewBuffer();
  EXPECT_EQ(empty->data, nullptr);
  EXPECT_EQ(empty->length, 0u);
  TF_DeleteBuffer(empty);
  TF_DeleteBuffer(nullptr);
}

TEST(DataTypeTest, SizesAsTensorFlow) {
  EXPECT_EQ(TF_DataTypeSize(TF_FLOAT), 4u);
  EXPECT_EQ(TF_DataTypeSize(TF_DOUBLE), 8u);
  EXPECT_EQ(TF_DataTypeSize(TF_COMPLEX128), 16u);
  EXPECT_EQ(TF_DataTypeSize(TF_BFLOAT16), 2u);
  EXPECT_EQ(TF_DataTypeSize(TF_BOOL), 1u);
  EXPECT_EQ(TF_DataTypeSize(TF_INT4), 1u);
  EXPECT_EQ(TF_DataTypeSize(TF_STRING), 0u);
  EXPECT_EQ(TF_DataTypeSize(TF_RESOURCE), 0u);
  EXPECT_EQ(TF_DataTypeSize(static_cast<TF_DataType>(99)), 0u);
}

TEST(TensorTest, NewTensorWrapsAndCallsTheDeallocatorOnce) {
  alignas(64) static float data[4] = {1, 2, 3, 4};
  const int64_t dims[] = {2, 2};
  deallocations = 0;
  TF_Tensor* t = TF_NewTensor(TF_FLOAT, dims, 2, data, sizeof(data), CountingDeallocator, nullptr);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(TF_TensorData(t), data);  // aligned caller memory is used in place
  EXPECT_EQ(TF_TensorType(t), TF_FLOAT);
  EXPECT_EQ(TF_NumDims(t), 2);
  EXPECT_EQ(TF_Dim(t, 1), 2);
  EXPECT_EQ(TF_Dim(t, 5), -1);
  EXPECT_EQ(TF_TensorByteSize(t), sizeof(data));
  EXPECT_EQ(TF_TensorElementCount(t), 4);
  EXPECT_TRUE(TF_TensorIsAligned(t));
  EXPECT_EQ(deallocations, 0);
  TF_DeleteTensor(t);
  EXPECT_EQ(deallocations, 1);
}

TEST(TensorTest, WrongSizeReturnsNullAndDeallocates) {
  alignas(64) static float data[4];
  const int64_t dims[] = {4};
  deallocations = 0;
  EXPECT_EQ(TF_NewTensor(TF_FLOAT, dims, 1, data, 8, CountingDeallocator, nullptr), nullptr);
  EXPECT_EQ(deallocations, 1);
  const int64_t negative[] = {-1};
  EXPECT_EQ(TF_NewTensor(TF_FLOAT, negative, 1, data, 16, CountingDeallocator, nullptr), nullptr);
  EXPECT_EQ(deallocations, 2);
  EXPECT_EQ(TF_AllocateTensor(TF_FLOAT, dims, 1, 8), nullptr);
  const int64_t huge[] = {int64_t{1} << 62, 8};
  EXPECT_EQ(TF_AllocateTensor(TF_FLOAT, huge, 2, 16), nullptr);
}

// C passes a TF_DataType as any int: a ref type or a value that names no type makes no tensor.
TEST(TensorTest, DtypesATensorCannotHaveReturnNull) {
  alignas(64) static float data[4];
  const int64_t dims[] = {4};
  deallocations = 0;
  for (int value : {0, 101, 200, 99, -1}) {
    const auto dtype = static_cast<TF_DataType>(value);
    EXPECT_EQ(TF_NewTensor(dtype, dims, 1, data, 16, CountingDeallocator, nullptr), nullptr)
        << value;
    EXPECT_EQ(TF_AllocateTensor(dtype, dims, 1, 16), nullptr) << value;
  }
  EXPECT_EQ(deallocations, 5);
  TF_Tensor* from = TF_AllocateTensor(TF_INT32, dims, 1, 16);
  TF_Tensor* to = TF_AllocateTensor(TF_FLOAT, dims, 1, 16);
  TF_Status* status = TF_NewStatus();
  TF_TensorBitcastFrom(from, static_cast<TF_DataType>(103), to, dims, 1, status);
  EXPECT_EQ(TF_GetCode(status), TF_INVALID_ARGUMENT);
  TF_TensorBitcastFrom(from, TF_UINT32, to, dims, 1, status);
  EXPECT_EQ(TF_GetCode(status), TF_OK);
  EXPECT_EQ(TF_TensorType(to), TF_UINT32);
  TF_DeleteStatus(status);
  TF_DeleteTensor(from);
  TF_DeleteTensor(to);
}

TEST(TensorTest, MisalignedDataIsCopiedAndReleasedAtOnce) {
  alignas(64) static char data[64 + 16];
  float values[4] = {5, 6, 7, 8};
  std::memcpy(data + 4, values, sizeof(values));
  const int64_t dims[] = {4};
  deallocations = 0;
  TF_Tensor* t = TF_NewTensor(TF_FLOAT, dims, 1, data + 4, 16, CountingDeallocator, nullptr);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(deallocations, 1);
  EXPECT_NE(TF_TensorData(t), data + 4);
  EXPECT_TRUE(TF_TensorIsAligned(t));
  EXPECT_EQ(static_cast<float*>(TF_TensorData(t))[3], 8);
  TF_DeleteTensor(t);
  EXPECT_EQ(deallocations, 1);
}

TEST(TensorTest, AllocateIsAlignedAndMaybeMoveAndBitcast) {
  const int64_t dims[] = {4};
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, dims, 1, 16);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(TF_TensorData(t)) % TF_TensorDefaultAlignment(), 0u);
  EXPECT_EQ(TF_TensorMaybeMove(t), t);
  TF_Tensor* u = TF_AllocateTensor(TF_INT32, dims, 1, 16);
  StatusPtr s(TF_NewStatus());
  const int64_t square[] = {2, 2};
  TF_TensorBitcastFrom(t, TF_INT32, u, square, 2, s.get());
  ASSERT_EQ(TF_GetCode(s.get()), TF_OK) << Message(s.get());
  EXPECT_EQ(TF_TensorData(u), TF_TensorData(t));
  EXPECT_EQ(TF_NumDims(u), 2);
  EXPECT_EQ(TF_TensorMaybeMove(t), nullptr);  // the bytes are shared now
  const int64_t wrong[] = {2, 3};
  TF_TensorBitcastFrom(t, TF_INT32, u, wrong, 2, s.get());
  EXPECT_EQ(TF_GetCode(s.get()), TF_INVALID_ARGUMENT);
  EXPECT_EQ(Message(s.get()), "input and output shapes/data type sizes are not compatible");
  TF_DeleteTensor(t);
  TF_DeleteTensor(u);
}

TEST(TensorTest, StringTensorsHoldTStrings) {
  const int64_t dims[] = {2};
  TF_Tensor* t = TF_AllocateTensor(TF_STRING, dims, 1, 2 * sizeof(TF_TString));
  ASSERT_NE(t, nullptr);
  auto* strings = static_cast<TF_TString*>(TF_TensorData(t));
  const std::string large(100, 'x');
  TF_TString_Copy(&strings[0], "small", 5);
  TF_TString_Copy(&strings[1], large.data(), large.size());
  EXPECT_EQ(TF_TString_GetType(&strings[0]), TF_TSTR_SMALL);
  EXPECT_EQ(TF_TString_GetType(&strings[1]), TF_TSTR_LARGE);
  EXPECT_EQ(std::string(TF_TString_GetDataPointer(&strings[1]), TF_TString_GetSize(&strings[1])),
            large);
  TF_DeleteTensor(t);  // frees the large string (ASan checks)
  // Too few bytes for the elements.
  EXPECT_EQ(TF_AllocateTensor(TF_STRING, dims, 1, 8), nullptr);
}

TEST(TensorTest, FromProto) {
  // dtype: DT_INT32, tensor_shape { dim { size: 2 } }, int_val: 7, 9
  const unsigned char proto[] = {0x08, 0x03, 0x12, 0x04, 0x12, 0x02,
                                 0x08, 0x02, 0x38, 0x07, 0x38, 0x09};
  TF_Buffer* buffer = TF_NewBufferFromString(proto, sizeof(proto));
  const int64_t scalar_dims[] = {1};
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, scalar_dims, 1, 4);
  StatusPtr s(TF_NewStatus());
  TF_TensorFromProto(buffer, t, s.get());
  ASSERT_EQ(TF_GetCode(s.get()), TF_OK) << Message(s.get());
  EXPECT_EQ(TF_TensorType(t), TF_INT32);
  ASSERT_EQ(TF_Dim(t, 0), 2);
  EXPECT_EQ(static_cast<int32_t*>(TF_TensorData(t))[1], 9);
  TF_DeleteTensor(t);
  TF_DeleteBuffer(buffer);
}

// A graph x (float placeholder [2]) -> y = x + c (c = [10, 20]).
class GraphTest : public ::testing::Test {
 protected:
  void SetUp() override {
    graph_ = TF_NewGraph();
    status_ = TF_NewStatus();
  }
  void TearDown() override {
    TF_DeleteGraph(graph_);
    TF_DeleteStatus(status_);
  }

  TF_Operation* Placeholder(const char* name, TF_DataType dtype = TF_FLOAT) {
    TF_OperationDescription* desc = TF_NewOperation(graph_, "Placeholder", name);
    TF_SetAttrType(desc, "dtype", dtype);
    const int64_t dims[] = {2};
    TF_SetAttrShape(desc, "shape", dims, 1);
    TF_Operation* op = TF_FinishOperation(desc, status_);
    EXPECT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);
    return op;
  }

  TF_Operation* Const(const char* name, float a, float b) {
    const int64_t dims[] = {2};
    TF_Tensor* value = TF_AllocateTensor(TF_FLOAT, dims, 1, 8);
    static_cast<float*>(TF_TensorData(value))[0] = a;
    static_cast<float*>(TF_TensorData(value))[1] = b;
    TF_OperationDescription* desc = TF_NewOperation(graph_, "Const", name);
    TF_SetAttrTensor(desc, "value", value, status_);
    EXPECT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);
    TF_SetAttrType(desc, "dtype", TF_FLOAT);
    TF_Operation* op = TF_FinishOperation(desc, status_);
    EXPECT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);
    TF_DeleteTensor(value);
    return op;
  }

  TF_Operation* Add(const char* name, TF_Operation* l, TF_Operation* r) {
    TF_OperationDescription* desc = TF_NewOperation(graph_, "AddV2", name);
    TF_AddInput(desc, TF_Output{l, 0});
    TF_AddInput(desc, TF_Output{r, 0});
    TF_Operation* op = TF_FinishOperation(desc, status_);
    EXPECT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);
    return op;
  }

  // Runs `fetch` with x fed [a, b]; returns the two floats (NaN on failure).
  std::vector<float> Run(TF_Session* session, TF_Operation* x, TF_Operation* fetch, float a,
                         float b) {
    const int64_t dims[] = {2};
    TF_Tensor* feed = TF_AllocateTensor(TF_FLOAT, dims, 1, 8);
    static_cast<float*>(TF_TensorData(feed))[0] = a;
    static_cast<float*>(TF_TensorData(feed))[1] = b;
    TF_Output input{x, 0};
    TF_Output output{fetch, 0};
    TF_Tensor* result = nullptr;
    TF_Status* status = TF_NewStatus();
    TF_SessionRun(session, nullptr, &input, &feed, 1, &output, &result, 1, nullptr, 0, nullptr,
                  status);
    std::vector<float> values;
    if (TF_GetCode(status) == TF_OK && result != nullptr) {
      const float* data = static_cast<const float*>(TF_TensorData(result));
      values.assign(data, data + TF_TensorElementCount(result));
    } else {
      ADD_FAILURE() << Message(status);
    }
    TF_DeleteTensor(result);
    TF_DeleteTensor(feed);
    TF_DeleteStatus(status);
    return values;
  }

  TF_Graph* graph_;
  TF_Status* status_;
};

TEST_F(GraphTest, BuildQueryAndRun) {
  TF_Operation* x = Placeholder("x");
  TF_Operation* c = Const("c", 10, 20);
  TF_Operation* y = Add("y", x, c);
  ASSERT_NE(y, nullptr);

  EXPECT_STREQ(TF_OperationName(y), "y");
  EXPECT_STREQ(TF_OperationOpType(y), "AddV2");
  EXPECT_EQ(TF_OperationNumInputs(y), 2);
  EXPECT_EQ(TF_OperationNumOutputs(y), 1);
  EXPECT_EQ(TF_OperationOutputType(TF_Output{y, 0}), TF_FLOAT);
  EXPECT_EQ(TF_OperationOutputType(TF_Output{y, 3}), 0);
  TF_Output in1 = TF_OperationInput(TF_Input{y, 1});
  EXPECT_EQ(in1.oper, c);
  EXPECT_EQ(in1.index, 0);
  EXPECT_EQ(TF_OperationInput(TF_Input{y, 7}).oper, nullptr);
  EXPECT_EQ(TF_OperationOutputNumConsumers(TF_Output{x, 0}), 1);
  TF_Input consumer;
  EXPECT_EQ(TF_OperationOutputConsumers(TF_Output{x, 0}, &consumer, 1), 1);
  EXPECT_EQ(consumer.oper, y);
  EXPECT_EQ(consumer.index, 0);
  EXPECT_EQ(TF_OperationInputListLength(y, "x", status_), 1);
  EXPECT_EQ(TF_GetCode(status_), TF_OK);
  TF_OperationInputListLength(y, "nope", status_);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);

  EXPECT_EQ(TF_GraphOperationByName(graph_, "y"), y);
  EXPECT_EQ(TF_GraphOperationByName(graph_, "missing"), nullptr);
  size_t pos = 0;
  std::vector<std::string> names;
  while (TF_Operation* op = TF_GraphNextOperation(graph_, &pos))
    names.push_back(TF_OperationName(op));
  EXPECT_EQ(names, (std::vector<std::string>{"x", "c", "y"}));

  // Shapes from shape inference, and their refinement.
  EXPECT_EQ(TF_GraphGetTensorNumDims(graph_, TF_Output{y, 0}, status_), 1);
  int64_t dim = 0;
  TF_GraphGetTensorShape(graph_, TF_Output{y, 0}, &dim, 1, status_);
  EXPECT_EQ(TF_GetCode(status_), TF_OK);
  EXPECT_EQ(dim, 2);
  TF_GraphGetTensorShape(graph_, TF_Output{y, 0}, &dim, 3, status_);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  const int64_t three[] = {3};
  TF_GraphSetTensorShape(graph_, TF_Output{y, 0}, three, 1, status_);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);  // incompatible with [2]

  TF_Session* session = TF_NewSession(graph_, nullptr, status_);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);
  EXPECT_EQ(Run(session, x, y, 1, 2), (std::vector<float>{11, 22}));

  // Operations added after the session was made are picked up by the next run.
  TF_Operation* z = Add("z", y, y);
  EXPECT_EQ(Run(session, x, z, 1, 2), (std::vector<float>{22, 44}));

  TF_DeviceList* devices = TF_SessionListDevices(session, status_);
  ASSERT_EQ(TF_GetCode(status_), TF_OK);
  ASSERT_GE(TF_DeviceListCount(devices), 1);
  EXPECT_STREQ(TF_DeviceListType(devices, 0, status_), "CPU");
  EXPECT_EQ(TF_DeviceListName(devices, 9, status_), nullptr);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  TF_DeleteDeviceList(devices);

  TF_CloseSession(session, status_);
  EXPECT_EQ(TF_GetCode(status_), TF_OK);
  TF_DeleteSession(session, status_);
}

TEST_F(GraphTest, FinishOperationErrorsLeaveTheGraphUnchanged) {
  TF_Operation* x = Placeholder("x");
  TF_Operation* i = Placeholder("i", TF_INT32);
  // Mismatched input types.
  TF_OperationDescription* desc = TF_NewOperation(graph_, "AddV2", "bad");
  TF_AddInput(desc, TF_Output{x, 0});
  TF_AddInput(desc, TF_Output{i, 0});
  EXPECT_EQ(TF_FinishOperation(desc, status_), nullptr);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  EXPECT_EQ(TF_GraphOperationByName(graph_, "bad"), nullptr);
  // Unknown op.
  desc = TF_NewOperation(graph_, "NoSuchOp", "n");
  EXPECT_EQ(TF_FinishOperation(desc, status_), nullptr);
  EXPECT_EQ(TF_GetCode(status_), TF_NOT_FOUND);
  // Duplicate name.
  desc = TF_NewOperation(graph_, "Placeholder", "x");
  TF_SetAttrType(desc, "dtype", TF_FLOAT);
  EXPECT_EQ(TF_FinishOperation(desc, status_), nullptr);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  EXPECT_NE(Message(status_).find("'x'"), std::string::npos) << Message(status_);
  // A shape function error: MatMul of vectors.
  desc = TF_NewOperation(graph_, "MatMul", "mm");
  TF_AddInput(desc, TF_Output{x, 0});
  TF_AddInput(desc, TF_Output{x, 0});
  EXPECT_EQ(TF_FinishOperation(desc, status_), nullptr);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  EXPECT_EQ(TF_GraphOperationByName(graph_, "mm"), nullptr);
  // An input index past the producer's outputs, and a null producer.
  desc = TF_NewOperation(graph_, "Neg", "neg");
  TF_AddInput(desc, TF_Output{x, 3});
  EXPECT_EQ(TF_FinishOperation(desc, status_), nullptr);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  desc = TF_NewOperation(graph_, "Neg", "neg");
  TF_AddInput(desc, TF_Output{nullptr, 0});
  EXPECT_EQ(TF_FinishOperation(desc, status_), nullptr);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  // A malformed attr proto is reported by the setter and again by Finish.
  desc = TF_NewOperation(graph_, "Placeholder", "p");
  const char garbage[] = "\xff\xff\xff";
  TF_SetAttrValueProto(desc, "dtype", garbage, 3, status_);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  EXPECT_EQ(TF_FinishOperation(desc, status_), nullptr);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);

  size_t pos = 0;
  int count = 0;
  while (TF_GraphNextOperation(graph_, &pos) != nullptr) ++count;
  EXPECT_EQ(count, 2);
}

TEST_F(GraphTest, AttrGettersAndMetadata) {
  TF_OperationDescription* desc = TF_NewOperation(graph_, "Placeholder", "p");
  TF_SetAttrType(desc, "dtype", TF_INT64);
  const int64_t dims[] = {-1, 3};
  TF_SetAttrShape(desc, "shape", dims, 2);
  TF_SetDevice(desc, "/device:CPU:0");
  const char* strings[] = {"ab", "cde"};
  const size_t lengths[] = {2, 3};
  TF_SetAttrStringList(desc, "_extra", reinterpret_cast<const void* const*>(strings), lengths, 2);
  TF_Operation* p = TF_FinishOperation(desc, status_);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);
  EXPECT_STREQ(TF_OperationDevice(p), "/device:CPU:0");

  TF_DataType type;
  TF_OperationGetAttrType(p, "dtype", &type, status_);
  EXPECT_EQ(type, TF_INT64);
  int64_t got[2] = {0, 0};
  TF_OperationGetAttrShape(p, "shape", got, 2, status_);
  EXPECT_EQ(got[0], -1);
  EXPECT_EQ(got[1], 3);
  TF_AttrMetadata meta = TF_OperationGetAttrMetadata(p, "shape", status_);
  EXPECT_EQ(meta.is_list, 0);
  EXPECT_EQ(meta.type, TF_ATTR_SHAPE);
  EXPECT_EQ(meta.total_size, 2);
  meta = TF_OperationGetAttrMetadata(p, "_extra", status_);
  EXPECT_EQ(meta.is_list, 1);
  EXPECT_EQ(meta.list_size, 2);
  EXPECT_EQ(meta.type, TF_ATTR_STRING);
  EXPECT_EQ(meta.total_size, 5);

  void* values[2];
  size_t value_lengths[2];
  char storage[5];
  TF_OperationGetAttrStringList(p, "_extra", values, value_lengths, 2, storage, 5, status_);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);
  EXPECT_EQ(std::string(static_cast<char*>(values[1]), value_lengths[1]), "cde");
  TF_OperationGetAttrStringList(p, "_extra", values, value_lengths, 2, storage, 4, status_);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);

  // Missing attr, and the wrong getter for an attr's type.
  int64_t i;
  TF_OperationGetAttrInt(p, "nope", &i, status_);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  EXPECT_EQ(Message(status_), "Operation 'p' has no attr named 'nope'.");
  TF_OperationGetAttrInt(p, "dtype", &i, status_);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);

  TF_Buffer* value = TF_NewBuffer();
  TF_OperationGetAttrValueProto(p, "dtype", value, status_);
  EXPECT_EQ(TF_GetCode(status_), TF_OK);
  EXPECT_GT(value->length, 0u);
  // A buffer that already holds data is refused.
  TF_OperationGetAttrValueProto(p, "dtype", value, status_);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  TF_DeleteBuffer(value);

  EXPECT_EQ(TF_OperationGetNumAttrs(p), 3);
  const int length = TF_OperationGetAttrNameLength(p, 0);
  ASSERT_GT(length, 0);
  std::string name(length, '\0');
  TF_OperationGetAttrName(p, 0, name.data(), status_);
  EXPECT_EQ(name, "_extra");

  TF_Buffer* node_def = TF_NewBuffer();
  TF_OperationToNodeDef(p, node_def, status_);
  sluice::NodeDef parsed;
  ASSERT_TRUE(parsed.ParseFromArray(node_def->data, static_cast<int>(node_def->length)));
  EXPECT_EQ(parsed.op(), "Placeholder");
  TF_DeleteBuffer(node_def);
}

TEST_F(GraphTest, ControlInputsAndColocation) {
  TF_Operation* a = Placeholder("a");
  TF_OperationDescription* desc = TF_NewOperation(graph_, "NoOp", "n");
  TF_AddControlInput(desc, a);
  TF_ColocateWith(desc, a);
  TF_Operation* n = TF_FinishOperation(desc, status_);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);
  EXPECT_EQ(TF_OperationNumControlInputs(n), 1);
  TF_Operation* control = nullptr;
  EXPECT_EQ(TF_OperationGetControlInputs(n, &control, 1), 1);
  EXPECT_EQ(control, a);
  EXPECT_EQ(TF_OperationNumControlOutputs(a), 1);
  void* value;
  size_t length;
  char storage[16];
  TF_OperationGetAttrStringList(n, "_class", &value, &length, 1, storage, sizeof(storage), status_);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);
  EXPECT_EQ(std::string(static_cast<char*>(value), length), "loc:@a");
}

TEST_F(GraphTest, ExportAndImportWithOptions) {
  TF_Operation* x = Placeholder("x");
  Add("y", x, Const("c", 1, 2));
  TF_Buffer* def = TF_NewBuffer();
  TF_GraphToGraphDef(graph_, def, status_);
  ASSERT_EQ(TF_GetCode(status_), TF_OK);

  // Import under a prefix, with x mapped to a new placeholder and a typo'd mapping.
  TF_Operation* feed = Placeholder("feed");
  TF_ImportGraphDefOptions* opts = TF_NewImportGraphDefOptions();
  TF_ImportGraphDefOptionsSetPrefix(opts, "imported");
  TF_ImportGraphDefOptionsAddInputMapping(opts, "x", 0, TF_Output{feed, 0});
  TF_ImportGraphDefOptionsAddInputMapping(opts, "typo", 0, TF_Output{feed, 0});
  TF_ImportGraphDefOptionsAddReturnOutput(opts, "y", 0);
  TF_ImportGraphDefOptionsAddReturnOperation(opts, "c");
  EXPECT_EQ(TF_ImportGraphDefOptionsNumReturnOutputs(opts), 1);
  TF_ImportGraphDefResults* results = TF_GraphImportGraphDefWithResults(graph_, def, opts, status_);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);
  int num_outputs;
  TF_Output* outputs;
  TF_ImportGraphDefResultsReturnOutputs(results, &num_outputs, &outputs);
  ASSERT_EQ(num_outputs, 1);
  EXPECT_STREQ(TF_OperationName(outputs[0].oper), "imported/y");
  EXPECT_EQ(TF_OperationInput(TF_Input{outputs[0].oper, 0}).oper, feed);
  int num_opers;
  TF_Operation** opers;
  TF_ImportGraphDefResultsReturnOperations(results, &num_opers, &opers);
  ASSERT_EQ(num_opers, 1);
  EXPECT_STREQ(TF_OperationName(opers[0]), "imported/c");
  int num_missing;
  const char** missing_names;
  int* missing_indexes;
  TF_ImportGraphDefResultsMissingUnusedInputMappings(results, &num_missing, &missing_names,
                                                     &missing_indexes);
  ASSERT_EQ(num_missing, 1);
  EXPECT_STREQ(missing_names[0], "typo");
  EXPECT_EQ(missing_indexes[0], 0);

  TF_Session* session = TF_NewSession(graph_, nullptr, status_);
  EXPECT_EQ(Run(session, feed, outputs[0].oper, 5, 6), (std::vector<float>{6, 8}));
  TF_DeleteSession(session, status_);
  TF_DeleteImportGraphDefResults(results);

  // Importing the same names again without a prefix is an error that adds nothing.
  TF_GraphImportGraphDef(graph_, def, nullptr, status_);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  // A count that does not match the options.
  TF_Output one;
  TF_GraphImportGraphDefWithReturnOutputs(graph_, def, opts, &one, 0, status_);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  EXPECT_EQ(Message(status_), "Expected 'num_return_outputs' to be 1, got 0");
  // Bytes that are no GraphDef.
  TF_Buffer* junk = TF_NewBufferFromString("\xff\xff", 2);
  TF_Buffer null_data = {nullptr, 5, nullptr};
  TF_GraphImportGraphDef(graph_, &null_data, nullptr, status_);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  TF_GraphImportGraphDef(graph_, junk, nullptr, status_);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  EXPECT_EQ(Message(status_), "Invalid GraphDef");
  TF_DeleteBuffer(junk);
  TF_DeleteImportGraphDefOptions(opts);
  TF_DeleteBuffer(def);
}

TEST_F(GraphTest, RunMisuseIsAnErrorWithNullOutputs) {
  TF_Operation* x = Placeholder("x");
  TF_Operation* y = Add("y", x, Const("c", 1, 2));
  TF_Session* session = TF_NewSession(graph_, nullptr, status_);
  TF_Output output{y, 0};
  TF_Tensor* result = reinterpret_cast<TF_Tensor*>(0x1);

  // x not fed.
  TF_SessionRun(session, nullptr, nullptr, nullptr, 0, &output, &result, 1, nullptr, 0, nullptr,
                status_);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT) << Message(status_);
  EXPECT_EQ(result, nullptr);

  // An output index out of range.
  TF_Output bad{y, 4};
  TF_SessionRun(session, nullptr, nullptr, nullptr, 0, &bad, &result, 1, nullptr, 0, nullptr,
                status_);
  EXPECT_EQ(TF_GetCode(status_), TF_OUT_OF_RANGE);

  // A feed of the wrong dtype.
  const int64_t dims[] = {2};
  TF_Tensor* ints = TF_AllocateTensor(TF_INT32, dims, 1, 8);
  TF_Output input{x, 0};
  TF_SessionRun(session, nullptr, &input, &ints, 1, &output, &result, 1, nullptr, 0, nullptr,
                status_);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT) << Message(status_);
  EXPECT_EQ(result, nullptr);

  // Negative counts and a null feed value.
  TF_SessionRun(session, nullptr, &input, &ints, -1, &output, &result, 1, nullptr, 0, nullptr,
                status_);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  TF_Tensor* null_value = nullptr;
  TF_SessionRun(session, nullptr, &input, &null_value, 1, &output, &result, 1, nullptr, 0, nullptr,
                status_);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  EXPECT_EQ(result, nullptr);

  // Unparseable run options.
  TF_Buffer* junk = TF_NewBufferFromString("\xff\xff", 2);
  TF_SessionRun(session, junk, nullptr, nullptr, 0, &output, &result, 1, nullptr, 0, nullptr,
                status_);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  TF_DeleteBuffer(junk);

  // After close, runs fail and nothing crashes.
  TF_CloseSession(session, status_);
  TF_SessionRun(session, nullptr, &input, &ints, 1, &output, &result, 1, nullptr, 0, nullptr,
                status_);
  EXPECT_NE(TF_GetCode(status_), TF_OK);
  EXPECT_EQ(result, nullptr);
  TF_DeleteTensor(ints);
  TF_DeleteSession(session, status_);
}

TEST_F(GraphTest, RunMetadataAndTargets) {
  TF_Operation* x = Placeholder("x");
  TF_Operation* y = Add("y", x, Const("c", 1, 2));
  TF_Session* session = TF_NewSession(graph_, nullptr, status_);
  // RunOptions { trace_level: FULL_TRACE }
  const unsigned char full_trace[] = {0x08, 0x03};
  TF_Buffer* options = TF_NewBufferFromString(full_trace, sizeof(full_trace));
  TF_Buffer* metadata = TF_NewBuffer();
  const int64_t dims[] = {2};
  TF_Tensor* feed = TF_AllocateTensor(TF_FLOAT, dims, 1, 8);
  TF_Output input{x, 0};
  const TF_Operation* target = y;
  TF_SessionRun(session, options, &input, &feed, 1, nullptr, nullptr, 0, &target, 1, metadata,
                status_);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);
  sluice::RunMetadata parsed;
  ASSERT_TRUE(parsed.ParseFromArray(metadata->data, static_cast<int>(metadata->length)));
  EXPECT_TRUE(parsed.has_step_stats());
  TF_DeleteTensor(feed);
  TF_DeleteBuffer(metadata);
  TF_DeleteBuffer(options);
  TF_DeleteSession(session, status_);
}

TEST_F(GraphTest, ConcurrentRunsOnOneSession) {
  TF_Operation* x = Placeholder("x");
  TF_Operation* y = Add("y", x, Const("c", 1, 2));
  TF_Session* session = TF_NewSession(graph_, nullptr, status_);
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        std::vector<float> got = Run(session, x, y, t, i);
        if (got != std::vector<float>{t + 1.0f, i + 2.0f}) ++wrong;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
  TF_DeleteSession(session, status_);
}

TEST_F(GraphTest, StringTensorsRoundTripThroughARun) {
  TF_OperationDescription* desc = TF_NewOperation(graph_, "Placeholder", "s");
  TF_SetAttrType(desc, "dtype", TF_STRING);
  TF_Operation* s = TF_FinishOperation(desc, status_);
  desc = TF_NewOperation(graph_, "Identity", "out");
  TF_AddInput(desc, TF_Output{s, 0});
  TF_Operation* out = TF_FinishOperation(desc, status_);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);

  const int64_t dims[] = {3};
  TF_Tensor* feed = TF_AllocateTensor(TF_STRING, dims, 1, 3 * sizeof(TF_TString));
  auto* strings = static_cast<TF_TString*>(TF_TensorData(feed));
  const std::string large(40, 'L');
  TF_TString_Copy(&strings[0], "", 0);
  TF_TString_Copy(&strings[1], "hi", 2);
  TF_TString_Copy(&strings[2], large.data(), large.size());
  TF_Session* session = TF_NewSession(graph_, nullptr, status_);
  TF_Output input{s, 0};
  TF_Output output{out, 0};
  TF_Tensor* result = nullptr;
  TF_SessionRun(session, nullptr, &input, &feed, 1, &output, &result, 1, nullptr, 0, nullptr,
                status_);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << Message(status_);
  ASSERT_EQ(TF_TensorType(result), TF_STRING);
  ASSERT_EQ(TF_TensorElementCount(result), 3);
  auto* got = static_cast<TF_TString*>(TF_TensorData(result));
  EXPECT_EQ(TF_TString_GetSize(&got[0]), 0u);
  EXPECT_EQ(std::string(TF_TString_GetDataPointer(&got[1]), TF_TString_GetSize(&got[1])), "hi");
  EXPECT_EQ(std::string(TF_TString_GetDataPointer(&got[2]), TF_TString_GetSize(&got[2])), large);
  TF_DeleteTensor(result);
  TF_DeleteTensor(feed);
  TF_DeleteSession(session, status_);
}

TEST_F(GraphTest, GraphOutlivesItsDeletionWhileASessionHoldsIt) {
  TF_Operation* x = Placeholder("x");
  TF_Operation* y = Add("y", x, Const("c", 1, 2));
  TF_Session* session = TF_NewSession(graph_, nullptr, status_);
  TF_DeleteGraph(graph_);
  EXPECT_EQ(Run(session, x, y, 0, 0), (std::vector<float>{1, 2}));
  TF_DeleteSession(session, status_);  // deletes the graph too
  graph_ = TF_NewGraph();              // for TearDown
}

TEST(LibraryTest, VersionOpListAndKernels) {
  EXPECT_STREQ(TF_Version(), "2.21.0");
  TF_Buffer* ops = TF_GetAllOpList();
  sluice::OpList list;
  ASSERT_TRUE(list.ParseFromArray(ops->data, static_cast<int>(ops->length)));
  bool has_matmul = false;
  for (const auto& op : list.op()) has_matmul |= op.name() == "MatMul";
  EXPECT_TRUE(has_matmul);
  TF_DeleteBuffer(ops);
  StatusPtr s(TF_NewStatus());
  TF_Buffer* kernels = TF_GetRegisteredKernelsForOp("MatMul", s.get());
  ASSERT_EQ(TF_GetCode(s.get()), TF_OK);
  EXPECT_GT(kernels->length, 0u);
  TF_DeleteBuffer(kernels);
  EXPECT_EQ(TF_LoadLibrary("/nonexistent/libnothing.so", s.get()), nullptr);
  EXPECT_EQ(TF_GetCode(s.get()), TF_NOT_FOUND);
}

TEST(UnimplementedTest, FailCleanlyNamingTheFunction) {
  StatusPtr s(TF_NewStatus());
  EXPECT_EQ(TF_NewServer(nullptr, 0, s.get()), nullptr);
  EXPECT_EQ(TF_GetCode(s.get()), TF_UNIMPLEMENTED);
  EXPECT_NE(Message(s.get()).find("TF_NewServer"), std::string::npos);
  TF_ServerStart(nullptr, s.get());
  EXPECT_EQ(TF_GetCode(s.get()), TF_UNIMPLEMENTED);
  EXPECT_NE(Message(s.get()).find("TF_ServerStart"), std::string::npos);
}

}  // namespace
