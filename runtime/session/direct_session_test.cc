// DirectSession end to end over small GraphDefs: signatures and the executor cache, feeds
// and fetches, every user-facing error, variables, two CPU devices, concurrency, tracing,
// deadlines and Close.
#include "runtime/session/direct_session.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/notification.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"
#include "gtest/gtest.h"
#include "runtime/device/session_options.h"
#include "runtime/framework/cancellation.h"
#include "runtime/framework/op_kernel.h"
#include "runtime/session/session.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;

// Test-only compute ops (real math kernels arrive in a later issue). Stateful, so that
// constant folding leaves them to the session's executors.
REGISTER_OP("DsTestAdd")
    .Input("x: float")
    .Input("y: float")
    .Output("z: float")
    .SetIsStateful()
    .SetShapeFn(shape_inference::UnchangedShape);
REGISTER_OP("DsTestFail")
    .Input("x: float")
    .Output("y: float")
    .SetIsStateful()
    .SetShapeFn(shape_inference::UnchangedShape);
REGISTER_OP("DsTestWaitForCancel")
    .Input("x: float")
    .Output("y: float")
    .SetIsStateful()
    .SetShapeFn(shape_inference::UnchangedShape);

class DsTestAddOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    const Tensor& y = ctx->input(1);
    OP_REQUIRES(ctx, x.shape() == y.shape(),
                errors::InvalidArgument("DsTestAdd needs equal shapes, got ",
                                        x.shape().DebugString(), " and ", y.shape().DebugString()));
    Tensor* z = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, x.shape(), &z));
    for (int64_t i = 0; i < x.NumElements(); ++i) {
      z->flat<float>()(i) = x.flat<float>()(i) + y.flat<float>()(i);
    }
  }
};
REGISTER_KERNEL_BUILDER(Name("DsTestAdd").Device(DEVICE_CPU), DsTestAddOp);

class DsTestFailOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext* ctx) override {
    OP_REQUIRES(ctx, ctx->input(0).flat<float>()(0) >= 0,
                errors::InvalidArgument("DsTestFail got a negative value"));
    ctx->set_output(0, ctx->input(0));
  }
};
REGISTER_KERNEL_BUILDER(Name("DsTestFail").Device(DEVICE_CPU), DsTestFailOp);

// Blocks until its step is cancelled (at most 20 s, so that a broken session fails the
// test instead of hanging it).
std::atomic<int> waiters_started{0};
class DsTestWaitForCancelOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext* ctx) override {
    ++waiters_started;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    CancellationManager* cm = ctx->cancellation_manager();
    while (cm != nullptr && !cm->IsCancelled() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    OP_REQUIRES(ctx, cm != nullptr && cm->IsCancelled(),
                errors::Internal("DsTestWaitForCancel was never cancelled"));
    ctx->SetStatus(errors::Cancelled("DsTestWaitForCancel cancelled"));
  }
};
REGISTER_KERNEL_BUILDER(Name("DsTestWaitForCancel").Device(DEVICE_CPU), DsTestWaitForCancelOp);

// Counts how many of its kind run at once (sleeping a little so that overlaps show).
REGISTER_OP("DsTestCountConcurrent")
    .Input("x: float")
    .Output("y: float")
    .SetIsStateful()
    .SetShapeFn(shape_inference::UnchangedShape);
std::atomic<int> concurrent_running{0};
std::atomic<int> concurrent_max{0};
class DsTestCountConcurrentOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext* ctx) override {
    const int now = ++concurrent_running;
    int seen = concurrent_max.load();
    while (now > seen && !concurrent_max.compare_exchange_weak(seen, now)) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    --concurrent_running;
    ctx->set_output(0, ctx->input(0));
  }
};
REGISTER_KERNEL_BUILDER(Name("DsTestCountConcurrent").Device(DEVICE_CPU), DsTestCountConcurrentOp);

GraphDef ParseGraph(const std::string& text) {
  GraphDef graph;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &graph)) << text;
  return graph;
}

std::string ConstNode(const std::string& name, float value, const std::string& device = "") {
  return absl::StrCat("node { name: '", name, "' op: 'Const' device: '", device,
                      "' attr { key: 'dtype' value { type: DT_FLOAT } } "
                      "attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape {} "
                      "float_val: ",
                      value, " } } } }\n");
}

