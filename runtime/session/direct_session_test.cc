// DirectSession end to end over small GraphDefs: signatures and the executor cache, feeds
// and fetches, every user-facing error, variables, two CPU devices, concurrency, tracing,
// deadlines and Close.
#include "runtime/session/direct_session.h"

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"
#include "gtest/gtest.h"
#include "runtime/device/session_options.h"
#include "runtime/framework/cancellation.h"
#include "runtime/framework/node_output_observer.h"
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
// An op without a shape function, as custom ops may be.
REGISTER_OP("DsTestNoShapeFn").Input("x: float").Output("y: float");
class DsTestNoShapeFnOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  void Compute(OpKernelContext* ctx) override { ctx->set_output(0, ctx->input(0)); }
};
REGISTER_KERNEL_BUILDER(Name("DsTestNoShapeFn").Device(DEVICE_CPU), DsTestNoShapeFnOp);

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

// A row slice of a larger tensor starts mid-buffer; kernels read aligned views, so the
// session hands them an aligned copy instead of the process aborting in Tensor::flat.
TEST(DirectSessionTest, UnalignedFeedsRunAsCopies) {
  auto session = MakeSession();
  ASSERT_TRUE(session->Create(AddGraph()).ok());
  const Tensor rows = Matrix(3, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  const Tensor row = rows.Slice(1, 2);
  ASSERT_FALSE(row.IsAligned());
  std::vector<Tensor> outputs;
  absl::Status s = session->Run({{"x", row}, {"y", row}}, {"out"}, {}, &outputs);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(Values(outputs[0]), (std::vector<float>{8, 10, 12}));

  std::string handle;
  ASSERT_TRUE(session->PRunSetup({"x", "y"}, {"out"}, {}, &handle).ok());
  ASSERT_TRUE(session->PRun(handle, {{"x", row}}, {}, &outputs).ok());
  s = session->PRun(handle, {{"y", rows.Slice(2, 3)}}, {"out"}, &outputs);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(Values(outputs[0]), (std::vector<float>{11, 13, 15}));
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
  // No output vector is needed: fetched values are then computed and dropped, as in
  // TensorFlow (a client fetches assignments with session.Run({assign}, nullptr)).
  s = session->Run(RunOptions(), {}, {}, {"noop"}, nullptr, nullptr);
  ASSERT_TRUE(s.ok()) << s;
  s = session->Run(RunOptions(), {}, {"c"}, {}, nullptr, nullptr);
  EXPECT_TRUE(s.ok()) << s;
  // A fetch that fails still fails without an output vector.
  s = session->Run(RunOptions(), {}, {"missing"}, {}, nullptr, nullptr);
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

// Create runs the shape functions, as TensorFlow does when it builds or imports a graph;
// an op without one is no error.
TEST(DirectSessionTest, CreateRunsShapeFunctions) {
  auto session = MakeSession();
  absl::Status s = session->Create(ParseGraph(
      ConstNode("d", 1) +
      OpNode("p", "PlaceholderWithDefault", {"d"}, "",
             "attr { key: 'dtype' value { type: DT_FLOAT } } "
             "attr { key: 'shape' value { shape { dim { size: -1 } dim { size: 3 } } } }")));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr("Shapes must be equal rank"));
  ASSERT_TRUE(
      session->Create(ParseGraph(PlaceholderNode("x") + OpNode("out", "DsTestNoShapeFn", {"x"})))
          .ok());
  std::vector<Tensor> outputs;
  s = session->Run({{"x", Matrix(1, {1, 2, 3})}}, {"out"}, {}, &outputs);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(Values(outputs[0]), (std::vector<float>{1, 2, 3}));
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

// Eigen's pool aborts the process at 16384 threads; a ConfigProto asking for more than
// kMaxThreadsPerPool fails the session's creation instead, naming the field.
TEST(DirectSessionTest, ThreadCountsAboveTheLimitAreInvalid) {
  struct Case {
    const char* field;
    void (*set)(ConfigProto*);
  };
  const Case cases[] = {
      {"intra_op_parallelism_threads",
       [](ConfigProto* c) { c->set_intra_op_parallelism_threads(16384); }},
      {"inter_op_parallelism_threads",
       [](ConfigProto* c) { c->set_inter_op_parallelism_threads(kMaxThreadsPerPool + 1); }},
      {"session_inter_op_thread_pool",
       [](ConfigProto* c) { c->add_session_inter_op_thread_pool()->set_num_threads(1 << 30); }},
  };
  for (const Case& c : cases) {
    SessionOptions options;
    c.set(&options.config);
    std::unique_ptr<Session> session;
    absl::Status s = NewSession(options, &session);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << c.field << ": " << s;
    EXPECT_THAT(std::string(s.message()), testing::HasSubstr(c.field));
  }
  // The limit itself is accepted.
  SessionOptions options;
  options.config.set_inter_op_parallelism_threads(2);
  options.config.add_session_inter_op_thread_pool()->set_num_threads(3);
  std::unique_ptr<Session> session;
  ASSERT_TRUE(NewSession(options, &session).ok());
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

// Partial runs.

// a, b, c: float scalar Placeholders; r1 = a + b; r2 = r1 + c.
GraphDef PartialRunGraph() {
  return ParseGraph(PlaceholderNode("a", "", "") + PlaceholderNode("b", "", "") +
                    PlaceholderNode("c", "", "") + OpNode("r1", "DsTestAdd", {"a", "b"}) +
                    OpNode("r2", "DsTestAdd", {"r1", "c"}));
}

DirectSession* Direct(const std::unique_ptr<Session>& session) {
  return static_cast<DirectSession*>(session.get());
}

TEST(DirectSessionPartialRunTest, FeedsInSeparateCallsWithFetchesBetween) {
  for (int inter_op : {-1, 1, 2}) {
    SessionOptions options;
    options.config.set_inter_op_parallelism_threads(inter_op);
    std::unique_ptr<Session> session;
    ASSERT_TRUE(NewSession(options, &session).ok());
    ASSERT_TRUE(session->Create(PartialRunGraph()).ok());
    std::string handle;
    absl::Status s = session->PRunSetup({"a", "b", "c"}, {"r1", "r2"}, {}, &handle);
    ASSERT_TRUE(s.ok()) << s;
    EXPECT_FALSE(handle.empty());
    EXPECT_EQ(Direct(session)->num_partial_runs(), 1);
    std::vector<Tensor> outputs;
    // a alone computes nothing fetched; r1 arrives once b does.
    s = session->PRun(handle, {{"a", Tensor(1.0f)}}, {}, &outputs);
    ASSERT_TRUE(s.ok()) << s;
    EXPECT_TRUE(outputs.empty());
    s = session->PRun(handle, {{"b", Tensor(2.0f)}}, {"r1", "r1"}, &outputs);
    ASSERT_TRUE(s.ok()) << s << " inter_op " << inter_op;
    ASSERT_EQ(outputs.size(), 2u);
    EXPECT_EQ(outputs[0].flat<float>()(0), 3.0f);
    EXPECT_EQ(outputs[1].flat<float>()(0), 3.0f);
    EXPECT_EQ(Direct(session)->num_partial_runs(), 1);
    // The last call feeds a value computed from an earlier fetch.
    s = session->PRun(handle, {{"c", Tensor(outputs[0].flat<float>()(0) * 10)}}, {"r2"}, &outputs);
    ASSERT_TRUE(s.ok()) << s;
    ASSERT_EQ(outputs.size(), 1u);
    EXPECT_EQ(outputs[0].flat<float>()(0), 33.0f);
    // Everything declared was fed and fetched: the partial run is over and released.
    EXPECT_EQ(Direct(session)->num_partial_runs(), 0);
    s = session->PRun(handle, {}, {}, &outputs);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
    EXPECT_EQ(s.message(), "Must run 'setup' before performing partial runs!");
    // A Run of the same graph is unaffected and shares no executors with partial runs.
    s = session->Run({{"a", Tensor(1.0f)}, {"b", Tensor(1.0f)}}, {"r1"}, {}, &outputs);
    ASSERT_TRUE(s.ok()) << s;
    EXPECT_EQ(outputs[0].flat<float>()(0), 2.0f);
  }
}

TEST(DirectSessionPartialRunTest, TwoDevicesAndTensorSpellings) {
  auto session = MakeSession(2);
  ASSERT_TRUE(session->Create(AddGraph("/cpu:1", "/cpu:1")).ok());
  std::string handle;
  absl::Status s = session->PRunSetup({"x:0", "y"}, {"out:0", "sum"}, {}, &handle);
  ASSERT_TRUE(s.ok()) << s;
  std::vector<Tensor> outputs;
  // Names are matched as spelled at setup, as TensorFlow does.
  s = session->PRun(handle, {{"x", Matrix(1, {1, 2, 3})}}, {}, &outputs);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_EQ(s.message(), "The feed x was not specified in partial_run_setup.");
  s = session->PRun(handle, {{"x:0", Matrix(1, {1, 2, 3})}}, {}, &outputs);
  ASSERT_TRUE(s.ok()) << s;
  s = session->PRun(handle, {{"y", Matrix(1, {10, 20, 30})}}, {"sum", "out:0"}, &outputs);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(Values(outputs[0]), (std::vector<float>{11, 22, 33}));
  EXPECT_EQ(Values(outputs[1]), (std::vector<float>{11, 22, 33}));
  EXPECT_EQ(Direct(session)->num_partial_runs(), 0);
}

// v starts at 1; inc = AssignAdd(v, 2) is read by two fetches computed in separate PRuns: it
// runs once for the whole partial run, so both see 3 and v ends at 3.
TEST(DirectSessionPartialRunTest, StatefulNodeRunsOnce) {
  auto session = MakeSession();
  ASSERT_TRUE(session->Create(VariableGraph()).ok());
  ASSERT_TRUE(session
                  ->Extend(ParseGraph(PlaceholderNode("p", "", "") + PlaceholderNode("q", "", "") +
                                      OpNode("s1", "DsTestAdd", {"p", "inc"}) +
                                      OpNode("s2", "DsTestAdd", {"q", "inc"})))
                  .ok());
  std::vector<Tensor> outputs;
  ASSERT_TRUE(session->Run({}, {}, {"init"}, &outputs).ok());
  std::string handle;
  absl::Status s = session->PRunSetup({"p", "q"}, {"s1", "s2"}, {}, &handle);
  ASSERT_TRUE(s.ok()) << s;
  s = session->PRun(handle, {{"p", Tensor(10.0f)}}, {"s1"}, &outputs);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(outputs[0].flat<float>()(0), 13.0f);
  s = session->PRun(handle, {{"q", Tensor(100.0f)}}, {"s2"}, &outputs);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(outputs[0].flat<float>()(0), 103.0f);
  s = session->Run({}, {"read"}, {}, &outputs);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(outputs[0].flat<float>()(0), 3.0f);
  // A second partial run of the same signature is a new step: inc runs once more.
  s = session->PRunSetup({"q", "p"}, {"s2", "s1"}, {}, &handle);
  ASSERT_TRUE(s.ok()) << s;
  s = session->PRun(handle, {{"q", Tensor(0.0f)}, {"p", Tensor(0.0f)}}, {"s1", "s2"}, &outputs);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(outputs[0].flat<float>()(0), 5.0f);
  EXPECT_EQ(outputs[1].flat<float>()(0), 5.0f);
  s = session->Run({}, {"read"}, {}, &outputs);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(outputs[0].flat<float>()(0), 5.0f);
}

// Every refused call names what is wrong with TensorFlow's code and text and leaves the
// partial run as it was.
TEST(DirectSessionPartialRunTest, ArgumentErrorsLeaveThePartialRunUsable) {
  auto session = MakeSession();
  ASSERT_TRUE(session->Create(PartialRunGraph()).ok());
  std::vector<Tensor> outputs;
  absl::Status s = session->PRun("no such handle", {}, {}, &outputs);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_EQ(s.message(), "Must run 'setup' before performing partial runs!");

  std::string handle;
  s = session->PRunSetup({"a", "b", "c"}, {"r1", "r2"}, {}, &handle);
  ASSERT_TRUE(s.ok()) << s;
  const auto expect_refused = [&](const absl::Status& status, const std::string& message) {
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
    EXPECT_EQ(status.message(), message);
    EXPECT_TRUE(outputs.empty());
    EXPECT_EQ(Direct(session)->num_partial_runs(), 1);
  };
  expect_refused(session->PRun(handle, {{"r1", Tensor(1.0f)}}, {}, &outputs),
                 "The feed r1 was not specified in partial_run_setup.");
  expect_refused(session->PRun(handle, {}, {"a"}, &outputs),
                 "The fetch a was not specified in partial_run_setup.");
  expect_refused(session->PRun(handle, {{"a", Tensor(1.0f)}}, {"r2"}, &outputs),
                 "Fetch b:0 can't be computed from the feeds that have been fed so far.");
  expect_refused(session->PRun(handle, {{"a", Tensor(1)}}, {}, &outputs),
                 "Expects arg[0] to be float but int32 is provided for Tensor a:0");
  expect_refused(session->PRun(handle, {{"a", Tensor(1.0f)}, {"a", Tensor(2.0f)}}, {}, &outputs),
                 "Endpoint \"a\" fed more than once.");
  s = session->PRun(handle, {{"a", Tensor(1.0f)}, {"b", Tensor(2.0f)}}, {"r1"}, &outputs);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(outputs[0].flat<float>()(0), 3.0f);
  outputs.clear();
  expect_refused(session->PRun(handle, {{"b", Tensor(5.0f)}}, {}, &outputs),
                 "The feed b has already been fed.");
  expect_refused(session->PRun(handle, {}, {"r1"}, &outputs),
                 "The fetch r1 has already been fetched.");
  expect_refused(session->PRun(handle, {}, {"r2"}, &outputs),
                 "Fetch c:0 can't be computed from the feeds that have been fed so far.");
  s = session->PRun(handle, {{"c", Tensor(4.0f)}}, {"r2"}, &outputs);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(outputs[0].flat<float>()(0), 7.0f);
  EXPECT_EQ(Direct(session)->num_partial_runs(), 0);

  // Setup errors are Run's; nothing is registered.
  s = session->PRunSetup({"a"}, {"nope:0"}, {}, &handle);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_TRUE(handle.empty());
  s = session->PRunSetup({"a", "a"}, {"r1"}, {}, &handle);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  s = session->PRunSetup({"r1"}, {"r1"}, {}, &handle);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  s = session->PRunSetup({}, {}, {"phantom"}, &handle);
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound) << s;
  EXPECT_EQ(Direct(session)->num_partial_runs(), 0);

  auto empty = MakeSession();
  s = empty->PRunSetup({}, {"r1"}, {}, &handle);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
}

// A feed that cuts a fetch off from an earlier feed's producer also cuts the dependency.
TEST(DirectSessionPartialRunTest, FedIntermediateNeedsNoUpstreamFeed) {
  auto session = MakeSession();
  ASSERT_TRUE(session->Create(PartialRunGraph()).ok());
  std::string handle;
  absl::Status s = session->PRunSetup({"a", "r1", "c"}, {"r2"}, {}, &handle);
  ASSERT_TRUE(s.ok()) << s;
  std::vector<Tensor> outputs;
  s = session->PRun(handle, {{"r1", Tensor(5.0f)}, {"c", Tensor(1.0f)}}, {"r2"}, &outputs);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(outputs[0].flat<float>()(0), 6.0f);
  // a was declared and is still to be fed: the partial run stays until it is.
  EXPECT_EQ(Direct(session)->num_partial_runs(), 1);
  s = session->PRun(handle, {{"a", Tensor(0.0f)}}, {}, &outputs);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(Direct(session)->num_partial_runs(), 0);
}

TEST(DirectSessionPartialRunTest, KernelErrorFailsTheWaitingCallAndEndsTheRun) {
  auto session = MakeSession();
  ASSERT_TRUE(session
                  ->Create(ParseGraph(PlaceholderNode("x", "", "") + PlaceholderNode("y", "", "") +
                                      OpNode("checked", "DsTestFail", {"x"}) +
                                      OpNode("sum", "DsTestAdd", {"checked", "y"})))
                  .ok());
  std::string handle;
  ASSERT_TRUE(session->PRunSetup({"x", "y"}, {"sum"}, {}, &handle).ok());
  std::vector<Tensor> outputs;
  // The failing kernel runs on this feed; the call fetches nothing, so it does not see it.
  absl::Status s = session->PRun(handle, {{"x", Tensor(-1.0f)}}, {}, &outputs);
  ASSERT_TRUE(s.ok()) << s;
  s = session->PRun(handle, {{"y", Tensor(1.0f)}}, {"sum"}, &outputs);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr("DsTestFail got a negative value"));
  EXPECT_TRUE(outputs.empty());
  EXPECT_EQ(Direct(session)->num_partial_runs(), 0);
  s = session->PRun(handle, {}, {"sum"}, &outputs);
  EXPECT_EQ(s.message(), "Must run 'setup' before performing partial runs!");

  // A failing target fails the last call, which waits for it.
  ASSERT_TRUE(session->PRunSetup({"x"}, {}, {"checked"}, &handle).ok());
  s = session->PRun(handle, {{"x", Tensor(-2.0f)}}, {}, &outputs);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr("DsTestFail got a negative value"));
  ASSERT_TRUE(session->PRunSetup({"x"}, {}, {"checked"}, &handle).ok());
  s = session->PRun(handle, {{"x", Tensor(2.0f)}}, {}, &outputs);
  EXPECT_TRUE(s.ok()) << s;
  EXPECT_EQ(Direct(session)->num_partial_runs(), 0);
}

