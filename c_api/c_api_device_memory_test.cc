// Device-resident tensors and callables through the C API (sluice_device_memory.h), on the
// fake GPU (runtime/session/fake_gpu_device.h): its "device memory" is host memory that the
// test may read, and it counts every copy, so a chain of runs can be seen to stay on the
// device.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "proto/config.pb.h"
#include "runtime/session/fake_gpu_device.h"
#include "tensorflow/c/c_api.h"
#include "tensorflow/c/sluice_device_memory.h"

namespace {

constexpr char kGpu[] = "/job:localhost/replica:0/task:0/device:GPU:0";

struct Freed {
  int calls = 0;
  void* data = nullptr;
};

void CountFree(void* data, size_t, void* arg) {
  auto* freed = static_cast<Freed*>(arg);
  ++freed->calls;
  freed->data = data;
}

class DeviceMemoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    status_ = TF_NewStatus();
    graph_ = TF_NewGraph();
    // x (float, fed) -> y = Identity(x) on the GPU, which forwards the buffer it is given;
    // n (int32, fed) -> m = Identity(n) on the GPU, in host memory there.
    x_ = Op("Placeholder", "x", nullptr, TF_FLOAT);
    y_ = Op("Identity", "y", x_, TF_FLOAT);
    n_ = Op("Placeholder", "n", nullptr, TF_INT32);
    m_ = Op("Identity", "m", n_, TF_INT32);
    TF_SessionOptions* options = TF_NewSessionOptions();
    session_ = TF_NewSession(graph_, options, status_);
    TF_DeleteSessionOptions(options);
    ASSERT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
  }

  void TearDown() override {
    TF_DeleteSession(session_, status_);
    TF_DeleteGraph(graph_);
    TF_DeleteStatus(status_);
  }

  TF_Operation* Op(const char* op, const char* name, TF_Operation* input, TF_DataType dtype) {
    TF_OperationDescription* desc = TF_NewOperation(graph_, op, name);
    if (input != nullptr) {
      TF_AddInput(desc, TF_Output{input, 0});
      TF_SetAttrType(desc, "T", dtype);
      TF_SetDevice(desc, "/device:GPU:0");
    } else {
      TF_SetAttrType(desc, "dtype", dtype);
    }
    TF_Operation* operation = TF_FinishOperation(desc, status_);
    EXPECT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
    return operation;
  }

  // A callable feeding `feeds` and fetching `fetches`, each on the GPU when `on_gpu`.
  int64_t MakeCallable(const std::vector<std::string>& feeds,
                       const std::vector<std::string>& fetches, bool on_gpu) {
    sluice::CallableOptions options;
    for (const std::string& feed : feeds) {
      options.add_feed(feed);
      if (on_gpu) (*options.mutable_feed_devices())[feed] = "/device:GPU:0";
    }
    for (const std::string& fetch : fetches) {
      options.add_fetch(fetch);
      if (on_gpu) (*options.mutable_fetch_devices())[fetch] = "/device:GPU:0";
    }
    options.set_fetch_skip_sync(true);
    const std::string bytes = options.SerializeAsString();
    TF_Buffer* buffer = TF_NewBufferFromString(bytes.data(), bytes.size());
    int64_t handle = -1;
    TF_SessionMakeCallable(session_, buffer, &handle, status_);
    TF_DeleteBuffer(buffer);
    EXPECT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
    return handle;
  }

  TF_Tensor* DeviceFloats(float* data, int64_t n, Freed* freed) {
    const int64_t dims[] = {n};
    TF_Tensor* t = TF_NewTensorFromDeviceMemory(session_, "/device:GPU:0", TF_FLOAT, dims, 1, data,
                                                n * sizeof(float), CountFree, freed, status_);
    EXPECT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
    return t;
  }

  TF_Status* status_ = nullptr;
  TF_Graph* graph_ = nullptr;
  TF_Session* session_ = nullptr;
  TF_Operation* x_ = nullptr;
  TF_Operation* y_ = nullptr;
  TF_Operation* n_ = nullptr;
  TF_Operation* m_ = nullptr;
};

