// GenerateClusterCode: the kinds and phases it assigns, the programs it refuses, and the
// generated code compiled and run on small rows (the comparison with the ops' own kernels is
// kernels/cpu/compiled/mlir_cluster_op_test.cc).
#include "compiler/cluster_codegen.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "compiler/mlir_jit.h"
#include "gmock/gmock.h"
#include "graph/ops/mlir_cluster_spec.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<FusedElementwiseStep> Program(int inputs, const std::vector<std::string>& ops,
                                          const std::vector<int64_t>& operands) {
  auto steps = ParseClusterProgram(inputs, ops, operands);
  EXPECT_TRUE(steps.ok()) << steps.status();
  return steps.ok() ? *steps : std::vector<FusedElementwiseStep>();
}

// What the callback saw last, and what it does: negates (a stand-in for a kernel's functor).
struct CallbackLog {
  std::vector<int64_t> ids, flats, totals, counts;
};
CallbackLog* log_ = nullptr;
void NegatingCallback(int64_t id, int64_t address, int64_t n, int64_t flat, int64_t total) {
  float* x = reinterpret_cast<float*>(address);
  for (int64_t i = 0; i < n; ++i) x[i] = -x[i];
  if (log_ != nullptr) {
    log_->ids.push_back(id);
    log_->flats.push_back(flat);
    log_->totals.push_back(total);
    log_->counts.push_back(n);
  }
}

struct MemRef {
  float* allocated;
  float* aligned;
  int64_t offset;
  int64_t size;
  int64_t stride;
};

// Compiles `code` and runs it over rows [first, last) (default: all), batch_rows rows per
// batch element.
void RunCluster(const ClusterCode& code, std::vector<std::vector<float>*> inputs,
                std::vector<float>* out, int64_t rows, int64_t cols, int64_t batch_rows = 1,
                int64_t first = 0, int64_t last = -1) {
  MlirCompileOptions options;
  options.symbols.emplace_back(kClusterCallback, reinterpret_cast<void*>(&NegatingCallback));
  auto module = CompileMlir(code.mlir, options);
  ASSERT_TRUE(module.ok()) << module.status() << "\n" << code.mlir;
  auto function = (*module)->Lookup(kClusterFunction);
  ASSERT_TRUE(function.ok()) << function.status();
  std::vector<float> scratch(kClusterScratchSlot + code.scratch_rows * cols);
  std::vector<MemRef> memrefs;
  for (std::vector<float>* in : inputs) {
    memrefs.push_back({in->data(), in->data(), 0, static_cast<int64_t>(in->size()), 1});
  }
  memrefs.push_back({out->data(), out->data(), 0, static_cast<int64_t>(out->size()), 1});
  memrefs.push_back({scratch.data(), scratch.data(), 0, static_cast<int64_t>(scratch.size()), 1});
  std::vector<void*> args;
  for (MemRef& m : memrefs) {
    args.insert(args.end(), {&m.allocated, &m.aligned, &m.offset, &m.size, &m.stride});
  }
  int64_t address = reinterpret_cast<int64_t>(scratch.data());
  if (last < 0) last = rows;
  int64_t all_rows = rows, all_cols = cols;
  args.insert(args.end(), {&address, &first, &last, &all_rows, &all_cols, &batch_rows});
  (*function)(args.data());
}

TEST(ClusterCodegenTest, LayerNormKindsPhasesAndScratch) {
  // x: full, gamma: column, eps: scalar.
  // 3 Mean(x) 4 Sub(x, 3) 5 Square(4) 6 Mean(5) 7 AddV2(6, eps) 8 Rsqrt(7) 9 Mul(4, 8)
  // 10 Mul(9, gamma)
  const auto steps = Program(3, {"Mean", "Sub", "Square", "Mean", "AddV2", "Rsqrt", "Mul", "Mul"},
                             {0, 0, 3, 4, 5, 6, 2, 7, 4, 8, 9, 1});
  auto code =
      GenerateClusterCode(steps, {ValueKind::kFull, ValueKind::kColumn, ValueKind::kScalar});
  ASSERT_TRUE(code.ok()) << code.status();
  using K = ValueKind;
  EXPECT_THAT(code->value_kinds,
              ElementsAre(K::kFull, K::kColumn, K::kScalar, K::kRow, K::kFull, K::kFull, K::kRow,
                          K::kRow, K::kRow, K::kFull, K::kFull));
  // Phase 0 reduces x; phase 1 computes x - mean, its square and the variance; phase 2 the
  // output from x - mean, kept in one scratch row.
  EXPECT_EQ(code->phases, 3);
  EXPECT_EQ(code->scratch_rows, 1);
  EXPECT_THAT(code->mlir, HasSubstr("func.call @sluice_cluster_unary"));
}

