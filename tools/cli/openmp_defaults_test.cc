// main() applies the defaults as the sluice program does; the test then reads the
// environment this process image started with (/proc/self/environ, which setenv does not
// change), which is what libgomp read. The BUILD file runs it with no OpenMP variable, with
// GOMP_SPINCOUNT set and with OMP_WAIT_POLICY set, saying in EXPECTED_GOMP_SPINCOUNT what
// the image must start with ("" for no GOMP_SPINCOUNT at all).
#include "tools/cli/openmp_defaults.h"

#include <fstream>
#include <iterator>
#include <optional>
#include <string>

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

TEST(OpenMpDefaultsTest, ImageStartsWithTheSpinCountUnlessTheUserChose) {
  const std::optional<std::string> expected = InitialEnv("EXPECTED_GOMP_SPINCOUNT");
  ASSERT_TRUE(expected.has_value()) << "the BUILD file sets EXPECTED_GOMP_SPINCOUNT";
  const std::optional<std::string> spin = InitialEnv("GOMP_SPINCOUNT");
  if (expected->empty()) {
    EXPECT_FALSE(spin.has_value()) << *spin;
  } else {
    ASSERT_TRUE(spin.has_value());
    EXPECT_EQ(*spin, *expected);
  }
}

}  // namespace
}  // namespace cli
}  // namespace sluice

int main(int argc, char** argv) {
  sluice::cli::ApplyOpenMpDefaults(argv);
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
