// What the fixtures cannot show: the inputs TensorFlow's kernels crash on, the batch rows
// skipped without a walk, and the parallel path.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

class SparseCrossTest : public KernelTest {
 protected:
  // SparseCross over one sparse string column (and `dense` int64 columns), string output.
  absl::Status InitCross(int dense = 0, bool hashed = false) {
    NodeDefBuilder b("cross", "SparseCross");
    b.Input("i").Input("v").Input("s");
    DataTypeVector dense_types;
    for (int j = 0; j < dense; ++j) {
      b.Input("d" + std::to_string(j));
      dense_types.push_back(DT_INT64);
    }
    return InitOp(b.Attr("N", 1)
                      .Attr("hashed_output", hashed)
                      .Attr("num_buckets", int64_t{0})
                      .Attr("hash_key", int64_t{0})
                      .Attr("sparse_types", DataTypeVector{DT_STRING})
                      .Attr("dense_types", dense_types)
                      .Attr("out_type", hashed ? DT_INT64 : DT_STRING)
                      .Attr("internal_type", DT_INT64)
                      .Build());
  }

  absl::Status InitHashed() {
    return InitOp(NodeDefBuilder("cross", "SparseCrossHashed")
                      .Input("d")
                      .Input("n")
                      .Input("strong")
                      .Input("salt")
                      .Attr("N", 0)
                      .Attr("sparse_types", DataTypeVector{})
                      .Attr("dense_types", DataTypeVector{DT_INT64})
                      .Build());
  }
};

TEST_F(SparseCrossTest, NegativeBatchSizeIsAnError) {
  ASSERT_TRUE(InitCross().ok());
  AddInputFromArray<int64_t>(TensorShape({1, 2}), {0, 0});
  AddInputFromArray<std::string>(TensorShape({1}), {"a"});
  AddInputFromArray<int64_t>(TensorShape({2}), {-1, 2});
  const absl::Status status = RunOpKernel();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(status.message(), "negative batch size")) << status;
}

TEST_F(SparseCrossTest, HashedRejectsNonScalarNumBucketsAndStrongHash) {
  ASSERT_TRUE(InitHashed().ok());
  AddInputFromArray<int64_t>(TensorShape({1, 1}), {3});
  AddInputFromArray<int64_t>(TensorShape({2}), {5, 6});
  AddInputFromArray<bool>(TensorShape({}), {false});
  AddInputFromArray<int64_t>(TensorShape({2}), {0, 0});
  absl::Status status = RunOpKernel();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(status.message(), "num_buckets")) << status;

  ASSERT_TRUE(InitHashed().ok());
  AddInputFromArray<int64_t>(TensorShape({1, 1}), {3});
  AddInputFromArray<int64_t>(TensorShape({}), {5});
  AddInputFromArray<bool>(TensorShape({2}), {false, true});
  AddInputFromArray<int64_t>(TensorShape({2}), {0, 0});
  status = RunOpKernel();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(status.message(), "strong_hash")) << status;
}

// TensorFlow crashes here; Sluice hashes the value's low 4 bytes under the salt, as it does
// for sparse int64 columns.
TEST_F(SparseCrossTest, HashedStrongDenseInt64UsesLowBytes) {
  std::vector<int64_t> got[2];
  for (int k = 0; k < 2; ++k) {
    ASSERT_TRUE(InitHashed().ok());
    AddInputFromArray<int64_t>(TensorShape({2, 1}), {3 + (int64_t{k} << 40), -4});
    AddInputFromArray<int64_t>(TensorShape({}), {0});
    AddInputFromArray<bool>(TensorShape({}), {true});
    AddInputFromArray<int64_t>(TensorShape({2}), {1, 2});
    ASSERT_TRUE(RunOpKernel().ok());
    got[k] = Values<int64_t>(*GetOutput(1));
  }
  EXPECT_EQ(got[0], got[1]);
  EXPECT_NE(got[0][0], 3);
}

