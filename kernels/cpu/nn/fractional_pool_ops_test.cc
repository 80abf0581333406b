// What the fixtures (tests/kernels/gen_fractional_pool.py) cannot show: nodes without seeds,
// whose windows are random (checked by their properties, and against a pooling over the
// windows returned), inputs large enough to split over the pool, the kernel checks that
// TensorFlow's shape function makes unreachable there, and the inputs on which TensorFlow's
// gradient kernels read or write out of bounds, which Sluice refuses.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

class FractionalPoolTest : public KernelTest {
 protected:
  absl::Status InitForward(const std::string& op, std::vector<float> ratio, bool overlapping,
                           bool deterministic, int64_t seed = 0, int64_t seed2 = 0,
                           bool pseudo_random = false) {
    return InitOp(NodeDefBuilder("pool", op)
                      .Input("x")
                      .Attr("T", DT_FLOAT)
                      .Attr("pooling_ratio", ratio)
                      .Attr("overlapping", overlapping)
                      .Attr("pseudo_random", pseudo_random)
                      .Attr("deterministic", deterministic)
                      .Attr("seed", seed)
                      .Attr("seed2", seed2)
                      .Build());
  }
};

std::vector<float> RandomValues(int64_t n, int seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> dist(0.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(gen);
  return v;
}

// A sequence of `out` windows over `in` elements: from 0 to `in` in steps of k or k + 1.
void ExpectValidSequence(const std::vector<int64_t>& seq, int64_t in, int64_t out) {
  ASSERT_EQ(static_cast<int64_t>(seq.size()), out + 1);
  EXPECT_EQ(seq.front(), 0);
  EXPECT_EQ(seq.back(), in);
  const int64_t k = in / out;
  for (int64_t i = 0; i < out; ++i) {
    const int64_t step = seq[i + 1] - seq[i];
    EXPECT_TRUE(step == k || step == k + 1) << "step " << i << " is " << step;
  }
}

// Max or mean of each window, as the kernels define them.
std::vector<float> Reference(bool max, const std::vector<float>& x, int64_t batch, int64_t rows,
                             int64_t cols, int64_t depth, const std::vector<int64_t>& rs,
                             const std::vector<int64_t>& cs, bool overlapping) {
  const int64_t out_rows = rs.size() - 1, out_cols = cs.size() - 1;
  std::vector<float> y(batch * out_rows * out_cols * depth);
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t r = 0; r < out_rows; ++r) {
      const int64_t r1 = std::min(overlapping ? rs[r + 1] : rs[r + 1] - 1, rows - 1);
      for (int64_t c = 0; c < out_cols; ++c) {
        const int64_t c1 = std::min(overlapping ? cs[c + 1] : cs[c + 1] - 1, cols - 1);
        for (int64_t d = 0; d < depth; ++d) {
          float acc = max ? std::numeric_limits<float>::lowest() : 0.0f;
          float count = 0;
          for (int64_t h = rs[r]; h <= r1; ++h) {
            for (int64_t w = cs[c]; w <= c1; ++w) {
              const float v = x[((b * rows + h) * cols + w) * depth + d];
              if (max) {
                if (acc < v) acc = v;
              } else {
                acc += v;
              }
              count += 1;
            }
          }
          y[((b * out_rows + r) * out_cols + c) * depth + d] = max ? acc : acc / count;
        }
      }
    }
  }
  return y;
}

TEST_F(FractionalPoolTest, UnseededWindowsAreRandomAndValid) {
  for (const char* op : {"FractionalMaxPool", "FractionalAvgPool"}) {
    for (bool pseudo_random : {false, true}) {
      ASSERT_TRUE(
          InitForward(op, {1.0f, 1.45f, 1.3f, 1.0f}, false, false, 0, 0, pseudo_random).ok());
      const std::vector<float> x = RandomValues(1 * 101 * 90 * 2, 3);
      AddInputFromArray<float>(TensorShape({1, 101, 90, 2}), x);
      std::vector<std::vector<int64_t>> rows_seen;
      for (int run = 0; run < 4; ++run) {
        ASSERT_TRUE(RunOpKernel().ok());
        const std::vector<int64_t> rows = Values<int64_t>(*GetOutput(1));
        const std::vector<int64_t> cols = Values<int64_t>(*GetOutput(2));
        ExpectValidSequence(rows, 101, 69);
        ExpectValidSequence(cols, 90, 69);
        EXPECT_EQ(Values<float>(*GetOutput(0)), Reference(std::string(op) == "FractionalMaxPool", x,
                                                          1, 101, 90, 2, rows, cols, false));
        rows_seen.push_back(rows);
      }
      // Four draws of 69 windows over 101 rows: equal ones would be a fixed stream.
      std::sort(rows_seen.begin(), rows_seen.end());
      EXPECT_GT(std::unique(rows_seen.begin(), rows_seen.end()) - rows_seen.begin(), 1)
          << op << " pseudo_random " << pseudo_random;
    }
  }
}