TEST(DirectSessionPartialRunTest, CloseCancelsAPartialRunWaitingForAFeed) {
  for (int inter_op : {1, 2}) {
    SessionOptions options;
    options.config.set_inter_op_parallelism_threads(inter_op);
    std::unique_ptr<Session> session;
    ASSERT_TRUE(NewSession(options, &session).ok());
    ASSERT_TRUE(session->Create(PartialRunGraph()).ok());
    std::string waiting;
    ASSERT_TRUE(session->PRunSetup({"a", "b", "c"}, {"r1", "r2"}, {}, &waiting).ok());
    std::vector<Tensor> outputs;
    ASSERT_TRUE(session->PRun(waiting, {{"a", Tensor(1.0f)}}, {}, &outputs).ok());
    std::string untouched;
    ASSERT_TRUE(session->PRunSetup({"a", "b"}, {"r1"}, {}, &untouched).ok());
    EXPECT_EQ(Direct(session)->num_partial_runs(), 2);
    ASSERT_TRUE(session->Close().ok());
    EXPECT_EQ(Direct(session)->num_partial_runs(), 0);
    absl::Status s = session->PRun(waiting, {{"b", Tensor(1.0f)}}, {"r1"}, &outputs);
    EXPECT_EQ(s.code(), absl::StatusCode::kCancelled) << s;
    EXPECT_EQ(s.message(), "Session has been closed.");
    s = session->PRunSetup({"a", "b"}, {"r1"}, {}, &waiting);
    EXPECT_EQ(s.code(), absl::StatusCode::kCancelled) << s;
    EXPECT_EQ(s.message(), "Session has been closed.");
  }
  // A session destroyed with a partial run pending closes it too.
  auto session = MakeSession();
  ASSERT_TRUE(session->Create(PartialRunGraph()).ok());
  std::string handle;
  ASSERT_TRUE(session->PRunSetup({"a", "b"}, {"r1"}, {}, &handle).ok());
  session.reset();
}

