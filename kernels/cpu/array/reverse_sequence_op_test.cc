// ReverseSequence beyond the fixtures (tests/kernels/fixtures/reverse_sequence.pbtxt): a value
// recorded from TensorFlow 2.21, and a shape large enough for the parallel split checked
// against a plain loop.
#include <cstdint>
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

class ReverseSequenceOpTest : public KernelTest {
 protected:
  void Init(DataType dtype, int seq_dim, int batch_dim) {
    ASSERT_TRUE(InitOp(NodeDefBuilder("n", "ReverseSequence")
                           .Input("input")
                           .Input("seq_lengths")
                           .Attr("T", dtype)
                           .Attr("Tlen", DT_INT32)
                           .Attr("seq_dim", seq_dim)
                           .Attr("batch_dim", batch_dim)
                           .Build())
                    .ok());
  }
};

// TensorFlow: reverse_sequence([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]], [4, 2, 0],
// seq_axis=1, batch_axis=0) is [[4, 3, 2, 1], [6, 5, 7, 8], [9, 10, 11, 12]].
TEST_F(ReverseSequenceOpTest, ReversesEachPrefix) {
  Init(DT_INT32, /*seq_dim=*/1, /*batch_dim=*/0);
  AddInputFromArray<int32_t>(TensorShape({3, 4}), {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  AddInputFromArray<int32_t>(TensorShape({3}), {4, 2, 0});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(Values<int32_t>(*GetOutput(0)),
            (std::vector<int32_t>{4, 3, 2, 1, 6, 5, 7, 8, 9, 10, 11, 12}));
}

TEST_F(ReverseSequenceOpTest, Strings) {
  Init(DT_STRING, /*seq_dim=*/0, /*batch_dim=*/1);
  AddInputFromArray<std::string>(TensorShape({3, 2}), {"a", "x", "b", "y", "c", "z"});
  AddInputFromArray<int32_t>(TensorShape({2}), {3, 2});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(Values<std::string>(*GetOutput(0)),
            (std::vector<std::string>{"c", "y", "b", "x", "a", "z"}));
}

TEST_F(ReverseSequenceOpTest, LengthAboveTheDimIsInvalid) {
  Init(DT_FLOAT, /*seq_dim=*/1, /*batch_dim=*/0);
  AddInputFromArray<float>(TensorShape({2, 3}), {1, 2, 3, 4, 5, 6});
  AddInputFromArray<int32_t>(TensorShape({2}), {3, 4});
  const absl::Status status = RunOpKernel();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("seq_lens(1) > input.dims(1)"), std::string::npos);
}

TEST_F(ReverseSequenceOpTest, LargeShapeMatchesAPlainLoop) {
  // [seq, inner, batch] = [300, 7, 40] with batch_dim 2 and seq_dim 0.
  const int64_t seq = 300, inner = 7, batch = 40;
  std::vector<int64_t> x(seq * inner * batch);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<int64_t>(i);
  std::vector<int32_t> lengths(batch);
  for (int64_t b = 0; b < batch; ++b) lengths[b] = static_cast<int32_t>((b * 37) % (seq + 1));
  Init(DT_INT64, /*seq_dim=*/0, /*batch_dim=*/2);
  AddInputFromArray<int64_t>(TensorShape({seq, inner, batch}), x);
  AddInputFromArray<int32_t>(TensorShape({batch}), lengths);
  ASSERT_TRUE(RunOpKernel().ok());
  std::vector<int64_t> want(x.size());
  for (int64_t s = 0; s < seq; ++s) {
    for (int64_t i = 0; i < inner; ++i) {
      for (int64_t b = 0; b < batch; ++b) {
        const int64_t from = s < lengths[b] ? lengths[b] - 1 - s : s;
        want[(s * inner + i) * batch + b] = x[(from * inner + i) * batch + b];
      }
    }
  }
  EXPECT_EQ(Values<int64_t>(*GetOutput(0)), want);
}

}  // namespace
}  // namespace test
}  // namespace sluice