TEST_F(FractionalPoolTest, DeterministicWithoutSeedsRepeatsItsWindows) {
  ASSERT_TRUE(InitForward("FractionalMaxPool", {1.0f, 1.5f, 1.5f, 1.0f}, true, true).ok());
  AddInputFromArray<float>(TensorShape({1, 50, 50, 1}), RandomValues(2500, 4));
  ASSERT_TRUE(RunOpKernel().ok());
  const std::vector<int64_t> rows = Values<int64_t>(*GetOutput(1));
  const std::vector<int64_t> cols = Values<int64_t>(*GetOutput(2));
  ExpectValidSequence(rows, 50, 33);
  for (int run = 0; run < 3; ++run) {
    ASSERT_TRUE(RunOpKernel().ok());
    EXPECT_EQ(Values<int64_t>(*GetOutput(1)), rows);
    EXPECT_EQ(Values<int64_t>(*GetOutput(2)), cols);
  }
}

TEST_F(FractionalPoolTest, LargeInputsSplitOverThePool) {
  const int64_t batch = 2, rows = 120, cols = 100, depth = 16;
  const std::vector<float> x = RandomValues(batch * rows * cols * depth, 5);
  for (const char* op : {"FractionalMaxPool", "FractionalAvgPool"}) {
    for (bool overlapping : {false, true}) {
      ASSERT_TRUE(InitForward(op, {1.0f, 1.5f, 1.4f, 1.0f}, overlapping, true, 3, 4).ok());
      AddInputFromArray<float>(TensorShape({batch, rows, cols, depth}), x);
      ASSERT_TRUE(RunOpKernel().ok());
      EXPECT_EQ(
          Values<float>(*GetOutput(0)),
          Reference(std::string(op) == "FractionalMaxPool", x, batch, rows, cols, depth,
                    Values<int64_t>(*GetOutput(1)), Values<int64_t>(*GetOutput(2)), overlapping));
    }
  }
}

// TensorFlow's shape function refuses these before its kernel sees them; Sluice's kernel
// checks them all the same.
TEST_F(FractionalPoolTest, RatioChecksOfTheKernel) {
  for (const char* op : {"FractionalMaxPool", "FractionalAvgPool"}) {
    absl::Status s = InitForward(op, {1.0f, 1.5f, 1.5f, 1.0f, 1.0f}, false, true, 1, 2);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(s.message().find("pooling_ratio field must specify 4 dimensions"), std::string::npos)
        << s;
    s = InitForward(op, {1.0f, 0.5f, 1.5f, 1.0f}, false, true, 1, 2);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(s.message().find("pooling_ratio cannot be smaller than 1, got: 0.5"),
              std::string::npos)
        << s;
    s = InitForward(op, {1.0f, 1.5f, -2.0f, 1.0f}, false, true, 1, 2);
    EXPECT_NE(s.message().find("pooling_ratio cannot be smaller than 1, got: -2"),
              std::string::npos)
        << s;
  }
}

class FractionalMaxPoolGradTest : public KernelTest {
 protected:
  absl::Status Run(const TensorShape& in, const TensorShape& out, const TensorShape& grad,
                   const TensorShape& rows_shape, const std::vector<int64_t>& rows,
                   const std::vector<int64_t>& cols) {
    absl::Status s = InitOp(NodeDefBuilder("g", "FractionalMaxPoolGrad")
                                .Input("x")
                                .Input("y")
                                .Input("dy")
                                .Input("r")
                                .Input("c")
                                .Attr("T", DT_FLOAT)
                                .Build());
    if (!s.ok()) return s;
    AddInputFromArray<float>(in, std::vector<float>(in.num_elements(), 1.0f));
    AddInputFromArray<float>(out, std::vector<float>(out.num_elements(), 1.0f));
    AddInputFromArray<float>(grad, std::vector<float>(grad.num_elements(), 1.0f));
    AddInputFromArray<int64_t>(rows_shape, rows);
    AddInputFromArray<int64_t>(TensorShape({static_cast<int64_t>(cols.size())}), cols);
    return RunOpKernel();
  }
};