// A device tensor fed to a GPU callable is the step's value, and the fetch comes back as a
// device tensor over the same bytes (Identity forwards): no copy either way, step after step.
TEST_F(DeviceMemoryTest, ChainedRunsStayInDeviceMemory) {
  const int64_t handle = MakeCallable({"x:0"}, {"y:0"}, /*on_gpu=*/true);
  auto* memory = static_cast<float*>(std::aligned_alloc(64, 64 * sizeof(float)));
  for (int i = 0; i < 64; ++i) memory[i] = 0.25f * i;
  Freed freed;
  TF_Tensor* value = DeviceFloats(memory, 64, &freed);
  ASSERT_NE(value, nullptr);
  EXPECT_STREQ(TF_TensorBackingDeviceName(value), kGpu);

  const int64_t h2d = sluice::fake_gpu::HostToDeviceCopies();
  const int64_t d2h = sluice::fake_gpu::DeviceToHostCopies();
  for (int step = 0; step < 3; ++step) {
    TF_Tensor* fetched = nullptr;
    TF_SessionRunCallable(session_, handle, &value, 1, &fetched, 1, nullptr, status_);
    ASSERT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
    ASSERT_NE(fetched, nullptr);
    EXPECT_STREQ(TF_TensorBackingDeviceName(fetched), kGpu);
    EXPECT_EQ(TF_TensorData(fetched), memory);
    EXPECT_EQ(TF_TensorByteSize(fetched), 64 * sizeof(float));
    ASSERT_EQ(TF_NumDims(fetched), 1);
    EXPECT_EQ(TF_Dim(fetched, 0), 64);
    TF_DeleteTensor(value);
    value = fetched;  // the next step's feed
  }
  EXPECT_EQ(sluice::fake_gpu::HostToDeviceCopies() - h2d, 0);
  EXPECT_EQ(sluice::fake_gpu::DeviceToHostCopies() - d2h, 0);
  EXPECT_EQ(freed.calls, 0);  // the last fetch still holds the bytes
  TF_DeleteTensor(value);
  EXPECT_EQ(freed.calls, 1);
  EXPECT_EQ(freed.data, memory);
  std::free(memory);

  TF_SessionReleaseCallable(session_, handle, status_);
  EXPECT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
}

// int32 values live in host memory on GPUs, whatever the callable says; a host callable's
// fetches are host tensors, with no backing device.
TEST_F(DeviceMemoryTest, Int32AndHostCallablesUseHostTensors) {
  const int64_t gpu = MakeCallable({"n:0"}, {"m:0"}, /*on_gpu=*/true);
  const int64_t dims[] = {2};
  TF_Tensor* n = TF_AllocateTensor(TF_INT32, dims, 1, 2 * sizeof(int32_t));
  static_cast<int32_t*>(TF_TensorData(n))[0] = 7;
  static_cast<int32_t*>(TF_TensorData(n))[1] = -3;
  TF_Tensor* m = nullptr;
  TF_SessionRunCallable(session_, gpu, &n, 1, &m, 1, nullptr, status_);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
  EXPECT_EQ(TF_TensorBackingDeviceName(m), nullptr);
  EXPECT_EQ(static_cast<int32_t*>(TF_TensorData(m))[1], -3);
  TF_DeleteTensor(m);

  const int64_t host = MakeCallable({"x:0"}, {"y:0"}, /*on_gpu=*/false);
  const int64_t float_dims[] = {3};
  TF_Tensor* x = TF_AllocateTensor(TF_FLOAT, float_dims, 1, 3 * sizeof(float));
  for (int i = 0; i < 3; ++i) static_cast<float*>(TF_TensorData(x))[i] = 1.5f * i;
  TF_Tensor* y = nullptr;
  TF_Buffer* metadata = TF_NewBuffer();
  TF_SessionRunCallable(session_, host, &x, 1, &y, 1, metadata, status_);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
  EXPECT_EQ(TF_TensorBackingDeviceName(y), nullptr);
  EXPECT_EQ(static_cast<float*>(TF_TensorData(y))[2], 3.0f);
  sluice::RunMetadata parsed;
  EXPECT_TRUE(parsed.ParseFromArray(metadata->data, static_cast<int>(metadata->length)));
  TF_DeleteBuffer(metadata);
  TF_DeleteTensor(x);
  TF_DeleteTensor(y);
  TF_DeleteTensor(n);
}

