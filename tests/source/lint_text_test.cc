#include "tests/source/lint_text.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace sluice {
namespace lint_text {
namespace {

TEST(LintTextTest, ParametersAndArguments) {
  EXPECT_TRUE(LooksLikeParameters(""));
  EXPECT_TRUE(LooksLikeParameters("const Tensor& t"));
  EXPECT_TRUE(LooksLikeParameters("int64_t n, float value"));
  EXPECT_TRUE(LooksLikeParameters("Tensor* out"));
  EXPECT_TRUE(LooksLikeParameters("Tensor *out"));
  EXPECT_TRUE(LooksLikeParameters("std::vector<int64_t>&& dims"));
  EXPECT_FALSE(LooksLikeParameters("dims"));
  EXPECT_FALSE(LooksLikeParameters("DT_FLOAT, shape"));
  EXPECT_FALSE(LooksLikeParameters("{n, 2}"));
  // Products and conjunctions, as the tree's format writes them, are arguments.
  EXPECT_FALSE(LooksLikeParameters("rows * cols"));
  EXPECT_FALSE(LooksLikeParameters("n * sizeof(float), 0"));
  EXPECT_FALSE(LooksLikeParameters("a && b"));
  EXPECT_FALSE(LooksLikeParameters("(k + 1) * 2"));
}

TEST(LintTextTest, ArgumentsAndLiterals) {
  EXPECT_EQ(TopLevelArgs(" "), std::vector<absl::string_view>{});
  EXPECT_EQ(TopLevelArgs("a, f(b, c), {d, e}"),
            (std::vector<absl::string_view>{"a", "f(b, c)", "{d, e}"}));
  EXPECT_TRUE(IsIntegerLiteral("-1"));
  EXPECT_TRUE(IsIntegerLiteral("0x10"));
  EXPECT_TRUE(IsIntegerLiteral("1'000LL"));
  EXPECT_FALSE(IsIntegerLiteral("n"));
  EXPECT_FALSE(IsIntegerLiteral("2 * n"));
}

TEST(LintTextTest, MemberNames) {
  const std::string code = "v.resize(n); p->resize(n); resize(n); a > resize(n);";
  EXPECT_TRUE(IsMemberName(code, code.find("resize")));
  EXPECT_TRUE(IsMemberName(code, code.find("resize", 12)));
  EXPECT_FALSE(IsMemberName(code, code.find("resize", 24)));
  EXPECT_FALSE(IsMemberName(code, code.rfind("resize")));
}

// The justification rule with a marker of this test's own.
TEST(LintTextTest, WhatAMarkerJustifies) {
  const std::string text =
      "// ok: above the statement\n"                     // 1: justifies line 3's site
      "// and more words\n"                              // 2
      "int a = Site(1);\n"                               // 3
      "int b = Site(2);  // ok: on its line\n"           // 4
      "int c = Call(\n"                                  // 5
      "    // ok: inside the statement\n"                // 6
      "    Site(3));\n"                                  // 7
      "// ok:\n"                                         // 8: no reason, not a marker
      "int d = Site(4);\n"                               // 9
      "// ok: too far\n"                                 // 10: unused
      "int e = 0;\n"                                     // 11
      "int f = Site(5);\n"                               // 12
      "/* ok: in a block comment */ int g = Site(6);\n"  // 13
      "// not-ok: another lint's marker\n"               // 14
      "int h = Site(7);\n";                              // 15
  Findings findings(text, "ok:");
  for (size_t pos = findings.code().find("Site("); pos != kNone;
       pos = findings.code().find("Site(", pos + 1)) {
    findings.Add(pos, CloseOf(findings.code(), pos + 4));
  }
  std::vector<int> justified;
  std::vector<int> not_justified;
  for (const Site& site : findings.sites()) {
    (site.justified ? justified : not_justified).push_back(site.line);
  }
  EXPECT_EQ(justified, (std::vector<int>{3, 4, 7, 13}));
  EXPECT_EQ(not_justified, (std::vector<int>{9, 12, 15}));
  EXPECT_EQ(findings.UnusedMarkers(), std::vector<int>{10});
  EXPECT_EQ(findings.sites()[0].what, "Site(1)");
  EXPECT_EQ(ReasonOf(" * ok: a reason ", "ok:"), "a reason");
  EXPECT_EQ(ReasonOf(" ok:", "ok:"), "");
}

TEST(LintTextTest, CommentsAndLiteralsAreBlanked) {
  const std::string text = "a = \"x(\"; // y\n/* z */ b = 'c'; d = R\"(e)\"; f = 1'000;";
  const SplitText split = Split(text);
  EXPECT_EQ(split.code.size(), text.size());
  EXPECT_EQ(split.code, "a = \"  \";     \n        b = ' '; d = R\"   \"; f = 1'000;");
  EXPECT_EQ(split.comments[0], std::vector<std::string>{" y"});
  EXPECT_EQ(split.comments[1], std::vector<std::string>{" z "});
  EXPECT_EQ(split.LineOf(0), 1);
  EXPECT_EQ(split.LineOf(text.find('b')), 2);
}

}  // namespace
}  // namespace lint_text
}  // namespace sluice