// A Placeholder of float with shape [?,3] unless `shape` says otherwise.
std::string PlaceholderNode(const std::string& name, const std::string& device = "",
                            const std::string& shape = "dim { size: -1 } dim { size: 3 }") {
  return absl::StrCat("node { name: '", name, "' op: 'Placeholder' device: '", device,
                      "' attr { key: 'dtype' value { type: DT_FLOAT } } "
                      "attr { key: 'shape' value { shape { ",
                      shape, " } } } }\n");
}

std::string OpNode(const std::string& name, const std::string& op,
                   const std::vector<std::string>& inputs, const std::string& device = "",
                   const std::string& attrs = "") {
  std::string node =
      absl::StrCat("node { name: '", name, "' op: '", op, "' device: '", device, "' ");
  for (const std::string& input : inputs) absl::StrAppend(&node, "input: '", input, "' ");
  absl::StrAppend(&node, attrs, " }\n");
  return node;
}

const char kFloatT[] = "attr { key: 'T' value { type: DT_FLOAT } }";

Tensor Matrix(int rows, const std::vector<float>& values) {
  Tensor t(DT_FLOAT, TensorShape({rows, static_cast<int64_t>(values.size()) / rows}));
  for (size_t i = 0; i < values.size(); ++i) t.flat<float>()(i) = values[i];
  return t;
}

std::vector<float> Values(const Tensor& t) {
  std::vector<float> v;
  for (int64_t i = 0; i < t.NumElements(); ++i) v.push_back(t.flat<float>()(i));
  return v;
}

std::unique_ptr<Session> MakeSession(int num_cpus = 1, int64_t operation_timeout_ms = 0) {
  SessionOptions options;
  (*options.config.mutable_device_count())["CPU"] = num_cpus;
  options.config.set_operation_timeout_in_ms(operation_timeout_ms);
  std::unique_ptr<Session> session;
  absl::Status s = NewSession(options, &session);
  EXPECT_TRUE(s.ok()) << s;
  return session;
}

// x, y: Placeholders [?,3]; sum = DsTestAdd(x, y); out = Identity(sum).
GraphDef AddGraph(const std::string& x_device = "", const std::string& add_device = "") {
  return ParseGraph(PlaceholderNode("x", x_device) + PlaceholderNode("y") +
                    OpNode("sum", "DsTestAdd", {"x", "y"}, add_device) +
                    OpNode("out", "Identity", {"sum"}, add_device, kFloatT));
}

TEST(DirectSessionTest, FeedsAndFetches) {
  auto session = MakeSession();
  ASSERT_TRUE(session->Create(AddGraph()).ok());
  std::vector<Tensor> outputs;
  absl::Status s = session->Run({{"x", Matrix(1, {1, 2, 3})}, {"y:0", Matrix(1, {10, 20, 30})}},
                                {"out", "sum:0", "out"}, {}, &outputs);
  ASSERT_TRUE(s.ok()) << s;
  ASSERT_EQ(outputs.size(), 3u);
  EXPECT_EQ(Values(outputs[0]), (std::vector<float>{11, 22, 33}));
  EXPECT_EQ(Values(outputs[1]), (std::vector<float>{11, 22, 33}));
  EXPECT_EQ(Values(outputs[2]), (std::vector<float>{11, 22, 33}));
  EXPECT_EQ(outputs[0].shape(), TensorShape({1, 3}));
}

TEST(DirectSessionTest, ConstantsAndTargets) {
  auto session = MakeSession();
  ASSERT_TRUE(session
                  ->Create(ParseGraph(ConstNode("a", 1) + ConstNode("b", 2) +
                                      OpNode("c", "DsTestAdd", {"a", "b"}) +
                                      OpNode("noop", "NoOp", {"^c"})))
                  .ok());
  std::vector<Tensor> outputs;
  absl::Status s = session->Run({}, {"c"}, {"noop"}, &outputs);
  ASSERT_TRUE(s.ok()) << s;
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(outputs[0].flat<float>()(0), 3.0f);
  s = session->Run({}, {}, {"noop"}, &outputs);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_TRUE(outputs.empty());
  // No output vector is needed when nothing is fetched.
  s = session->Run(RunOptions(), {}, {}, {"noop"}, nullptr, nullptr);
  ASSERT_TRUE(s.ok()) << s;
  s = session->Run(RunOptions(), {}, {"c"}, {}, nullptr, nullptr);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
}

