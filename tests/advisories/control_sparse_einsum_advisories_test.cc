// Advisories of Exit, Switch, SparseCross, SparseCrossV2, Einsum, Print, AsString and Assign.
// Expectations are TensorFlow 2.21's, from check_with_tensorflow.py.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/device/session_options.h"
#include "runtime/session/session.h"
#include "tests/advisories/advisory_case.h"

namespace sluice {
namespace advisories {
namespace {

constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;

TEST(Advisories, Tfsa2021_175_ExitWithoutEnter) {
  // An Exit with no Enter before it dereferenced a null parent frame.
  AdvisoryCase c("Exit");
  c.Input(Values<bool>({false, false}));
  c.Attr("T", DT_BOOL);
  ExpectFailsBothWays(c, kInvalid);
}

TEST(Advisories, Tfsa2021_008_SparseCrossStringOutputOfIntInputs) {
  // out_type and internal_type string over int64 values: the kernel read int64 data as
  // strings.
  AdvisoryCase c("SparseCross");
  c.InputList({Values<int64_t>({0, 6}, {1, 2}), Values<int64_t>({0, 0}, {1, 2})})
      .InputList({Values<int64_t>({0}), Values<int64_t>({72})})
      .InputList({Values<int64_t>({4, 122}), Values<int64_t>({4, 188})})
      .InputList({Values<int64_t>({188, 127, 336, 0}, {4, 1})});
  c.Attr("N", int64_t{2})
      .Attr("sparse_types", std::vector<DataType>{DT_INT64, DT_INT64})
      .Attr("dense_types", std::vector<DataType>{DT_INT64})
      .Attr("hashed_output", false)
      .Attr("num_buckets", int64_t{0})
      .Attr("hash_key", int64_t{0})
      .Attr("out_type", DT_STRING)
      .Attr("internal_type", DT_STRING);
  for (Feed feed : {Feed::kConst, Feed::kPlaceholder}) {
    const absl::Status s = c.Run(feed, nullptr, /*output=*/1);
    EXPECT_EQ(s.code(), kInvalid) << s;
  }
}

TEST(Advisories, Tfsa2021_192_EinsumWithoutEllipsis) {
  // The ellipsis flags of an equation without "..." were left unset; the product must be
  // right.
  AdvisoryCase c("Einsum");
  c.InputList({Values<float>({1, 2, 3, 4}, {2, 2}), Values<float>({1, 0, 0, 1}, {2, 2})});
  c.Attr("N", int64_t{2}).Attr("T", DT_FLOAT).Attr("equation", "ij,jk->ik");
  for (Feed feed : {Feed::kConst, Feed::kPlaceholder}) {
    std::vector<Tensor> out;
    ASSERT_TRUE(c.Run(feed, &out).ok()) << c.Run(feed);
    EXPECT_EQ(out[0].shape(), TensorShape({2, 2}));
    EXPECT_EQ(Elements<float>(out[0]), (std::vector<float>{1, 2, 3, 4}));
  }
}

TEST(Advisories, Tfsa2023_186_PrintBoolsWithSummarizeZero) {
  // summarize 0 over bool data dereferenced a null pointer; Print must pass its input
  // through.
  AdvisoryCase c("Print");
  c.Input(Values<int32_t>({1, 1, 1, 1}))
      .InputList({Values<bool>({false, false, false, false}), Values<bool>({false}),
                  Values<bool>({false, false, false})});
  c.Attr("T", DT_INT32)
      .Attr("U", std::vector<DataType>{DT_BOOL, DT_BOOL, DT_BOOL})
      .Attr("message", "tmp/I")
      .Attr("first_n", int64_t{100})
      .Attr("summarize", int64_t{0});
  for (Feed feed : {Feed::kConst, Feed::kPlaceholder}) {
    std::vector<Tensor> out;
    ASSERT_TRUE(c.Run(feed, &out).ok()) << c.Run(feed);
    EXPECT_EQ(Elements<int32_t>(out[0]), (std::vector<int32_t>{1, 1, 1, 1}));
  }
}

TEST(Advisories, Tfsa2022_123_SparseCrossV2VectorSeparator) {
  // A separator of two strings (not a scalar), with no inputs to cross, failed a CHECK.
  AdvisoryCase c("SparseCrossV2");
  c.InputList({}).InputList({}).InputList({}).InputList({});
  c.Input(Values<std::string>({"a", "b"}));
  c.Attr("N", int64_t{0})
      .Attr("sparse_types", std::vector<DataType>{})
      .Attr("dense_types", std::vector<DataType>{});
  ExpectFailsBothWays(c, kInvalid, "separator");
}

// Assigns VariableV2 "rhs", never initialized, to VariableV2 "lhs" (itself first initialized
// when `init_lhs`); the status of the assignment.
absl::Status AssignUninitialized(bool init_lhs) {
  GraphDef graph;
  for (const char* name : {"lhs", "rhs"}) {
    NodeDef* var = AddNode(&graph, name, "VariableV2", {});
    AddNodeAttr("shape", TensorShape({2}), var);
    AddNodeAttr("dtype", DT_FLOAT, var);
  }
  AddConst(&graph, "two", Values<float>({1, 2}));
  AddNodeAttr("T", DT_FLOAT, AddNode(&graph, "init", "Assign", {"lhs", "two"}));
  NodeDef* assign = AddNode(&graph, "assign", "Assign", {"lhs", "rhs"});
  AddNodeAttr("T", DT_FLOAT, assign);
  AddNodeAttr("validate_shape", false, assign);
  std::unique_ptr<Session> session;
  absl::Status s = NewSession(SessionOptions(), &session);
  if (!s.ok()) return s;
  s = session->Create(graph);
  if (!s.ok()) return s;
  std::vector<Tensor> out;
  if (init_lhs) {
    s = session->Run({}, {"init:0"}, {}, &out);
    if (!s.ok()) return s;
  }
  return session->Run({}, {"assign:0"}, {}, &out);
}

TEST(Advisories, Tfsa2020_026_SwitchUntakenSide) {
  // Eager mode copied both outputs of a Switch, though only the taken side is produced. In a
  // graph the taken side is the data; fetching the untaken (dead) side is INVALID_ARGUMENT.
  AdvisoryCase c("Switch");
  c.Input(Values<float>({1.5f})).Input(Scalar<bool>(false));
  c.Attr("T", DT_FLOAT);
  for (Feed feed : {Feed::kConst, Feed::kPlaceholder}) {
    std::vector<Tensor> out;
    ASSERT_TRUE(c.Run(feed, &out, /*output=*/0).ok()) << c.Run(feed, nullptr, 0);
    EXPECT_EQ(Elements<float>(out[0]), (std::vector<float>{1.5f}));
    const absl::Status s = c.Run(feed, nullptr, /*output=*/1);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
    EXPECT_THAT(std::string(s.message()), ::testing::HasSubstr("does not have value"));
  }
}

TEST(Advisories, Tfsa2020_013_AsStringFormatFill) {
  // fill went into a printf format unchecked: "n" and "s" crashed, "h" changed the output.
  for (const char* fill : {"n", "s", "h"}) {
    AdvisoryCase c("AsString");
    c.Input(Values<int32_t>({1234}));
    c.Attr("T", DT_INT32).Attr("width", int64_t{6}).Attr("fill", fill);
    ExpectFailsBothWays(c, kInvalid, "Fill argument not supported");
  }
}

TEST(Advisories, Tfsa2022_037_AssignUninitializedRhs) {
  // Assign lets its inputs be uninitialized (it initializes its ref), so TensorFlow's
  // executor handed it an uninitialized variable as the value, copied from unset memory;
  // TensorFlow's kernel now refuses it with INTERNAL. Sluice refuses earlier and on purpose:
  // its executor reads every ref taken as a value through ReadRefInput, which reports
  // FAILED_PRECONDITION naming the variable, whatever the op allows (README.md, "Differences").
  for (bool init_lhs : {false, true}) {
    const absl::Status s = AssignUninitialized(init_lhs);
    EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
    EXPECT_THAT(std::string(s.message()),
                ::testing::HasSubstr("Attempting to use uninitialized value rhs"))
        << s;
  }
}

}  // namespace
}  // namespace advisories
}  // namespace sluice
