// What the Unicode fixture (tests/kernels/gen_unicode.py) cannot show: UnicodeDecodeWithOffsets
// with int32 splits (which aborts TensorFlow), the UTF-16 model of EncodedWriter (surrogate
// pairs only reach it through a surrogate replacement_char, never paired by TensorFlow's ops),
// and inputs large enough for the parallel paths.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/cpu/strings/unicode_options.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

class UnicodeOpsTest : public KernelTest {};

// TensorFlow 2.21 CHECK-fails on this node; Sluice answers as with int64 splits, the byte
// offsets in the int64 tensor the OpDef declares.
TEST_F(UnicodeOpsTest, DecodeWithOffsetsInt32Splits) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("d", "UnicodeDecodeWithOffsets")
                         .Input("x")
                         .Attr("input_encoding", std::string("UTF-8"))
                         .Attr("errors", std::string("ignore"))
                         .Attr("Tsplits", DT_INT32)
                         .Build())
                  .ok());
  AddInputFromArray<std::string>(TensorShape({3}), {"a\xc3\xa9\xff\xf0\x9f\x98\x80", "", "\x80z"});
  ASSERT_TRUE(RunOpKernel().ok());
  ASSERT_EQ(GetOutput(0)->dtype(), DT_INT32);
  ASSERT_EQ(GetOutput(2)->dtype(), DT_INT64);
  EXPECT_EQ(Values<int32_t>(*GetOutput(0)), (std::vector<int32_t>{0, 3, 3, 4}));
  EXPECT_EQ(Values<int32_t>(*GetOutput(1)), (std::vector<int32_t>{0x61, 0xE9, 0x1F600, 0x7A}));
  EXPECT_EQ(Values<int64_t>(*GetOutput(2)), (std::vector<int64_t>{0, 1, 4, 1}));
}

std::string Write(strings::UnicodeEncoding encoding, const std::vector<int32_t>& code_points) {
  std::string out;
  strings::EncodedWriter writer(encoding, &out);
  for (int32_t c : code_points) writer.Append(c);
  writer.Finish();
  return out;
}

// A lead surrogate followed by a trail one is one character, as in an ICU UnicodeString; a
// lone surrogate is U+FFFD in UTF-8 and itself in UTF-16-BE and UTF-32-BE; values outside
// [0, 0x10FFFF] are dropped.
TEST(EncodedWriterTest, SurrogatesAsInUtf16) {
  using strings::UnicodeEncoding;
  EXPECT_EQ(Write(UnicodeEncoding::kUtf8, {0xD83D, 0xDE00}), "\xf0\x9f\x98\x80");
  EXPECT_EQ(Write(UnicodeEncoding::kUtf32Be, {0xD83D, 0xDE00}), std::string("\0\x01\xf6\0", 4));
  EXPECT_EQ(Write(UnicodeEncoding::kUtf16Be, {0xD83D, 0xDE00}), std::string("\xd8\x3d\xde\x00", 4));
  EXPECT_EQ(Write(UnicodeEncoding::kUtf8, {0xDE00, 0xD83D}), "\xef\xbf\xbd\xef\xbf\xbd");
  EXPECT_EQ(Write(UnicodeEncoding::kUtf32Be, {0xD83D, 0x41}),
            std::string("\0\0\xd8\x3d\0\0\0\x41", 8));
  EXPECT_EQ(Write(UnicodeEncoding::kUtf8, {0xD83D, 0xD83D, 0xDE00}),
            "\xef\xbf\xbd\xf0\x9f\x98\x80");
  EXPECT_EQ(Write(UnicodeEncoding::kUtf8, {0x41, 0xD83D}), "A\xef\xbf\xbd");
  EXPECT_EQ(Write(UnicodeEncoding::kUtf8, {-1, 0x110000, 0x42}), "B");
  EXPECT_EQ(Write(UnicodeEncoding::kUtf8, {0x7F, 0x80, 0x7FF, 0x800, 0xFFFF, 0x10000, 0x10FFFF}),
            "\x7f\xc2\x80\xdf\xbf\xe0\xa0\x80\xef\xbf\xbf\xf0\x90\x80\x80\xf4\x8f\xbf\xbf");
}

constexpr int64_t kMany = 50000;

// Rows of 0 to 4 code points; row r holds r % 5 copies of U+0041 + r % 3, then U+1F600 when r
// is odd.
TEST_F(UnicodeOpsTest, EncodeManyRowsOnTheParallelPath) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("e", "UnicodeEncode")
                         .Input("v")
                         .Input("s")
                         .Attr("output_encoding", std::string("UTF-8"))
                         .Build())
                  .ok());
  std::vector<int32_t> values;
  std::vector<int64_t> splits = {0};
  std::vector<std::string> want;
  for (int64_t r = 0; r < kMany; ++r) {
    std::string row(r % 5, static_cast<char>('A' + r % 3));
    values.insert(values.end(), r % 5, 0x41 + r % 3);
    if (r % 2) {
      values.push_back(0x1F600);
      row += "\xf0\x9f\x98\x80";
    }
    splits.push_back(static_cast<int64_t>(values.size()));
    want.push_back(row);
  }
  AddInputFromArray<int32_t>(TensorShape({static_cast<int64_t>(values.size())}), values);
  AddInputFromArray<int64_t>(TensorShape({kMany + 1}), splits);
  ASSERT_TRUE(RunOpKernel().ok());
  ASSERT_EQ(GetOutput(0)->NumElements(), kMany);
  const std::string* out = GetOutput(0)->base<std::string>();
  for (int64_t r = 0; r < kMany; ++r) ASSERT_EQ(out[r], want[r]) << r;
}

TEST_F(UnicodeOpsTest, ScriptOfManyCodePoints) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("s", "UnicodeScript").Input("x").Build()).ok());
  std::vector<int32_t> code_points;
  for (int64_t i = 0; i < kMany; ++i) code_points.push_back(i % 2 ? 0x41 : 0x4E00);
  AddInputFromArray<int32_t>(TensorShape({kMany}), code_points);
  ASSERT_TRUE(RunOpKernel().ok());
  const int32_t* out = GetOutput(0)->base<int32_t>();
  for (int64_t i = 0; i < kMany; ++i) ASSERT_EQ(out[i], i % 2 ? 25 : 17) << i;  // Latin, Han
}

// Many rows through the two decoding passes: the splits and values line up.
TEST_F(UnicodeOpsTest, DecodeManyStrings) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("d", "UnicodeDecode")
                         .Input("x")
                         .Attr("input_encoding", std::string("UTF-8"))
                         .Build())
                  .ok());
  std::vector<std::string> texts;
  for (int64_t i = 0; i < kMany; ++i) texts.push_back(absl::StrCat(i % 10 == 0 ? "\xff" : "", i));
  AddInputFromArray<std::string>(TensorShape({kMany}), texts);
  ASSERT_TRUE(RunOpKernel().ok());
  const int64_t* splits = GetOutput(0)->base<int64_t>();
  const int32_t* values = GetOutput(1)->base<int32_t>();
  for (int64_t i = 0; i < kMany; ++i) {
    ASSERT_EQ(splits[i + 1] - splits[i], static_cast<int64_t>(texts[i].size())) << i;
    ASSERT_EQ(values[splits[i]], i % 10 == 0 ? 0xFFFD : texts[i][0]) << i;
  }
}

}  // namespace
}  // namespace test
}  // namespace sluice