TEST(DirectSessionTest, CachesExecutorsPerSignature) {
  auto session = MakeSession();
  auto* direct = static_cast<DirectSession*>(session.get());
  ASSERT_TRUE(session->Create(AddGraph()).ok());
  std::vector<Tensor> outputs;
  ASSERT_TRUE(
      session
          ->Run({{"x", Matrix(1, {1, 1, 1})}, {"y", Matrix(1, {2, 2, 2})}}, {"out"}, {}, &outputs)
          .ok());
  // The same signature in another order reuses the executors; the feed order still counts.
  ASSERT_TRUE(session
                  ->Run({{"y", Matrix(1, {5, 5, 5})}, {"x", Matrix(1, {1, 2, 3})}}, {"out", "out"},
                        {}, &outputs)
                  .ok());
  EXPECT_EQ(direct->num_cached_signatures(), 1);
  EXPECT_EQ(Values(outputs[1]), (std::vector<float>{6, 7, 8}));
  ASSERT_TRUE(session->Run({{"sum", Matrix(1, {4, 4, 4})}}, {"out"}, {}, &outputs).ok());
  EXPECT_EQ(direct->num_cached_signatures(), 2);
  EXPECT_EQ(Values(outputs[0]), (std::vector<float>{4, 4, 4}));
  // Extend keeps the cache: new nodes cannot change what an old signature runs.
  ASSERT_TRUE(session->Extend(ParseGraph(OpNode("out2", "Identity", {"out"}, "", kFloatT))).ok());
  EXPECT_EQ(direct->num_cached_signatures(), 2);
  ASSERT_TRUE(session->Run({{"sum", Matrix(1, {1, 2, 3})}}, {"out2"}, {}, &outputs).ok());
  EXPECT_EQ(Values(outputs[0]), (std::vector<float>{1, 2, 3}));
}

TEST(DirectSessionTest, UnknownNames) {
  auto session = MakeSession();
  ASSERT_TRUE(session->Create(AddGraph()).ok());
  std::vector<Tensor> outputs;
  absl::Status s = session->Run({}, {"nope:0"}, {}, &outputs);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr("nope:0"));
  s = session->Run({{"ghost", Matrix(1, {1, 2, 3})}}, {"out"}, {}, &outputs);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr("ghost"));
  s = session->Run({}, {}, {"phantom"}, &outputs);
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr("phantom"));
  s = session->Run({}, {"out:7"}, {}, &outputs);
  EXPECT_EQ(s.code(), absl::StatusCode::kOutOfRange) << s;
  s = session->Run({}, {}, {}, &outputs);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_EQ(static_cast<DirectSession*>(session.get())->num_cached_signatures(), 0);
}

TEST(DirectSessionTest, UnfedPlaceholder) {
  auto session = MakeSession();
  ASSERT_TRUE(session->Create(AddGraph()).ok());
  std::vector<Tensor> outputs;
  absl::Status s = session->Run({{"y", Matrix(1, {1, 2, 3})}}, {"out"}, {}, &outputs);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_THAT(std::string(s.message()),
              HasSubstr("You must feed a value for placeholder tensor 'x' with dtype float and "
                        "shape [?,3]"));
  EXPECT_TRUE(outputs.empty());
}