// A tensor in the wrong memory never reaches a kernel, and bad arguments are errors that free
// the caller's memory at once.
TEST_F(DeviceMemoryTest, MisuseIsInvalidArgument) {
  float memory[16] = {};
  Freed freed;
  TF_Tensor* device = DeviceFloats(memory, 16, &freed);
  ASSERT_NE(device, nullptr);

  // TF_SessionRun reads its feeds on the host.
  TF_Output x{x_, 0};
  TF_Output y{y_, 0};
  TF_Tensor* out = nullptr;
  TF_SessionRun(session_, nullptr, &x, &device, 1, &y, &out, 1, nullptr, 0, nullptr, status_);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  EXPECT_NE(std::string(TF_Message(status_)).find("memory of " + std::string(kGpu)),
            std::string::npos)
      << TF_Message(status_);
  EXPECT_EQ(out, nullptr);

  // A GPU callable given a host tensor, a host callable given a device tensor.
  const int64_t gpu = MakeCallable({"x:0"}, {"y:0"}, /*on_gpu=*/true);
  const int64_t host = MakeCallable({"x:0"}, {"y:0"}, /*on_gpu=*/false);
  const int64_t dims[] = {16};
  TF_Tensor* on_host = TF_AllocateTensor(TF_FLOAT, dims, 1, 16 * sizeof(float));
  TF_SessionRunCallable(session_, gpu, &on_host, 1, &out, 1, nullptr, status_);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  EXPECT_NE(std::string(TF_Message(status_)).find("it is in host memory"), std::string::npos)
      << TF_Message(status_);
  TF_SessionRunCallable(session_, host, &device, 1, &out, 1, nullptr, status_);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  EXPECT_EQ(out, nullptr);
  // A null handle slot, wrong counts, null slots, unknown and released handles.
  const std::string no_options;
  TF_Buffer* empty = TF_NewBufferFromString(no_options.data(), 0);
  TF_SessionMakeCallable(session_, empty, nullptr, status_);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  TF_DeleteBuffer(empty);
  TF_SessionRunCallable(session_, gpu, &device, 1, &out, 0, nullptr, status_);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  TF_SessionRunCallable(session_, gpu, &device, 1, nullptr, 1, nullptr, status_);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  TF_SessionRunCallable(session_, gpu, nullptr, 1, &out, 1, nullptr, status_);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  TF_SessionRunCallable(session_, 12345, &device, 1, &out, 1, nullptr, status_);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  EXPECT_STREQ(TF_Message(status_), "No such callable handle: 12345");
  TF_SessionReleaseCallable(session_, gpu, status_);
  ASSERT_EQ(TF_GetCode(status_), TF_OK);
  TF_SessionRunCallable(session_, gpu, &device, 1, &out, 1, nullptr, status_);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  EXPECT_NE(std::string(TF_Message(status_)).find("after handle was released"), std::string::npos);
  TF_DeleteTensor(on_host);
  TF_DeleteTensor(device);
  EXPECT_EQ(freed.calls, 1);

  // TF_NewTensorFromDeviceMemory: a CPU, an unknown device, int32, too few bytes.
  struct Case {
    const char* device;
    TF_DataType dtype;
    size_t len;
    const char* says;
  };
  for (const Case& c : {Case{"/device:CPU:0", TF_FLOAT, 64, "is not a GPU"},
                        Case{"/device:GPU:7", TF_FLOAT, 64, "not one of the session's devices"},
                        Case{"/device:GPU:0", TF_INT32, 64, "host memory on GPUs"},
                        Case{"/device:GPU:0", TF_FLOAT, 60, "cannot hold 16 elements"}}) {
    Freed refused;
    TF_Tensor* t = TF_NewTensorFromDeviceMemory(session_, c.device, c.dtype, dims, 1, memory, c.len,
                                                CountFree, &refused, status_);
    EXPECT_EQ(t, nullptr) << c.says;
    EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT) << c.says;
    EXPECT_NE(std::string(TF_Message(status_)).find(c.says), std::string::npos)
        << TF_Message(status_);
    EXPECT_EQ(refused.calls, 1) << c.says;
  }
}

}  // namespace
