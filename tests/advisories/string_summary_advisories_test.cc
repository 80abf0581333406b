// Advisories of the string, image-decoding, summary and checkpoint ops: StringNGrams, Substr,
// UnicodeEncode, DecodePng, TensorSummaryV2, AudioSummaryV2 and SaveV2. Expectations are
// TensorFlow 2.21's, from check_with_tensorflow.py.
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

AdvisoryCase StringNGrams(std::vector<std::string> data, std::vector<int64_t> splits,
                          const std::string& separator, std::vector<int64_t> widths,
                          const std::string& left_pad, const std::string& right_pad,
                          int64_t pad_width, bool preserve_short) {
  AdvisoryCase c("StringNGrams");
  c.Input(Values<std::string>(std::move(data))).Input(Values<int64_t>(std::move(splits)));
  c.Attr("separator", separator).Attr("ngram_widths", std::move(widths));
  c.Attr("left_pad", left_pad).Attr("right_pad", right_pad).Attr("pad_width", pad_width);
  c.Attr("preserve_short_sequences", preserve_short).Attr("Tsplits", DT_INT64);
  return c;
}

// 115 zero splits, then 3: splits that end past eleven empty strings.
std::vector<int64_t> SplitsEndingAtThree() {
  std::vector<int64_t> splits(115, 0);
  splits.push_back(3);
  return splits;
}

TEST(Advisories, Tfsa2021_029_030_StringNGramsSplitsNotCoveringData) {
  // Splits that do not end at data's size: ngrams made only of padding read data[-1] (-029), and
  // an output computed to be empty or negative was written through a null buffer (-030).
  const std::vector<std::string> data(11, "");
  ExpectFailsBothWays(
      StringNGrams(data, SplitsEndingAtThree(), std::string("\x02\x00", 2), {7, 6, 11},
                   std::string(5, '\x7f'), "\x7f\x7f\x25\x5d\x53\x74", 50, true),
      kInvalid, "Last split value must be data size. Expected 11, got 3");
  ExpectFailsBothWays(
      StringNGrams(data, SplitsEndingAtThree(), "Ss", {7, 6, 11}, "ABCDE", "ZYXWVU", 50, true),
      kInvalid, "Last split value must be data size. Expected 11, got 3");
}

TEST(Advisories, Tfsa2020_011_StringNGramsSplitPastData) {
  // A split of 8 over six strings read (and returned) memory past data.
  ExpectFailsBothWays(
      StringNGrams({"aa", "bb", "cc", "dd", "ee", "ff"}, {0, 8}, " ", {3}, "", "", 0, false),
      kInvalid, "Invalid split value 8, must be in [0, 6]");
}

TEST(Advisories, Tfsa2021_120_StringNGramsNegativeWidths) {
  // Negative ngram_widths made a negative reserve size, converted to a huge unsigned one.
  ExpectFailsBothWays(
      StringNGrams({"", ""}, {0, 2}, std::string(100, ' '), {-80, 0, 0, -60}, " ", " ", 100, false),
      kInvalid, "ngram_widths must contain positive values");
}

TEST(Advisories, Tfsa2022_009_StringNGramsNegativePadWidth) {
  // A negative pad_width made a negative ngram width, used to size the output.
  ExpectFailsBothWays(StringNGrams({"123456"}, {0, 1}, std::string(15, 'a'), {}, "", "", -5, true),
                      kInvalid,
                      "Pad width should be >= 0 when preserve_short_sequences is True and "
                      "ngram_widths are not provided, got -5");
}

AdvisoryCase Substr(std::vector<int32_t> pos) {
  AdvisoryCase c("Substr");
  c.Input(Scalar<std::string>("abc")).Input(Values<int32_t>(std::move(pos)));
  c.Input(Scalar<int32_t>(1));
  c.Attr("T", DT_INT32);
  return c;
}

TEST(Advisories, Tfsa2021_106_SubstrPosVectorOnScalarInput) {
  // pos of another shape than a scalar input (and len) failed a CHECK.
  ExpectFailsBothWays(Substr({1, -1}), kInvalid);
  ExpectFailsBothWays(Substr({1, 2}), kInvalid);
}

AdvisoryCase UnicodeEncode(Tensor values, Tensor splits) {
  AdvisoryCase c("UnicodeEncode");
  const DataType tsplits = splits.dtype();
  c.Input(std::move(values)).Input(std::move(splits));
  c.Attr("Tsplits", tsplits).Attr("output_encoding", "UTF-8");
  return c;
}

TEST(Advisories, Tfsa2021_047_UnicodeEncodeSplitsPastValues) {
  // Splits [81, 101, 0] over one value read past input_values.
  ExpectFailsBothWays(UnicodeEncode(Values<int32_t>({58}), Values<int32_t>({81, 101, 0})), kInvalid,
                      "First value in input_splits must be zero.");
}