TEST(DirectSessionPartialRunTest, CloseCancelsAPRunWaitingForItsFetch) {
  auto session = MakeSession();
  ASSERT_TRUE(session->Create(WaitGraph()).ok());
  std::string handle;
  ASSERT_TRUE(session->PRunSetup({"x"}, {"wait"}, {}, &handle).ok());
  const int started_before = waiters_started.load();
  absl::Status call_status;
  std::atomic<bool> call_over{false};
  std::thread caller([&] {
    std::vector<Tensor> outputs;
    call_status = session->PRun(handle, {{"x", Tensor(1.0f)}}, {"wait"}, &outputs);
    call_over = true;
  });
  while (waiters_started.load() == started_before && !call_over.load()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_FALSE(call_over.load()) << "the PRun ended before Close: " << call_status;
  ASSERT_TRUE(session->Close().ok());
  caller.join();
  EXPECT_EQ(call_status.code(), absl::StatusCode::kCancelled) << call_status;
}

TEST(DirectSessionPartialRunTest, OperationTimeoutBoundsTheFetch) {
  auto session = MakeSession(/*num_cpus=*/1, /*operation_timeout_ms=*/50);
  ASSERT_TRUE(session->Create(WaitGraph()).ok());
  std::string handle;
  ASSERT_TRUE(session->PRunSetup({"x"}, {"wait"}, {}, &handle).ok());
  std::vector<Tensor> outputs;
  absl::Status s = session->PRun(handle, {{"x", Tensor(1.0f)}}, {"wait"}, &outputs);
  EXPECT_EQ(s.code(), absl::StatusCode::kDeadlineExceeded) << s;
  EXPECT_EQ(Direct(session)->num_partial_runs(), 0);
}

TEST(DirectSessionPartialRunTest, ConcurrentPartialRunsOnOneSession) {
  auto session = MakeSession(2);
  ASSERT_TRUE(session
                  ->Create(ParseGraph(PlaceholderNode("a", "/cpu:0", "") +
                                      PlaceholderNode("b", "", "") + PlaceholderNode("c", "", "") +
                                      OpNode("r1", "DsTestAdd", {"a", "b"}, "/cpu:1") +
                                      OpNode("r2", "DsTestAdd", {"r1", "c"}, "/cpu:0")))
                  .ok());
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20; ++i) {
        const float v = static_cast<float>(t * 100 + i);
        std::string handle;
        std::vector<Tensor> r1, r2;
        absl::Status s = session->PRunSetup({"a", "b", "c"}, {"r1", "r2"}, {}, &handle);
        if (s.ok()) s = session->PRun(handle, {{"a", Tensor(v)}}, {}, &r1);
        if (s.ok()) s = session->PRun(handle, {{"b", Tensor(1.0f)}}, {"r1"}, &r1);
        if (s.ok()) s = session->PRun(handle, {{"c", Tensor(2.0f)}}, {"r2"}, &r2);
        if (!s.ok() || r1.size() != 1 || r2.size() != 1 || r1[0].flat<float>()(0) != v + 1 ||
            r2[0].flat<float>()(0) != v + 3) {
          ++failures;
        }
      }
    });
  }
  // Several callers on one handle: each claims different feeds and fetches.
  std::string shared;
  ASSERT_TRUE(session->PRunSetup({"a", "b", "c"}, {"r1", "r2"}, {}, &shared).ok());
  std::vector<Tensor> r1, r2;
  absl::Status s1, s2;
  std::thread fetch_r2([&] {
    s2 = session->PRun(shared, {{"c", Tensor(5.0f)}, {"b", Tensor(2.0f)}}, {"r2"}, &r2);
  });
  s1 = session->PRun(shared, {{"a", Tensor(1.0f)}}, {}, &r1);
  fetch_r2.join();
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
  ASSERT_TRUE(s1.ok()) << s1;
  // r2 may be refused if it came before a was fed; then fetch it now.
  if (!s2.ok()) {
    EXPECT_EQ(s2.message(),
              "Fetch a:0 can't be computed from the feeds that have been fed so far.");
    s2 = session->PRun(shared, {{"c", Tensor(5.0f)}, {"b", Tensor(2.0f)}}, {"r2"}, &r2);
  }
  ASSERT_TRUE(s2.ok()) << s2;
  EXPECT_EQ(r2[0].flat<float>()(0), 8.0f);
  s1 = session->PRun(shared, {}, {"r1"}, &r1);
  ASSERT_TRUE(s1.ok()) << s1;
  EXPECT_EQ(r1[0].flat<float>()(0), 3.0f);
  EXPECT_EQ(Direct(session)->num_partial_runs(), 0);
}

