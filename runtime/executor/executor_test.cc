#include "runtime/executor/executor.h"

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "graph/core/allocator.h"
#include "graph/core/errors.h"
#include "graph/core/tensor_types.h"
#include "graph/graph.h"
#include "graph/import/graph_testutil.h"
#include "graph/op/op_registry.h"
#include "gtest/gtest.h"
#include "proto/step_stats.pb.h"
#include "runtime/device/device.h"
#include "runtime/executor/executor_test_ops.h"
#include "runtime/executor/step_stats_collector.h"
#include "runtime/framework/call_frame.h"
#include "runtime/framework/cancellation.h"
#include "runtime/framework/create_op_kernel.h"
#include "runtime/framework/local_rendezvous.h"
#include "runtime/framework/node_output_observer.h"
#include "runtime/framework/resource_mgr.h"
#include "unsupported/Eigen/CXX11/ThreadPool"

namespace sluice {
namespace {

using test::Counters;
using ::testing::HasSubstr;

constexpr absl::Duration kStepTimeout = absl::Seconds(30);

// One NodeDef in text form; `attrs` is the text of its attr entries.
std::string NodeText(const std::string& name, const std::string& op,
                     const std::vector<std::string>& inputs, const std::string& attrs = "") {
  std::string text = absl::StrCat("node { name: '", name, "' op: '", op, "' ");
  for (const std::string& input : inputs) absl::StrAppend(&text, "input: '", input, "' ");
  return absl::StrCat(text, attrs, "}\n");
}
std::string FloatAttr(const std::string& key, float v) {
  return absl::StrCat("attr { key: '", key, "' value { f: ", v, " } } ");
}
std::string IntAttr(const std::string& key, int64_t v) {
  return absl::StrCat("attr { key: '", key, "' value { i: ", v, " } } ");
}
std::string Const(const std::string& name, float v) {
  return NodeText(name, "ExecTestConst", {}, FloatAttr("value", v));
}
std::string Retval(const std::string& name, const std::string& input, int index) {
  return NodeText(name, "ExecTestRetval", {input}, IntAttr("index", index));
}

class ExecutorTestBase : public ::testing::Test {
 protected:
  ExecutorTestBase() : device_(test::NewExecutorTestDevice()), pool_(4) {}

  LocalExecutorParams Params() {
    LocalExecutorParams params;
    params.device = device_.get();
    Device* device = device_.get();
    params.create_kernel = [device](const Node& node, std::unique_ptr<OpKernel>* kernel) {
      return CreateOpKernel(DEVICE_CPU, device, DefaultCpuAllocator(), node.def(), kernel);
    };
    return params;
  }

  absl::Status Build(const std::string& text, std::unique_ptr<Executor>* executor) {
    auto graph = std::make_unique<Graph>(OpRegistry::Global());
    RETURN_IF_ERROR(GraphFromTextForTest(text, graph.get()));
    return NewLocalExecutor(Params(), std::move(graph), executor);
  }

  Executor::Args Args(bool use_runner) {
    Executor::Args args;
    if (use_runner) {
      Eigen::ThreadPool* pool = &pool_;
      args.runner = [pool](std::function<void()> fn) { pool->Schedule(std::move(fn)); };
    }
    return args;
  }

  // Args with a pool runner that counts the closures handed to it in *dispatched.
  Executor::Args CountingArgs(std::atomic<int>* dispatched) {
    Executor::Args args = Args(/*use_runner=*/true);
    args.runner = [dispatched, runner = args.runner](std::function<void()> fn) {
      ++*dispatched;
      runner(std::move(fn));
    };
    return args;
  }

  // Runs a step whose ExecTestRetval nodes fill `num_retvals` results.
  absl::Status RunStep(Executor* executor, Executor::Args args, int num_retvals,
                       std::vector<float>* results) {
    DataTypeVector ret_types(num_retvals, DT_FLOAT);
    FunctionCallFrame frame({}, ret_types);
    RETURN_IF_ERROR(frame.SetArgs({}));
    args.call_frame = &frame;
    absl::Notification done;
    absl::Status status;
    executor->RunAsync(args, [&](const absl::Status& s) {
      status = s;
      done.Notify();
    });
    if (!done.WaitForNotificationWithTimeout(kStepTimeout)) {
      ADD_FAILURE() << "step did not finish";
      std::abort();  // The step still refers to this frame; nothing safe is left to do.
    }
    RETURN_IF_ERROR(status);
    std::vector<Tensor> retvals;
    RETURN_IF_ERROR(frame.ConsumeRetvals(&retvals));
    results->clear();
    for (const Tensor& t : retvals) results->push_back(t.flat<float>()(0));
    return absl::OkStatus();
  }

