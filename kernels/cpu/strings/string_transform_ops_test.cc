// What the fixtures cannot show: inputs large enough for MapStrings' parallel path, and the
// dynamic regex kernels' cache across patterns.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"

namespace sluice {
namespace test {
namespace {

constexpr int64_t kMany = 100000;

std::vector<std::string> ManyStrings() {
  std::vector<std::string> words;
  words.reserve(kMany);
  for (int64_t i = 0; i < kMany; ++i) words.push_back(absl::StrCat("Word", i, "-MiXeD ", i % 7));
  return words;
}

class StringTransformTest : public KernelTest {};

TEST_F(StringTransformTest, LowerIsElementwiseOnTheParallelPath) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("lower", "StringLower").Input("x").Build()).ok());
  const std::vector<std::string> words = ManyStrings();
  AddInputFromArray<std::string>(TensorShape({kMany}), words);
  ASSERT_TRUE(RunOpKernel().ok());
  const std::string* out = GetOutput(0)->base<std::string>();
  for (int64_t i = 0; i < kMany; ++i) ASSERT_EQ(out[i], absl::AsciiStrToLower(words[i])) << i;
}

TEST_F(StringTransformTest, LengthsOnTheParallelPath) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("len", "StringLength").Input("x").Build()).ok());
  const std::vector<std::string> words = ManyStrings();
  AddInputFromArray<std::string>(TensorShape({kMany}), words);
  ASSERT_TRUE(RunOpKernel().ok());
  const int32_t* out = GetOutput(0)->base<int32_t>();
  for (int64_t i = 0; i < kMany; ++i) ASSERT_EQ(out[i], static_cast<int32_t>(words[i].size()));
}

TEST_F(StringTransformTest, StaticRegexReplaceOnTheParallelPath) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("re", "StaticRegexReplace")
                         .Input("x")
                         .Attr("pattern", std::string("[0-9]+"))
                         .Attr("rewrite", std::string("#"))
                         .Build())
                  .ok());
  AddInputFromArray<std::string>(TensorShape({kMany}), ManyStrings());
  ASSERT_TRUE(RunOpKernel().ok());
  const std::string* out = GetOutput(0)->base<std::string>();
  for (int64_t i = 0; i < kMany; ++i) ASSERT_EQ(out[i], "Word#-MiXeD #") << i;
}

// The cache holds the last pattern: a new one is compiled, a bad one reported, and the good
// one still works after it.
TEST_F(StringTransformTest, RegexFullMatchFollowsThePattern) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("m", "RegexFullMatch").Input("x").Input("p").Build()).ok());
  struct Step {
    std::string pattern;
    bool ok;
    bool want[2];
  };
  const std::vector<Step> steps = {{"[a-z]+", true, {true, false}},
                                   {"[0-9]+", true, {false, true}},
                                   {"(", false, {false, false}},
                                   {"[0-9]+", true, {false, true}},
                                   {".*", true, {true, true}}};
  AddInputFromArray<std::string>(TensorShape({2}), {"abc", "123"});
  // The harness shares this buffer: each step rewrites the pattern the kernel reads.
  Tensor pattern(DT_STRING, TensorShape({}));
  AddInput(pattern);
  for (const Step& step : steps) {
    *pattern.base<std::string>() = step.pattern;
    const absl::Status status = RunOpKernel();
    ASSERT_EQ(status.ok(), step.ok) << step.pattern << ": " << status;
    if (!step.ok) continue;
    const bool* out = GetOutput(0)->base<bool>();
    EXPECT_EQ(out[0], step.want[0]) << step.pattern;
    EXPECT_EQ(out[1], step.want[1]) << step.pattern;
  }
}

}  // namespace
}  // namespace test
}  // namespace sluice