TEST(DirectSessionTest, FeedContradictingPlaceholder) {
  auto session = MakeSession();
  ASSERT_TRUE(session->Create(AddGraph()).ok());
  std::vector<Tensor> outputs;
  Tensor ints(DT_INT32, TensorShape({1, 3}));
  absl::Status s = session->Run({{"y", Matrix(1, {1, 2, 3})}, {"x", ints}}, {"out"}, {}, &outputs);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_EQ(s.message(), "Expects arg[1] to be float but int32 is provided for Tensor x:0");
  s = session->Run({{"x", Matrix(1, {1, 2})}, {"y", Matrix(1, {1, 2, 3})}}, {"out"}, {}, &outputs);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_EQ(s.message(), "Cannot feed value of shape [1,2] for Tensor x:0, which has shape [?,3]");
  // A placeholder of unknown rank takes any shape.
  auto free_session = MakeSession();
  ASSERT_TRUE(free_session
                  ->Create(ParseGraph(PlaceholderNode("p", "", "unknown_rank: true") +
                                      OpNode("q", "Identity", {"p"}, "", kFloatT)))
                  .ok());
  s = free_session->Run({{"p", Matrix(2, {1, 2, 3, 4})}}, {"q"}, {}, &outputs);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(outputs[0].shape(), TensorShape({2, 2}));
}

TEST(DirectSessionTest, KernelErrorFailsOnlyThatStep) {
  auto session = MakeSession();
  ASSERT_TRUE(
      session
          ->Create(ParseGraph(PlaceholderNode("x", "", "") + OpNode("check", "DsTestFail", {"x"})))
          .ok());
  std::vector<Tensor> outputs;
  absl::Status s = session->Run({{"x", Tensor(-1.0f)}}, {"check"}, {}, &outputs);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr("DsTestFail got a negative value"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("{{node check}}"));
  s = session->Run({{"x", Tensor(2.0f)}}, {"check"}, {}, &outputs);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(outputs[0].flat<float>()(0), 2.0f);
}

TEST(DirectSessionTest, CreateAndExtend) {
  auto session = MakeSession();
  std::vector<Tensor> outputs;
  absl::Status s = session->Run({}, {"a"}, {}, &outputs);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  // An empty graph creates nothing; an invalid one is rejected whole.
  ASSERT_TRUE(session->Create(GraphDef()).ok());
  s = session->Create(ParseGraph(ConstNode("a", 1) + OpNode("b", "DsTestAdd", {"a", "zz"})));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  ASSERT_TRUE(session->Create(ParseGraph(ConstNode("a", 1))).ok());
  s = session->Create(ParseGraph(ConstNode("k", 1)));
  EXPECT_EQ(s.code(), absl::StatusCode::kAlreadyExists) << s;
  EXPECT_EQ(s.message(), "A Graph has already been created for this session.");
  s = session->Extend(ParseGraph(ConstNode("a", 5)));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr("includes node 'a'"));
  s = session->Extend(ParseGraph(OpNode("b", "Unknown_Op", {"a"})));
  EXPECT_FALSE(s.ok());
  ASSERT_TRUE(session->Run({}, {"a"}, {}, &outputs).ok());
  ASSERT_TRUE(
      session->Extend(ParseGraph(ConstNode("b", 2) + OpNode("c", "DsTestAdd", {"a", "b"}))).ok());
  s = session->Run({}, {"c", "a"}, {}, &outputs);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(outputs[0].flat<float>()(0), 3.0f);
  EXPECT_EQ(outputs[1].flat<float>()(0), 1.0f);
}

TEST(DirectSessionTest, RunAfterCloseIsCancelled) {
  auto session = MakeSession();
  ASSERT_TRUE(session->Create(ParseGraph(ConstNode("a", 1))).ok());
  ASSERT_TRUE(session->Close().ok());
  ASSERT_TRUE(session->Close().ok());
  std::vector<Tensor> outputs;
  absl::Status s = session->Run({}, {"a"}, {}, &outputs);
  EXPECT_EQ(s.code(), absl::StatusCode::kCancelled);
  EXPECT_EQ(s.message(), "Session has been closed.");
  EXPECT_EQ(session->Extend(ParseGraph(ConstNode("b", 1))).code(), absl::StatusCode::kCancelled);
}

GraphDef WaitGraph() {
  return ParseGraph(PlaceholderNode("x", "", "") + OpNode("wait", "DsTestWaitForCancel", {"x"}) +
                    ConstNode("a", 7));
}

