// Session::MakeCallable / RunCallable / ReleaseCallable on DirectSession, with TensorFlow's
// errors.
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "google/protobuf/text_format.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "gtest/gtest.h"
#include "runtime/device/session_options.h"
#include "runtime/session/session.h"

namespace sluice {
namespace {

// x: float Placeholder; y = x + x; z = y + x.
GraphDef AddGraph() {
  GraphDef graph;
  CHECK(google::protobuf::TextFormat::ParseFromString(R"pb(
                                                        node {
                                                          name: "x"
                                                          op: "Placeholder"
                                                          attr {
                                                            key: "dtype"
                                                            value { type: DT_FLOAT }
                                                          }
                                                        }
                                                        node {
                                                          name: "y"
                                                          op: "AddV2"
                                                          input: "x"
                                                          input: "x"
                                                          attr {
                                                            key: "T"
                                                            value { type: DT_FLOAT }
                                                          }
                                                        }
                                                        node {
                                                          name: "z"
                                                          op: "AddV2"
                                                          input: "y"
                                                          input: "x"
                                                          attr {
                                                            key: "T"
                                                            value { type: DT_FLOAT }
                                                          }
                                                        }
                                                      )pb",
                                                      &graph));
  return graph;
}

std::unique_ptr<Session> MakeSession(bool with_graph = true) {
  std::unique_ptr<Session> session;
  const absl::Status s = NewSession(SessionOptions(), &session);
  CHECK(s.ok()) << s;
  if (with_graph) CHECK(session->Create(AddGraph()).ok());
  return session;
}

Tensor Scalar(float v) {
  Tensor t(DT_FLOAT, TensorShape({}));
  t.scalar<float>()() = v;
  return t;
}

CallableOptions Options(std::vector<std::string> feeds, std::vector<std::string> fetches) {
  CallableOptions options;
  for (const std::string& feed : feeds) options.add_feed(feed);
  for (const std::string& fetch : fetches) options.add_fetch(fetch);
  return options;
}

TEST(CallableTest, RunsTheSignatureByHandle) {
  auto session = MakeSession();
  Session::CallableHandle handle = -1;
  ASSERT_TRUE(session->MakeCallable(Options({"x"}, {"z", "y:0"}), &handle).ok());
  EXPECT_EQ(handle, 0);
  for (float v : {1.0f, 2.5f, -4.0f}) {
    std::vector<Tensor> outputs;
    const absl::Status s = session->RunCallable(handle, {Scalar(v)}, &outputs, nullptr);
    ASSERT_TRUE(s.ok()) << s;
    ASSERT_EQ(outputs.size(), 2u);
    EXPECT_EQ(outputs[0].scalar<float>()(), 3 * v);
    EXPECT_EQ(outputs[1].scalar<float>()(), 2 * v);
  }
  Session::CallableHandle second = -1;
  ASSERT_TRUE(session->MakeCallable(Options({"x"}, {"y"}), &second).ok());
  EXPECT_EQ(second, 1);
}

TEST(CallableTest, UsesTheCallablesRunOptions) {
  auto session = MakeSession();
  CallableOptions options = Options({"x"}, {"y"});
  options.mutable_run_options()->set_output_partition_graphs(true);
  Session::CallableHandle handle = -1;
  ASSERT_TRUE(session->MakeCallable(options, &handle).ok());
  std::vector<Tensor> outputs;
  RunMetadata metadata;
  ASSERT_TRUE(session->RunCallable(handle, {Scalar(1)}, &outputs, &metadata).ok());
  EXPECT_GE(metadata.partition_graphs_size(), 1);
}

TEST(CallableTest, TargetsOnlyNeedNoFetchVector) {
  auto session = MakeSession();
  CallableOptions options = Options({"x"}, {});
  options.add_target("z");
  Session::CallableHandle handle = -1;
  ASSERT_TRUE(session->MakeCallable(options, &handle).ok());
  const absl::Status s = session->RunCallable(handle, {Scalar(1)}, nullptr, nullptr);
  EXPECT_TRUE(s.ok()) << s;
}

TEST(CallableTest, HandleErrorsAreTensorFlows) {
  auto session = MakeSession();
  Session::CallableHandle handle = -1;
  ASSERT_TRUE(session->MakeCallable(Options({"x"}, {"y"}), &handle).ok());
  std::vector<Tensor> outputs;
  absl::Status s = session->RunCallable(handle + 7, {Scalar(1)}, &outputs, nullptr);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "No such callable handle: 7");
  EXPECT_EQ(session->ReleaseCallable(handle + 7).message(), "No such callable handle: 7");

