// `sluice run` in this process: what it leaves behind besides its printed summary.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "gtest/gtest.h"
#include "tools/cli/commands.h"
#include "tools/cli/page_policy.h"

namespace sluice {
namespace cli {
namespace {

constexpr char kAddGraph[] = R"pb(
  node {
    name: "x"
    op: "Placeholder"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
    attr {
      key: "shape"
      value { shape { dim { size: 4 } } }
    }
  }
  node {
    name: "twice"
    op: "AddV2"
    input: "x"
    input: "x"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
)pb";

std::string WriteGraph() {
  const char* dir = std::getenv("TEST_TMPDIR");
  const std::string path = std::string(dir == nullptr ? "/tmp" : dir) + "/add.pbtxt";
  std::ofstream(path) << kAddGraph;
  return path;
}

// A run's time is setup and first touches of memory, which huge pages make slower
// (page_policy.h): the whole command, steps included, runs in small pages.
TEST(RunCommandTest, RunsInSmallPagesThroughout) {
  UseSmallPages(true);
  if (!UsingSmallPages()) GTEST_SKIP() << "this kernel has no PR_SET_THP_DISABLE";
  UseSmallPages(false);
  ASSERT_FALSE(UsingSmallPages());
  EXPECT_EQ(RunCommand({WriteGraph(), "--input", "x=zeros"}), 0);
  EXPECT_TRUE(UsingSmallPages());
}

}  // namespace
}  // namespace cli
}  // namespace sluice
