// Advisories of the quantization ops: QuantizeAndDequantizeV2/V3/V4/V4Grad (kernels and shape
// functions), Dequantize, QuantizeV2, FakeQuantWithMinMaxVars(PerChannel). Most are an axis
// outside the input's rank, or min/max inputs of another shape than the kernel read them as.
// Expectations are TensorFlow 2.21's, from check_with_tensorflow.py.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "tests/advisories/advisory_case.h"

namespace sluice {
namespace advisories {
namespace {

constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;

// QuantizeAndDequantizeV2 or V4 (the same inputs and attrs), with `axis`.
AdvisoryCase Qad(const char* op, Tensor input, Tensor min, Tensor max, int64_t axis,
                 bool range_given = false, int64_t num_bits = 8) {
  AdvisoryCase c(op);
  const DataType t = input.dtype();
  c.Input(std::move(input)).Input(std::move(min)).Input(std::move(max));
  c.Attr("T", t).Attr("axis", axis).Attr("range_given", range_given);
  c.Attr("num_bits", num_bits);
  return c;
}

AdvisoryCase QadV3(Tensor input, Tensor min, Tensor max, Tensor num_bits, int64_t axis,
                   bool range_given = false) {
  AdvisoryCase c("QuantizeAndDequantizeV3");
  const DataType t = input.dtype();
  c.Input(std::move(input)).Input(std::move(min)).Input(std::move(max)).Input(std::move(num_bits));
  c.Attr("T", t).Attr("axis", axis).Attr("range_given", range_given);
  return c;
}

AdvisoryCase QadV4Grad(Tensor gradients, Tensor input, Tensor min, Tensor max, int64_t axis) {
  AdvisoryCase c("QuantizeAndDequantizeV4Grad");
  const DataType t = input.dtype();
  c.Input(std::move(gradients)).Input(std::move(input)).Input(std::move(min)).Input(std::move(max));
  c.Attr("T", t).Attr("axis", axis);
  return c;
}

TEST(Advisories, Tfsa2020_027_QuantizeAndDequantizeV2AxisBeyondRank) {
  // axis 10 on a vector indexed its dimensions past the end.
  ExpectFailsBothWays(Qad("QuantizeAndDequantizeV2", Values<float>({2.5f, 2.5f}),
                          Values<float>({0, 0}), Values<float>({1, 1}), 10),
                      kInvalid);
}

TEST(Advisories, Tfsa2021_099_QuantizeAndDequantizeV2AxisBelowMinusOne) {
  // axis -2 passed a check that allowed -1 or anything below the rank. The shape function checks
  // the ranges first: with Consts it refuses the scalar ranges (an axis other than -1 needs
  // vectors), fed it refuses the axis. Sluice named the axis both ways until this case.
  const AdvisoryCase c = Qad("QuantizeAndDequantizeV2", Values<float>({0}), Scalar<float>(-10),
                             Scalar<float>(-10), -2, false, 1);
  ExpectFailsBothWays(c, kInvalid);
  const absl::Status with_consts = c.Run(Feed::kConst);
  EXPECT_NE(std::string(with_consts.message()).find("Shape must be rank 1 but is rank 0"),
            std::string::npos)
      << with_consts;
  const absl::Status fed = c.Run(Feed::kPlaceholder);
  EXPECT_NE(std::string(fed.message()).find("axis should be at least -1, got -2"),
            std::string::npos)
      << fed;
}

TEST(Advisories, Tfsa2021_040_QuantizeAndDequantizeV3AxisBeyondRank) {
  // axis 3 on a vector (with a num_bits of one element rather than a scalar).
  ExpectFailsBothWays(QadV3(Values<float>({2.5f, 2.5f}), Values<float>({0, 0}),
                            Values<float>({1, 1}), Values<int32_t>({30}), 3),
                      kInvalid);
}

TEST(Advisories, Tfsa2021_185_QuantizeAndDequantizeAxisMinus100) {
  // The shape functions of all four read the input's dimension -100.
  for (const char* op : {"QuantizeAndDequantizeV2", "QuantizeAndDequantizeV4"}) {
    ExpectFailsBothWays(Qad(op, Values<float>({1, 1}), Values<float>({1, 10}),
                            Values<float>({1, 10}), -100, false, 10),
                        kInvalid, "axis should be at least -1, got -100");
  }
  ExpectFailsBothWays(QadV3(Values<float>({1, 1}), Values<float>({1, 10}), Values<float>({1, 10}),
                            Scalar<int32_t>(10), -100),
                      kInvalid, "axis should be at least -1, got -100");
  ExpectFailsBothWays(QadV4Grad(Values<float>({1, 1}), Values<float>({1, 1}),
                                Values<float>({1, 10}), Values<float>({1, 10}), -100),
                      kInvalid, "axis should be at least -1, got -100");
}

TEST(Advisories, Tfsa2022_168_2023_002_QuantizeAndDequantizeAxisInt32Max) {
  // axis 2^31-1: the shape functions read that dimension of a vector. Sluice's said "Rank
  // cannot exceed kint32max" (the same code) until this case; now TensorFlow's words.
  ExpectFailsBothWays(Qad("QuantizeAndDequantizeV2", Values<float>({2.5f}), Values<float>({1}),
                          Values<float>({10}), 0x7fffffff, true, 1),
                      kInvalid, "Axis cannot be >= kint32max value, got 2147483647");
  ExpectFailsBothWays(QadV3(Values<float>({2.5f}), Values<float>({1}), Values<float>({10}),
                            Scalar<int32_t>(1), 0x7fffffff, true),
                      kInvalid, "Axis cannot be >= kint32max value, got 2147483647");
  ExpectFailsBothWays(QadV4Grad(Values<float>({2.5f}), Values<float>({2.5f}), Values<float>({1}),
                                Values<float>({10}), 0x7fffffff),
                      kInvalid, "Axis cannot be >= kint32max value, got 2147483647");
}

TEST(Advisories, Tfsa2021_031_QuantizeAndDequantizeV4GradMatrixMinMax) {
  // input_min and input_max of shape [1, 1] for axis 0 failed a CHECK reading them as vectors.
  ExpectFailsBothWays(QadV4Grad(Values<float>({0}), Values<float>({0}), Values<float>({0}, {1, 1}),
                                Values<float>({0}, {1, 1}), 0),
                      kInvalid);
}

TEST(Advisories, Tfsa2021_119_QuantizeAndDequantizeV4GradAxisMinus100) {
  // axis -100 sized a vector (converted to a huge unsigned size).
  ExpectFailsBothWays(QadV4Grad(Values<float>({1, 2}), Values<float>({1, 1}), Values<float>({0}),
                                Values<float>({10}), -100),
                      kInvalid, "axis should be at least -1, got -100");
}

TEST(Advisories, Tfsa2022_062_QuantizeAndDequantizeV4GradEmptyMin) {
  // For axis -1, an empty input_min failed a CHECK reading it as a scalar.
  ExpectFailsBothWays(
      QadV4Grad(Values<double>({1, 1, 1, 1}, {2, 2}), Values<double>({1, 1, 1, 1}, {2, 2}),
                Values<double>({}), Scalar<double>(-10), -1),
      kInvalid);
}

TEST(Advisories, Tfsa2022_112_QuantizeAndDequantizeV3EmptyNumBits) {
  // An empty num_bits failed a CHECK reading it as a scalar.
  ExpectFailsBothWays(QadV3(Values<float>({-3.5f}), Values<float>({-3.5f}), Values<float>({-3.5f}),
                            Values<int32_t>({}), -1),
                      kInvalid);
}

AdvisoryCase Dequantize(Tensor input, Tensor min, Tensor max, const char* mode, int64_t axis,
                        DataType dtype) {
  AdvisoryCase c("Dequantize");
  const DataType t = input.dtype();
  c.Input(std::move(input)).Input(std::move(min)).Input(std::move(max));
  c.Attr("T", t).Attr("mode", mode).Attr("axis", axis).Attr("dtype", dtype);
  return c;
}

TEST(Advisories, Tfsa2021_070_DequantizeMinMaxLengthsDiffer) {
  // One min_range and five max_range for axis 0 of a [5, 10] input were read in parallel. Fed,
  // both refuse the graph itself: an axis needs an input of known rank.
  std::vector<quint8> values(50, quint8(246));
  for (int i = 0; i < 4; ++i) values[i] = quint8(75);
  values[4] = quint8(250);
  values[5] = quint8(247);
  AdvisoryCase c = Dequantize(Values<quint8>(values, {5, 10}), Values<float>({-10}),
                              Values<float>({24, 758, 758, 758, 758}), "SCALED", 0, DT_FLOAT);
  c.Attr("narrow_range", true);
  ExpectFailsBothWays(c, kInvalid);
}

TEST(Advisories, Tfsa2021_151_DequantizeAxisMinus10) {
  // The shape function picked min_range's rank by comparing axis with -1 only.
  ExpectFailsBothWays(Dequantize(Scalar<quint8>(quint8(246)), Values<float>({}), Values<float>({}),
                                 "MIN_COMBINED", -10, DT_FLOAT),
                      kInvalid, "axis should be at least -1, got -10");
}

TEST(Advisories, Tfsa2022_003_004_DequantizeAxisInt32Max) {
  // axis 2^31-1: the kernel read that dimension of a vector (-003), the shape function computed
  // axis + 1 in int32 (-004). Sluice's shape function said "Rank cannot exceed kint32max" (the
  // same code) until this case; now it names the axis against the rank, as TensorFlow's.
  ExpectFailsBothWays(Dequantize(Values<qint32>({qint32(1), qint32(1)}), Values<float>({1}),
                                 Values<float>({10}), "MIN_COMBINED", 0x7fffffff, DT_BFLOAT16),
                      kInvalid, "Axis must be less than input dimension");
}

AdvisoryCase QuantizeV2(Tensor input, Tensor min, Tensor max, const char* mode,
                        const char* round_mode, int64_t axis, float ensure_minimum_range) {
  AdvisoryCase c("QuantizeV2");
  c.Input(std::move(input)).Input(std::move(min)).Input(std::move(max));
  c.Attr("T", DT_QINT32).Attr("mode", mode).Attr("round_mode", round_mode).Attr("axis", axis);
  c.Attr("ensure_minimum_range", ensure_minimum_range);
  return c;
}

TEST(Advisories, Tfsa2021_138_QuantizeV2EmptyMaxRange) {
  // Two min_range and no max_range for axis 1 of a vector.
  ExpectFailsBothWays(QuantizeV2(Values<float>({1, 2, 3}), Values<float>({1, 2}), Values<float>({}),
                                 "SCALED", "HALF_AWAY_FROM_ZERO", 1, 3.0f),
                      kInvalid);
}

TEST(Advisories, Tfsa2021_184_QuantizeV2AxisMinus100) {
  // The shape function read the input's dimension -100.
  ExpectFailsBothWays(
      QuantizeV2(Values<float>({1, 1}), Values<float>({1, 10}), Values<float>({1, 10}),
                 "MIN_COMBINED", "HALF_TO_EVEN", -100, 10.0f),
      kInvalid, "axis should be at least -1, got -100");
}

AdvisoryCase FakeQuant(const char* op, std::vector<int64_t> inputs, std::vector<int64_t> min,
                       std::vector<int64_t> max) {
  AdvisoryCase c(op);
  c.Input(Zeros(DT_FLOAT, inputs)).Input(Zeros(DT_FLOAT, min)).Input(Zeros(DT_FLOAT, max));
  c.Attr("num_bits", int64_t{8}).Attr("narrow_range", false);
  return c;
}

TEST(Advisories, Tfsa2022_103_FakeQuantWithMinMaxVarsMatrixMinMax) {
  // min and max of shape [2, 3] failed a CHECK reading them as scalars.
  const AdvisoryCase c = FakeQuant("FakeQuantWithMinMaxVars", {2, 3}, {2, 3}, {2, 3});
  ExpectFailsBothWays(c, kInvalid);
  const absl::Status fed = c.Run(Feed::kPlaceholder);
  EXPECT_NE(std::string(fed.message()).find("`min` must be rank 0 but is rank 2"),
            std::string::npos)
      << fed;
}

TEST(Advisories, Tfsa2022_106_FakeQuantPerChannelRank3Min) {
  // A min of rank 3 failed a CHECK reading it as a vector.
  // TensorFlow's kernel names the rank; Sluice's named the size (0 for 4) until this case.
  const AdvisoryCase c = FakeQuant("FakeQuantWithMinMaxVarsPerChannel", {4}, {4, 0, 0}, {4});
  ExpectFailsBothWays(c, kInvalid);
  const absl::Status fed = c.Run(Feed::kPlaceholder);
  EXPECT_NE(std::string(fed.message()).find("`min` must be rank 1 but is rank 3"),
            std::string::npos)
      << fed;
}

}  // namespace
}  // namespace advisories
}  // namespace sluice
