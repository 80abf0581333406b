// Debug op specs: parsing and creation with TensorFlow 2.21's codes and texts (measured by
// running each spec as a watch in a tf.compat.v1 Session), and what each op dumps.
#include "runtime/debug/debug_op.h"

#include <cmath>
#include <string>

#include "gmock/gmock.h"
#include "graph/core/tensor_types.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

using ::testing::ElementsAre;
using ::testing::Pair;

absl::Status Parse(const std::string& spec, DebugOpSpec* parsed) {
  return ParseDebugOpSpec(spec, "out:0", parsed);
}

absl::Status Make(const std::string& spec, DataType dtype, DebugOp* op) {
  DebugOpSpec parsed;
  const absl::Status s = Parse(spec, &parsed);
  if (!s.ok()) return s;
  return MakeDebugOp(parsed, "out:0", 0, dtype, op);
}

void ExpectFailure(const absl::Status& s, const std::string& message) {
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_EQ(s.message(), message);
}

TEST(ParseDebugOpSpecTest, NameAndAttributes) {
  DebugOpSpec spec;
  ASSERT_TRUE(Parse("DebugIdentity", &spec).ok());
  EXPECT_EQ(spec.name, "DebugIdentity");
  EXPECT_TRUE(spec.attributes.empty());

  ASSERT_TRUE(Parse("DebugNumericSummary(lower_bound=-0.5; upper_bound= 2;)", &spec).ok());
  EXPECT_EQ(spec.name, "DebugNumericSummary");
  EXPECT_THAT(spec.attributes, ElementsAre(Pair("lower_bound", "-0.5"), Pair("upper_bound", " 2")));

  ASSERT_TRUE(Parse("DebugIdentity( )", &spec).ok());
  EXPECT_TRUE(spec.attributes.empty());
  ASSERT_TRUE(Parse("DebugIdentity(gated_grpc=TRUE)", &spec).ok());
  EXPECT_TRUE(spec.gated_grpc);
  ASSERT_TRUE(Parse("DebugIdentity(gated_grpc=f)", &spec).ok());
  EXPECT_FALSE(spec.gated_grpc);
}

TEST(ParseDebugOpSpecTest, MalformedSpecsAreTheCopyNodesFailures) {
  DebugOpSpec spec;
  for (const char* bad : {"DebugIdentity(", "DebugIdentity)", "(a=1)", "DebugIdentity(a=1)(b=2)"}) {
    ExpectFailure(Parse(bad, &spec),
                  std::string("Failed to create Copy/CopyHost node for tensor out:0, due to: "
                              "Malformed debug op name \"") +
                      bad + "\"");
  }
  for (const char* bad : {"DebugIdentity(gated_grpc)", "DebugIdentity(=1)", "DebugIdentity(a=)"}) {
    ExpectFailure(Parse(bad, &spec),
                  std::string("Failed to create Copy/CopyHost node for tensor out:0, due to: "
                              "Malformed attributes in debug op name \"") +
                      bad + "\"");
  }
  ExpectFailure(Parse("DebugIdentity(gated_grpc=true;gated_grpc=false)", &spec),
                "Failed to create Copy/CopyHost node for tensor out:0, due to: Duplicate "
                "attribute name \"gated_grpc\" found in the debug op: "
                "\"DebugIdentity(gated_grpc=true;gated_grpc=false)\"");
  ExpectFailure(Parse("Bogus(gated_grpc=maybe)", &spec),
                "Failed to create Copy/CopyHost node for tensor out:0, due to: Invalid string "
                "for bool value: maybe");
}

TEST(MakeDebugOpTest, KnownOps) {
  DebugOp op;
  ASSERT_TRUE(Make("DebugIdentity", DT_STRING, &op).ok());
  EXPECT_EQ(op.kind, DebugOp::Kind::kIdentity);
  EXPECT_EQ(op.name, "DebugIdentity");
  ASSERT_TRUE(Make("DebugNanCount(gated_grpc=1)", DT_HALF, &op).ok());
  EXPECT_EQ(op.kind, DebugOp::Kind::kNanCount);
  EXPECT_TRUE(op.gated_grpc);
  ASSERT_TRUE(Make("DebugNumericSummary(lower_bound=0.1; upper_bound=1e400; mute_if_healthy=true)",
                   DT_BOOL, &op)
                  .ok());
  EXPECT_EQ(op.kind, DebugOp::Kind::kNumericSummary);
  EXPECT_EQ(op.name, "DebugNumericSummary");
  EXPECT_EQ(op.bounds.lower, static_cast<double>(0.1f));  // a float attribute
  EXPECT_TRUE(std::isinf(op.bounds.upper));
  EXPECT_TRUE(op.mute_if_healthy);
}

