// Replays the cases of gen_stack_tensor_array.py (fixtures/stack_tensor_array.*) in a Sluice
// session: small graphs of stack ops and gradient TensorArrays, each run once as TensorFlow
// ran it, compared with the values TensorFlow fetched (exactly) or with its error (the code,
// and a part of the message that does not name the step's stacks and arrays).
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_proto.h"
#include "graph/core/tensor_types.h"
#include "graph/import/graph_def_io.h"
#include "gtest/gtest.h"
#include "proto/graph.pb.h"
#include "runtime/device/session_options.h"
#include "runtime/session/session.h"

namespace sluice {
namespace {

const char kFixtures[] = "tests/kernels/fixtures/stack_tensor_array";

struct GraphCase {
  std::string name;
  std::vector<std::string> fetches;
  int error_code = 0;
  std::string error_text;
};

std::vector<GraphCase> ReadCases() {
  std::string text;
  EXPECT_TRUE(ReadFileToString(absl::StrCat(kFixtures, ".txt"), &text).ok());
  std::vector<GraphCase> cases;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    if (absl::StartsWith(line, "#")) continue;
    std::vector<std::string> words = absl::StrSplit(line, absl::MaxSplits(' ', 2));
    if (words[0] == "case") {
      cases.push_back({words[1]});
    } else if (words[0] == "fetch") {
      cases.back().fetches.push_back(words[1]);
    } else if (words[0] == "error") {
      EXPECT_TRUE(absl::SimpleAtoi(words[1], &cases.back().error_code)) << line;
      cases.back().error_text = words.size() > 2 ? words[2] : "";
    }
  }
  return cases;
}

std::map<std::string, Tensor> ReadExpected() {
  GraphDef expected;
  EXPECT_TRUE(ReadBinaryProtoFile(absl::StrCat(kFixtures, ".expected.pb"), &expected).ok());
  std::map<std::string, Tensor> values;
  for (const NodeDef& node : expected.node()) {
    Tensor t;
    EXPECT_TRUE(TensorFromProto(node.attr().at("value").tensor(), &t).ok()) << node.name();
    values[node.name()] = t;
  }
  return values;
}

void ExpectSame(const std::string& what, const Tensor& got, const Tensor& want) {
  ASSERT_EQ(DataTypeString(got.dtype()), DataTypeString(want.dtype())) << what;
  ASSERT_EQ(got.shape().DebugString(), want.shape().DebugString()) << what;
  if (got.dtype() == DT_STRING) {
    for (int64_t i = 0; i < want.NumElements(); ++i) {
      EXPECT_EQ(got.flat<std::string>()(i), want.flat<std::string>()(i)) << what;
    }
  } else {
    EXPECT_EQ(got.tensor_data(), want.tensor_data()) << what;
  }
}

TEST(StackTensorArrayGraphsTest, RunAsInTensorFlow) {
  const std::vector<GraphCase> cases = ReadCases();
  ASSERT_GE(cases.size(), 20u);
  const std::map<std::string, Tensor> expected = ReadExpected();
  GraphDef graph;
  ASSERT_TRUE(ReadBinaryProtoFile(absl::StrCat(kFixtures, ".pb"), &graph).ok());
  std::unique_ptr<Session> session;
  ASSERT_TRUE(NewSession(SessionOptions(), &session).ok());
  absl::Status s = session->Create(graph);
  ASSERT_TRUE(s.ok()) << s;
  for (const GraphCase& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<Tensor> out;
    s = session->Run(RunOptions(), {}, c.fetches, {}, &out, nullptr);
    if (c.error_code != 0) {
      EXPECT_EQ(static_cast<int>(s.code()), c.error_code) << s;
      EXPECT_TRUE(absl::StrContains(s.message(), c.error_text))
          << s << "\nlacks TensorFlow's \"" << c.error_text << "\"";
      continue;
    }
    ASSERT_TRUE(s.ok()) << s;
    ASSERT_EQ(out.size(), c.fetches.size());
    for (size_t i = 0; i < out.size(); ++i) {
      ExpectSame(c.fetches[i], out[i], expected.at(absl::StrCat(c.name, "/expected/", i)));
    }
  }
}

}  // namespace
}  // namespace sluice
