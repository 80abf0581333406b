// main() applies the startup environment as the sluice program does; the tests then check what
// this process image started with. The BUILD file runs them with no variable set, with
// GOMP_SPINCOUNT, with OMP_WAIT_POLICY and with GLIBC_TUNABLES of the user's, saying in
// EXPECTED_GOMP_SPINCOUNT, EXPECTED_GLIBC_TUNABLES and EXPECTED_HUGE_PAGE_ADVICE what it must
// be ("" for no such variable at all).
#include "tools/cli/startup_environment.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>

#include "graph/core/sanitizers.h"
#include "gtest/gtest.h"

namespace sluice {
namespace cli {
namespace {

// The value of `name` in the environment the process image started with.
std::optional<std::string> InitialEnv(const std::string& name) {
  std::ifstream in("/proc/self/environ", std::ios::binary);
  const std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string prefix = name + "=";
  size_t start = 0;
  while (start < all.size()) {
    size_t end = all.find('\0', start);
    if (end == std::string::npos) end = all.size();
    const std::string entry = all.substr(start, end - start);
    if (entry.compare(0, prefix.size(), prefix) == 0) return entry.substr(prefix.size());
    start = end + 1;
  }
  return std::nullopt;
}

// `value` is what EXPECTED_<name> says.
void ExpectValue(const std::string& name, const std::optional<std::string>& value) {
  const std::optional<std::string> expected = InitialEnv("EXPECTED_" + name);
  ASSERT_TRUE(expected.has_value()) << "the BUILD file sets EXPECTED_" << name;
  if (expected->empty()) {
    EXPECT_FALSE(value.has_value()) << *value;
  } else {
    ASSERT_TRUE(value.has_value()) << name;
    EXPECT_EQ(*value, *expected) << name;
  }
}

// Whether the kernel gives transparent huge pages only where a program asks (madvise).
bool HugePagesOnlyWhereAsked() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string modes;
  std::getline(in, modes);
  return modes.find("[madvise]") != std::string::npos;
}

// The VmFlags line of the mapping in /proc/self/smaps that holds `address`.
std::string MappingFlags(const void* address) {
  const auto where = reinterpret_cast<uintptr_t>(address);
  std::ifstream in("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    uintptr_t begin = 0, end = 0;
    char dash = 0;
    if (std::sscanf(line.c_str(), "%lx%c%lx", &begin, &dash, &end) == 3 && dash == '-') {
      inside = begin <= where && where < end;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line;
    }
  }
  return "";
}

// libgomp reads the image's initial environment (/proc/self/environ, which setenv does not
// change).
TEST(StartupEnvironmentTest, ImageStartsWithTheSpinCountUnlessTheUserChose) {
  ExpectValue("GOMP_SPINCOUNT", InitialEnv("GOMP_SPINCOUNT"));
}

// glibc 2.36's loader cuts the initial copy of GLIBC_TUNABLES after its first tunable while
// reading them all, and points the environment at a whole copy: getenv() is what it read.
TEST(StartupEnvironmentTest, ImageStartsWithHugePagesForMallocUnlessTheUserChose) {
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  ExpectValue("GLIBC_TUNABLES",
              tunables == nullptr ? std::nullopt : std::optional<std::string>(tunables));
}

// What the tunable is for, seen in the image that the exec started: malloc advises huge pages
// ("hg" in the mapping's flags) on a block it maps for itself.
TEST(StartupEnvironmentTest, MallocAdvisesHugePagesOnLargeBlocksUnlessTheUserSaidNo) {
#if defined(SLUICE_ADDRESS_SANITIZER) || defined(SLUICE_THREAD_SANITIZER)
  GTEST_SKIP() << "the sanitizer's allocator replaces glibc's malloc";
#endif
  if (!HugePagesOnlyWhereAsked()) GTEST_SKIP() << "the kernel's THP mode is not madvise";
  const std::optional<std::string> expected = InitialEnv("EXPECTED_HUGE_PAGE_ADVICE");
  ASSERT_TRUE(expected.has_value()) << "the BUILD file sets EXPECTED_HUGE_PAGE_ADVICE";
  constexpr size_t kBytes = 64 << 20;  // far above malloc's mmap threshold
  std::unique_ptr<char, decltype(&std::free)> block(static_cast<char*>(std::malloc(kBytes)),
                                                    &std::free);
  ASSERT_NE(block, nullptr);
  std::memset(block.get(), 1, 4096);
  const std::string flags = MappingFlags(block.get() + kBytes / 2);
  ASSERT_FALSE(flags.empty()) << "no mapping found for the block in /proc/self/smaps";
  const bool advised = (flags + " ").find(" hg ") != std::string::npos;
  EXPECT_EQ(advised, *expected == "1") << flags;
}

}  // namespace
}  // namespace cli
}  // namespace sluice

int main(int argc, char** argv) {
  sluice::cli::ApplyStartupEnvironment(argv);
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
