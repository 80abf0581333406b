#include "tests/source/heap_lint.h"

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
namespace heap_lint {
namespace {

using layering::SourceFile;

std::string Fixture() {
  return source_tree::ReadFile(source_tree::Runfiles() +
                               "/tests/source/testdata/heap_lint_fixture.cc");
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

TEST(HeapLintTest, TreeHasNoUnjustifiedSites) {
  const std::vector<SourceFile> files = ScannedTree();
  // The kernels are in the runfiles, not only a few of them.
  EXPECT_GT(files.size(), 120u);
  int justified = 0;
  for (const SourceFile& file : files) {
    for (const Site& site : FindSites(file.text)) justified += site.justified;
  }
  // Sparse kernels' per-input plans carry reasons (issue 25); none means the scan lost its way.
  EXPECT_GE(justified, 4);
  for (const std::string& violation : FindViolations(files)) ADD_FAILURE() << violation;
}

TEST(HeapLintTest, FixtureReportsExactlyTheTaggedLines) {
  const std::string fixture = Fixture();
  ASSERT_FALSE(fixture.empty());
  const std::set<int> tagged = TaggedLines(fixture);
  EXPECT_GE(tagged.size(), 25u);
  EXPECT_EQ(ReportedLines(fixture), tagged);
  // The justified sites are the five of the fixture's Justified().
  int justified = 0;
  for (const Site& site : FindSites(fixture)) justified += site.justified;
  EXPECT_EQ(justified, 5);
}

TEST(HeapLintTest, FixtureAsAKernelFailsWithFileAndLine) {
  const std::vector<std::string> violations =
      FindViolations({{"kernels/cpu/nn/fixture_op.cc", Fixture()}});
  // One site per tagged line.
  EXPECT_EQ(violations.size(), TaggedLines(Fixture()).size());
  ASSERT_FALSE(violations.empty());
  EXPECT_TRUE(absl::StartsWith(violations[0],
                               "kernels/cpu/nn/fixture_op.cc:52: std::vector<float> sums(n) "
                               "allocates outside the device's allocator: use ScratchArray"))
      << violations[0];
}

TEST(HeapLintTest, UnjustifiedSiteInTheTreeFails) {
  // The real tree with one working array sized by an input added to a kernel. The tree may
  // still hold other violations; the added one must be the only new one.
  std::vector<SourceFile> files = ScannedTree();
  const std::vector<std::string> before = FindViolations(files);
  SourceFile* kernel = nullptr;
  for (SourceFile& file : files) {
    if (file.path == "kernels/cpu/array/fill_ops.cc") kernel = &file;
  }
  ASSERT_NE(kernel, nullptr);
  // The appended line's number: the file ends in a newline.
  const int line = static_cast<int>(std::count(kernel->text.begin(), kernel->text.end(), '\n')) + 1;
  kernel->text += "void Sums(const Tensor& t) { std::vector<float> sums(t.NumElements()); }\n";
  std::vector<std::string> added;
  const std::vector<std::string> after = FindViolations(files);
  for (const std::string& violation : after) {
    if (std::find(before.begin(), before.end(), violation) == before.end()) {
      added.push_back(violation);
    }
  }
  EXPECT_EQ(after.size(), before.size() + 1);
  ASSERT_EQ(added.size(), 1u);
  EXPECT_TRUE(absl::StartsWith(
      added[0], absl::StrCat("kernels/cpu/array/fill_ops.cc:", line,
                             ": std::vector<float> sums(t.NumElements()) allocates outside")))
      << added[0];
}

TEST(HeapLintTest, RemovingTheReasonsOfAFileFails) {
  // Every justified site of the tree needs its comment: strip them from one file.
  for (SourceFile file : ScannedTree()) {
    if (!absl::StrContains(file.text, kMarker)) continue;
    const std::vector<Site> sites = FindSites(file.text);
    const int justified =
        std::count_if(sites.begin(), sites.end(), [](const Site& site) { return site.justified; });
    EXPECT_GT(justified, 0) << file.path;
    file.text = absl::StrReplaceAll(file.text, {{kMarker, "reason:"}});
    EXPECT_EQ(FindViolations({file}).size(), sites.size()) << file.path;
    return;
  }
  FAIL() << "no file of the tree carries a justification";
}

TEST(HeapLintTest, WhatIsASite) {
  auto unjustified = [](const std::string& text) {
    int count = 0;
    for (const Site& site : FindSites(text)) count += !site.justified;
    return count;
  };
  // Sized constructions, unless the size is fixed by the code.
  EXPECT_EQ(unjustified("std::vector<int64_t> v(n);"), 1);
  EXPECT_EQ(unjustified("std :: vector<int64_t> v(rows * cols);"), 1);
  EXPECT_EQ(unjustified("::std::vector<int64_t> v(n);"), 1);
  EXPECT_EQ(unjustified("f(std::vector<int64_t>(n));"), 1);
  EXPECT_EQ(unjustified("std::vector<std::pair<int, float>> v(n);"), 1);
  EXPECT_EQ(unjustified("std::vector<int64_t> v(4); std::vector<int64_t> w(2, -1);"), 0);
  EXPECT_EQ(unjustified("std::vector<int64_t> v; std::vector<int64_t> w{n};"), 0);
  EXPECT_EQ(unjustified("std::vector<int64_t> F(int64_t n, const Tensor& t);"), 0);
  EXPECT_EQ(unjustified("vector<int64_t> v(n); MyVector<int> w(n);"), 0);
  // Aliases of the file and of the layers below.
  EXPECT_EQ(unjustified("using Dims = absl::InlinedVector<int64_t, 8>; Dims d(rank, 0);"), 1);
  EXPECT_EQ(unjustified("typedef std::vector<int> Ids; Ids a(n); Ids b;"), 1);
  EXPECT_EQ(unjustified("using std::vector; vector<int64_t> v(n);"), 1);
  EXPECT_EQ(unjustified("IntegerValues sizes(rank); sluice::DataTypeVector types(n);"), 2);
  EXPECT_EQ(unjustified("using Dims = Eigen::DSizes<int64_t, 2>; Dims d(a, b);"), 0);
  EXPECT_EQ(unjustified("std::vector<int64_t>::size_type n(m);"), 0);
  // Members that size a container, whatever the receiver.
  EXPECT_EQ(unjustified("v.resize(n); p->reserve(n); a.b.assign(n, 0);"), 3);
  EXPECT_EQ(unjustified("v.resize(0); v.reserve(4); resize(n); v.Resize(n);"), 0);
  EXPECT_EQ(unjustified("v.insert(v.end(), n, 0); v.insert(it, x); m.insert({k, v});"), 1);
  const std::vector<Site> member = FindSites("if (k > 0) plan->strides[k].assign(n, 0);");
  ASSERT_EQ(member.size(), 1u);
  EXPECT_EQ(member[0].what, "plan->strides[k].assign(n, 0)");
  // Raw arrays and the C allocator.
  EXPECT_EQ(unjustified("p = new T[n]; q = new (buf) T[n]; r = new std::pair<int, int>[n];"), 3);
  EXPECT_EQ(unjustified("p = new T(n); q = new T{n}; void* operator new[](size_t n);"), 0);
  EXPECT_EQ(unjustified("std::make_unique<T[]>(n); std::make_unique<T>(n);"), 1);
  EXPECT_EQ(unjustified("malloc(n); std::realloc(p, n); x.malloc(n); my_malloc(n);"), 2);
  // Tensors that allocate outside the context's allocator.
  EXPECT_EQ(unjustified("Tensor t(DT_FLOAT, shape); sluice::Tensor u(dtype, shape);"), 2);
  EXPECT_EQ(unjustified("Tensor(DT_FLOAT, TensorShape({2}));"), 1);
  EXPECT_EQ(unjustified("Tensor t(other); Tensor(DT_INVALID); Tensor u; Tensor v{};"), 0);
  EXPECT_EQ(unjustified("Tensor F(DataType dtype, const TensorShape& shape);"), 0);
  EXPECT_EQ(unjustified("Tensor::Allocate(ctx->allocator(), DT_FLOAT, shape);"), 0);
  EXPECT_EQ(unjustified("Tensor::Allocate(DefaultCpuAllocator(), DT_FLOAT, shape);"), 1);
  EXPECT_EQ(unjustified("Tensor copy = input.DeepCopy();"), 1);
  // The allocator-backed forms.
  EXPECT_EQ(unjustified("ScratchArray<float> sums; sums.Allocate(ctx, n);"), 0);
  EXPECT_EQ(unjustified("ctx->allocate_temp(DT_FLOAT, TensorShape({n}), &t);"), 0);
}

TEST(HeapLintTest, WhatIsScanned) {
  EXPECT_TRUE(IsScanned("kernels/cpu/array/fill_ops.cc"));
  EXPECT_TRUE(IsScanned("kernels/cpu/reduction/reduction_op.h"));
  EXPECT_TRUE(IsScanned("kernels/cpu/parallel_for.h"));
  EXPECT_FALSE(IsScanned("kernels/cpu/scratch.h"));
  EXPECT_FALSE(IsScanned("kernels/cpu/scratch.cc"));
  EXPECT_FALSE(IsScanned("kernels/cpu/array/fill_ops_test.cc"));
  EXPECT_FALSE(IsScanned("kernels/kernel_test_util.cc"));
  EXPECT_FALSE(IsScanned("kernels/cpu/linalg/matmul_benchmark.cc"));
  EXPECT_FALSE(IsScanned("graph/ops/array_ops.cc"));
  EXPECT_FALSE(IsScanned("runtime/framework/op_kernel.cc"));
  EXPECT_FALSE(IsScanned("tests/source/testdata/heap_lint_fixture.cc"));
}

}  // namespace
}  // namespace heap_lint
}  // namespace sluice
