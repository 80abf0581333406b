#include "cc_api/client_session.h"

#include <thread>
#include <vector>

#include "cc_api/const_op.h"
#include "cc_api/scope.h"
#include "cc_api/standard_ops.h"
#include "graph/core/tensor_types.h"
#include "gtest/gtest.h"
#include "runtime/device/session_options.h"

namespace sluice {
namespace {

std::vector<float> Floats(const Tensor& t) {
  return std::vector<float>(t.flat<float>().data(), t.flat<float>().data() + t.NumElements());
}
std::vector<int32_t> Ints(const Tensor& t) {
  return std::vector<int32_t>(t.flat<int32_t>().data(), t.flat<int32_t>().data() + t.NumElements());
}

TEST(ClientSessionTest, FetchConstants) {
  Scope root = Scope::NewRootScope();
  auto c = ops::Const(root, {{1, 2}, {3, 4}});
  auto d = ops::Identity(root, c);
  ClientSession session(root);
  std::vector<Tensor> outputs;
  ASSERT_TRUE(session.Run({c, d}, &outputs).ok());
  ASSERT_EQ(outputs.size(), 2u);
  EXPECT_EQ(outputs[0].shape(), TensorShape({2, 2}));
  EXPECT_EQ(Ints(outputs[1]), (std::vector<int32_t>{1, 2, 3, 4}));
}

TEST(ClientSessionTest, CallablesRunTheGraphBuiltSoFar) {
  Scope root = Scope::NewRootScope();
  auto a = ops::Placeholder(root.WithOpName("a"), DT_INT32);
  auto c = ops::Add(root.WithOpName("c"), a, ops::Const(root, 3));
  ClientSession session(root);
  CallableOptions options;
  options.add_feed(a.output.name());
  options.add_fetch(c.z.name());
  ClientSession::CallableHandle handle = -1;
  ASSERT_TRUE(session.MakeCallable(options, &handle).ok());
  Tensor t(DT_INT32, TensorShape({2}));
  t.flat<int32_t>().setValues({1, 2});
  std::vector<Tensor> outputs;
  ASSERT_TRUE(session.RunCallable(handle, {t}, &outputs, nullptr).ok());
  EXPECT_EQ(Ints(outputs[0]), (std::vector<int32_t>{4, 5}));
  ASSERT_TRUE(session.ReleaseCallable(handle).ok());
  EXPECT_EQ(session.RunCallable(handle, {t}, &outputs, nullptr).code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(ClientSessionTest, MatMulOfTheGuide) {
  Scope root = Scope::NewRootScope();
  auto A = ops::Const(root, {{3.f, 2.f}, {-1.f, 0.f}});
  auto b = ops::Const(root, {{3.f, 5.f}});
  auto v = ops::MatMul(root.WithOpName("v"), A, b, ops::MatMul::TransposeB(true));
  std::vector<Tensor> outputs;
  ClientSession session(root);
  ASSERT_TRUE(session.Run({v}, &outputs).ok());
  EXPECT_EQ(outputs[0].shape(), TensorShape({2, 1}));
  EXPECT_EQ(Floats(outputs[0]), (std::vector<float>{19.f, -3.f}));
}

TEST(ClientSessionTest, FeedsByValueAndByTensor) {
  Scope root = Scope::NewRootScope();
  auto a = ops::Placeholder(root, DT_INT32);
  auto b = ops::Const(root, 3, {2, 2});
  auto c = ops::Add(root, a, b);
  ClientSession session(root);
  std::vector<Tensor> outputs;
  ASSERT_TRUE(session.Run({{a, {{1, 2}, {3, 4}}}}, {c}, &outputs).ok());
  EXPECT_EQ(Ints(outputs[0]), (std::vector<int32_t>{4, 5, 6, 7}));
  Tensor t(DT_INT32, TensorShape({2}));
  t.flat<int32_t>().setValues({10, 20});
  ASSERT_TRUE(session.Run({{a, t}}, {c}, &outputs).ok());
  EXPECT_EQ(Ints(outputs[0]), (std::vector<int32_t>{13, 23, 13, 23}));
  // A scalar feed broadcasts too.
  ASSERT_TRUE(session.Run({{a, 1}}, {c}, &outputs).ok());
  EXPECT_EQ(Ints(outputs[0]), (std::vector<int32_t>{4, 4, 4, 4}));
}

TEST(ClientSessionTest, FeedErrors) {
  Scope root = Scope::NewRootScope();
  auto a = ops::Placeholder(root, DT_INT32);
  auto c = ops::Identity(root, a);
  ClientSession session(root);
  std::vector<Tensor> outputs;
  absl::Status ragged = session.Run({{a, {{1, 2}, {3}}}}, {c}, &outputs);
  EXPECT_EQ(ragged.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ragged.message(), "Initializer list components should all have the same shape");
  absl::Status wrong_type = session.Run({{a, 1.f}}, {c}, &outputs);
  EXPECT_EQ(wrong_type.code(), absl::StatusCode::kInvalidArgument) << wrong_type;
  absl::Status unfed = session.Run({c}, &outputs);
  EXPECT_EQ(unfed.code(), absl::StatusCode::kInvalidArgument) << unfed;
  EXPECT_EQ(session.Run({Output()}, &outputs).code(), absl::StatusCode::kInvalidArgument);
}

TEST(ClientSessionTest, TargetsRunWithoutBeingFetched) {
  Scope root = Scope::NewRootScope();
  auto c = ops::Const(root, 1.f);
  auto noop = ops::NoOp(root.WithControlDependencies(c));
  ClientSession session(root);
  std::vector<Tensor> outputs;
  ASSERT_TRUE(session.Run({}, {c}, {noop.operation}, &outputs).ok());
  EXPECT_EQ(outputs.size(), 1u);
  ASSERT_TRUE(session.Run({}, {}, {noop}, nullptr).ok());
}

TEST(ClientSessionTest, GraphGrowsBetweenRuns) {
  Scope root = Scope::NewRootScope();
  auto a = ops::Const(root, 2.f);
  ClientSession session(root);
  std::vector<Tensor> outputs;
  ASSERT_TRUE(session.Run({a}, &outputs).ok());
  auto b = ops::AddV2(root, a, 5.f);
  ASSERT_TRUE(session.Run({b}, &outputs).ok()) << session.Run({b}, &outputs);
  EXPECT_EQ(Floats(outputs[0]), std::vector<float>{7.f});
  auto c = ops::AddV2(root, b, b);
  ASSERT_TRUE(session.Run({c, a}, &outputs).ok());
  EXPECT_EQ(Floats(outputs[0]), std::vector<float>{14.f});
}

TEST(ClientSessionTest, RunOptionsAndMetadata) {
  Scope root = Scope::NewRootScope();
  auto a = ops::Const(root, {1.f, 2.f});
  auto b = ops::Identity(root, a);
  ClientSession session(root);
  RunOptions options;
  options.set_trace_level(RunOptions::FULL_TRACE);
  RunMetadata metadata;
  std::vector<Tensor> outputs;
  ASSERT_TRUE(session.Run(options, {}, {b}, {}, &outputs, &metadata).ok());
  EXPECT_TRUE(metadata.has_step_stats());
  EXPECT_GT(metadata.step_stats().dev_stats_size(), 0);
}

TEST(ClientSessionTest, MultiAndListOutputs) {
  Scope root = Scope::NewRootScope();
  auto x = ops::Const(root, {{1.f, 5.f, 3.f, 2.f}, {4.f, 0.f, 6.f, 7.f}});
  auto halves = ops::Split(root, 1, x, 2);
  auto top = ops::TopK(root, x, 1);
  auto rows = ops::Unstack(root, x, 2);
  auto shapes = ops::ShapeN(root, {x, halves[0]});
  ASSERT_TRUE(root.ok()) << root.status();
  ClientSession session(root);
  std::vector<Tensor> out;
  ASSERT_TRUE(session.Run({halves[1], top.values, top.indices, rows[1], shapes[1]}, &out).ok());
  EXPECT_EQ(Floats(out[0]), (std::vector<float>{3.f, 2.f, 6.f, 7.f}));
  EXPECT_EQ(Floats(out[1]), (std::vector<float>{5.f, 7.f}));
  EXPECT_EQ(Ints(out[2]), (std::vector<int32_t>{1, 3}));
  EXPECT_EQ(Floats(out[3]), (std::vector<float>{4.f, 0.f, 6.f, 7.f}));
  EXPECT_EQ(Ints(out[4]), (std::vector<int32_t>{2, 2}));
}

TEST(ClientSessionTest, DeviceFromScope) {
  SessionOptions options;
  (*options.config.mutable_device_count())["CPU"] = 2;
  Scope root = Scope::NewRootScope();
  Scope on_cpu1 = root.WithDevice("/device:CPU:1");
  auto a = ops::Placeholder(on_cpu1, DT_FLOAT);
  auto doubled = ops::AddV2(on_cpu1, a, a);
  auto b = ops::Identity(root.WithDevice("/device:CPU:0"), doubled);
  ClientSession session(root, options);
  RunOptions run_options;
  run_options.set_output_partition_graphs(true);
  RunMetadata metadata;
  std::vector<Tensor> outputs;
  ASSERT_TRUE(session.Run(run_options, {{a, {1.f, 2.f}}}, {b}, {}, &outputs, &metadata).ok());
  EXPECT_EQ(Floats(outputs[0]), (std::vector<float>{2.f, 4.f}));
  EXPECT_EQ(metadata.partition_graphs_size(), 2);
}

TEST(ClientSessionTest, OutputsOutliveTheSession) {
  std::vector<Tensor> outputs;
  {
    Scope root = Scope::NewRootScope();
    auto a = ops::AddV2(root, ops::Const(root, {1.f, 2.f}), 1.f);
    auto s = ops::Identity(root, ops::Const(root, {"x", "y"}));
    ClientSession session(root);
    ASSERT_TRUE(session.Run({a, s}, &outputs).ok());
  }
  EXPECT_EQ(Floats(outputs[0]), (std::vector<float>{2.f, 3.f}));
  EXPECT_EQ(outputs[1].flat<std::string>()(1), "y");
}

TEST(ClientSessionTest, ConcurrentRuns) {
  Scope root = Scope::NewRootScope();
  auto a = ops::Placeholder(root, DT_FLOAT);
  auto b = ops::AddV2(root, ops::Identity(root, a), 1.f);
  ClientSession session(root);
  constexpr int kThreads = 8;
  constexpr int kRuns = 50;
  std::vector<std::thread> threads;
  std::vector<int> failures(kThreads, 0);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kRuns; ++i) {
        std::vector<Tensor> outputs;
        const float x = static_cast<float>(t * 1000 + i);
        absl::Status s = session.Run({{a, {x, -x}}}, {b}, &outputs);
        if (!s.ok() || outputs[0].flat<float>()(0) != x + 1 ||
            outputs[0].flat<float>()(1) != 1 - x) {
          ++failures[t];
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(failures[t], 0) << "thread " << t;
}

}  // namespace
}  // namespace sluice