  ASSERT_TRUE(session->ReleaseCallable(handle).ok());
  s = session->RunCallable(handle, {Scalar(1)}, &outputs, nullptr);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "Attempted to run callable after handle was released: 0");
  // Released twice: nothing to do, as in TensorFlow.
  EXPECT_TRUE(session->ReleaseCallable(handle).ok());
}

TEST(CallableTest, FeedAndFetchArgumentErrors) {
  auto session = MakeSession();
  Session::CallableHandle handle = -1;
  ASSERT_TRUE(session->MakeCallable(Options({"x"}, {"y"}), &handle).ok());
  std::vector<Tensor> outputs;
  absl::Status s = session->RunCallable(handle, {}, &outputs, nullptr);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "Expected 1 feed tensors, but got 0");
  s = session->RunCallable(handle, {Scalar(1)}, nullptr, nullptr);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(),
            "`fetch_tensors` must be provided when the callable has one or more outputs.");
  // A value the graph refuses is Run's error.
  Tensor ints(DT_INT32, TensorShape({}));
  ints.scalar<int32_t>()() = 1;
  s = session->RunCallable(handle, {ints}, &outputs, nullptr);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
}

TEST(CallableTest, BadNamesFailWhenTheCallableIsMade) {
  auto session = MakeSession();
  Session::CallableHandle handle = -1;
  const absl::Status s = session->MakeCallable(Options({"x"}, {"nope"}), &handle);
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(absl::StrContains(s.message(), "nope")) << s;
}

TEST(CallableTest, NeedsAGraphAndAnOpenSession) {
  auto session = MakeSession(/*with_graph=*/false);
  Session::CallableHandle handle = -1;
  absl::Status s = session->MakeCallable(Options({}, {}), &handle);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(s.message(), "Session was not created with a graph before MakeCallable()!");

  auto open = MakeSession();
  ASSERT_TRUE(open->MakeCallable(Options({"x"}, {"y"}), &handle).ok());
  ASSERT_TRUE(open->Close().ok());
  s = open->MakeCallable(Options({"x"}, {"y"}), &handle);
  EXPECT_EQ(s.code(), absl::StatusCode::kCancelled);
  std::vector<Tensor> outputs;
  s = open->RunCallable(handle, {Scalar(1)}, &outputs, nullptr);
  EXPECT_EQ(s.code(), absl::StatusCode::kCancelled);
}

TEST(CallableTest, UnsupportedOptionsAreRefused) {
  auto session = MakeSession();
  Session::CallableHandle handle = -1;
  CallableOptions connected = Options({"x"}, {"y"});
  TensorConnection* connection = connected.add_tensor_connection();
  connection->set_from_tensor("y:0");
  connection->set_to_tensor("x:0");
  EXPECT_EQ(session->MakeCallable(connected, &handle).code(), absl::StatusCode::kUnimplemented);

  CallableOptions on_host = Options({"x"}, {"y"});
  (*on_host.mutable_feed_devices())["x"] = "/job:localhost/replica:0/task:0/device:CPU:0";
  (*on_host.mutable_fetch_devices())["y"] = "/job:localhost/replica:0/task:0/device:CPU:0";
  EXPECT_TRUE(session->MakeCallable(on_host, &handle).ok());

  CallableOptions elsewhere = Options({"x"}, {"y"});
  (*elsewhere.mutable_feed_devices())["x"] = "/job:localhost/replica:0/task:0/device:XPU:3";
  const absl::Status s = session->MakeCallable(elsewhere, &handle);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
}

}  // namespace
}  // namespace sluice
