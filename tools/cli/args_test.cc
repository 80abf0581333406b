#include "tools/cli/args.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace sluice {
namespace cli {
namespace {

struct Flags {
  std::string model, out, device = "cpu";
  std::vector<std::string> inputs;
  int64_t runs = 0;
  double seconds = 0;
  bool json = false;
};

ArgParser MakeParser(Flags* flags) {
  ArgParser parser("test MODEL [flags]", "A test command.");
  parser.AddPositional("MODEL", "the model", &flags->model);
  parser.AddString("output", "OUT", "where", &flags->out);
  parser.AddAlias('o', "output");
  parser.AddString("device", "D", "device", &flags->device);
  parser.AddRepeated("input", "NAME=SPEC", "an input", &flags->inputs);
  parser.AddInt("runs", "N", "runs", &flags->runs);
  parser.AddDouble("seconds", "S", "seconds", &flags->seconds);
  parser.AddBool("json", "json", &flags->json);
  return parser;
}

TEST(ArgParserTest, ParsesEveryForm) {
  Flags flags;
  ArgParser parser = MakeParser(&flags);
  ASSERT_TRUE(parser
                  .Parse({"--input", "x=a.npy", "m.pb", "--input=y=random", "-o", "out.pb",
                          "--runs=7", "--seconds", "1.5", "--json"})
                  .ok());
  EXPECT_EQ(flags.model, "m.pb");
  EXPECT_EQ(flags.out, "out.pb");
  EXPECT_EQ(flags.inputs, (std::vector<std::string>{"x=a.npy", "y=random"}));
  EXPECT_EQ(flags.runs, 7);
  EXPECT_EQ(flags.seconds, 1.5);
  EXPECT_TRUE(flags.json);
  EXPECT_EQ(flags.device, "cpu");
  EXPECT_FALSE(parser.help_requested());
}

TEST(ArgParserTest, DoubleDashEndsFlags) {
  Flags flags;
  ArgParser parser = MakeParser(&flags);
  ASSERT_TRUE(parser.Parse({"--", "-model.pb"}).ok());
  EXPECT_EQ(flags.model, "-model.pb");
}

TEST(ArgParserTest, RejectsMistakes) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {},                          // missing MODEL
           {"m.pb", "extra"},           // extra positional
           {"m.pb", "--nope"},          // unknown flag
           {"m.pb", "--runs"},          // missing value
           {"m.pb", "--runs", "many"},  // not an integer
           {"m.pb", "--seconds=x"},     // not a number
           {"m.pb", "--json=1"},        // switch with a value
           {"m.pb", "-x"},              // unknown alias
       }) {
    Flags flags;
    ArgParser parser = MakeParser(&flags);
    absl::Status status = parser.Parse(args);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument)
        << (args.empty() ? "" : args.back());
  }
}

TEST(ArgParserTest, HelpWinsAndListsFlags) {
  Flags flags;
  ArgParser parser = MakeParser(&flags);
  ASSERT_TRUE(parser.Parse({"--bogus", "--help"}).ok());
  EXPECT_TRUE(parser.help_requested());
  const std::string help = parser.Help();
  EXPECT_NE(help.find("usage: sluice test MODEL [flags]"), std::string::npos);
  EXPECT_NE(help.find("-o, --output OUT"), std::string::npos);
  EXPECT_NE(help.find("--input NAME=SPEC"), std::string::npos);
  EXPECT_NE(help.find("(repeatable)"), std::string::npos);
}

}  // namespace
}  // namespace cli
}  // namespace sluice
