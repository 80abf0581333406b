#include "tests/source/layering.h"

#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/source/source_tree.h"

namespace sluice {
namespace layering {
namespace {

// Headers that the build generates rather than the tree holding them.
const std::set<std::string>& GeneratedHeaders() {
  static const auto* headers = new std::set<std::string>{"cc_api/standard_ops.h"};
  return *headers;
}

LayerTable TableFromBuild() {
  auto table = ParseLayerTable(
      source_tree::ReadFile(source_tree::Runfiles() + "/tests/source/layer_table.txt"));
  EXPECT_TRUE(table.ok()) << table.status();
  return table.ok() ? *table : LayerTable();
}

const LayerTable& Table() {
  static const auto* table = new LayerTable(TableFromBuild());
  return *table;
}

SourceFile* FindFile(std::vector<SourceFile>* files, const std::string& path) {
  for (SourceFile& file : *files) {
    if (file.path == path) return &file;
  }
  return nullptr;
}

TEST(LayeringTest, TreeFollowsTheLayers) {
  const std::vector<SourceFile> files = source_tree::TreeSources();
  // The whole tree is in the runfiles: a few files from each end of the layering.
  std::vector<SourceFile> copy = files;
  for (const char* path : {"graph/core/tensor.h", "kernels/cpu/cwise/binary_op.h",
                           "runtime/session/direct_session.cc", "tools/sluice.cc"}) {
    EXPECT_NE(FindFile(&copy, path), nullptr) << path << " is missing from the checked sources";
  }
  EXPECT_GT(files.size(), 400u);
  for (const std::string& violation : FindViolations(Table(), files, GeneratedHeaders())) {
    ADD_FAILURE() << violation;
  }
}

TEST(LayeringTest, UpwardIncludeInTheTreeFails) {
  // The real tree with one deliberately wrong include: a kernel that includes the session.
  std::vector<SourceFile> files = source_tree::TreeSources();
  SourceFile* kernel = FindFile(&files, "kernels/cpu/cwise/binary_op.h");
  ASSERT_NE(kernel, nullptr);
  kernel->text += "\n#include \"runtime/session/direct_session.h\"\n";
  const std::vector<std::string> violations = FindViolations(Table(), files, GeneratedHeaders());
  ASSERT_EQ(violations.size(), 1u);
  EXPECT_EQ(violations[0],
            "kernels/cpu/cwise/binary_op.h (layer kernels) includes "
            "runtime/session/direct_session.h (layer runtime/session), which it may not use: "
            "kernels may use runtime/framework, compiler, io and what they use");
}

TEST(LayeringTest, TheLayersFromLayersBzl) {
  const LayerTable& table = Table();
  EXPECT_EQ(LayerOf(table, "graph/core/tensor.h"), "graph/core");
  EXPECT_EQ(LayerOf(table, "graph/graph.h"), "graph");
  EXPECT_EQ(LayerOf(table, "graph/ops/math_ops.cc"), "graph/ops");
  EXPECT_EQ(LayerOf(table, "kernels/cpu/nn/softmax_op.cc"), "kernels");
  EXPECT_EQ(LayerOf(table, "runtime/framework/testdata/test_custom_op.cc"), "runtime/framework");
  EXPECT_EQ(LayerOf(table, "graph/unknown/thing.h"), "");
  EXPECT_EQ(LayerOf(table, "absl/status/status.h"), "");

  const std::set<std::string> kernels = Closure(table, "kernels");
  EXPECT_TRUE(kernels.count("runtime/framework"));
  EXPECT_TRUE(kernels.count("graph/core"));
  EXPECT_FALSE(kernels.count("runtime/device"));
  EXPECT_FALSE(kernels.count("passes"));
  const std::set<std::string> passes = Closure(table, "passes");
  EXPECT_FALSE(passes.count("kernels"));
  EXPECT_FALSE(passes.count("runtime/framework"));
  EXPECT_FALSE(passes.count("runtime/session"));
  EXPECT_TRUE(Closure(table, "runtime/session").count("kernels"));
  EXPECT_FALSE(Closure(table, "graph").count("graph/import"));
  EXPECT_FALSE(Closure(table, "graph/shape").count("graph"));
}

// A small tree for the rules one by one.
LayerTable SmallTable() {
  auto table = ParseLayerTable(
      "low:\nmid: low\nhigh: mid\nsession: high\ntop: session\ntree: top\n"
      "test_reach: high\n");
  EXPECT_TRUE(table.ok()) << table.status();
  return *table;
}

std::vector<std::string> Check(const std::vector<SourceFile>& files) {
  return FindViolations(SmallTable(), files, {"top/generated.h"});
}

TEST(LayeringTest, LibraryMayIncludeDownOnly) {
  EXPECT_TRUE(Check({{"low/a.h", ""}, {"high/b.cc", "#include \"low/a.h\""}}).empty());
  const auto up = Check({{"low/a.h", "#include \"mid/b.h\""}, {"mid/b.h", ""}});
  ASSERT_EQ(up.size(), 1u);
  EXPECT_TRUE(absl::StrContains(up[0], "low/a.h (layer low) includes mid/b.h (layer mid)"));
  // Siblings: a layer's folder does not hold its sub-folders unless it is a tree.
  EXPECT_TRUE(Check({{"top/x/y.cc", "#include \"session/s.h\""}, {"session/s.h", ""}}).empty());
  EXPECT_EQ(Check({{"low/sub/a.h", ""}}).size(), 1u);
}

TEST(LayeringTest, TestsReachUpToTheTestReach) {
  const std::vector<SourceFile> files = {{"high/h.h", ""}, {"session/s.h", ""}};
  auto with = [&](SourceFile extra) {
    std::vector<SourceFile> all = files;
    all.push_back(std::move(extra));
    return Check(all);
  };
  EXPECT_TRUE(with({"low/a_test.cc", "#include \"high/h.h\""}).empty());
  EXPECT_TRUE(with({"low/a_testutil.h", "#include \"high/h.h\""}).empty());
  EXPECT_TRUE(with({"low/testdata/lib.cc", "#include \"session/s.h\""}).empty());
  EXPECT_EQ(with({"low/a.cc", "#include \"high/h.h\""}).size(), 1u);
  EXPECT_EQ(with({"low/a_test.cc", "#include \"session/s.h\""}).size(), 1u);
}

TEST(LayeringTest, ForwardingHeadersAreForUsersOnly) {
  const SourceFile forwarder = {"mid/old.h", "// Forwarding header: moved.\n"};
  EXPECT_EQ(Check({forwarder, {"high/a.cc", "#include \"mid/old.h\""}}).size(), 1u);
  EXPECT_TRUE(Check({forwarder, {"high/testdata/user.cc", "#include \"mid/old.h\""}}).empty());
}

TEST(LayeringTest, UnknownHeadersAreReported) {
  const auto missing = Check({{"high/a.cc", "#include \"mid/missing.h\""}});
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_TRUE(absl::StrContains(missing[0], "not among the checked sources"));
  EXPECT_TRUE(Check({{"top/a.cc",
                      "#include \"mid/x.pb.h\"\n#include \"top/generated.h\"\n"
                      "#include \"absl/strings/str_cat.h\"\n#include <vector>"}})
                  .empty());
}

TEST(LayeringTest, MalformedTables) {
  EXPECT_FALSE(ParseLayerTable("a: b\n").ok());        // b is not a layer
  EXPECT_FALSE(ParseLayerTable("a: b\nb: a\n").ok());  // a cycle
  EXPECT_FALSE(ParseLayerTable("a:\na:\n").ok());      // listed twice
  EXPECT_FALSE(ParseLayerTable("no colon here\n").ok());
}

}  // namespace
}  // namespace layering
}  // namespace sluice