class ClusterCodegenWidthTest : public ::testing::TestWithParam<int> {};

TEST_P(ClusterCodegenWidthTest, RowsReduceInTheKernelsOrderAndBroadcast) {
  // out = x - Max(x) + Sum(x) * col, over rows of 43: with vectors of 16, two of them, one of
  // 8 and a tail of 3; with vectors of 8, five and the same tail.
  const auto steps = Program(2, {"Max", "Sub", "Sum", "Mul", "AddV2"}, {0, 0, 2, 0, 4, 1, 3, 5});
  ClusterCodegenOptions options;
  options.vector_width = GetParam();
  auto code = GenerateClusterCode(steps, {ValueKind::kFull, ValueKind::kColumn}, options);
  ASSERT_TRUE(code.ok()) << code.status();
  const int64_t rows = 3, cols = 43;
  std::vector<float> x(rows * cols), col(cols), out(rows * cols, -1.0f);
  for (int64_t i = 0; i < rows * cols; ++i) x[i] = std::sin(0.7f * i) * 100.0f;
  for (int64_t c = 0; c < cols; ++c) col[c] = 0.25f * c - 1.0f;
  x[1 * cols + 17] = std::numeric_limits<float>::quiet_NaN();  // Max of row 1 is NaN
  RunCluster(*code, {&x, &col}, &out, rows, cols);
  for (int64_t r = 0; r < rows; ++r) {
    const float* row = x.data() + r * cols;
    // reduce_loops.h's order: 8 lanes, the tail into lane 0, folded 4, 2, 1.
    float sum[8] = {}, max[8];
    for (float& m : max) m = -std::numeric_limits<float>::infinity();
    int64_t i = 0;
    for (; i + 8 <= cols; i += 8) {
      for (int j = 0; j < 8; ++j) {
        sum[j] += row[i + j];
        if (row[i + j] > max[j] || std::isnan(row[i + j])) max[j] = row[i + j];
      }
    }
    for (; i < cols; ++i) {
      sum[0] += row[i];
      if (row[i] > max[0] || std::isnan(row[i])) max[0] = row[i];
    }
    for (int w = 4; w > 0; w /= 2) {
      for (int j = 0; j < w; ++j) {
        sum[j] += sum[j + w];
        if (max[j + w] > max[j] || std::isnan(max[j + w])) max[j] = max[j + w];
      }
    }
    for (int64_t c = 0; c < cols; ++c) {
      const float expected = (row[c] - max[0]) + sum[0] * col[c];
      const float got = out[r * cols + c];
      if (std::isnan(expected)) {
        EXPECT_TRUE(std::isnan(got)) << r << "," << c;
      } else {
        EXPECT_EQ(got, expected) << r << "," << c;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(VectorWidths, ClusterCodegenWidthTest, ::testing::Values(8, 16));

TEST(ClusterCodegenTest, CallbackGetsFlatIndexAndSize) {
  // out = Rsqrt(x) - Mean(x), rows of 10 (Rsqrt calls back without avx_estimates): the
  // callback sees vectors of 8 then 2 single columns.
  const auto steps = Program(1, {"Rsqrt", "Mean", "Sub"}, {0, 0, 1, 2});
  auto code = GenerateClusterCode(steps, {ValueKind::kFull});
  ASSERT_TRUE(code.ok()) << code.status();
  const int64_t rows = 2, cols = 10;
  std::vector<float> x(rows * cols), out(rows * cols);
  for (int64_t i = 0; i < rows * cols; ++i) x[i] = static_cast<float>(i);
  CallbackLog log;
  log_ = &log;
  RunCluster(*code, {&x}, &out, rows, cols);
  log_ = nullptr;
  EXPECT_THAT(log.flats, ElementsAre(0, 8, 9, 10, 18, 19));
  EXPECT_THAT(log.counts, ElementsAre(8, 1, 1, 8, 1, 1));
  EXPECT_THAT(log.totals, ElementsAre(20, 20, 20, 20, 20, 20));
  EXPECT_THAT(log.ids, ::testing::Each(ClusterCallbackId("Rsqrt")));
  for (int64_t r = 0; r < rows; ++r) {
    float lanes[8] = {};
    for (int64_t c = 0; c < 8; ++c) lanes[c] += x[r * cols + c];
    lanes[0] += x[r * cols + 8];
    lanes[0] += x[r * cols + 9];
    for (int w = 4; w > 0; w /= 2) {
      for (int j = 0; j < w; ++j) lanes[j] += lanes[j + w];
    }
    const float mean = lanes[0] / 10.0f;
    for (int64_t c = 0; c < cols; ++c) EXPECT_EQ(out[r * cols + c], -x[r * cols + c] - mean);
  }
}

TEST(ClusterCodegenTest, CallbackSeesSixteenColumnsAtATimeWithWideVectors) {
  // Rows of 27 with vectors of 16: 16, then 8, then 3 single columns.
  const auto steps = Program(1, {"Rsqrt", "Mean", "Sub"}, {0, 0, 1, 2});
  ClusterCodegenOptions options;
  options.vector_width = 16;
  auto code = GenerateClusterCode(steps, {ValueKind::kFull}, options);
  ASSERT_TRUE(code.ok()) << code.status();
  std::vector<float> x(27), out(27);
  for (int64_t i = 0; i < 27; ++i) x[i] = static_cast<float>(i);
  CallbackLog log;
  log_ = &log;
  RunCluster(*code, {&x}, &out, 1, 27);
  log_ = nullptr;
  EXPECT_THAT(log.flats, ElementsAre(0, 16, 24, 25, 26));
  EXPECT_THAT(log.counts, ElementsAre(16, 8, 1, 1, 1));
  // Widths other than 8 and 16 are refused.
  options.vector_width = 4;
  EXPECT_EQ(GenerateClusterCode(steps, {ValueKind::kFull}, options).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(ClusterCodegenTest, WrittenOutExpCallsBackOnlyForTheScalarTail) {
  // Exp is written out on every CPU (numerics::ExpFloat's vector form) and calls back only for
  // the groups that reach the value's last total % 8 elements (22 elements: 16 to 21), which
  // its kernel computes with std::exp: the vector group at 11 (11 to 18) and the single
  // columns 19, 20 and 21 of the second row.
  const auto steps = Program(1, {"Exp", "Mean", "Sub"}, {0, 0, 1, 2});
  auto code = GenerateClusterCode(steps, {ValueKind::kFull});
  ASSERT_TRUE(code.ok()) << code.status();
  EXPECT_THAT(code->mlir, HasSubstr("math.floor"));
  const int64_t rows = 2, cols = 11;
  std::vector<float> x(rows * cols), out(rows * cols);
  for (int64_t i = 0; i < rows * cols; ++i) x[i] = 0.25f * static_cast<float>(i) - 3.0f;
  CallbackLog log;
  log_ = &log;
  RunCluster(*code, {&x}, &out, rows, cols);
  log_ = nullptr;
  EXPECT_THAT(log.flats, ElementsAre(11, 19, 20, 21));
  EXPECT_THAT(log.counts, ElementsAre(8, 1, 1, 1));
  EXPECT_THAT(log.totals, ElementsAre(22, 22, 22, 22));
}

TEST(ClusterCodegenTest, RowOutput) {
  // out = Rsqrt(Mean(Square(x))) per row: the callback sees rows (flat = row, total = rows).
  const auto steps = Program(1, {"Square", "Mean", "Rsqrt"}, {0, 1, 2});
  auto code = GenerateClusterCode(steps, {ValueKind::kFull});
  ASSERT_TRUE(code.ok()) << code.status();
  EXPECT_EQ(code->value_kinds.back(), ValueKind::kRow);
  std::vector<float> x = {1, 2, 3, 4, 5, 6}, out(2);
  CallbackLog log;
  log_ = &log;
  RunCluster(*code, {&x}, &out, 2, 3);
  log_ = nullptr;
  EXPECT_THAT(log.flats, ElementsAre(0, 1));
  EXPECT_THAT(log.totals, ElementsAre(2, 2));
  EXPECT_EQ(out[0], -((1.0f + 4.0f + 9.0f) / 3.0f));
  EXPECT_EQ(out[1], -((16.0f + 25.0f + 36.0f) / 3.0f));
}

TEST(ClusterCodegenTest, BatchColumnValuesAreComputedOncePerBatchElement) {
  // out = x * Exp(gate), gate [2, 1, 3] against x [2, 4, 3]: Exp goes through the callback
  // (negating here) once per element of the gate, not once per row, with the gate's own flat
  // index and size; and again for the batch element a range starts inside.
  const auto steps = Program(2, {"Exp", "Mul"}, {1, 0, 2});
  auto code = GenerateClusterCode(steps, {ValueKind::kFull, ValueKind::kBatchColumn});
  ASSERT_TRUE(code.ok()) << code.status();
  using K = ValueKind;
  EXPECT_THAT(code->value_kinds, ElementsAre(K::kFull, K::kBatchColumn, K::kBatchColumn, K::kFull));
  EXPECT_EQ(code->scratch_rows, 1);
  const int64_t rows = 8, cols = 3, batch_rows = 4;
  std::vector<float> x(rows * cols), gate = {1, 2, 3, 4, 5, 6}, out(rows * cols, 0.0f);
  for (int64_t i = 0; i < rows * cols; ++i) x[i] = static_cast<float>(i);
  CallbackLog log;
  log_ = &log;
  RunCluster(*code, {&x, &gate}, &out, rows, cols, batch_rows);
  EXPECT_THAT(log.flats, ElementsAre(0, 1, 2, 3, 4, 5));
  EXPECT_THAT(log.totals, ElementsAre(6, 6, 6, 6, 6, 6));
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) {
      EXPECT_EQ(out[r * cols + c], x[r * cols + c] * -gate[(r / batch_rows) * cols + c]);
    }
  }
  // Rows [2, 6): the second half of batch element 0, then element 1.
  log = CallbackLog();
  std::fill(out.begin(), out.end(), 0.0f);
  RunCluster(*code, {&x, &gate}, &out, rows, cols, batch_rows, 2, 6);
  log_ = nullptr;
  EXPECT_THAT(log.flats, ElementsAre(0, 1, 2, 3, 4, 5));
  EXPECT_EQ(out[2 * cols], x[2 * cols] * -gate[0]);
  EXPECT_EQ(out[5 * cols + 2], x[5 * cols + 2] * -gate[5]);
  EXPECT_EQ(out[6 * cols], 0.0f);

  // A column value the program computes, likewise: once per batch element.
  auto column_code = GenerateClusterCode(steps, {ValueKind::kFull, ValueKind::kColumn});
  ASSERT_TRUE(column_code.ok()) << column_code.status();
  EXPECT_EQ(column_code->scratch_rows, 1);
  std::vector<float> column = {1, 2, 3};
  log = CallbackLog();
  log_ = &log;
  RunCluster(*column_code, {&x, &column}, &out, rows, cols, batch_rows);
  log_ = nullptr;
  EXPECT_THAT(log.flats, ElementsAre(0, 1, 2, 0, 1, 2));
  EXPECT_THAT(log.totals, ElementsAre(3, 3, 3, 3, 3, 3));
  EXPECT_EQ(out[7 * cols + 2], x[7 * cols + 2] * -column[2]);
}

TEST(ClusterCodegenTest, RefusesWhatDoesNotFit) {
  // A reduction of a column value.
  auto code = GenerateClusterCode(Program(1, {"Sum"}, {0}), {ValueKind::kColumn});
  EXPECT_EQ(code.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(code.status().message(), HasSubstr("only full values reduce"));
  // An output that is a scalar.
  code = GenerateClusterCode(Program(2, {"Mul"}, {0, 1}), {ValueKind::kScalar, ValueKind::kScalar});
  EXPECT_EQ(code.status().code(), absl::StatusCode::kInvalidArgument);
  // An output that is a batch-column value.
  code = GenerateClusterCode(Program(2, {"Mul"}, {0, 1}),
                             {ValueKind::kBatchColumn, ValueKind::kColumn});
  EXPECT_EQ(code.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(code.status().message(), HasSubstr("batch_column"));
}

}  // namespace
}  // namespace sluice
