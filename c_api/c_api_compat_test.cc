// What programs written for TensorFlow's C API rely on, through the public functions only:
// TF_GraphNextOperation's positions (printed by third-party programs such as
// examples/third_party/hello_tf_c_api), and the ConfigProto fields given to TF_SetConfig,
// each shown by its effect: devices listed, threads made, nodes' threads in the step stats,
// the placement log on stderr, soft placement, and deadlines. Expected codes and messages are
// TensorFlow 2.21's.
#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "proto/config.pb.h"
#include "proto/step_stats.pb.h"
#include "runtime/device/core_budget.h"
#include "tensorflow/c/c_api.h"

namespace {

constexpr char kCpu0[] = "/job:localhost/replica:0/task:0/device:CPU:0";
constexpr char kCpu1[] = "/job:localhost/replica:0/task:0/device:CPU:1";

// Threads of this process now.
int ThreadCount() {
  DIR* dir = opendir("/proc/self/task");
  if (dir == nullptr) return -1;
  int count = 0;
  while (const dirent* entry = readdir(dir)) {
    if (entry->d_name[0] != '.') ++count;
  }
  closedir(dir);
  return count;
}

// Threads of this process once the count holds still. A thread that was just joined can
// linger in /proc/self/task for a moment after pthread_join returns (the kernel clears the
// joiner's wait before it reaps the task), more so under ASan; a count taken right after
// another session closed would include it.
int SettledThreadCount() {
  int count = ThreadCount();
  for (int attempt = 0; attempt < 200; ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const int again = ThreadCount();
    if (again == count) return count;
    count = again;
  }
  return count;
}

// Everything written to file descriptor `fd` (stdout or stderr) while it lives.
class CaptureFd {
 public:
  explicit CaptureFd(int fd) : fd_(fd), file_(std::tmpfile()) {
    std::fflush(nullptr);
    saved_ = dup(fd_);
    dup2(fileno(file_), fd_);
  }
  ~CaptureFd() { Release(); }

  // Restores the descriptor and returns what was written to it.
  std::string Release() {
    if (file_ == nullptr) return text_;
    std::fflush(nullptr);
    dup2(saved_, fd_);
    close(saved_);
    std::rewind(file_);
    char buffer[4096];
    size_t n;
    while ((n = std::fread(buffer, 1, sizeof(buffer), file_)) > 0) text_.append(buffer, n);
    std::fclose(file_);
    file_ = nullptr;
    return text_;
  }

 private:
  const int fd_;
  std::FILE* file_;
  int saved_ = -1;
  std::string text_;
};

// Pins CoreBudget's free cores for the life of the object.
struct FreeCoresPinned {
  explicit FreeCoresPinned(int cores) { sluice::CoreBudget::Get().PinFreeCoresForTesting(cores); }
  ~FreeCoresPinned() { sluice::CoreBudget::Get().PinFreeCoresForTesting(0); }
};

class CompatTest : public ::testing::Test {
 protected:
  ~CompatTest() override {
    TF_DeleteGraph(graph_);
    TF_DeleteStatus(status_);
  }

  std::string Message() const { return TF_Message(status_); }

  TF_Operation* Finish(TF_OperationDescription* desc) {
    TF_Operation* op = TF_FinishOperation(desc, status_);
    EXPECT_EQ(TF_GetCode(status_), TF_OK) << Message();
    return op;
  }

