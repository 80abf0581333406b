#include "tools/cli/page_policy.h"

#include "gtest/gtest.h"

namespace sluice {
namespace cli {
namespace {

TEST(PagePolicyTest, SwitchesBetweenSmallAndHugePages) {
  UseSmallPages(true);
  EXPECT_TRUE(UsingSmallPages());
  UseSmallPages(false);
  EXPECT_FALSE(UsingSmallPages());
}

}  // namespace
}  // namespace cli
}  // namespace sluice