TEST_F(FractionalMaxPoolGradTest, RefusesWhatTensorFlowReadsPast) {
  const TensorShape in({2, 6, 6, 2}), out({2, 4, 4, 2});
  const std::vector<int64_t> seq = {0, 1, 3, 4, 6};
  EXPECT_TRUE(Run(in, out, out, TensorShape({5}), seq, seq).ok());
  const std::vector<float> dx = Values<float>(*GetOutput(0));
  float total = 0;
  for (float v : dx) total += v;
  EXPECT_EQ(total, 64.0f);  // every output's gradient lands once

  auto expect_invalid = [](const absl::Status& s, const char* what) {
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
    EXPECT_NE(s.message().find(what), std::string::npos) << s;
  };
  expect_invalid(Run(in, out, TensorShape({2, 4, 4, 3}), TensorShape({5}), seq, seq),
                 "out_backprop must have orig_output's shape");
  expect_invalid(Run(in, out, TensorShape({2, 4, 4}), TensorShape({5}), seq, seq),
                 "out_backprop must have orig_output's shape");
  expect_invalid(
      Run(in, TensorShape({1, 4, 4, 2}), TensorShape({1, 4, 4, 2}), TensorShape({5}), seq, seq),
      "orig_output's batch and depth must be orig_input's");
  expect_invalid(
      Run(in, TensorShape({2, 4, 4, 3}), TensorShape({2, 4, 4, 3}), TensorShape({5}), seq, seq),
      "orig_output's batch and depth must be orig_input's");
  expect_invalid(Run(in, out, out, TensorShape({1, 5}), seq, seq),
                 "row_pooling_sequence must be a vector");
  expect_invalid(Run(in, out, out, TensorShape({6}), {0, 1, 2, 3, 4, 6}, seq),
                 "row_pooling_sequence has 6 boundaries, more than the output's 4 windows");
  expect_invalid(Run(in, out, out, TensorShape({5}), seq, {0, 1, 2, 3, 4, 5}),
                 "col_pooling_sequence has 6 boundaries");
  expect_invalid(Run(in, out, out, TensorShape({5}), {-2, 1, 3, 4, 6}, seq),
                 "row_pooling_sequence's window 0 starts before the input, at -2");
  expect_invalid(Run(in, out, out, TensorShape({5}), seq, {0, 1, -5, 4, 6}),
                 "col_pooling_sequence's window 2 starts before the input");
}

class FractionalAvgPoolGradTest : public KernelTest {
 protected:
  absl::Status Run(const std::vector<int64_t>& in_shape, const TensorShape& grad,
                   const std::vector<int64_t>& rows, const std::vector<int64_t>& cols) {
    absl::Status s = InitOp(NodeDefBuilder("g", "FractionalAvgPoolGrad")
                                .Input("s")
                                .Input("dy")
                                .Input("r")
                                .Input("c")
                                .Attr("T", DT_FLOAT)
                                .Build());
    if (!s.ok()) return s;
    AddInputFromArray<int64_t>(TensorShape({4}), in_shape);
    AddInputFromArray<float>(grad, std::vector<float>(grad.num_elements(), 1.0f));
    AddInputFromArray<int64_t>(TensorShape({static_cast<int64_t>(rows.size())}), rows);
    AddInputFromArray<int64_t>(TensorShape({static_cast<int64_t>(cols.size())}), cols);
    return RunOpKernel();
  }
};

TEST_F(FractionalAvgPoolGradTest, RefusesWhatTensorFlowWritesPast) {
  const std::vector<int64_t> seq = {0, 1, 3, 4, 6};
  ASSERT_TRUE(Run({2, 6, 6, 2}, TensorShape({2, 4, 4, 2}), seq, seq).ok());
  float total = 0;
  for (float v : Values<float>(*GetOutput(0))) total += v;
  EXPECT_FLOAT_EQ(total, 64.0f);

  auto expect_invalid = [](const absl::Status& s, const char* what) {
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
    EXPECT_NE(s.message().find(what), std::string::npos) << s;
  };
  expect_invalid(Run({2, 6, 6, 2}, TensorShape({2, 4, 4}), seq, seq),
                 "out_backprop must be 4-dimensional");
  expect_invalid(Run({1, 6, 6, 2}, TensorShape({2, 4, 4, 2}), seq, seq),
                 "has more images or channels than the input");
  expect_invalid(Run({2, 6, 6, 1}, TensorShape({2, 4, 4, 2}), seq, seq),
                 "has more images or channels than the input");
  expect_invalid(Run({2, -6, 6, 2}, TensorShape({2, 4, 4, 2}), seq, seq), "");
}

}  // namespace
}  // namespace test
}  // namespace sluice