  // A float scalar constant.
  TF_Operation* Const(const char* name, float value, const char* device = "") {
    TF_Tensor* tensor = TF_AllocateTensor(TF_FLOAT, nullptr, 0, sizeof(float));
    *static_cast<float*>(TF_TensorData(tensor)) = value;
    return ConstOf(name, tensor, device);
  }
  // A [n, n] float tensor whose every element is `value`.
  static TF_Tensor* MatrixTensor(int64_t n, float value) {
    const int64_t dims[] = {n, n};
    TF_Tensor* tensor = TF_AllocateTensor(TF_FLOAT, dims, 2, n * n * sizeof(float));
    float* data = static_cast<float*>(TF_TensorData(tensor));
    for (int64_t i = 0; i < n * n; ++i) data[i] = value;
    return tensor;
  }
  TF_Operation* Placeholder(const char* name, TF_DataType dtype) {
    TF_OperationDescription* desc = TF_NewOperation(graph_, "Placeholder", name);
    TF_SetAttrType(desc, "dtype", dtype);
    return Finish(desc);
  }
  TF_Operation* ConstOf(const char* name, TF_Tensor* tensor, const char* device) {
    TF_OperationDescription* desc = TF_NewOperation(graph_, "Const", name);
    TF_SetAttrTensor(desc, "value", tensor, status_);
    EXPECT_EQ(TF_GetCode(status_), TF_OK) << Message();
    TF_SetAttrType(desc, "dtype", TF_TensorType(tensor));
    TF_SetDevice(desc, device);
    TF_DeleteTensor(tensor);
    return Finish(desc);
  }
  TF_Operation* Binary(const char* op_type, const char* name, TF_Operation* a, TF_Operation* b,
                       const char* device = "") {
    TF_OperationDescription* desc = TF_NewOperation(graph_, op_type, name);
    TF_AddInput(desc, TF_Output{a, 0});
    TF_AddInput(desc, TF_Output{b, 0});
    TF_SetDevice(desc, device);
    return Finish(desc);
  }
  TF_Operation* Identity(const char* name, TF_Operation* x, const char* device) {
    return Unary("Identity", name, x, device);
  }
  TF_Operation* Unary(const char* op_type, const char* name, TF_Operation* x,
                      const char* device = "") {
    TF_OperationDescription* desc = TF_NewOperation(graph_, op_type, name);
    TF_AddInput(desc, TF_Output{x, 0});
    TF_SetDevice(desc, device);
    return Finish(desc);
  }

  // A session over graph_ with `config` given through TF_SetConfig; null on error (status_).
  TF_Session* NewSession(const sluice::ConfigProto& config) {
    const std::string bytes = config.SerializeAsString();
    TF_SessionOptions* options = TF_NewSessionOptions();
    TF_SetConfig(options, bytes.data(), bytes.size(), status_);
    EXPECT_EQ(TF_GetCode(status_), TF_OK) << Message();
    TF_Session* session = TF_NewSession(graph_, options, status_);
    TF_DeleteSessionOptions(options);
    return session;
  }
  void DeleteSession(TF_Session* session) {
    TF_CloseSession(session, status_);
    TF_DeleteSession(session, status_);
    EXPECT_EQ(TF_GetCode(status_), TF_OK) << Message();
  }

  // The threads a session with `config` adds while it lives.
  int ThreadsOfSession(const sluice::ConfigProto& config) {
    const int before = SettledThreadCount();
    TF_Session* session = NewSession(config);
    EXPECT_NE(session, nullptr) << Message();
    const int after = SettledThreadCount();
    if (session != nullptr) DeleteSession(session);
    return after - before;
  }

  // Runs `fetches` with `run_options`; the float value of each output (the first element),
  // or an empty vector on error (status_). `metadata`, if given, receives the RunMetadata.
  std::vector<float> Run(TF_Session* session, const std::vector<TF_Output>& fetches,
                         const sluice::RunOptions& run_options = {},
                         sluice::RunMetadata* metadata = nullptr,
                         const std::vector<std::pair<TF_Output, TF_Tensor*>>& feeds = {}) {
    const std::string options_bytes = run_options.SerializeAsString();
    TF_Buffer* options = TF_NewBufferFromString(options_bytes.data(), options_bytes.size());
    TF_Buffer* metadata_buffer = metadata == nullptr ? nullptr : TF_NewBuffer();
    std::vector<TF_Output> inputs;
    std::vector<TF_Tensor*> input_values;
    for (const auto& feed : feeds) {
      inputs.push_back(feed.first);
      input_values.push_back(feed.second);
    }
    std::vector<TF_Tensor*> outputs(fetches.size(), nullptr);
    TF_SessionRun(session, options, inputs.data(), input_values.data(),
                  static_cast<int>(inputs.size()), fetches.data(), outputs.data(),
                  static_cast<int>(fetches.size()), nullptr, 0, metadata_buffer, status_);
    TF_DeleteBuffer(options);
    std::vector<float> values;
    if (TF_GetCode(status_) == TF_OK) {
      for (TF_Tensor* output : outputs) {
        values.push_back(TF_TensorType(output) == TF_INT32
                             ? static_cast<float>(*static_cast<int32_t*>(TF_TensorData(output)))
                             : *static_cast<float*>(TF_TensorData(output)));
        TF_DeleteTensor(output);
      }
      if (metadata != nullptr) {
        EXPECT_TRUE(metadata->ParseFromArray(metadata_buffer->data,
                                             static_cast<int>(metadata_buffer->length)));
      }
    }
    TF_DeleteBuffer(metadata_buffer);
    return values;
  }