TEST(DirectSessionTest, CloseCancelsRunningSteps) {
  auto session = MakeSession();
  ASSERT_TRUE(session->Create(WaitGraph()).ok());
  const int started_before = waiters_started.load();
  absl::Status step_status;
  std::atomic<bool> step_over{false};
  std::thread runner([&] {
    std::vector<Tensor> outputs;
    step_status = session->Run({{"x", Tensor(1.0f)}}, {"wait"}, {}, &outputs);
    step_over = true;
  });
  while (waiters_started.load() == started_before && !step_over.load()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_FALSE(step_over.load()) << "the step ended before Close: " << step_status;
  ASSERT_TRUE(session->Close().ok());
  runner.join();
  EXPECT_EQ(step_status.code(), absl::StatusCode::kCancelled) << step_status;
}

TEST(DirectSessionTest, RunOptionsTimeout) {
  auto session = MakeSession();
  ASSERT_TRUE(session->Create(WaitGraph()).ok());
  RunOptions options;
  options.set_timeout_in_ms(50);
  std::vector<Tensor> outputs;
  const auto start = std::chrono::steady_clock::now();
  absl::Status s = session->Run(options, {{"x", Tensor(1.0f)}}, {"wait"}, {}, &outputs, nullptr);
  EXPECT_EQ(s.code(), absl::StatusCode::kDeadlineExceeded) << s;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  // Only that step was cancelled.
  s = session->Run({}, {"a"}, {}, &outputs);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(outputs[0].flat<float>()(0), 7.0f);
}

TEST(DirectSessionTest, ConfigOperationTimeout) {
  auto session = MakeSession(/*num_cpus=*/1, /*operation_timeout_ms=*/50);
  ASSERT_TRUE(session->Create(WaitGraph()).ok());
  std::vector<Tensor> outputs;
  absl::Status s = session->Run({{"x", Tensor(1.0f)}}, {"wait"}, {}, &outputs);
  EXPECT_EQ(s.code(), absl::StatusCode::kDeadlineExceeded) << s;
}

TEST(DirectSessionTest, TwoCpuDevicesMatchOneDevice) {
  const std::vector<std::pair<std::string, Tensor>> feeds = {{"x", Matrix(1, {1, 2, 3})},
                                                             {"y", Matrix(1, {4, 5, 6})}};
  auto one = MakeSession(1);
  ASSERT_TRUE(one->Create(AddGraph()).ok());
  std::vector<Tensor> expected;
  ASSERT_TRUE(one->Run(feeds, {"out"}, {}, &expected).ok());

  auto two = MakeSession(2);
  std::vector<DeviceAttributes> devices;
  ASSERT_TRUE(two->ListDevices(&devices).ok());
  ASSERT_EQ(devices.size(), 2u);
  EXPECT_EQ(devices[1].name(), "/job:localhost/replica:0/task:0/device:CPU:1");
  ASSERT_TRUE(two->Create(AddGraph("/cpu:0", "/device:CPU:1")).ok());
  RunOptions options;
  options.set_output_partition_graphs(true);
  RunMetadata metadata;
  std::vector<Tensor> outputs;
  absl::Status s = two->Run(options, feeds, {"out"}, {}, &outputs, &metadata);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(Values(outputs[0]), Values(expected[0]));
  ASSERT_EQ(metadata.partition_graphs_size(), 2);
  int sends = 0;
  int recvs = 0;
  for (const GraphDef& partition : metadata.partition_graphs()) {
    for (const NodeDef& node : partition.node()) {
      sends += absl::StrContains(node.op(), "Send");
      recvs += absl::StrContains(node.op(), "Recv");
    }
  }
  EXPECT_GE(sends, 1);
  EXPECT_EQ(sends, recvs);
  EXPECT_EQ(metadata.step_stats().dev_stats_size(), 0);
}

TEST(DirectSessionTest, TraceFillsStepStats) {
  auto session = MakeSession(2);
  ASSERT_TRUE(session->Create(AddGraph("/cpu:0", "/cpu:1")).ok());
  RunOptions options;
  options.set_trace_level(RunOptions::FULL_TRACE);
  RunMetadata metadata;
  std::vector<Tensor> outputs;
  absl::Status s = session->Run(options, {{"x", Matrix(1, {1, 2, 3})}, {"y", Matrix(1, {1, 1, 1})}},
                                {"out"}, {}, &outputs, &metadata);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(metadata.partition_graphs_size(), 0);
  ASSERT_GE(metadata.step_stats().dev_stats_size(), 1);
  bool saw_sum = false;
  for (const auto& dev : metadata.step_stats().dev_stats()) {
    for (const auto& node : dev.node_stats()) {
      if (node.node_name() == "sum") {
        saw_sum = true;
        EXPECT_EQ(dev.device(), "/job:localhost/replica:0/task:0/device:CPU:1");
      }
    }
  }
  EXPECT_TRUE(saw_sum);
}

TEST(DirectSessionTest, ConcurrentRunsFromEightThreads) {
  auto session = MakeSession(2);
  ASSERT_TRUE(session->Create(AddGraph("/cpu:0", "/cpu:1")).ok());
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        const float v = static_cast<float>(t * 100 + i);
        std::vector<Tensor> outputs;
        absl::Status s = session->Run({{"x", Matrix(1, {v, v, v})}, {"y", Matrix(1, {1, 2, 3})}},
                                      {"out"}, {}, &outputs);
        if (!s.ok() || Values(outputs[0]) != std::vector<float>{v + 1, v + 2, v + 3}) {
          ++failures;
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
}

// A TF1 graph: v = VariableV2(); init = Assign(v, 1); inc = AssignAdd(v, 2); read = v.
GraphDef VariableGraph() {
  const std::string var_attrs =
      "attr { key: 'dtype' value { type: DT_FLOAT } } "
      "attr { key: 'shape' value { shape {} } }";
  return ParseGraph(OpNode("v", "VariableV2", {}, "", var_attrs) + ConstNode("one", 1) +
                    ConstNode("two", 2) + OpNode("init", "Assign", {"v", "one"}, "", kFloatT) +
                    OpNode("inc", "AssignAdd", {"v", "two"}, "", kFloatT) +
                    OpNode("read", "Identity", {"v"}, "", kFloatT));
}

TEST(DirectSessionTest, VariablesPersistAcrossRuns) {
  auto session = MakeSession();
  ASSERT_TRUE(session->Create(VariableGraph()).ok());
  std::vector<Tensor> outputs;
  // Reading before the init op ran: TensorFlow's error, naming the variable.
  absl::Status s = session->Run({}, {"read"}, {}, &outputs);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "Attempting to use uninitialized value v")) << s;
  ASSERT_TRUE(session->Run({}, {}, {"init"}, &outputs).ok());
  for (float expected : {3.0f, 5.0f, 7.0f}) {
    s = session->Run({}, {"inc"}, {}, &outputs);
    ASSERT_TRUE(s.ok()) << s;
    EXPECT_EQ(outputs[0].flat<float>()(0), expected);
  }
  s = session->Run({}, {"read"}, {}, &outputs);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(outputs[0].flat<float>()(0), 7.0f);
  // State belongs to the session: another session of the same graph has its own variable.
  auto other = MakeSession();
  ASSERT_TRUE(other->Create(VariableGraph()).ok());
  ASSERT_TRUE(other->Run({}, {"init"}, {}, &outputs).ok());
  EXPECT_EQ(outputs[0].flat<float>()(0), 1.0f);
  s = session->Run({}, {"read"}, {}, &outputs);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(outputs[0].flat<float>()(0), 7.0f);
}