// ---- Observed runs -------------------------------------------------------------------

// Records the first element of every float output it is shown.
class FirstValues : public NodeOutputObserver {
 public:
  absl::Status OnOutput(const Node& node, int output, const Tensor& value) override {
    if (value.dtype() != DT_FLOAT || value.NumElements() == 0) return absl::OkStatus();
    absl::MutexLock lock(&mu_);
    seen_[absl::StrCat(node.name(), ":", output)] = value.flat<float>()(0);
    return absl::OkStatus();
  }
  std::map<std::string, float> seen() {
    absl::MutexLock lock(&mu_);
    return seen_;
  }

 private:
  absl::Mutex mu_;
  std::map<std::string, float> seen_ ABSL_GUARDED_BY(mu_);
};

TEST(DirectSessionTest, RunWithObserverSeesNodesThatAreNotFetched) {
  auto session = MakeSession();
  ASSERT_TRUE(session->Create(AddGraph()).ok());
  FirstValues observer;
  std::vector<Tensor> outputs;
  const absl::Status s = session->RunWithObserver(
      RunOptions(), {{"x", Matrix(1, {1, 2, 3})}, {"y", Matrix(1, {10, 20, 30})}}, {"out"}, {},
      &outputs, nullptr, &observer);
  ASSERT_TRUE(s.ok()) << s;
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(Values(outputs[0]), (std::vector<float>{11, 22, 33}));
  const std::map<std::string, float> seen = observer.seen();
  ASSERT_EQ(seen.count("sum:0"), 1u);
  EXPECT_EQ(seen.at("sum:0"), 11.0f);
  // The same session still runs unobserved steps.
  ASSERT_TRUE(
      session
          ->Run({{"x", Matrix(1, {1, 2, 3})}, {"y", Matrix(1, {1, 1, 1})}}, {"out"}, {}, &outputs)
          .ok());
  EXPECT_EQ(Values(outputs[0]), (std::vector<float>{2, 3, 4}));
}