  // The distinct threads that ran the nodes of a step of WideGraph (RunMetadata's step stats).
  std::set<uint32_t> NodeThreads(TF_Session* session, const std::vector<TF_Output>& fetches,
                                 sluice::RunOptions run_options) {
    run_options.set_trace_level(sluice::RunOptions::FULL_TRACE);
    sluice::RunMetadata metadata;
    TF_Tensor* matrix = MatrixTensor(kWideSize, 1);
    Run(session, fetches, run_options, &metadata, {{TF_Output{wide_input_, 0}, matrix}});
    TF_DeleteTensor(matrix);
    EXPECT_EQ(TF_GetCode(status_), TF_OK) << Message();
    std::set<uint32_t> threads;
    for (const auto& device : metadata.step_stats().dev_stats()) {
      for (const auto& node : device.node_stats()) threads.insert(node.thread_id());
    }
    EXPECT_FALSE(threads.empty());
    return threads;
  }

  // The side of WideGraph's matrices: each product takes a millisecond or more, so that a step
  // lasts long enough for a second thread to be woken and scheduled even when every core is
  // busy with other tests and builds (at 128 a step was over before it ran, and a cold CI-like
  // run saw 20 steps in a row on one thread).
  static constexpr int64_t kWideSize = 384;

  // Sixteen independent kWideSize-square MatMuls of one fed matrix (fed, so that they are not
  // folded into constants before the step): work for many threads at once.
  std::vector<TF_Output> WideGraph() {
    wide_input_ = Placeholder("m", TF_FLOAT);
    std::vector<TF_Output> fetches;
    for (int i = 0; i < 16; ++i) {
      const std::string name = "product" + std::to_string(i);
      fetches.push_back(TF_Output{Binary("MatMul", name.c_str(), wide_input_, wide_input_), 0});
    }
    return fetches;
  }