TEST(DirectSessionTest, NegativeInterOpThreadsRunInline) {
  SessionOptions options;
  options.config.set_inter_op_parallelism_threads(-1);
  std::unique_ptr<Session> session;
  ASSERT_TRUE(NewSession(options, &session).ok());
  ASSERT_TRUE(session->Create(AddGraph()).ok());
  std::vector<Tensor> outputs;
  absl::Status s = session->Run({{"x", Matrix(1, {1, 2, 3})}, {"y", Matrix(1, {1, 1, 1})}}, {"out"},
                                {}, &outputs);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(Values(outputs[0]), (std::vector<float>{2, 3, 4}));
}

// inter_op_parallelism_threads bounds how many nodes run at once, the calling thread
// included (TensorFlow's caller only waits; Sluice's runs nodes too). With 1, nodes run one
// at a time, also when a deadline makes the caller wait instead.
TEST(DirectSessionTest, InterOpThreadsBoundConcurrentNodes) {
  std::string text = PlaceholderNode("x");
  std::vector<std::string> fetches;
  for (int i = 0; i < 6; ++i) {
    const std::string name = absl::StrCat("c", i);
    text += OpNode(name, "DsTestCountConcurrent", {"x"});
    fetches.push_back(name);
  }
  for (int inter_op : {1, 2}) {
    for (int64_t timeout_ms : {0, 60000}) {
      SessionOptions options;
      options.config.set_inter_op_parallelism_threads(inter_op);
      options.config.set_operation_timeout_in_ms(timeout_ms);
      std::unique_ptr<Session> session;
      ASSERT_TRUE(NewSession(options, &session).ok());
      ASSERT_TRUE(session->Create(ParseGraph(text)).ok());
      concurrent_max = 0;
      std::vector<Tensor> outputs;
      absl::Status s = session->Run({{"x", Matrix(1, {1, 2, 3})}}, fetches, {}, &outputs);
      ASSERT_TRUE(s.ok()) << s;
      ASSERT_EQ(outputs.size(), 6u);
      EXPECT_EQ(Values(outputs[5]), (std::vector<float>{1, 2, 3}));
      EXPECT_GE(concurrent_max.load(), 1);
      EXPECT_LE(concurrent_max.load(), inter_op)
          << "inter_op " << inter_op << ", timeout " << timeout_ms;
    }
  }
}