TEST(DirectSessionTest, RunWithObserverSkipsTheUntakenBranch) {
  auto session = MakeSession();
  const std::string bool_placeholder =
      "node { name: 'p' op: 'Placeholder' attr { key: 'dtype' value { type: DT_BOOL } } }\n";
  ASSERT_TRUE(
      session
          ->Create(ParseGraph(PlaceholderNode("x") + bool_placeholder +
                              OpNode("sw", "Switch", {"x", "p"}, "", kFloatT) +
                              OpNode("f", "Identity", {"sw:0"}, "", kFloatT) +
                              OpNode("t", "DsTestAdd", {"sw:1", "sw:1"}) +
                              OpNode("m", "Merge", {"f", "t"}, "",
                                     absl::StrCat(kFloatT, " attr { key: 'N' value { i: 2 } }"))))
          .ok());
  Tensor pred(DT_BOOL, TensorShape({}));
  pred.flat<bool>()(0) = true;
  FirstValues observer;
  std::vector<Tensor> outputs;
  const absl::Status s =
      session->RunWithObserver(RunOptions(), {{"x", Matrix(1, {4, 5, 6})}, {"p", pred}}, {"m"}, {},
                               &outputs, nullptr, &observer);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(Values(outputs[0]), (std::vector<float>{8, 10, 12}));
  const std::map<std::string, float> seen = observer.seen();
  EXPECT_EQ(seen.count("sw:1"), 1u);
  EXPECT_EQ(seen.count("sw:0"), 0u);  // dead
  EXPECT_EQ(seen.count("f:0"), 0u);   // dead
  ASSERT_EQ(seen.count("t:0"), 1u);
  EXPECT_EQ(seen.at("t:0"), 8.0f);
  ASSERT_EQ(seen.count("m:0"), 1u);
  EXPECT_EQ(seen.at("m:0"), 8.0f);
}

}  // namespace
}  // namespace sluice