  TF_Status* status_ = TF_NewStatus();
  TF_Graph* graph_ = TF_NewGraph();
  TF_Operation* wide_input_ = nullptr;
};

// TensorFlow's TF_GraphNextOperation leaves *pos at the id of the operation it returns (ids 0
// and 1 are the source and sink), and programs print it.
TEST_F(CompatTest, NextOperationPositionIsTheOperationsId) {
  TF_Operation* a = Const("a", 1);
  TF_Operation* b = Const("b", 2);
  Binary("AddV2", "c", a, b);
  size_t pos = 0;
  std::vector<std::pair<size_t, std::string>> seen;
  while (TF_Operation* op = TF_GraphNextOperation(graph_, &pos)) {
    seen.emplace_back(pos, TF_OperationName(op));
  }
  EXPECT_EQ(seen, (std::vector<std::pair<size_t, std::string>>{{2, "a"}, {3, "b"}, {4, "c"}}));
  EXPECT_EQ(pos, 5u);
  // Resuming from a position gives the operations after it.
  pos = 2;
  TF_Operation* next = TF_GraphNextOperation(graph_, &pos);
  ASSERT_NE(next, nullptr);
  EXPECT_STREQ(TF_OperationName(next), "b");
  EXPECT_EQ(pos, 3u);
}

// device_count {key: "CPU" value: n}: n CPU devices, listed in order.
TEST_F(CompatTest, DeviceCountGivesThatManyCpuDevices) {
  Const("a", 1);
  for (int n : {1, 2, 3}) {
    sluice::ConfigProto config;
    (*config.mutable_device_count())["CPU"] = n;
    TF_Session* session = NewSession(config);
    ASSERT_NE(session, nullptr) << Message();
    TF_DeviceList* devices = TF_SessionListDevices(session, status_);
    ASSERT_EQ(TF_GetCode(status_), TF_OK) << Message();
    int cpus = 0;
    for (int i = 0; i < TF_DeviceListCount(devices); ++i) {
      const std::string type = TF_DeviceListType(devices, i, status_);
      if (type != "CPU") continue;
      EXPECT_EQ(TF_DeviceListName(devices, i, status_),
                "/job:localhost/replica:0/task:0/device:CPU:" + std::to_string(cpus));
      EXPECT_EQ(TF_DeviceListMemoryBytes(devices, i, status_), 268435456);
      ++cpus;
    }
    EXPECT_EQ(cpus, n);
    TF_DeleteDeviceList(devices);
    DeleteSession(session);
  }
}

// device_count {key: "CPU" value: 0}: no session, as in TensorFlow.
TEST_F(CompatTest, NoCpuDeviceIsNotFound) {
  sluice::ConfigProto config;
  (*config.mutable_device_count())["CPU"] = 0;
  TF_Session* session = NewSession(config);
  EXPECT_EQ(session, nullptr);
  EXPECT_EQ(TF_GetCode(status_), TF_NOT_FOUND);
  EXPECT_EQ(Message(), "No CPU devices are available in this process");
}

// log_device_placement: one line per node, "name: (Op): device", on stderr when the step is
// placed; nothing without it. A second CPU device takes the node pinned to it.
TEST_F(CompatTest, LogDevicePlacementWritesEachNodesDevice) {
  TF_Operation* a = Const("a", 1);
  TF_Operation* b = Const("b", 2);
  TF_Operation* c = Binary("AddV2", "c", a, b, "/device:CPU:1");
  for (bool log : {false, true}) {
    sluice::ConfigProto config;
    (*config.mutable_device_count())["CPU"] = 2;
    config.set_log_device_placement(log);
    TF_Session* session = NewSession(config);
    ASSERT_NE(session, nullptr) << Message();
    CaptureFd stderr_capture(STDERR_FILENO);
    EXPECT_EQ(Run(session, {TF_Output{c, 0}}), std::vector<float>{3});
    const std::string logged = stderr_capture.Release();
    EXPECT_EQ(TF_GetCode(status_), TF_OK) << Message();
    for (const std::string& line :
         {std::string("c: (AddV2): ") + kCpu1, std::string("a: (Const): ") + kCpu1,
          std::string("b: (Const): ") + kCpu1}) {
      EXPECT_EQ(logged.find(line) != std::string::npos, log) << "log " << log << ":\n" << logged;
    }
    DeleteSession(session);
  }
}

// allow_soft_placement: a node pinned to a device the session lacks fails the run with
// INVALID_ARGUMENT, unless soft placement puts it on one it has.
TEST_F(CompatTest, AllowSoftPlacementPlacesPinnedNodesElsewhere) {
  TF_Operation* five = Const("five", 5);
  TF_Operation* on_gpu = Identity("on_gpu", five, "/device:GPU:7");
  TF_Operation* on_cpu3 = Identity("on_cpu3", five, "/device:CPU:3");
  for (TF_Operation* pinned : {on_gpu, on_cpu3}) {
    const std::string name = TF_OperationName(pinned);
    for (bool soft : {false, true}) {
      sluice::ConfigProto config;
      config.set_allow_soft_placement(soft);
      config.set_log_device_placement(true);
      TF_Session* session = NewSession(config);
      ASSERT_NE(session, nullptr) << Message();
      CaptureFd stderr_capture(STDERR_FILENO);
      const std::vector<float> values = Run(session, {TF_Output{pinned, 0}});
      const std::string logged = stderr_capture.Release();
      if (soft) {
        EXPECT_EQ(TF_GetCode(status_), TF_OK) << name << ": " << Message();
        EXPECT_EQ(values, std::vector<float>{5});
        EXPECT_NE(logged.find(name + ": (Identity): " + kCpu0), std::string::npos) << logged;
      } else {
        EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT) << name;
        EXPECT_NE(Message().find("Cannot assign a device for operation " + name), std::string::npos)
            << Message();
      }
      DeleteSession(session);
    }
  }
}

