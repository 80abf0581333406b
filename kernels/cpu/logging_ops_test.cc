// Assert, Print, PrintV2 and StringFormat beyond the fixtures
// (tests/kernels/fixtures/logging.pbtxt): what Print and PrintV2 write, and where, with
// strings recorded from TensorFlow 2.21.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

class LoggingOpsTest : public KernelTest {
 protected:
  void InitPrintV2(const std::string& stream, const std::string& end = "\n") {
    ASSERT_TRUE(InitOp(NodeDefBuilder("n", "PrintV2")
                           .Input("input")
                           .Attr("output_stream", stream)
                           .Attr("end", end)
                           .Build())
                    .ok());
  }
};

// TensorFlow: tf.debugging.Assert(False, [[1, 2, 3, 4], "hi"]) fails with
// "assertion failed: [1 2 3...] [hi]".
TEST_F(LoggingOpsTest, AssertFailsWithTheSummarizedData) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("n", "Assert")
                         .Input("condition")
                         .Input("a")
                         .Input("b")
                         .Attr("T", {DT_INT32, DT_STRING})
                         .Build())
                  .ok());
  AddInputFromArray<bool>(TensorShape({}), {false});
  AddInputFromArray<int32_t>(TensorShape({4}), {1, 2, 3, 4});
  AddInputFromArray<std::string>(TensorShape({}), {"hi"});
  const absl::Status status = RunOpKernel();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "assertion failed: [1 2 3...] [hi]");

  ASSERT_TRUE(
      InitOp(
          NodeDefBuilder("n", "Assert").Input("condition").Input("a").Attr("T", {DT_INT32}).Build())
          .ok());
  AddInputFromArray<bool>(TensorShape({}), {true});
  AddInputFromArray<int32_t>(TensorShape({1}), {1});
  EXPECT_TRUE(RunOpKernel().ok());
}

// Print writes message + "[data]"... to stderr on its first first_n runs and always forwards.
TEST_F(LoggingOpsTest, PrintWritesToStderrFirstNTimes) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("n", "Print")
                         .Input("input")
                         .Input("data")
                         .Attr("T", DT_FLOAT)
                         .Attr("U", {DT_INT32})
                         .Attr("message", "x: ")
                         .Attr("first_n", 2)
                         .Build())
                  .ok());
  const Tensor input = MakeTensor<float>(TensorShape({2}), {1.5f, 2});
  AddInput(input);
  AddInputFromArray<int32_t>(TensorShape({5}), {1, 2, 3, 4, 5});
  std::string written;
  for (int run = 0; run < 3; ++run) {
    ::testing::internal::CaptureStderr();
    const absl::Status status = RunOpKernel();
    written += ::testing::internal::GetCapturedStderr();
    ASSERT_TRUE(status.ok());
    EXPECT_TRUE(GetOutput(0)->SharesBufferWith(input));
  }
  EXPECT_EQ(written, "x: [1 2 3...]\nx: [1 2 3...]\n");
}

TEST_F(LoggingOpsTest, PrintV2WritesToTheChosenStream) {
  InitPrintV2("stdout", " <end>\n");
  AddInputFromArray<std::string>(TensorShape({}), {"to stdout"});
  ::testing::internal::CaptureStdout();
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "to stdout <end>\n");

  InitPrintV2("stderr");
  AddInputFromArray<std::string>(TensorShape({}), {"to stderr"});
  ::testing::internal::CaptureStderr();
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "to stderr\n");

  InitPrintV2("log(error)");
  AddInputFromArray<std::string>(TensorShape({}), {"to the log"});
  ::testing::internal::CaptureStderr();
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_NE(::testing::internal::GetCapturedStderr().find("to the log"), std::string::npos);
}

TEST_F(LoggingOpsTest, PrintV2AppendsToAFile) {
  const std::string path = ::testing::TempDir() + "/printv2_test.txt";
  std::remove(path.c_str());
  for (const char* line : {"first", "second"}) {
    InitPrintV2("file://" + path);
    AddInputFromArray<std::string>(TensorShape({}), {line});
    ASSERT_TRUE(RunOpKernel().ok());
  }
  std::ifstream file(path);
  std::stringstream contents;
  contents << file.rdbuf();
  EXPECT_EQ(contents.str(), "first\nsecond\n");

  InitPrintV2("file:///nonexistent-sluice-dir/f");
  AddInputFromArray<std::string>(TensorShape({}), {"x"});
  const absl::Status status = RunOpKernel();
  EXPECT_EQ(status.code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(status.message(), "/nonexistent-sluice-dir/f; No such file or directory");
}

TEST_F(LoggingOpsTest, PrintV2RejectsUnknownStreams) {
  const absl::Status status =
      InitOp(NodeDefBuilder("n", "PrintV2").Input("input").Attr("output_stream", "bogus").Build());
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("Unknown output stream: bogus, Valid streams are: stdout "
                                  "stderr log(info) log(warning) log(error)"),
            std::string::npos);
}

// TensorFlow: tf.strings.format("x: {}, y: {}", ([0..9], [[1.5, 2.25], [3, 4]])) is
// "x: [0 1 2 ... 7 8 9], y: [[1.5 2.25]\n [3 4]]".
TEST_F(LoggingOpsTest, StringFormatSummarizesLikeTfPrint) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("n", "StringFormat")
                         .Input("a")
                         .Input("b")
                         .Attr("T", {DT_INT32, DT_FLOAT})
                         .Attr("template", "x: {}, y: {}")
                         .Attr("placeholder", "{}")
                         .Build())
                  .ok());
  AddInputFromArray<int32_t>(TensorShape({10}), {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  AddInputFromArray<float>(TensorShape({2, 2}), {1.5f, 2.25f, 3, 4});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(Values<std::string>(*GetOutput(0)),
            (std::vector<std::string>{"x: [0 1 2 ... 7 8 9], y: [[1.5 2.25]\n [3 4]]"}));
}

TEST_F(LoggingOpsTest, StringFormatNeedsOneInputPerPlaceholder) {
  const absl::Status status = InitOp(NodeDefBuilder("n", "StringFormat")
                                         .Input("a")
                                         .Attr("T", {DT_INT32})
                                         .Attr("template", "%s and %s")
                                         .Build());
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(LoggingOpsTest, TimestampIsTheWallClockInSeconds) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("t", "Timestamp").Build()).ok());
  const auto seconds = [] {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
        .count();
  };
  const double before = seconds();
  ASSERT_TRUE(RunOpKernel().ok());
  const double after = seconds();
  const double ts = GetOutput(0)->scalar<double>()();
  EXPECT_GE(ts, before - 1e-6);
  EXPECT_LE(ts, after + 1e-6);
}

}  // namespace
}  // namespace test
}  // namespace sluice