// A batch of 10^15 rows with features only in two of them: the rows between are skipped.
TEST_F(SparseCrossTest, HugeSparseBatch) {
  ASSERT_TRUE(InitCross().ok());
  const int64_t last = 999999999999999;
  AddInputFromArray<int64_t>(TensorShape({2, 2}), {5, 0, last, 0});
  AddInputFromArray<std::string>(TensorShape({2}), {"a", "b"});
  AddInputFromArray<int64_t>(TensorShape({2}), {last + 1, 1});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(Values<int64_t>(*GetOutput(0)), (std::vector<int64_t>{5, 0, last, 0}));
  EXPECT_EQ(Values<std::string>(*GetOutput(1)), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(Values<int64_t>(*GetOutput(2)), (std::vector<int64_t>{last + 1, 1}));
}

// Issue 25: one sparse feature crossed with dense rows of 2**16, 2**16, 2**16 and 2**14
// values is 2**62 crosses, which fits int64, but the [crosses, 2] indices output does not.
// INVALID_ARGUMENT, where building that shape used to abort the process.
TEST_F(SparseCrossTest, IndicesOutputTooLargeForInt64IsInvalidArgument) {
  ASSERT_TRUE(InitCross(4).ok());
  AddInputFromArray<int64_t>(TensorShape({1, 2}), {0, 0});
  AddInputFromArray<std::string>(TensorShape({1}), {"a"});
  AddInputFromArray<int64_t>(TensorShape({2}), {1, 1});
  for (int64_t width : {1 << 16, 1 << 16, 1 << 16, 1 << 14}) {
    AddInputFromArray<int64_t>(TensorShape({1, width}), std::vector<int64_t>(width, 7));
  }
  const absl::Status status = RunOpKernel();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_TRUE(absl::StrContains(status.message(), "too large")) << status;
}

// Enough crosses for the parallel path: every batch row b has b % 3 + 1 sparse features
// times 2 dense ones, in row-major order of the output.
TEST_F(SparseCrossTest, ParallelMatchesSerialOrder) {
  ASSERT_TRUE(InitCross(1).ok());
  const int64_t batch = 20000;
  std::vector<int64_t> indices;
  std::vector<std::string> values;
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t k = 0; k <= b % 3; ++k) {
      indices.push_back(b);
      indices.push_back(k);
      values.push_back("f" + std::to_string(k));
    }
  }
  std::vector<int64_t> dense(2 * batch);
  for (int64_t i = 0; i < 2 * batch; ++i) dense[i] = i;
  const int64_t rows = static_cast<int64_t>(values.size());
  AddInputFromArray<int64_t>(TensorShape({rows, 2}), indices);
  AddInputFromArray<std::string>(TensorShape({rows}), values);
  AddInputFromArray<int64_t>(TensorShape({2}), {batch, 3});
  AddInputFromArray<int64_t>(TensorShape({batch, 2}), dense);
  ASSERT_TRUE(RunOpKernel().ok());
  const std::vector<int64_t> out_indices = Values<int64_t>(*GetOutput(0));
  const std::vector<std::string> out = Values<std::string>(*GetOutput(1));
  ASSERT_EQ(static_cast<int64_t>(out.size()), 2 * rows);
  int64_t o = 0;
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t k = 0; k <= b % 3; ++k) {
      for (int64_t j = 0; j < 2; ++j, ++o) {
        ASSERT_EQ(out[o], "f" + std::to_string(k) + "_X_" + std::to_string(2 * b + j));
        ASSERT_EQ(out_indices[2 * o], b);
        ASSERT_EQ(out_indices[2 * o + 1], 2 * k + j);
      }
    }
  }
  EXPECT_EQ(Values<int64_t>(*GetOutput(2)), (std::vector<int64_t>{batch, 6}));
}

}  // namespace
}  // namespace test
}  // namespace sluice