// intra_op_parallelism_threads sizes the pool kernels split their work over;
// inter_op_parallelism_threads the pool nodes run on (one thread fewer than asked: the
// thread that calls Run runs nodes too; negative: no pool, nodes run on the caller).
TEST_F(CompatTest, ThreadCountsSizeThePools) {
  Const("a", 1);
  auto config = [](int intra, int inter) {
    sluice::ConfigProto c;
    c.set_intra_op_parallelism_threads(intra);
    c.set_inter_op_parallelism_threads(inter);
    return c;
  };
  const int intra3_inter2 = ThreadsOfSession(config(3, 2));
  EXPECT_EQ(ThreadsOfSession(config(7, 2)) - intra3_inter2, 4);
  EXPECT_EQ(ThreadsOfSession(config(3, 6)) - intra3_inter2, 4);
  EXPECT_EQ(ThreadsOfSession(config(3, -1)) - intra3_inter2, -1);
  EXPECT_GE(intra3_inter2, 4);
}

// inter_op_parallelism_threads 1 or -1: every node of a step runs on one thread; more: nodes
// that are ready together run on several.
TEST_F(CompatTest, InterOpThreadsRunNodesOnThatManyThreads) {
  // Nodes go to another thread only while a core is free (docs/threading.md); the suite's
  // other tests must not decide that.
  const FreeCoresPinned two_free_cores(2);
  const std::vector<TF_Output> fetches = WideGraph();
  for (int inter : {1, -1, 8}) {
    sluice::ConfigProto config;
    config.set_inter_op_parallelism_threads(inter);
    config.set_intra_op_parallelism_threads(1);
    TF_Session* session = NewSession(config);
    ASSERT_NE(session, nullptr) << Message();
    size_t most = 0;
    for (int attempt = 0; attempt < 20 && most < 2; ++attempt) {
      most = std::max(most, NodeThreads(session, fetches, {}).size());
    }
    if (inter == 8) {
      EXPECT_GE(most, 2u);
    } else {
      EXPECT_EQ(most, 1u) << "inter_op_parallelism_threads " << inter;
    }
    DeleteSession(session);
  }
}

// session_inter_op_thread_pool makes one pool per entry; RunOptions.inter_op_thread_pool picks
// one by index (-1: the calling thread). Other indexes are INVALID_ARGUMENT, as in TensorFlow,
// where a session without the field has one pool.
TEST_F(CompatTest, SessionInterOpThreadPoolsAreChosenPerRun) {
  const FreeCoresPinned two_free_cores(2);
  const std::vector<TF_Output> fetches = WideGraph();
  auto run_in_pool = [](int pool) {
    sluice::RunOptions options;
    options.set_inter_op_thread_pool(pool);
    return options;
  };
  {
    sluice::ConfigProto config;
    config.set_intra_op_parallelism_threads(1);
    TF_Session* session = NewSession(config);
    ASSERT_NE(session, nullptr) << Message();
    for (int pool : {0, -1}) {
      NodeThreads(session, fetches, run_in_pool(pool));
      EXPECT_EQ(TF_GetCode(status_), TF_OK) << Message();
    }
    for (int pool : {1, -2}) {
      EXPECT_TRUE(Run(session, fetches, run_in_pool(pool)).empty());
      EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
      EXPECT_EQ(Message(), "Invalid inter_op_thread_pool: " + std::to_string(pool));
    }
    DeleteSession(session);
  }
  sluice::ConfigProto config;
  config.set_intra_op_parallelism_threads(1);
  config.add_session_inter_op_thread_pool()->set_num_threads(1);
  config.add_session_inter_op_thread_pool()->set_num_threads(8);
  TF_Session* session = NewSession(config);
  ASSERT_NE(session, nullptr) << Message();
  for (int pool : {0, 1, -1}) {
    size_t most = 0;
    for (int attempt = 0; attempt < 20 && most < 2; ++attempt) {
      most = std::max(most, NodeThreads(session, fetches, run_in_pool(pool)).size());
    }
    if (pool == 1) {
      EXPECT_GE(most, 2u);
    } else {
      EXPECT_EQ(most, 1u) << "pool " << pool;
    }
  }
  TF_Tensor* matrix = MatrixTensor(kWideSize, 1);
  EXPECT_EQ(
      Run(session, {fetches[0]}, run_in_pool(1), nullptr, {{TF_Output{wide_input_, 0}, matrix}}),
      std::vector<float>{kWideSize});
  TF_DeleteTensor(matrix);
  EXPECT_TRUE(Run(session, fetches, run_in_pool(2)).empty());
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  EXPECT_EQ(Message(), "Invalid inter_op_thread_pool: 2");
  DeleteSession(session);
}