TEST(Advisories, Tfsa2021_141_UnicodeEncodeEmptySplits) {
  // Empty input_splits: the output's size was input_splits' size minus one.
  AdvisoryCase c = UnicodeEncode(Values<int32_t>({}), Values<int64_t>({}));
  c.Attr("errors", "ignore").Attr("replacement_char", int64_t{97});
  ExpectFailsBothWays(c, kInvalid);
}

// A PNG signature, an IHDR chunk announcing `side` x `side` 8-bit gray pixels, and IEND: no
// image data. The chunks' CRCs were computed for these exact bytes.
std::string PngWithoutData(bool huge) {
  const char kHuge[] =
      "\x89\x50\x4e\x47\x0d\x0a\x1a\x0a\x00\x00\x00\x0d\x49\x48\x44\x52\x7f\xff\xff\xff\x7f\xff"
      "\xff\xff\x08\x00\x00\x00\x00\x31\xa2\x54\xba\x00\x00\x00\x00\x49\x45\x4e\x44\xae\x42\x60"
      "\x82";
  const char kFour[] =
      "\x89\x50\x4e\x47\x0d\x0a\x1a\x0a\x00\x00\x00\x0d\x49\x48\x44\x52\x00\x00\x00\x04\x00\x00"
      "\x00\x04\x08\x00\x00\x00\x00\x8c\x9a\xc1\xa2\x00\x00\x00\x00\x49\x45\x4e\x44\xae\x42\x60"
      "\x82";
  return std::string(huge ? kHuge : kFour, 45);
}

AdvisoryCase DecodePng(std::string contents) {
  AdvisoryCase c("DecodePng");
  c.Input(Scalar<std::string>(std::move(contents)));
  c.Attr("dtype", DT_UINT8);
  return c;
}

TEST(Advisories, Tfsa2022_047_DecodePngHugeSize) {
  // A PNG of 2^31-1 x 2^31-1 pixels: the error path freed the decoder, then read its width.
  ExpectFailsBothWays(DecodePng(PngWithoutData(true)), kInvalid,
                      "Invalid PNG. Failed to initialize decoder.");
}

TEST(Advisories, Tfsa2022_048_DecodePngInvalidData) {
  // Invalid PNGs left the decoder's buffers allocated on the error paths: one cut inside its
  // IHDR chunk, and a 4x4 one without image data.
  ExpectFailsBothWays(DecodePng(PngWithoutData(false).substr(0, 20)), kInvalid,
                      "Invalid PNG. Failed to initialize decoder.");
  ExpectFailsBothWays(DecodePng(PngWithoutData(false)), kInvalid,
                      "Invalid PNG. Failed to initialize decoder.");
}

TEST(Advisories, Tfsa2022_061_TensorSummaryV2EmptyMetadata) {
  // serialized_summary_metadata that is not a scalar (an empty vector) failed a CHECK.
  AdvisoryCase c("TensorSummaryV2");
  c.Input(Scalar<std::string>("test")).Input(Scalar<int64_t>(3)).Input(Values<std::string>({}));
  c.Attr("T", DT_INT64);
  ExpectFailsBothWays(c, kInvalid, "serialized_summary_metadata must be scalar");
}

TEST(Advisories, Tfsa2022_125_AudioSummaryV2VectorSampleRate) {
  // A sample_rate of two elements failed a CHECK reading it as a scalar.
  AdvisoryCase c("AudioSummaryV2");
  c.Input(Scalar<std::string>(""))
      .Input(Values<float>({0.5f}, {1, 1}))
      .Input(Values<float>({0.5f, 0.5f}, {2, 1}));
  c.Attr("max_outputs", int64_t{3});
  ExpectFailsBothWays(c, kInvalid);
}

TEST(Advisories, Tfsa2021_122_SaveV2NoShapeAndSlices) {
  // A failed input check did not stop the kernel: one tensor name, no shape_and_slices (and
  // a prefix that is a vector). Nothing may be written.
  AdvisoryCase c("SaveV2");
  c.Input(Values<std::string>({"tfsa_2021_122_ckpt"}))
      .Input(Values<std::string>({"v"}))
      .Input(Values<std::string>({}))
      .InputList({Values<int32_t>({1, 2, 3})});
  c.Attr("dtypes", std::vector<DataType>{DT_INT32});
  // SaveV2 has no output: a Const run after it is fetched.
  c.FetchThrough([](GraphDef* graph, const std::string&) {
    AddConst(graph, "after", Scalar<int32_t>(0))->add_input("^op");
    return std::string("after:0");
  });
  ExpectFailsBothWays(c, kInvalid);
}

}  // namespace
}  // namespace advisories
}  // namespace sluice
