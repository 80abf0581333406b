// Debug watches through the C API: TF_SessionRun's run_options buffer is a serialized
// RunOptions, so its debug_options dump the watched tensors (tfdbg v1 files) as TensorFlow's
// C API does, and a URL Sluice does not serve is refused with its code.
#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "proto/config.pb.h"
#include "tensorflow/c/c_api.h"

namespace {

namespace fs = std::filesystem;

constexpr char kDeviceFolder[] = "_tfdbg_device_,job_localhost,replica_0,task_0,device_CPU_0";

struct TensorDeleter {
  void operator()(TF_Tensor* t) const { TF_DeleteTensor(t); }
};
using TensorPtr = std::unique_ptr<TF_Tensor, TensorDeleter>;

TensorPtr Scalar(float value) {
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, nullptr, 0, sizeof(float));
  *static_cast<float*>(TF_TensorData(t)) = value;
  return TensorPtr(t);
}

// Every file under `root`, relative, with a tensor dump's "_<micros>" cut off, sorted.
std::vector<std::string> Stems(const std::string& root) {
  std::vector<std::string> stems;
  if (!fs::exists(root)) return stems;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file()) continue;
    const std::string path = fs::relative(entry.path(), root).string();
    const bool metadata = entry.path().filename().string().rfind("_tfdbg_", 0) == 0;
    stems.push_back(metadata ? path : path.substr(0, path.rfind('_')));
  }
  std::sort(stems.begin(), stems.end());
  return stems;
}

// y = x * 2 in "scope/y", z = y * 2.
class CApiDebugTest : public ::testing::Test {
 protected:
  void SetUp() override {
    graph_ = TF_NewGraph();
    status_ = TF_NewStatus();
    TF_OperationDescription* x = TF_NewOperation(graph_, "Placeholder", "x");
    TF_SetAttrType(x, "dtype", TF_FLOAT);
    x_ = Finish(x);
    TensorPtr two = Scalar(2);
    TF_OperationDescription* c = TF_NewOperation(graph_, "Const", "two");
    TF_SetAttrTensor(c, "value", two.get(), status_);
    TF_SetAttrType(c, "dtype", TF_FLOAT);
    TF_Operation* constant = Finish(c);
    TF_Operation* y = Mul("scope/y", x_, constant);
    z_ = Mul("z", y, constant);
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

  TF_Operation* Finish(TF_OperationDescription* desc) {
    TF_Operation* op = TF_FinishOperation(desc, status_);
    EXPECT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
    return op;
  }

  TF_Operation* Mul(const char* name, TF_Operation* a, TF_Operation* b) {
    TF_OperationDescription* desc = TF_NewOperation(graph_, "Mul", name);
    TF_AddInput(desc, TF_Output{a, 0});
    TF_AddInput(desc, TF_Output{b, 0});
    return Finish(desc);
  }

  // Runs z from x = 3 with `run_options` serialized into the buffer; z's value, or -1.
  float Run(const sluice::RunOptions& run_options) {
    const std::string bytes = run_options.SerializeAsString();
    TF_Buffer* buffer = TF_NewBufferFromString(bytes.data(), bytes.size());
    TensorPtr x = Scalar(3);
    TF_Output input{x_, 0};
    TF_Tensor* input_value = x.get();
    TF_Output output{z_, 0};
    TF_Tensor* output_value = nullptr;
    TF_SessionRun(session_, buffer, &input, &input_value, 1, &output, &output_value, 1, nullptr, 0,
                  nullptr, status_);
    TF_DeleteBuffer(buffer);
    if (output_value == nullptr) return -1;
    const float z = *static_cast<const float*>(TF_TensorData(output_value));
    TF_DeleteTensor(output_value);
    return z;
  }

  static sluice::RunOptions Watch(const std::string& node, const std::string& url) {
    sluice::RunOptions options;
    sluice::DebugTensorWatch* watch =
        options.mutable_debug_options()->add_debug_tensor_watch_opts();
    watch->set_node_name(node);
    watch->add_debug_ops("DebugIdentity");
    watch->add_debug_ops("DebugNumericSummary");
    watch->add_debug_urls(url);
    return options;
  }

  TF_Graph* graph_ = nullptr;
  TF_Status* status_ = nullptr;
  TF_Session* session_ = nullptr;
  TF_Operation* x_ = nullptr;
  TF_Operation* z_ = nullptr;
};

TEST_F(CApiDebugTest, RunOptionsWatchesWriteDumps) {
  const std::string root = ::testing::TempDir() + "/c_api_debug_dump";
  fs::remove_all(root);
  EXPECT_EQ(Run(Watch("scope/y", "file://" + root)), 12.0f);
  ASSERT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
  const std::vector<std::string> stems = Stems(root);
  ASSERT_EQ(stems.size(), 4u);
  EXPECT_EQ(stems[0].rfind("_tfdbg_core_metadata_sessionrun", 0), 0u) << stems[0];
  const std::string device = std::string(kDeviceFolder) + "/";
  EXPECT_EQ(stems[1].rfind(device + "_tfdbg_graph_hash", 0), 0u) << stems[1];
  EXPECT_EQ(stems[2], device + "scope/y_0_DebugIdentity");
  EXPECT_EQ(stems[3], device + "scope/y_0_DebugNumericSummary");
}

TEST_F(CApiDebugTest, GrpcUrlsAreUnimplemented) {
  EXPECT_EQ(Run(Watch("scope/y", "grpc://localhost:6064")), -1.0f);
  EXPECT_EQ(TF_GetCode(status_), TF_UNIMPLEMENTED) << TF_Message(status_);
  // The session still runs without watches.
  EXPECT_EQ(Run(sluice::RunOptions()), 12.0f);
  EXPECT_EQ(TF_GetCode(status_), TF_OK) << TF_Message(status_);
}

}  // namespace
