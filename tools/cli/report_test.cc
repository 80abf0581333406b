#include "tools/cli/report.h"

#include <string>

#include "gtest/gtest.h"

namespace sluice {
namespace cli {
namespace {

TEST(PrintableTest, PlainTextIsUnchanged) {
  EXPECT_EQ(Printable("models/mnist v2.pb"), "models/mnist v2.pb");
  // Other scripts' UTF-8 prints as it is.
  EXPECT_EQ(Printable("modèle/模型.pb"), "modèle/模型.pb");
}

TEST(PrintableTest, EscapesWhatATerminalActsOn) {
  EXPECT_EQ(Printable("a\nb\tc\rd"), "a\\nb\\tc\\rd");
  EXPECT_EQ(Printable("\x1b[31mred\x1b[0m.pb"), "\\x1b[31mred\\x1b[0m.pb");
  EXPECT_EQ(Printable(std::string("nul\0del\x7f", 8)), "nul\\x00del\\x7f");
  EXPECT_EQ(Printable("back\\slash"), "back\\\\slash");
  // C1 controls (U+009B is CSI) and bytes that are not UTF-8: a stray continuation byte, a
  // truncated sequence, an overlong encoding, a surrogate.
  EXPECT_EQ(Printable("\xc2\x9b"
                      "2J"),
            "\\xc2\\x9b2J");
  EXPECT_EQ(Printable("\x80x"), "\\x80x");
  EXPECT_EQ(Printable("\xe6\xa8"), "\\xe6\\xa8");
  EXPECT_EQ(Printable("\xc0\xaf"), "\\xc0\\xaf");
  EXPECT_EQ(Printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");
  EXPECT_EQ(Printable("\xc2\xa0"), "\xc2\xa0");  // U+00A0, the first printable one
}

// A session error's node context stays on lines of its own; any other newline is escaped.
TEST(PrintableTest, MessagesKeepTheirNodeContext) {
  EXPECT_EQ(PrintableMessage("Type mismatch\n\t [[{{node c}}]]\n\t [[c]]"),
            "Type mismatch\n\t [[{{node c}}]]\n\t [[c]]");
  EXPECT_EQ(PrintableMessage("'a\nb\x1b.pb' missing\n\t [[x]]"),
            "'a\\nb\\x1b.pb' missing\n\t [[x]]");
}

TEST(CapLengthTest, CutsLongMessages) {
  EXPECT_EQ(CapLength("short"), "short");
  const std::string exact(kMaxMessageBytes, 'x');
  EXPECT_EQ(CapLength(exact), exact);
  const std::string capped = CapLength(std::string(kMaxMessageBytes + 1000, 'y'));
  EXPECT_EQ(capped, std::string(kMaxMessageBytes, 'y') + " ... (1000 more bytes)");
}

}  // namespace
}  // namespace cli
}  // namespace sluice
