#include "tools/cli/accuracy.h"

#include <cstdint>
#include <vector>

#include "graph/core/tensor.h"
#include "gtest/gtest.h"
#include "runtime/framework/op_kernel_test_util.h"

namespace sluice {
namespace cli {
namespace {

using ::sluice::test::MakeTensor;

TEST(AccuracyTest, CountsTopOneMatches) {
  const Tensor scores = MakeTensor<float>(TensorShape({3, 3}), {0.1f, 0.7f, 0.2f,  //
                                                                0.5f, 0.5f, 0.0f,  // tie: 0
                                                                0.2f, 0.3f, 0.5f});
  Accuracy accuracy;
  ASSERT_TRUE(
      TopOneAccuracy(scores, MakeTensor<int64_t>(TensorShape({3}), {1, 0, 0}), &accuracy).ok());
  EXPECT_EQ(accuracy.correct, 2);
  EXPECT_EQ(accuracy.total, 3);
  // [N, 1] int32 labels; an out-of-range label is simply wrong.
  ASSERT_TRUE(
      TopOneAccuracy(scores, MakeTensor<int32_t>(TensorShape({3, 1}), {1, 7, 2}), &accuracy).ok());
  EXPECT_EQ(accuracy.correct, 2);
}

TEST(AccuracyTest, RejectsWhatIsNotAClassifierOutput) {
  Accuracy accuracy;
  const Tensor labels = MakeTensor<int64_t>(TensorShape({2}), {0, 1});
  EXPECT_EQ(TopOneAccuracy(MakeTensor<float>(TensorShape({2}), {1, 2}), labels, &accuracy).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(
      TopOneAccuracy(MakeTensor<int32_t>(TensorShape({2, 1}), {1, 2}), labels, &accuracy).code(),
      absl::StatusCode::kInvalidArgument);
  const Tensor scores = MakeTensor<float>(TensorShape({2, 2}), {1, 2, 3, 4});
  EXPECT_EQ(
      TopOneAccuracy(scores, MakeTensor<int64_t>(TensorShape({3}), {0, 1, 1}), &accuracy).code(),
      absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(TopOneAccuracy(scores, MakeTensor<float>(TensorShape({2}), {0, 1}), &accuracy).code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace cli
}  // namespace sluice
