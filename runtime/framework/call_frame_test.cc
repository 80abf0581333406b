#include "runtime/framework/call_frame.h"

#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

TEST(FunctionCallFrameTest, ArgsAndRetvalsRoundTrip) {
  FunctionCallFrame frame({DT_FLOAT, DT_INT32}, {DT_INT32});
  EXPECT_EQ(frame.num_args(), 2u);
  EXPECT_EQ(frame.num_retvals(), 1u);
  Tensor a(1.5f);
  ASSERT_TRUE(frame.SetArgs({a, Tensor(int32_t{7})}).ok());

  const Tensor* arg = nullptr;
  ASSERT_TRUE(frame.GetArg(0, &arg).ok());
  EXPECT_TRUE(arg->SharesBufferWith(a));
  ASSERT_TRUE(frame.GetArg(1, &arg).ok());
  EXPECT_EQ(arg->scalar<int32_t>()(), 7);

  ASSERT_TRUE(frame.SetRetval(0, Tensor(int32_t{42})).ok());
  std::vector<Tensor> out;
  ASSERT_TRUE(frame.ConsumeRetvals(&out).ok());
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].scalar<int32_t>()(), 42);

  // Consumed results are gone: the frame may be reused for another call.
  absl::Status again = frame.ConsumeRetvals(&out);
  EXPECT_EQ(again.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(out.empty());
  ASSERT_TRUE(frame.SetRetval(0, Tensor(int32_t{1})).ok());
}

TEST(FunctionCallFrameTest, SetArgsChecksCountAndTypes) {
  FunctionCallFrame frame({DT_FLOAT}, {});
  absl::Status s = frame.SetArgs({});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "Expects 1 arguments, but 0 is provided");
  s = frame.SetArgs({Tensor(int32_t{1})});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "Expects arg[0] to be float but int32 is provided");
}

TEST(FunctionCallFrameTest, GetArgOutOfRange) {
  FunctionCallFrame frame({DT_FLOAT}, {});
  const Tensor* arg = nullptr;
  // Before SetArgs there is nothing to read.
  EXPECT_EQ(frame.GetArg(0, &arg).message(), "GetArg 0 is not within [0, 0)");
  ASSERT_TRUE(frame.SetArgs({Tensor(2.0f)}).ok());
  absl::Status s = frame.GetArg(1, &arg);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "GetArg 1 is not within [0, 1)");
  EXPECT_EQ(frame.GetArg(-1, &arg).message(), "GetArg -1 is not within [0, 1)");
}

TEST(FunctionCallFrameTest, SetRetvalErrors) {
  FunctionCallFrame frame({}, {DT_FLOAT});
  absl::Status s = frame.SetRetval(1, Tensor(1.0f));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "SetRetval 1 is not within [0, 1)");
  EXPECT_EQ(frame.SetRetval(-1, Tensor(1.0f)).code(), absl::StatusCode::kInvalidArgument);

  s = frame.SetRetval(0, Tensor(int32_t{1}));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "Expects ret[0] to be float, but int32 is provided.");

  ASSERT_TRUE(frame.SetRetval(0, Tensor(1.0f)).ok());
  s = frame.SetRetval(0, Tensor(2.0f));
  EXPECT_EQ(s.code(), absl::StatusCode::kInternal);
  EXPECT_EQ(s.message(), "Retval[0] has already been set.");
}

TEST(FunctionCallFrameTest, MissingRetval) {
  FunctionCallFrame frame({}, {DT_FLOAT, DT_FLOAT});
  ASSERT_TRUE(frame.SetRetval(0, Tensor(1.0f)).ok());
  std::vector<Tensor> out = {Tensor(3.0f)};
  absl::Status s = frame.ConsumeRetvals(&out);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "Retval[1] does not have value");
  EXPECT_TRUE(out.empty());
}

TEST(FunctionCallFrameTest, ConcurrentSetRetvalOnDistinctIndices) {
  constexpr int kN = 64;
  std::vector<DataType> types(kN, DT_INT32);
  FunctionCallFrame frame({}, types);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&frame, t] {
      for (int i = t; i < kN; i += 4) {
        EXPECT_TRUE(frame.SetRetval(i, Tensor(int32_t{i})).ok());
      }
    });
  }
  for (std::thread& t : threads) t.join();
  std::vector<Tensor> out;
  ASSERT_TRUE(frame.ConsumeRetvals(&out).ok());
  for (int i = 0; i < kN; ++i) EXPECT_EQ(out[i].scalar<int32_t>()(), i);
}

}  // namespace
}  // namespace sluice