// A pool with a global_name is made once and shared by the sessions that name it; naming it
// with another size is INVALID_ARGUMENT.
TEST_F(CompatTest, GlobalInterOpPoolIsSharedByName) {
  Const("a", 1);
  sluice::ConfigProto config;
  config.set_intra_op_parallelism_threads(1);
  sluice::ThreadPoolOptionProto* pool = config.add_session_inter_op_thread_pool();
  pool->set_num_threads(4);
  pool->set_global_name("c_api_compat_test_pool");
  const int first = ThreadsOfSession(config);
  const int second = ThreadsOfSession(config);
  EXPECT_EQ(first - second, 3);
  pool->set_num_threads(5);
  EXPECT_EQ(NewSession(config), nullptr);
  EXPECT_EQ(TF_GetCode(status_), TF_INVALID_ARGUMENT);
  EXPECT_EQ(Message(),
            "Pool c_api_compat_test_pool configured previously with num_threads=4; cannot "
            "re-configure with num_threads=5");
}

// operation_timeout_in_ms (and RunOptions.timeout_in_ms): a step still running at the
// deadline ends with DEADLINE_EXCEEDED; the session stays usable. The step: x fed, then 400
// layers in a chain, x = Relu(x . A) (512x512, every element 1/512, so every layer gives x
// again).
TEST_F(CompatTest, OperationTimeoutEndsALongStep) {
  constexpr int64_t kSize = 512;
  constexpr float kValue = 1.0f / kSize;
  TF_Operation* x = Placeholder("x", TF_FLOAT);
  TF_Operation* a = ConstOf("a", MatrixTensor(kSize, kValue), "");
  TF_Operation* product = x;
  for (int i = 1; i <= 400; ++i) {
    const std::string name = "x" + std::to_string(i);
    product = Binary("MatMul", (name + "/MatMul").c_str(), product, a);
    product = Unary("Relu", name.c_str(), product);
  }
  TF_Operation* seven = Const("seven", 7);
  const TF_Output x_out{x, 0};
  const TF_Output second{TF_GraphOperationByName(graph_, "x2"), 0};

  for (bool in_config : {true, false}) {
    sluice::ConfigProto config;
    config.set_intra_op_parallelism_threads(1);
    sluice::RunOptions run_options;
    if (in_config) {
      config.set_operation_timeout_in_ms(300);
    } else {
      run_options.set_timeout_in_ms(300);
    }
    TF_Session* session = NewSession(config);
    ASSERT_NE(session, nullptr) << Message();
    TF_Tensor* input = MatrixTensor(kSize, kValue);
    // The chain's start ends in time, with the value it should have.
    EXPECT_EQ(Run(session, {second}, run_options, nullptr, {{x_out, input}}),
              std::vector<float>{kValue});
    EXPECT_EQ(TF_GetCode(status_), TF_OK) << Message();
    // The whole chain does not.
    const auto start = std::chrono::steady_clock::now();
    EXPECT_TRUE(
        Run(session, {TF_Output{product, 0}}, run_options, nullptr, {{x_out, input}}).empty());
    const auto elapsed = std::chrono::steady_clock::now() - start;
    TF_DeleteTensor(input);
    EXPECT_EQ(TF_GetCode(status_), TF_DEADLINE_EXCEEDED) << Message();
    EXPECT_EQ(Message(), "Timed out waiting for notification");
    EXPECT_GE(elapsed, std::chrono::milliseconds(300));
    EXPECT_LT(elapsed, std::chrono::seconds(20));
    EXPECT_EQ(Run(session, {TF_Output{seven, 0}}, run_options), std::vector<float>{7});
    DeleteSession(session);
  }
}

}  // namespace