// With one inter-op thread, a step's partitions all start on the calling thread, one after
// the other: a partition that waits for another's _Send (the one started first here, when x
// lives on the second device) must not hold that thread.
TEST(DirectSessionTest, OneInterOpThreadRunsPartitionsThatWaitOnEachOther) {
  for (const auto& [x_device, add_device] :
       {std::pair<std::string, std::string>{"/cpu:0", "/cpu:1"}, {"/cpu:1", "/cpu:0"}}) {
    for (int64_t timeout_ms : {0, 60000}) {
      SessionOptions options;
      (*options.config.mutable_device_count())["CPU"] = 2;
      options.config.set_inter_op_parallelism_threads(1);
      options.config.set_operation_timeout_in_ms(timeout_ms);
      std::unique_ptr<Session> session;
      ASSERT_TRUE(NewSession(options, &session).ok());
      ASSERT_TRUE(session->Create(AddGraph(x_device, add_device)).ok());
      std::vector<Tensor> outputs;
      absl::Status s = session->Run({{"x", Matrix(1, {1, 2, 3})}, {"y", Matrix(1, {1, 1, 1})}},
                                    {"out"}, {}, &outputs);
      ASSERT_TRUE(s.ok()) << s << " x on " << x_device << ", timeout " << timeout_ms;
      EXPECT_EQ(Values(outputs[0]), (std::vector<float>{2, 3, 4}));
    }
  }
}

TEST(DirectSessionTest, CloseRacingRunsAndExtends) {
  auto session = MakeSession(2);
  ASSERT_TRUE(session->Create(AddGraph("/cpu:0", "/cpu:1")).ok());
  std::atomic<int> unexpected{0};
  std::atomic<int> runs{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        std::vector<Tensor> outputs;
        absl::Status s;
        if (i % 10 == 0) {
          s = session->Extend(ParseGraph(
              OpNode(absl::StrCat("extra_", t, "_", i), "Identity", {"out"}, "", kFloatT)));
        } else {
          s = session->Run({{"x", Matrix(1, {1, 2, 3})}, {"y", Matrix(1, {1, 1, 1})}}, {"out"}, {},
                           &outputs);
          ++runs;
        }
        if (s.code() == absl::StatusCode::kCancelled) return;
        if (!s.ok()) ++unexpected;
      }
    });
  }
  while (runs.load() < 20) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_TRUE(session->Close().ok());
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(unexpected.load(), 0);
}

TEST(DirectSessionTest, NewSessionRejectsUnknownTarget) {
  SessionOptions options;
  options.target = "grpc://localhost:2222";
  std::unique_ptr<Session> session;
  absl::Status s = NewSession(options, &session);
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound) << s;
  EXPECT_EQ(session, nullptr);
}

}  // namespace
}  // namespace sluice
