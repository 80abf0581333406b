#include "tools/cli/args.h"

#include <cstdint>
#include <limits>
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

// Integers are all digits (no spaces, '+' or hex) and never wrap: a value beyond int64 or
// beyond the flag's range is an error naming both, not a truncated number.
TEST(ArgParserTest, ParsesIntegersStrictly) {
  for (const std::string text :
       {" 5", "5 ", "+5", "0x10", "5.0", "1e3", "-", "", "--5", "4294967297x"}) {
    int64_t value = 7;
    ArgParser parser("test", "A test command.");
    parser.AddInt("threads", "N", "threads", &value, 0, 4096);
    absl::Status status = parser.Parse({"--threads", text});
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << "'" << text << "'";
    EXPECT_NE(status.message().find("--threads expects an integer"), std::string::npos) << status;
    EXPECT_EQ(value, 7);
  }
  for (const std::string text : {"4294967297", "99999999999999999999", "-1", "4097"}) {
    int64_t value = 7;
    ArgParser parser("test", "A test command.");
    parser.AddInt("threads", "N", "threads", &value, 0, 4096);
    absl::Status status = parser.Parse({"--threads=" + text});
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << text;
    EXPECT_EQ(status.message(), "--threads must be between 0 and 4096, got " + text);
    EXPECT_EQ(value, 7);
  }
  int64_t value = 7;
  ArgParser parser("test", "A test command.");
  parser.AddInt("threads", "N", "threads", &value, 0, 4096);
  ASSERT_TRUE(parser.Parse({"--threads", "4096"}).ok());
  EXPECT_EQ(value, 4096);
  int64_t negative = 0;
  ArgParser unbounded("test", "A test command.");
  unbounded.AddInt("seed", "S", "seed", &negative);
  ASSERT_TRUE(unbounded.Parse({"--seed", "-9223372036854775808"}).ok());
  EXPECT_EQ(negative, std::numeric_limits<int64_t>::min());
}

TEST(ArgParserTest, NumbersMustBeFiniteAndInRange) {
  for (const std::string text : {"inf", "-inf", "nan", "1e309", "infinity", " 1", "1 "}) {
    double value = 7;
    ArgParser parser("test", "A test command.");
    parser.AddDouble("seconds", "S", "seconds", &value, 0.001, 86400);
    absl::Status status = parser.Parse({"--seconds", text});
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << text;
    EXPECT_NE(status.message().find("--seconds expects a finite number"), std::string::npos)
        << status;
    EXPECT_EQ(value, 7);
  }
  for (const std::string text : {"1e308", "-1", "0", "86401"}) {
    double value = 7;
    ArgParser parser("test", "A test command.");
    parser.AddDouble("seconds", "S", "seconds", &value, 0.001, 86400);
    absl::Status status = parser.Parse({"--seconds", text});
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << text;
    EXPECT_EQ(status.message(), "--seconds must be between 0.001 and 86400, got " + text);
  }
  double value = 7;
  ArgParser parser("test", "A test command.");
  parser.AddDouble("seconds", "S", "seconds", &value, 0.001, 86400);
  ASSERT_TRUE(parser.Parse({"--seconds", "0.25"}).ok());
  EXPECT_EQ(value, 0.25);
}

// IsSet tells a flag given on the command line from its default, whatever the value.
TEST(ArgParserTest, IsSetSaysWhichFlagsWereGiven) {
  Flags flags;
  ArgParser parser = MakeParser(&flags);
  ASSERT_TRUE(parser.Parse({"m.pb", "--runs", "0", "--json"}).ok());
  EXPECT_TRUE(parser.IsSet("runs"));
  EXPECT_TRUE(parser.IsSet("json"));
  EXPECT_FALSE(parser.IsSet("seconds"));
  EXPECT_FALSE(parser.IsSet("nosuch"));
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
