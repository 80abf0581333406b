#include "tests/source/shape_lint.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "tests/source/source_tree.h"

namespace sluice {
namespace shape_lint {
namespace {

using layering::SourceFile;

std::string Fixture() {
  return source_tree::ReadFile(source_tree::Runfiles() +
                               "/tests/source/testdata/shape_lint_fixture.cc");
}

// The lines of `text` that say, in capitals, that the lint reports them.
std::set<int> TaggedLines(const std::string& text) {
  std::set<int> lines;
  int number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++number;
    if (absl::StrContains(line, "REPORTED")) lines.insert(number);
  }
  return lines;
}

std::set<int> ReportedLines(const std::string& text) {
  std::set<int> lines;
  for (const Site& site : FindSites(text)) {
    if (!site.justified) lines.insert(site.line);
  }
  for (int line : UnusedJustifications(text)) lines.insert(line);
  return lines;
}

std::vector<SourceFile> ScannedTree() {
  std::vector<SourceFile> scanned;
  for (SourceFile& file : source_tree::TreeSources()) {
    if (IsScanned(file.path)) scanned.push_back(std::move(file));
  }
  return scanned;
}

TEST(ShapeLintTest, TreeHasNoUnjustifiedShapeSites) {
  const std::vector<SourceFile> files = ScannedTree();
  // The kernels and shape functions are in the runfiles, not only a few of them.
  EXPECT_GT(files.size(), 150u);
  int justified = 0;
  for (const SourceFile& file : files) {
    for (const Site& site : FindSites(file.text)) justified += site.justified;
  }
  // Over fifty sites carry reasons (issue 25); far fewer means the scan lost its way.
  EXPECT_GT(justified, 40);
  for (const std::string& violation : FindViolations(files)) ADD_FAILURE() << violation;
}

TEST(ShapeLintTest, FixtureReportsExactlyTheTaggedLines) {
  const std::string fixture = Fixture();
  ASSERT_FALSE(fixture.empty());
  const std::set<int> tagged = TaggedLines(fixture);
  EXPECT_GE(tagged.size(), 15u);
  EXPECT_EQ(ReportedLines(fixture), tagged);
  // The justified sites are the five of the fixture's Justified().
  int justified = 0;
  for (const Site& site : FindSites(fixture)) justified += site.justified;
  EXPECT_EQ(justified, 5);
}

TEST(ShapeLintTest, FixtureAsAKernelFailsWithFileAndLine) {
  const std::vector<std::string> violations =
      FindViolations({{"kernels/cpu/array/fixture_op.cc", Fixture()}});
  EXPECT_EQ(violations.size(), TaggedLines(Fixture()).size());
  ASSERT_FALSE(violations.empty());
  EXPECT_TRUE(absl::StartsWith(violations[0],
                               "kernels/cpu/array/fixture_op.cc:30: TensorShape(dims) can "
                               "CHECK-fail on bad dims"))
      << violations[0];
}

TEST(ShapeLintTest, UnjustifiedSiteInTheTreeFails) {
  // The real tree with one construction from a tensor's values added to a kernel.
  std::vector<SourceFile> files = ScannedTree();
  SourceFile* kernel = nullptr;
  for (SourceFile& file : files) {
    if (file.path == "kernels/cpu/array/fill_ops.cc") kernel = &file;
  }
  ASSERT_NE(kernel, nullptr);
  // The appended line's number: the file ends in a newline.
  const int line = static_cast<int>(std::count(kernel->text.begin(), kernel->text.end(), '\n')) + 1;
  kernel->text += "TensorShape FromValues(const Tensor& t) { return TensorShape(ToDims(t)); }\n";
  const std::vector<std::string> violations = FindViolations(files);
  ASSERT_EQ(violations.size(), 1u);
  EXPECT_TRUE(absl::StartsWith(violations[0], absl::StrCat("kernels/cpu/array/fill_ops.cc:", line,
                                                           ": TensorShape(ToDims(t))")))
      << violations[0];
}

TEST(ShapeLintTest, RemovingTheReasonsOfAFileFails) {
  // Every justified site of the tree needs its comment: strip them from one file.
  for (SourceFile file : ScannedTree()) {
    if (!absl::StrContains(file.text, kMarker)) continue;
    const size_t sites = FindSites(file.text).size();
    file.text = absl::StrReplaceAll(file.text, {{kMarker, "reason:"}});
    EXPECT_EQ(FindViolations({file}).size(), sites) << file.path;
    return;
  }
  FAIL() << "no file of the tree carries a justification";
}

TEST(ShapeLintTest, CommentsAndLiteralsAreNotCode) {
  const std::string text =
      "a = \"TensorShape(x)\"; // TensorShape(y)\n/* s.AddDim(1) */ b = 'x';\n"
      "c = R\"(TensorShape(z))\"; d = 1'000;";
  const std::string code = CodeOnly(text);
  EXPECT_EQ(code.size(), text.size());
  EXPECT_FALSE(absl::StrContains(code, "TensorShape"));
  EXPECT_FALSE(absl::StrContains(code, "AddDim"));
  EXPECT_TRUE(absl::StrContains(code, "d = 1'000;"));
  EXPECT_EQ(std::count(code.begin(), code.end(), '\n'), 2);
  EXPECT_TRUE(FindSites(text).empty());
}

TEST(ShapeLintTest, WhatIsALiteral) {
  auto unjustified = [](const std::string& text) {
    int count = 0;
    for (const Site& site : FindSites(text)) count += !site.justified;
    return count;
  };
  EXPECT_EQ(unjustified("TensorShape()"), 0);
  EXPECT_EQ(unjustified("TensorShape({})"), 0);
  EXPECT_EQ(unjustified("TensorShape({2, 3LL, 0x10})"), 0);
  EXPECT_EQ(unjustified("PartialTensorShape({-1, 2})"), 0);
  EXPECT_EQ(unjustified("TensorShape{1, 2}"), 0);
  EXPECT_EQ(unjustified("TensorShape({kDims})"), 1);
  EXPECT_EQ(unjustified("TensorShape({2 * n})"), 1);
  EXPECT_EQ(unjustified("TensorShape(other)"), 1);
  EXPECT_EQ(unjustified("sluice::TensorShape(dims)"), 1);
  EXPECT_EQ(unjustified("x = TensorShape::BuildTensorShape(dims, &s);"), 0);
  EXPECT_EQ(unjustified("x = BuildTensorShape(dims); y = AsTensorShape(&s);"), 0);
  EXPECT_EQ(unjustified("std::vector<TensorShape> shapes(n);"), 0);
  EXPECT_EQ(unjustified("const TensorShape& shape = t.shape();"), 0);
  EXPECT_EQ(unjustified("TensorShape shape = t.shape();"), 0);
  // A mutator is reported whatever its arguments: a literal can still exceed the rank limit.
  EXPECT_EQ(unjustified("s.AddDim(1); p->set_dim(0, 1);"), 2);
  EXPECT_EQ(unjustified("s.AddDimWithStatus(n); AddDim(n);"), 0);
  EXPECT_EQ(unjustified("Tensor t(DT_FLOAT, {n}); Tensor u(DT_FLOAT, {2});"), 1);
}

TEST(ShapeLintTest, WhatIsScanned) {
  EXPECT_TRUE(IsScanned("kernels/cpu/array/fill_ops.cc"));
  EXPECT_TRUE(IsScanned("kernels/cpu/reduction/reduction_op.h"));
  EXPECT_TRUE(IsScanned("graph/ops/array_ops.cc"));
  EXPECT_TRUE(IsScanned("graph/shape/shape_inference.cc"));
  EXPECT_FALSE(IsScanned("kernels/cpu/array/fill_ops_test.cc"));
  EXPECT_FALSE(IsScanned("kernels/cpu/linalg/matmul_benchmark.cc"));
  EXPECT_FALSE(IsScanned("graph/core/tensor_shape.cc"));
  EXPECT_FALSE(IsScanned("runtime/framework/op_kernel.cc"));
  EXPECT_FALSE(IsScanned("tests/source/testdata/shape_lint_fixture.cc"));
}

}  // namespace
}  // namespace shape_lint
}  // namespace sluice