TEST(MakeDebugOpTest, FailuresTensorFlowLetsAWatchTolerate) {
  DebugOp op;
  ExpectFailure(Make("Bogus(a=1)", DT_FLOAT, &op),
                "Failed to create debug node Bogus(a=1) for tensor out:0, due to: Failed to "
                "create node definition for debug op Bogus on watched tensor out:0");
  ExpectFailure(Make("", DT_FLOAT, &op),
                "Failed to create debug node  for tensor out:0, due to: Failed to create node "
                "definition for debug op  on watched tensor out:0");
  ExpectFailure(Make("DebugNanCount", DT_BOOL, &op),
                "Failed to create debug node DebugNanCount for tensor out:0, due to: Failed to "
                "find kernel definition for debug op DebugNanCount on watched tensor out:0");
  ExpectFailure(Make("DebugNumericSummary", DT_HALF, &op),
                "Failed to create debug node DebugNumericSummary for tensor out:0, due to: "
                "Failed to find kernel definition for debug op DebugNumericSummary on watched "
                "tensor out:0");
  ExpectFailure(Make("DebugIdentity(foo=1;bar=2)", DT_FLOAT, &op),
                "Failed to create debug node DebugIdentity(foo=1;bar=2) for tensor out:0, due "
                "to: 2 attribute key(s) were not valid for debug node "
                "__dbg_out:0_0_DebugIdentity: foo, bar");
  ExpectFailure(Make("DebugNanCount(mute_if_healthy=true)", DT_FLOAT, &op),
                "Failed to create debug node DebugNanCount(mute_if_healthy=true) for tensor "
                "out:0, due to: 1 attribute key(s) were not valid for debug node "
                "__dbg_out:0_0_DebugNanCount: mute_if_healthy");
  ExpectFailure(Make("DebugNumericSummary(lower_bound=1.5x)", DT_FLOAT, &op),
                "Failed to create debug node DebugNumericSummary(lower_bound=1.5x) for tensor "
                "out:0, due to: Invalid value string for float-type attribute lower_boundof "
                "debug node __dbg_out:0_0_DebugNumericSummary: \"1.5x\"");
  ExpectFailure(Make("DebugNumericSummary(mute_if_healthy=maybe)", DT_FLOAT, &op),
                "Failed to create debug node DebugNumericSummary(mute_if_healthy=maybe) for "
                "tensor out:0, due to: Invalid value string for bool-type attribute "
                "mute_if_healthyof debug node __dbg_out:0_0_DebugNumericSummary: \"maybe\"");
}

TEST(ApplyDebugOpTest, ValuesAndMuting) {
  Tensor value(DT_FLOAT, TensorShape({2}));
  value.flat<float>()(0) = 1;
  value.flat<float>()(1) = std::nanf("");
  DebugOp op;
  Tensor out;
  ASSERT_TRUE(Make("DebugIdentity", DT_FLOAT, &op).ok());
  ASSERT_TRUE(ApplyDebugOp(op, value, &out));
  EXPECT_EQ(out.flat<float>()(0), 1);
  ASSERT_TRUE(Make("DebugNanCount", DT_FLOAT, &op).ok());
  ASSERT_TRUE(ApplyDebugOp(op, value, &out));
  EXPECT_EQ(out.flat<int64_t>()(0), 1);
  ASSERT_TRUE(Make("DebugNumericSummary(mute_if_healthy=true)", DT_FLOAT, &op).ok());
  EXPECT_TRUE(ApplyDebugOp(op, value, &out));  // a NaN: dumped
  value.flat<float>()(1) = 2;
  EXPECT_FALSE(ApplyDebugOp(op, value, &out));  // healthy: muted
  ASSERT_TRUE(Make("DebugNumericSummary", DT_FLOAT, &op).ok());
  EXPECT_TRUE(ApplyDebugOp(op, value, &out));
  EXPECT_EQ(out.NumElements(), 15);
}

}  // namespace
}  // namespace sluice
