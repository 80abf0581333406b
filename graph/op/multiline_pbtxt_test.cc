#include "graph/op/multiline_pbtxt.h"

#include "gtest/gtest.h"

namespace sluice {
namespace {

TEST(ExpandMultilineStrings, QuotesAndEscapesTheLinesUpToTheTerminator) {
  EXPECT_EQ(ExpandMultilineStrings("op {\n  description: <<END\nOne \"two\"\n\tthree \\\nEND\n}\n"),
            "op {\n  description: \"One \\\"two\\\"\\n\\tthree \\\\\"\n}\n");
}

TEST(ExpandMultilineStrings, KeepsWhatFollowsTheTerminatorAndAnyTerminatorName) {
  EXPECT_EQ(ExpandMultilineStrings("summary:<<DONE\nEND is text here\nDONE # comment\nx: 1\n"),
            "summary: \"END is text here\" # comment\nx: 1\n");
}

TEST(ExpandMultilineStrings, OnlyAfterALinesFirstColon) {
  const char text[] = "a: \"b\" c: <<END\nEND\n";
  EXPECT_EQ(ExpandMultilineStrings(text), text);
}

TEST(ExpandMultilineStrings, CopiesOtherLinesAndAFinalLineWithoutNewline) {
  EXPECT_EQ(ExpandMultilineStrings("a {\n  b: \"<<END\"\n}"), "a {\n  b: \"<<END\"\n}");
  EXPECT_EQ(ExpandMultilineStrings(""), "");
}

TEST(ExpandMultilineStrings, AnUnterminatedStringRunsToTheEnd) {
  EXPECT_EQ(ExpandMultilineStrings("d: <<END\nline one\nline two"), "d: \"line one\\nline two\"\n");
  // A string started on the text's last line, which has no newline, is not one.
  EXPECT_EQ(ExpandMultilineStrings("d: <<END"), "d: <<END");
}

TEST(ExpandMultilineStrings, AnEmptyTerminatorEndsAtTheNextLine) {
  EXPECT_EQ(ExpandMultilineStrings("d: <<\nnext\nafter\n"), "d: \"\"next\nafter\n");
}

}  // namespace
}  // namespace sluice
