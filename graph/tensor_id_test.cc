#include "graph/tensor_id.h"

#include <string>

#include "gtest/gtest.h"

namespace sluice {
namespace {

TEST(ParseTensorNameTest, PlainNameIsOutputZero) {
  EXPECT_EQ(ParseTensorName("a"), (TensorId{"a", 0}));
  EXPECT_EQ(ParseTensorName("scope/a_1"), (TensorId{"scope/a_1", 0}));
}

TEST(ParseTensorNameTest, OutputIndex) {
  EXPECT_EQ(ParseTensorName("a:0"), (TensorId{"a", 0}));
  EXPECT_EQ(ParseTensorName("a:1"), (TensorId{"a", 1}));
  EXPECT_EQ(ParseTensorName("a:123"), (TensorId{"a", 123}));
  EXPECT_EQ(ParseTensorName("a:b:2"), (TensorId{"a:b", 2}));
}

TEST(ParseTensorNameTest, ControlInput) {
  EXPECT_EQ(ParseTensorName("^a"), (TensorId{"a", kControlSlot}));
  EXPECT_EQ(ParseTensorName("^"), (TensorId{"", kControlSlot}));
}

TEST(ParseTensorNameTest, MalformedSuffixStaysInTheName) {
  EXPECT_EQ(ParseTensorName("a:"), (TensorId{"a:", 0}));
  EXPECT_EQ(ParseTensorName("a:x"), (TensorId{"a:x", 0}));
  EXPECT_EQ(ParseTensorName(":1"), (TensorId{":1", 0}));
  EXPECT_EQ(ParseTensorName("a:-2"), (TensorId{"a:-2", 0}));
  EXPECT_EQ(ParseTensorName("a:99999999999"), (TensorId{"a:99999999999", 0}));
  EXPECT_EQ(ParseTensorName(""), (TensorId{"", 0}));
}

TEST(ParseTensorNameTest, ViewsTheCallersString) {
  std::string name = "node:3";
  TensorId id = ParseTensorName(name);
  EXPECT_EQ(id.node.data(), name.data());
}

TEST(ParseTensorNameStrictTest, AcceptsWellFormedNames) {
  TensorId id;
  ASSERT_TRUE(ParseTensorNameStrict("a", &id).ok());
  EXPECT_EQ(id, (TensorId{"a", 0}));
  ASSERT_TRUE(ParseTensorNameStrict("a:0", &id).ok());
  EXPECT_EQ(id, (TensorId{"a", 0}));
  ASSERT_TRUE(ParseTensorNameStrict("x/y:10", &id).ok());
  EXPECT_EQ(id, (TensorId{"x/y", 10}));
  ASSERT_TRUE(ParseTensorNameStrict("^ctl", &id).ok());
  EXPECT_EQ(id, (TensorId{"ctl", kControlSlot}));
  ASSERT_TRUE(ParseTensorNameStrict("a:2147483647", &id).ok());
  EXPECT_EQ(id, (TensorId{"a", 2147483647}));
}

struct BadName {
  const char* name;
  const char* message;
};

TEST(ParseTensorNameStrictTest, RejectsMalformedNames) {
  const BadName kBad[] = {
      {"", "Malformed tensor name '': empty name"},
      {"a:", "Malformed tensor name 'a:': no output index after ':'"},
      {":1", "Malformed tensor name ':1': no node name before ':'"},
      {"^", "Malformed tensor name '^': no node name after '^'"},
      {"^a:1", "Malformed tensor name '^a:1': a control input names a node, not an output"},
      {"a:x",
       "Malformed tensor name 'a:x': the output index must be a non-negative decimal "
       "number"},
      {"a:-2",
       "Malformed tensor name 'a:-2': the output index must be a non-negative decimal "
       "number"},
      {"a:1:2",
       "Malformed tensor name 'a:1:2': the output index must be a non-negative "
       "decimal number"},
      {"a:01", "Malformed tensor name 'a:01': the output index has a leading zero"},
      {"a:2147483648", "Malformed tensor name 'a:2147483648': the output index is too large"},
  };
  for (const BadName& bad : kBad) {
    TensorId id{"untouched", 7};
    absl::Status s = ParseTensorNameStrict(bad.name, &id);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << bad.name;
    EXPECT_EQ(s.message(), bad.message);
    EXPECT_EQ(id, (TensorId{"untouched", 7})) << bad.name;
  }
}

TEST(IsControlInputTest, OnlyCaretPrefix) {
  EXPECT_TRUE(IsControlInput("^a"));
  EXPECT_FALSE(IsControlInput("a"));
  EXPECT_FALSE(IsControlInput("a:1"));
  EXPECT_FALSE(IsControlInput(""));
}

TEST(TensorIdStringTest, CanonicalSpelling) {
  EXPECT_EQ(TensorIdString({"a", 0}), "a");
  EXPECT_EQ(TensorIdString({"a", 1}), "a:1");
  EXPECT_EQ(TensorIdString({"a", kControlSlot}), "^a");
}

TEST(TensorIdStringTest, RoundTripsThroughTheParser) {
  for (const char* name : {"a", "a:1", "^a", "s/b:17"}) {
    EXPECT_EQ(TensorIdString(ParseTensorName(name)), name);
  }
}

}  // namespace
}  // namespace sluice