  std::unique_ptr<Device> device_;
  Eigen::ThreadPool pool_;
};

// The parameter says whether steps get an inter-op runner (a thread pool) or run inline
// on the calling thread; both must give the same results.
class ExecutorTest : public ExecutorTestBase, public ::testing::WithParamInterface<bool> {
 protected:
  using ExecutorTestBase::RunStep;
  absl::Status RunStep(Executor* executor, int num_retvals, std::vector<float>* results) {
    return RunStep(executor, Args(GetParam()), num_retvals, results);
  }
  // RunStep with a StepStatsCollector filling *step_stats.
  absl::Status RunStepWithStats(Executor* executor, int num_retvals, std::vector<float>* results,
                                StepStats* step_stats) {
    StepStatsCollector collector(step_stats);
    Executor::Args args = Args(GetParam());
    args.stats_collector = &collector;
    const absl::Status status = RunStep(executor, args, num_retvals, results);
    collector.Finalize();
    return status;
  }
};

using ExecutorConstructionTest = ExecutorTestBase;
using ExecutorCostTest = ExecutorTestBase;

INSTANTIATE_TEST_SUITE_P(InlineAndRunner, ExecutorTest, ::testing::Bool());

// ---- Values --------------------------------------------------------------------------

TEST_P(ExecutorTest, ChainComputes) {
  std::string text = Const("c", 1);
  std::string prev = "c";
  for (int i = 0; i < 10; ++i) {
    const std::string name = absl::StrCat("a", i);
    // Alternate cheap and expensive kernels so both scheduling paths are taken.
    text += NodeText(name, i % 2 == 0 ? "ExecTestAddOne" : "ExecTestSlowAddOne", {prev});
    prev = name;
  }
  text += Retval("r", prev, 0);
  std::unique_ptr<Executor> executor;
  ASSERT_TRUE(Build(text, &executor).ok());
  std::vector<float> results;
  ASSERT_TRUE(RunStep(executor.get(), 1, &results).ok());
  EXPECT_THAT(results, ::testing::ElementsAre(11.0f));
}

TEST_P(ExecutorTest, DiamondComputes) {
  const std::string text =
      Const("c", 2) + NodeText("a", "ExecTestAddOne", {"c"}) +
      NodeText("b", "ExecTestSlowAddOne", {"c"}) + NodeText("d", "ExecTestAdd", {"a", "b"}) +
      NodeText("e", "ExecTestAdd", {"d", "c"}) + Retval("r0", "d", 0) + Retval("r1", "e", 1);
  std::unique_ptr<Executor> executor;
  ASSERT_TRUE(Build(text, &executor).ok());
  std::vector<float> results;
  ASSERT_TRUE(RunStep(executor.get(), 2, &results).ok());
  EXPECT_THAT(results, ::testing::ElementsAre(6.0f, 8.0f));
}

TEST_P(ExecutorTest, WideFanInAndControlEdgesCompute) {
  constexpr int kWidth = 100;
  std::string text;
  std::vector<std::string> inputs;
  for (int i = 0; i < kWidth; ++i) {
    text += Const(absl::StrCat("c", i), static_cast<float>(i));
    text += NodeText(absl::StrCat("s", i), "ExecTestSlowAddOne", {absl::StrCat("c", i)});
    inputs.push_back(absl::StrCat("s", i));
  }
  text += NodeText("sum", "ExecTestSum", inputs, IntAttr("N", kWidth));
  // A control edge: the retval also waits for a node it takes no data from.
  text += Const("late", 0) + NodeText("r", "ExecTestRetval", {"sum", "^late"}, IntAttr("index", 0));
  std::unique_ptr<Executor> executor;
  ASSERT_TRUE(Build(text, &executor).ok());
  std::vector<float> results;
  ASSERT_TRUE(RunStep(executor.get(), 1, &results).ok());
  EXPECT_THAT(results, ::testing::ElementsAre(kWidth * (kWidth - 1) / 2.0f + kWidth));
}

TEST_P(ExecutorTest, SameOutputFeedsManyConsumersAndOneConsumerTwice) {
  const std::string text = Const("c", 3) + NodeText("twice", "ExecTestAdd", {"c", "c"}) +
                           NodeText("a", "ExecTestAddOne", {"c"}) +
                           NodeText("b", "ExecTestInPlace", {"c"}) + Retval("r0", "twice", 0) +
                           Retval("r1", "a", 1) + Retval("r2", "b", 2) + Retval("r3", "c", 3);
  std::unique_ptr<Executor> executor;
  ASSERT_TRUE(Build(text, &executor).ok());
  std::vector<float> results;
  ASSERT_TRUE(RunStep(executor.get(), 4, &results).ok());
  // In-place consumers never write into a buffer another consumer still reads.
  EXPECT_THAT(results, ::testing::ElementsAre(6.0f, 4.0f, 4.0f, 3.0f));
}

TEST_P(ExecutorTest, ConstValuesReachReadersWithoutRunningTheKernel) {
  // "f" feeds a reader that forwards its input in place (it must not: the kernel keeps the
  // value), a result directly, and waits on a control edge.
  const std::string text =
      Const("gate", 0) + NodeText("f", "ExecTestFixed", {"^gate"}, FloatAttr("value", 5)) +
      NodeText("a", "ExecTestAddOne", {"f"}) + Retval("r0", "a", 0) + Retval("r1", "f", 1);
  std::unique_ptr<Executor> executor;
  ASSERT_TRUE(Build(text, &executor).ok());
  const int runs_before = Counters().fixed_runs.load();
  for (int step = 0; step < 3; ++step) {
    std::vector<float> results;
    ASSERT_TRUE(RunStep(executor.get(), 2, &results).ok());
    EXPECT_EQ(results, (std::vector<float>{6, 5})) << "step " << step;
  }
  EXPECT_EQ(Counters().fixed_runs.load(), runs_before);

  // Step stats time every node, so there the kernel runs (and gives the same values).
  StepStats step_stats;
  std::vector<float> results;
  ASSERT_TRUE(RunStepWithStats(executor.get(), 2, &results, &step_stats).ok());
  EXPECT_EQ(results, (std::vector<float>{6, 5}));
  EXPECT_EQ(Counters().fixed_runs.load(), runs_before + 1);
}

TEST_P(ExecutorTest, EmptyGraphSucceeds) {
  std::unique_ptr<Executor> executor;
  ASSERT_TRUE(Build("", &executor).ok());
  EXPECT_TRUE(executor->Run(Args(GetParam())).ok());
}

TEST_P(ExecutorTest, KernelsAreConstructedOnceAcrossSteps) {
  const int built_before = Counters().add_one_built.load();
  const int runs_before = Counters().add_one_runs.load();
  std::unique_ptr<Executor> executor;
  ASSERT_TRUE(Build(Const("c", 0) + NodeText("a", "ExecTestAddOne", {"c"}) +
                        NodeText("b", "ExecTestAddOne", {"a"}) + Retval("r", "b", 0),
                    &executor)
                  .ok());
  EXPECT_EQ(Counters().add_one_built.load() - built_before, 2);
  for (int step = 0; step < 20; ++step) {
    std::vector<float> results;
    ASSERT_TRUE(RunStep(executor.get(), 1, &results).ok());
    EXPECT_THAT(results, ::testing::ElementsAre(2.0f));
  }
  EXPECT_EQ(Counters().add_one_built.load() - built_before, 2);
  EXPECT_EQ(Counters().add_one_runs.load() - runs_before, 40);
}

TEST_P(ExecutorTest, SoleConsumerGetsTheBufferToForward) {
  const int sole_before = Counters().in_place_sole_owner.load();
  const int shared_before = Counters().in_place_shared.load();
  std::unique_ptr<Executor> executor;
  // fresh -> in-place: the in-place node is the only reader of a buffer no one else holds.
  ASSERT_TRUE(Build(Const("c", 1) + NodeText("f", "ExecTestFresh", {"c"}) +
                        NodeText("p", "ExecTestInPlace", {"f"}) + Retval("r", "p", 0),
                    &executor)
                  .ok());
  std::vector<float> results;
  ASSERT_TRUE(RunStep(executor.get(), 1, &results).ok());
  EXPECT_THAT(results, ::testing::ElementsAre(2.0f));
  EXPECT_EQ(Counters().in_place_sole_owner.load() - sole_before, 1);
  EXPECT_EQ(Counters().in_place_shared.load() - shared_before, 0);
}

TEST_P(ExecutorTest, SharedBufferIsNotSeenAsSole) {
  const int sole_before = Counters().in_place_sole_owner.load();
  const int shared_before = Counters().in_place_shared.load();
  std::unique_ptr<Executor> executor;
  // The retval of f (a cheap node, run first in input order) keeps a copy in the frame.
  ASSERT_TRUE(Build(Const("c", 1) + NodeText("f", "ExecTestFresh", {"c"}) + Retval("r0", "f", 0) +
                        NodeText("p", "ExecTestInPlace", {"f"}) + Retval("r1", "p", 1),
                    &executor)
                  .ok());
  std::vector<float> results;
  ASSERT_TRUE(RunStep(executor.get(), 2, &results).ok());
  EXPECT_THAT(results, ::testing::ElementsAre(1.0f, 2.0f));
  EXPECT_EQ(Counters().in_place_sole_owner.load() - sole_before, 0);
  EXPECT_EQ(Counters().in_place_shared.load() - shared_before, 1);
}

TEST_P(ExecutorTest, RefOutputsReachRefAndValueConsumers) {
  std::unique_ptr<Executor> executor;
  ASSERT_TRUE(Build(NodeText("v", "ExecTestRefVar", {}, FloatAttr("value", 10)) +
                        NodeText("inc", "ExecTestRefAddOne", {"v"}) + Retval("r0", "inc", 0),
                    &executor)
                  .ok());
  std::vector<float> results;
  ASSERT_TRUE(RunStep(executor.get(), 1, &results).ok());
  EXPECT_THAT(results, ::testing::ElementsAre(11.0f));
  // The variable lives in the kernel, so the next step sees the update.
  ASSERT_TRUE(RunStep(executor.get(), 1, &results).ok());
  EXPECT_THAT(results, ::testing::ElementsAre(12.0f));

  std::unique_ptr<Executor> reader;
  ASSERT_TRUE(Build(NodeText("v", "ExecTestRefVar", {}, FloatAttr("value", 5)) +
                        NodeText("a", "ExecTestAddOne", {"v"}) + Retval("r0", "a", 0),
                    &reader)
                  .ok());
  ASSERT_TRUE(RunStep(reader.get(), 1, &results).ok());
  EXPECT_THAT(results, ::testing::ElementsAre(6.0f));
}

TEST_P(ExecutorTest, StepServicesReachKernels) {
  std::unique_ptr<Executor> executor;
  ASSERT_TRUE(Build(Const("c", 1) + NodeText("s", "ExecTestServices", {"c"}) + Retval("r", "s", 0),
                    &executor)
                  .ok());
  LocalRendezvous rendezvous;
  CancellationManager cancellation;
  ResourceMgr resources;
  Executor::Args args = Args(GetParam());
  args.step_id = 42;
  args.rendezvous = &rendezvous;
  args.cancellation_manager = &cancellation;
  args.resource_manager = &resources;
  std::vector<float> results;
  ASSERT_TRUE(RunStep(executor.get(), args, 1, &results).ok());
  test::SeenServices& seen = test::Seen();
  absl::MutexLock lock(&seen.mu);
  EXPECT_EQ(seen.step_id, 42);
  EXPECT_EQ(seen.rendezvous, &rendezvous);
  EXPECT_EQ(seen.cancellation_manager, &cancellation);
  EXPECT_EQ(seen.resource_manager, &resources);
  EXPECT_NE(seen.call_frame, nullptr);
  EXPECT_EQ(seen.has_runner, GetParam());
  EXPECT_TRUE(rendezvous.status().ok());
  EXPECT_FALSE(cancellation.IsCancelled());
}

// ---- Asynchronous kernels -------------------------------------------------------------

TEST_P(ExecutorTest, AsyncKernelsCompleteOnOtherThreadsAndInline) {
  std::string text = Const("c", 0);
  std::string prev = "c";
  for (int i = 0; i < 6; ++i) {
    const std::string name = absl::StrCat("n", i);
    const std::string attrs =
        absl::StrCat("attr { key: 'inline' value { b: ", i % 3 == 0 ? "true" : "false", " } } ");
    text += NodeText(name, i % 2 == 0 ? "ExecTestAsyncAddOne" : "ExecTestAddOne", {prev},
                     i % 2 == 0 ? attrs : "");
    prev = name;
  }
  text += NodeText("side", "ExecTestAsyncAddOne", {"c"}) + Retval("r0", prev, 0) +
          Retval("r1", "side", 1);
  std::unique_ptr<Executor> executor;
  ASSERT_TRUE(Build(text, &executor).ok());
  for (int step = 0; step < 10; ++step) {
    std::vector<float> results;
    ASSERT_TRUE(RunStep(executor.get(), 2, &results).ok());
    EXPECT_THAT(results, ::testing::ElementsAre(6.0f, 1.0f));
  }
}

// ---- Errors ---------------------------------------------------------------------------

TEST_P(ExecutorTest, ErrorAbortsStepAndNamesNode) {
  const int runs_before = Counters().add_one_runs.load();
  std::unique_ptr<Executor> executor;
  ASSERT_TRUE(Build(Const("c", 3) + NodeText("bad", "ExecTestFail", {"c"}) +
                        NodeText("after", "ExecTestAddOne", {"bad"}) + Retval("r", "after", 0),
                    &executor)
                  .ok());
  LocalRendezvous rendezvous;
  CancellationManager cancellation;
  Executor::Args args = Args(GetParam());
  args.rendezvous = &rendezvous;
  args.cancellation_manager = &cancellation;
  std::vector<float> results;
  const absl::Status s = RunStep(executor.get(), args, 1, &results);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "ExecTestFail saw 3 [Op:ExecTestFail]\n\t [[{{node bad}}]]");
  EXPECT_EQ(Counters().add_one_runs.load(), runs_before);  // nothing after the failure ran
  EXPECT_EQ(rendezvous.status(), s);
  EXPECT_TRUE(cancellation.IsCancelled());
}

TEST_P(ExecutorTest, ConcurrentStepsAreIndependent) {
  std::unique_ptr<Executor> executor;
  ASSERT_TRUE(Build(Const("c", 1) + NodeText("a", "ExecTestSlowAddOne", {"c"}) +
                        NodeText("f", "ExecTestFail", {"a"}, IntAttr("step", 3)) +
                        NodeText("b", "ExecTestAddOne", {"f"}) + Retval("r", "b", 0),
                    &executor)
                  .ok());
  constexpr int kSteps = 8;
  std::vector<absl::Status> statuses(kSteps);
  std::vector<std::vector<float>> results(kSteps);
  std::vector<std::thread> threads;
  for (int step = 0; step < kSteps; ++step) {
    threads.emplace_back([&, step]() {
      Executor::Args args = Args(GetParam());
      args.step_id = step;
      for (int repeat = 0; repeat < 20 && statuses[step].ok(); ++repeat) {
        statuses[step] = RunStep(executor.get(), args, 1, &results[step]);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (int step = 0; step < kSteps; ++step) {
    if (step == 3) {
      EXPECT_EQ(statuses[step].code(), absl::StatusCode::kInvalidArgument);
      EXPECT_THAT(statuses[step].message(), HasSubstr("{{node f}}"));
    } else {
      ASSERT_TRUE(statuses[step].ok()) << step << ": " << statuses[step];
      EXPECT_THAT(results[step], ::testing::ElementsAre(3.0f));
    }
  }
}

TEST_P(ExecutorTest, ErrorCancelsBlockedKernel) {
  std::unique_ptr<Executor> executor;
  // The blocked kernel only finishes when the failure elsewhere cancels the step.
  ASSERT_TRUE(Build(Const("c", 1) + NodeText("block", "ExecTestBlockUntilCancelled", {"c"}) +
                        NodeText("slow", "ExecTestSlowAddOne", {"c"}) +
                        NodeText("bad", "ExecTestFail", {"slow"}) + Retval("r0", "block", 0) +
                        Retval("r1", "bad", 1),
                    &executor)
                  .ok());
  CancellationManager cancellation;
  Executor::Args args = Args(GetParam());
  args.cancellation_manager = &cancellation;
  std::vector<float> results;
  const absl::Status s = RunStep(executor.get(), args, 2, &results);
  // The first error wins; the cancelled kernel's CANCELLED comes after it.
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("{{node bad}}"));
}

TEST_P(ExecutorTest, ExternalCancellationWakesBlockedKernel) {
  std::unique_ptr<Executor> executor;
  ASSERT_TRUE(Build(Const("c", 1) + NodeText("block", "ExecTestBlockUntilCancelled", {"c"}) +
                        NodeText("after", "ExecTestAddOne", {"block"}) + Retval("r", "after", 0),
                    &executor)
                  .ok());
  CancellationManager cancellation;
  Executor::Args args = Args(GetParam());
  args.cancellation_manager = &cancellation;
  std::thread canceller([&cancellation]() {
    absl::SleepFor(absl::Milliseconds(20));
    cancellation.StartCancel();
  });
  std::vector<float> results;
  const absl::Status s = RunStep(executor.get(), args, 1, &results);
  canceller.join();
  EXPECT_EQ(s.code(), absl::StatusCode::kCancelled);
  EXPECT_THAT(s.message(), HasSubstr("ExecTestBlockUntilCancelled was cancelled"));
  EXPECT_THAT(s.message(), HasSubstr("{{node block}}"));
}

TEST_P(ExecutorTest, AlreadyCancelledStepRunsNothing) {
  const int runs_before = Counters().add_one_runs.load();
  std::unique_ptr<Executor> executor;
  ASSERT_TRUE(
      Build(Const("c", 1) + NodeText("a", "ExecTestAddOne", {"c"}) + Retval("r", "a", 0), &executor)
          .ok());
  CancellationManager cancellation;
  cancellation.StartCancel();
  Executor::Args args = Args(GetParam());
  args.cancellation_manager = &cancellation;
  std::vector<float> results;
  const absl::Status s = RunStep(executor.get(), args, 1, &results);
  EXPECT_EQ(s.code(), absl::StatusCode::kCancelled);
  EXPECT_EQ(Counters().add_one_runs.load(), runs_before);
}

TEST_P(ExecutorTest, MissingOutputIsInternal) {
  std::unique_ptr<Executor> executor;
  ASSERT_TRUE(
      Build(Const("c", 1) + NodeText("none", "ExecTestNoOutput", {"c"}) + Retval("r", "none", 0),
            &executor)
          .ok());
  std::vector<float> results;
  const absl::Status s = RunStep(executor.get(), 1, &results);
  EXPECT_EQ(s.code(), absl::StatusCode::kInternal);
  EXPECT_THAT(s.message(), HasSubstr("Missing 0-th output from {{node none}}"));
}

TEST_P(ExecutorTest, MissingInputIsInternal) {
  auto graph = std::make_unique<Graph>(OpRegistry::Global());
  ASSERT_TRUE(
      GraphFromTextForTest(
          Const("c", 1) + NodeText("a", "ExecTestAddOne", {"c"}) + Retval("r", "a", 0), graph.get())
          .ok());
  graph->RemoveNode(graph->FindNodeByName("c"));  // `a` now has no producer for input 0
  std::unique_ptr<Executor> executor;
  ASSERT_TRUE(NewLocalExecutor(Params(), std::move(graph), &executor).ok());
  std::vector<float> results;
  const absl::Status s = RunStep(executor.get(), 1, &results);
  EXPECT_EQ(s.code(), absl::StatusCode::kInternal);
  EXPECT_THAT(s.message(), HasSubstr("Missing required input 0 of ExecTestAddOne node 'a'"));
  EXPECT_THAT(s.message(), HasSubstr("{{node a}}"));
}

TEST_P(ExecutorTest, StepStatsAreRecorded) {
  std::unique_ptr<Executor> executor;
  ASSERT_TRUE(Build(Const("c", 1) + NodeText("a", "ExecTestSlowAddOne", {"c"}) +
                        NodeText("b", "ExecTestAsyncAddOne", {"a"}) + Retval("r", "b", 0),
                    &executor)
                  .ok());
  StepStats step_stats;
  std::vector<float> results;
  ASSERT_TRUE(RunStepWithStats(executor.get(), 1, &results, &step_stats).ok());

  ASSERT_EQ(step_stats.dev_stats_size(), 1);
  const DeviceStepStats& dev = step_stats.dev_stats(0);
  EXPECT_EQ(dev.device(), "/job:localhost/replica:0/task:0/device:CPU:0");
  std::vector<std::string> names;
  for (const NodeExecStats& n : dev.node_stats()) names.push_back(n.node_name());
  EXPECT_THAT(names, ::testing::UnorderedElementsAre("c", "a", "b", "r"));
  for (const NodeExecStats& n : dev.node_stats()) {
    SCOPED_TRACE(n.node_name());
    EXPECT_GT(n.all_start_micros(), 0);
    EXPECT_LE(n.op_start_rel_micros(), n.op_end_rel_micros());
    EXPECT_LE(n.op_end_rel_micros(), n.all_end_rel_micros());
    EXPECT_LE(n.op_start_rel_nanos(), n.op_end_rel_nanos());
    EXPECT_NE(n.thread_id(), 0u);
    if (n.node_name() == "a") {
      EXPECT_EQ(n.timeline_label(), "a = ExecTestSlowAddOne(c)");
      ASSERT_EQ(n.output_size(), 1);
      EXPECT_EQ(n.output(0).slot(), 0);
      const TensorDescription& d = n.output(0).tensor_description();
      EXPECT_EQ(d.dtype(), DT_FLOAT);
      EXPECT_EQ(d.shape().dim_size(), 0);
      EXPECT_EQ(d.allocation_description().requested_bytes(), 4);
      EXPECT_EQ(d.allocation_description().allocator_name(), "cpu");
    }
    if (n.node_name() == "r") {
      EXPECT_EQ(n.output_size(), 0);
    }
  }
}

// ---- Construction errors --------------------------------------------------------------

TEST_F(ExecutorConstructionTest, BadKernelConstructionNamesNode) {
  std::unique_ptr<Executor> executor;
  const absl::Status s =
      Build(Const("c", 1) + NodeText("broken", "ExecTestBadCtor", {"c"}), &executor);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("ExecTestBadCtor always fails"));
  EXPECT_THAT(s.message(), HasSubstr("broken"));
  EXPECT_EQ(executor, nullptr);
}

TEST_F(ExecutorConstructionTest, CreateKernelFailureNamesNode) {
  auto graph = std::make_unique<Graph>(OpRegistry::Global());
  ASSERT_TRUE(GraphFromTextForTest(Const("c", 1), graph.get()).ok());
  LocalExecutorParams params = Params();
  params.create_kernel = [](const Node&, std::unique_ptr<OpKernel>*) {
    return errors::NotFound("no kernel here");
  };
  std::unique_ptr<Executor> executor;
  const absl::Status s = NewLocalExecutor(params, std::move(graph), &executor);
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(s.message(), "no kernel here\n\t [[{{node c}}]]");
}

TEST_F(ExecutorConstructionTest, CycleIsRejected) {
  auto graph = std::make_unique<Graph>(OpRegistry::Global());
  ASSERT_TRUE(GraphFromTextForTest(Const("c", 1) + NodeText("a", "ExecTestAdd", {"c", "c"}) +
                                       NodeText("b", "ExecTestAddOne", {"a"}),
                                   graph.get())
                  .ok());
  // a's second input now comes from b, which depends on a.
  Node* a = graph->FindNodeByName("a");
  ASSERT_TRUE(graph->UpdateEdge(graph->FindNodeByName("b"), 0, a, 1).ok());
  std::unique_ptr<Executor> executor;
  const absl::Status s = NewLocalExecutor(Params(), std::move(graph), &executor);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("cycle"));
  EXPECT_EQ(executor, nullptr);
}

TEST_F(ExecutorConstructionTest, ParamsAreChecked) {
  std::unique_ptr<Executor> executor;
  LocalExecutorParams no_device = Params();
  no_device.device = nullptr;
  EXPECT_EQ(
      NewLocalExecutor(no_device, std::make_unique<Graph>(OpRegistry::Global()), &executor).code(),
      absl::StatusCode::kInvalidArgument);
  LocalExecutorParams no_create = Params();
  no_create.create_kernel = nullptr;
  EXPECT_EQ(
      NewLocalExecutor(no_create, std::make_unique<Graph>(OpRegistry::Global()), &executor).code(),
      absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(NewLocalExecutor(Params(), nullptr, &executor).code(),
            absl::StatusCode::kInvalidArgument);
  LocalExecutorParams null_kernel = Params();
  null_kernel.create_kernel = [](const Node&, std::unique_ptr<OpKernel>*) {
    return absl::OkStatus();
  };
  auto graph = std::make_unique<Graph>(OpRegistry::Global());
  ASSERT_TRUE(GraphFromTextForTest(Const("c", 1), graph.get()).ok());
  EXPECT_EQ(NewLocalExecutor(null_kernel, std::move(graph), &executor).code(),
            absl::StatusCode::kInternal);
  EXPECT_EQ(executor, nullptr);
}

// A kernel that calls itself expensive but runs cheap is scheduled inline once measured;
// when it turns slow, the executor notices (it still times some of its runs) and hands it
// to the runner again.
TEST_F(ExecutorCostTest, KernelThatTurnsSlowIsDispatchedAgain) {
  std::unique_ptr<Executor> executor;
  ASSERT_TRUE(Build(Const("c", 1) + NodeText("a", "ExecTestSlowAddOne", {"c"}) +
                        NodeText("b", "ExecTestSlowAddOne", {"c"}) + Retval("r0", "a", 0) +
                        Retval("r1", "b", 1),
                    &executor)
                  .ok());
  std::atomic<int> dispatched{0};
  Executor::Args args = CountingArgs(&dispatched);
  std::vector<float> results;
  // While a and b are expensive, one of the two goes to the runner each step.
  int quiet_steps = 0;
  for (int step = 0; step < 500 && quiet_steps < 20; ++step) {
    const int before = dispatched.load();
    ASSERT_TRUE(RunStep(executor.get(), args, 2, &results).ok());
    EXPECT_THAT(results, ::testing::ElementsAre(2.0f, 2.0f));
    quiet_steps = dispatched.load() == before ? quiet_steps + 1 : 0;
  }
  if (quiet_steps < 20) GTEST_SKIP() << "a scalar add is not measured cheap in this build";

  Counters().slow_add_one_sleep_us = 2000;
  const int before = dispatched.load();
  // Timed once in 16 runs, and three slow samples in a row are needed: 48 runs at most.
  for (int step = 0; step < 100 && dispatched.load() == before; ++step) {
    ASSERT_TRUE(RunStep(executor.get(), args, 2, &results).ok());
  }
  Counters().slow_add_one_sleep_us = 0;
  EXPECT_GT(dispatched.load(), before);
}

// One expensive node ready while cheap nodes are still queued stays with the thread that
// made it ready (a hand-off would cost a wake-up and a sleep); a second one, with the work
// to pay for a hand-off, goes to the runner so that the two run at once.
TEST_F(ExecutorCostTest, OneExpensiveNodeStaysAndASecondGoesToTheRunner) {
  Counters().slow_add_one_sleep_us = 300;
  std::unique_ptr<Executor> alone;
  ASSERT_TRUE(Build(Const("c", 1) + Const("d", 2) + Const("e", 3) +
                        NodeText("a", "ExecTestSlowAddOne", {"c"}) + Retval("r0", "a", 0) +
                        Retval("r1", "d", 1) + Retval("r2", "e", 2),
                    &alone)
                  .ok());
  std::atomic<int> dispatched{0};
  Executor::Args args = CountingArgs(&dispatched);
  std::vector<float> results;
  for (int step = 0; step < 10; ++step) {
    ASSERT_TRUE(RunStep(alone.get(), args, 3, &results).ok());
    EXPECT_THAT(results, ::testing::ElementsAre(2.0f, 2.0f, 3.0f));
  }
  EXPECT_EQ(dispatched.load(), 0);

  std::unique_ptr<Executor> pair;
  ASSERT_TRUE(Build(Const("c", 1) + NodeText("a", "ExecTestSlowAddOne", {"c"}) +
                        NodeText("b", "ExecTestSlowAddOne", {"c"}) + Retval("r0", "a", 0) +
                        Retval("r1", "b", 1),
                    &pair)
                  .ok());
  for (int step = 0; step < 10; ++step) {
    const int before = dispatched.load();
    ASSERT_TRUE(RunStep(pair.get(), args, 2, &results).ok());
    EXPECT_THAT(results, ::testing::ElementsAre(2.0f, 2.0f));
    EXPECT_EQ(dispatched.load(), before + 1) << "step " << step;
  }
  Counters().slow_add_one_sleep_us = 0;
}

// With one core worth running on (a busy neighbour on a 2-core machine), the second
// expensive node stays on the thread too: handed over, it would wait for a time slice.
TEST_F(ExecutorCostTest, NothingGoesToTheRunnerWhenTheDeviceHasOneCoreFree) {
  device_ = test::NewExecutorTestDevice(/*threads_worth_running=*/1);
  Counters().slow_add_one_sleep_us = 300;
  std::unique_ptr<Executor> pair;
  ASSERT_TRUE(Build(Const("c", 1) + NodeText("a", "ExecTestSlowAddOne", {"c"}) +
                        NodeText("b", "ExecTestSlowAddOne", {"c"}) +
                        NodeText("b2", "ExecTestSlowAddOne", {"b"}) + Retval("r0", "a", 0) +
                        Retval("r1", "b2", 1),
                    &pair)
                  .ok());
  std::atomic<int> dispatched{0};
  Executor::Args args = CountingArgs(&dispatched);
  std::vector<float> results;
  for (int step = 0; step < 10; ++step) {
    ASSERT_TRUE(RunStep(pair.get(), args, 2, &results).ok());
    EXPECT_THAT(results, ::testing::ElementsAre(2.0f, 3.0f));
  }
  EXPECT_EQ(dispatched.load(), 0);
  Counters().slow_add_one_sleep_us = 0;
}

// ---- Observed steps ------------------------------------------------------------------

// Records every output it is shown; fails on the node named `fail_at`.
class RecordingObserver : public NodeOutputObserver {
 public:
  explicit RecordingObserver(std::string fail_at = "") : fail_at_(std::move(fail_at)) {}
  absl::Status OnOutput(const Node& node, int output, const Tensor& value) override {
    absl::MutexLock lock(&mu_);
    seen_[absl::StrCat(node.name(), ":", output)] = value.flat<float>()(0);
    if (node.name() == fail_at_) return errors::InvalidArgument("watched value is bad");
    return absl::OkStatus();
  }
  std::map<std::string, float> seen() {
    absl::MutexLock lock(&mu_);
    return seen_;
  }

 private:
  const std::string fail_at_;
  absl::Mutex mu_;
  std::map<std::string, float> seen_ ABSL_GUARDED_BY(mu_);
};

TEST_P(ExecutorTest, ObserverSeesEveryOutputAndResultsAreUnchanged) {
  const std::string text = Const("c", 2) + NodeText("a", "ExecTestAddOne", {"c"}) +
                           NodeText("b", "ExecTestSlowAddOne", {"a"}) +
                           NodeText("d", "ExecTestAdd", {"a", "b"}) + Retval("r", "d", 0);
  std::unique_ptr<Executor> executor;
  ASSERT_TRUE(Build(text, &executor).ok());
  RecordingObserver observer;
  Executor::Args args = Args(GetParam());
  args.output_observer = &observer;
  std::vector<float> results;
  ASSERT_TRUE(RunStep(executor.get(), args, 1, &results).ok());
  EXPECT_THAT(results, ::testing::ElementsAre(7.0f));
  EXPECT_THAT(observer.seen(),
              ::testing::ElementsAre(::testing::Pair("a:0", 3.0f), ::testing::Pair("b:0", 4.0f),
                                     ::testing::Pair("c:0", 2.0f), ::testing::Pair("d:0", 7.0f)));
}

TEST_P(ExecutorTest, ObserverFailureEndsTheStepAtThatNode) {
  const std::string text = Const("c", 2) + NodeText("a", "ExecTestAddOne", {"c"}) +
                           NodeText("b", "ExecTestAddOne", {"a"}) + Retval("r", "b", 0);
  std::unique_ptr<Executor> executor;
  ASSERT_TRUE(Build(text, &executor).ok());
  RecordingObserver observer("a");
  Executor::Args args = Args(GetParam());
  args.output_observer = &observer;
  std::vector<float> results;
  const absl::Status status = RunStep(executor.get(), args, 1, &results);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_THAT(status.message(), ::testing::HasSubstr("watched value is bad"));
  EXPECT_THAT(status.message(), ::testing::HasSubstr("{{node a}}"));
  EXPECT_EQ(observer.seen().count("b:0"), 0u);  // nothing after the failing node ran
}

}  // namespace
}  // namespace sluice
