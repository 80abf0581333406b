// Every graph in tests/control_flow/manifest.txt (v1 loops and conditionals that TensorFlow
// built and ran: tests/control_flow/gen_control_flow.py) gives TensorFlow's outputs in a
// Session: from the binary and the text GraphDef, with the default threads, with every node
// on the caller's thread (inter_op_parallelism_threads = -1), and with the nodes of every
// loop spread over two CPU devices.
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/import/graph_def_io.h"
#include "gtest/gtest.h"
#include "proto/config.pb.h"
#include "proto/function.pb.h"
#include "proto/graph.pb.h"
#include "runtime/device/session_options.h"
#include "runtime/session/session.h"
#include "tests/fixture_manifest.h"
#include "tests/fixture_runner.h"

namespace sluice {
namespace {

using fixtures::FixtureModel;

std::vector<FixtureModel> Models() {
  std::vector<FixtureModel> models;
  EXPECT_TRUE(fixtures::ReadFixtureManifest("tests/control_flow", &models).ok());
  EXPECT_GE(models.size(), 10u);
  return models;
}

TEST(ControlFlowModelsTest, EveryGraphGivesTensorFlowsOutputs) {
  for (const FixtureModel& model : Models()) {
    fixtures::ExpectModelMatchesTensorFlow(model, model.pb_path);
    fixtures::ExpectModelMatchesTensorFlow(model, model.pbtxt_path);
  }
}

TEST(ControlFlowModelsTest, EveryGraphRunsOnTheCallersThreadAlone) {
  SessionOptions options;
  options.config.set_inter_op_parallelism_threads(-1);
  options.config.set_intra_op_parallelism_threads(1);
  for (const FixtureModel& model : Models()) {
    fixtures::ExpectModelMatchesTensorFlow(model, model.pb_path, options);
  }
}

// Every node of the GraphDef and of its functions alternately on CPU:0 and CPU:1, so that
// nearly every loop has tensors crossing devices inside its frame: each such frame gets a
// control loop on the receiving device (passes/partition_control.h), and the outputs are
// still TensorFlow's. Soft placement lets colocated nodes (a resource and its readers) stay
// together.
TEST(ControlFlowModelsTest, EveryGraphSplitOverTwoDevicesGivesTensorFlowsOutputs) {
  SessionOptions options;
  (*options.config.mutable_device_count())["CPU"] = 2;
  options.config.set_allow_soft_placement(true);
  // A loop whose devices wait for each other forever fails here rather than at the test's
  // timeout.
  options.config.set_operation_timeout_in_ms(120000);
  auto alternate = [](auto* nodes) {
    int i = 0;
    for (NodeDef& n : *nodes) n.set_device(i++ % 2 == 0 ? "/device:CPU:0" : "/device:CPU:1");
  };
  for (const FixtureModel& model : Models()) {
    GraphDef graph;
    ASSERT_TRUE(ReadGraphDefFile(model.pb_path, &graph).ok()) << model.pb_path;
    alternate(graph.mutable_node());
    for (FunctionDef& f : *graph.mutable_library()->mutable_function()) {
      alternate(f.mutable_node_def());
    }
    fixtures::ExpectGraphMatchesTensorFlow(model, graph, model.pb_path + " on two devices",
                                           options);
  }
}

// A loop that never ends stops at the step's timeout with DEADLINE_EXCEEDED, and the
// session still runs other steps.
TEST(ControlFlowModelsTest, ALoopThatNeverEndsStopsAtTheTimeout) {
  GraphDef graph;
  ASSERT_TRUE(ReadGraphDefFile("tests/control_flow/infinite_loop.pbtxt", &graph).ok());
  std::unique_ptr<Session> session;
  ASSERT_TRUE(NewSession(SessionOptions(), &session).ok());
  ASSERT_TRUE(session->Create(graph).ok());
  RunOptions options;
  options.set_timeout_in_ms(200);
  std::vector<Tensor> outputs;
  RunMetadata metadata;
  const auto start = std::chrono::steady_clock::now();
  const absl::Status status = session->Run(options, {}, {"forever"}, {}, &outputs, &metadata);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(status.code(), absl::StatusCode::kDeadlineExceeded) << status;
  EXPECT_LT(seconds, 10.0);

  const absl::Status again = session->Run({{"x", Tensor(2.5f)}}, {"x_plus_one"}, {}, &outputs);
  ASSERT_TRUE(again.ok()) << again;
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(outputs[0].scalar<float>()(), 3.5f);
}

// The executor forwards LoopCond's predicate without its kernel only when it is a scalar;
// another shape reaches the kernel, which reports it, and the session runs on.
TEST(ControlFlowModelsTest, ALoopConditionThatIsNotAScalarIsReported) {
  GraphDef graph;
  ASSERT_TRUE(ReadGraphDefFile("tests/control_flow/long_loop.pbtxt", &graph).ok());
  for (NodeDef& node : *graph.mutable_node()) {
    if (node.name() == "n") (*node.mutable_attr())["shape"].mutable_shape()->set_unknown_rank(true);
  }
  std::unique_ptr<Session> session;
  ASSERT_TRUE(NewSession(SessionOptions(), &session).ok());
  ASSERT_TRUE(session->Create(graph).ok());
  Tensor vector_n(DT_INT32, TensorShape({3}));
  for (int i = 0; i < 3; ++i) vector_n.flat<int32_t>()(i) = 4;
  std::vector<Tensor> outputs;
  const absl::Status status = session->Run({{"n", vector_n}}, {"i"}, {}, &outputs);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_THAT(std::string(status.message()), testing::HasSubstr("must be a scalar")) << status;

  const absl::Status again = session->Run({{"n", Tensor(int32_t{4})}}, {"i", "s"}, {}, &outputs);
  ASSERT_TRUE(again.ok()) << again;
  ASSERT_EQ(outputs.size(), 2u);
  EXPECT_EQ(outputs[0].scalar<int32_t>()(), 4);
  EXPECT_EQ(outputs[1].scalar<int32_t>()(), 0 + 1 + 2 + 3);
}

// Graphs whose frames make no sense are refused with the node named, not run.
TEST(ControlFlowModelsTest, MalformedFramesAreRejected) {
  const char* kExitOutsideALoop = R"pb(
    node {
      name: "c"
      op: "Const"
      attr {
        key: "dtype"
        value { type: DT_FLOAT }
      }
      attr {
        key: "value"
        value {
          tensor {
            dtype: DT_FLOAT
            tensor_shape {}
            float_val: 1
          }
        }
      }
    }
    node {
      name: "stray_exit"
      op: "Exit"
      input: "c"
      attr {
        key: "T"
        value { type: DT_FLOAT }
      }
    }
  )pb";
  GraphDef graph;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(kExitOutsideALoop, &graph));
  std::unique_ptr<Session> session;
  ASSERT_TRUE(NewSession(SessionOptions(), &session).ok());
  ASSERT_TRUE(session->Create(graph).ok());
  std::vector<Tensor> outputs;
  const absl::Status status = session->Run({}, {"stray_exit"}, {}, &outputs);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_NE(status.message().find("stray_exit"), absl::string_view::npos) << status;
}

}  // namespace
}  // namespace sluice
