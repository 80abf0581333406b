#include "tools/board/slice_index.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"

namespace sluice {
namespace board {
namespace {

// "start:step:count" per dimension, "#" marking a dropped one; or the error message.
std::string Resolve(const std::string& index, const std::vector<int64_t>& shape) {
  absl::StatusOr<std::vector<IndexItem>> items = ParseIndex(index);
  if (!items.ok()) return std::string(items.status().message());
  absl::StatusOr<std::vector<DimSelection>> selection = ResolveIndex(*items, shape);
  if (!selection.ok()) return std::string(selection.status().message());
  std::vector<std::string> dims;
  for (const DimSelection& dim : *selection) {
    dims.push_back(dim.kept ? absl::StrCat(dim.start, ":", dim.step, ":", dim.count)
                            : absl::StrCat("#", dim.start));
  }
  return absl::StrJoin(dims, " ");
}

TEST(SliceIndexTest, IntegersDropDimensionsAndSlicesKeepThem) {
  EXPECT_EQ(Resolve("[0, :, 2:5, 1]", {2, 3, 6, 4}), "#0 0:1:3 2:1:3 #1");
  EXPECT_EQ(Resolve("0,:,2:5,1", {2, 3, 6, 4}), "#0 0:1:3 2:1:3 #1");
  EXPECT_EQ(Resolve("2:5", {6, 4}), "2:1:3 0:1:4");
  EXPECT_EQ(Resolve(":", {6, 4}), "0:1:6 0:1:4");
  EXPECT_EQ(Resolve("", {6, 4}), "0:1:6 0:1:4");
  EXPECT_EQ(Resolve("[]", {6}), "0:1:6");
  EXPECT_EQ(Resolve("[ 1 , ]", {6, 4}), "#1 0:1:4");
  EXPECT_EQ(Resolve("", {}), "");
}

TEST(SliceIndexTest, NegativeIndicesCountFromTheEnd) {
  EXPECT_EQ(Resolve("-1", {6}), "#5");
  EXPECT_EQ(Resolve("-6", {6}), "#0");
  EXPECT_EQ(Resolve("-3:", {6}), "3:1:3");
  EXPECT_EQ(Resolve(":-1", {6}), "0:1:5");
  EXPECT_EQ(Resolve("+2", {6}), "#2");
}

TEST(SliceIndexTest, StepsAndClampingFollowPython) {
  EXPECT_EQ(Resolve("::2", {7}), "0:2:4");
  EXPECT_EQ(Resolve("1::3", {7}), "1:3:2");
  EXPECT_EQ(Resolve("::-1", {5}), "4:-1:5");
  EXPECT_EQ(Resolve("3:0:-1", {5}), "3:-1:3");
  EXPECT_EQ(Resolve("-10:100", {5}), "0:1:5");
  EXPECT_EQ(Resolve("100:", {5}), "5:1:0");
  EXPECT_EQ(Resolve("4:2", {5}), "4:1:0");
  EXPECT_EQ(Resolve("::-1", {0}), "-1:-1:0");
  EXPECT_EQ(Resolve("::9223372036854775807", {5}), "0:9223372036854775807:1");
  EXPECT_EQ(Resolve("-9223372036854775808:9223372036854775807", {5}), "0:1:5");
}

TEST(SliceIndexTest, EllipsisFillsTheMiddle) {
  EXPECT_EQ(Resolve("..., 0", {2, 3, 4}), "0:1:2 0:1:3 #0");
  EXPECT_EQ(Resolve("1, ..., 2", {2, 3, 4}), "#1 0:1:3 #2");
  EXPECT_EQ(Resolve("1, 2, ..., 3", {2, 3, 4}), "#1 #2 #3");
  EXPECT_EQ(Resolve("...", {}), "");
}

TEST(SliceIndexTest, ErrorsQuoteWhatWasTyped) {
  EXPECT_EQ(Resolve("5", {2, 3}), "index 5 is out of range for dimension 0 of size 2");
  EXPECT_EQ(Resolve("0, -4", {2, 3}), "index -4 is out of range for dimension 1 of size 3");
  EXPECT_EQ(Resolve("0, 0, 0", {2, 3}), "too many indices: the tensor has rank 2, the index has 3");
  EXPECT_EQ(Resolve("0", {}), "too many indices: the tensor has rank 0, the index has 1");
  EXPECT_EQ(Resolve("2:x", {4}), "'2:x' is not an index: 'x' is not an integer");
  EXPECT_EQ(Resolve("a", {4}),
            "'a' is not an index: expected an integer, a slice such as 2:5 or ::2, or '...'");
  EXPECT_EQ(Resolve("1.5", {4}),
            "'1.5' is not an index: expected an integer, a slice such as 2:5 or ::2, or '...'");
  EXPECT_EQ(Resolve("0x1", {4}),
            "'0x1' is not an index: expected an integer, a slice such as 2:5 or ::2, or '...'");
  EXPECT_EQ(Resolve("::0", {4}), "'::0' is not an index: a slice step cannot be zero");
  EXPECT_EQ(Resolve("1:2:3:4", {4}), "'1:2:3:4' is not an index: a slice has at most two ':'");
  EXPECT_EQ(Resolve("::-9223372036854775808", {4}),
            "'::-9223372036854775808' is not an index: the step is out of range");
  EXPECT_EQ(Resolve("99999999999999999999", {4}),
            "'99999999999999999999' is not an index: expected an integer, a slice such as 2:5 "
            "or ::2, or '...'");
  EXPECT_EQ(Resolve("[0, 1", {4, 4}), "'[0, 1' has no closing ']'");
  EXPECT_EQ(Resolve("0, 1]", {4, 4}), "'0, 1]' has no opening '['");
  EXPECT_EQ(Resolve("0,,1", {4, 4}), "'0,,1' has an empty item");
  EXPECT_EQ(Resolve(",", {4}), "',' has an empty item");
  EXPECT_EQ(Resolve("..., ...", {4}), "an index can only have one '...'");
  EXPECT_EQ(Resolve(std::string(kMaxIndexLength + 1, ':'), {4}),
            "the index is longer than 4096 characters");
}

TEST(SliceIndexTest, SelectedShapeHasTheKeptDimensions) {
  absl::StatusOr<std::vector<IndexItem>> items = ParseIndex("[0, :, 2:5, 1]");
  ASSERT_TRUE(items.ok());
  absl::StatusOr<std::vector<DimSelection>> selection = ResolveIndex(*items, {2, 3, 6, 4});
  ASSERT_TRUE(selection.ok());
  EXPECT_EQ(SelectedShape(*selection), (std::vector<int64_t>{3, 3}));
}

}  // namespace
}  // namespace board
}  // namespace sluice
