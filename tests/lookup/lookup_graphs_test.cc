// Lookup tables end to end: each fixture's steps (gen_lookup_graphs.py, "<name>.steps.txt":
// TF1 graphs of table ops and Keras StringLookup/IntegerLookup SavedModel graphs, run by
// TensorFlow 2.21) are replayed in one Sluice session, in order, and must give TensorFlow's
// values exactly (dtype, shape, elements) or its error code with its message.
#include <algorithm>
#include <memory>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_proto.h"
#include "graph/core/tensor_types.h"
#include "graph/import/graph_def_io.h"
#include "gtest/gtest.h"
#include "proto/tensor.pb.h"
#include "runtime/device/session_options.h"
#include "runtime/session/session.h"

namespace sluice {
namespace {

constexpr char kDir[] = "tests/lookup/";

struct Step {
  std::string line;
  std::vector<std::string> targets;
  std::vector<std::string> fetches;
  std::vector<std::pair<std::string, Tensor>> feeds;
  bool ok = true;
  std::vector<Tensor> expected;
  std::string code;     // TensorFlow's error code name
  std::string message;  // its message, newlines and tabs escaped
  int sort_keys = -1;
  int sort_values = -1;
};

std::vector<std::string> List(absl::string_view field) {
  if (field == "-") return {};
  return absl::StrSplit(field, ',');
}

Tensor Decode(absl::string_view b64) {
  std::string bytes;
  EXPECT_TRUE(absl::Base64Unescape(b64, &bytes)) << b64;
  TensorProto proto;
  EXPECT_TRUE(proto.ParseFromString(bytes));
  Tensor t;
  absl::Status s = TensorFromProto(proto, &t);
  EXPECT_TRUE(s.ok()) << s;
  return t;
}

std::string Escaped(absl::string_view message) {
  return absl::StrReplaceAll(message, {{"\\", "\\\\"}, {"\n", "\\n"}, {"\t", "\\t"}});
}

std::vector<Step> ReadSteps(const std::string& name) {
  std::string text;
  absl::Status s = ReadFileToString(kDir + name + ".steps.txt", &text);
  EXPECT_TRUE(s.ok()) << s;
  std::vector<Step> steps;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    std::vector<std::string> fields = absl::StrSplit(line, '\t');
    EXPECT_EQ(fields.size(), 5u) << line;
    if (fields.size() != 5) continue;
    Step step;
    step.line = std::string(line.substr(0, 200));
    step.targets = List(fields[0]);
    step.fetches = List(fields[1]);
    for (const std::string& feed : List(fields[2])) {
      std::vector<std::string> kv = absl::StrSplit(feed, absl::MaxSplits('=', 1));
      step.feeds.emplace_back(kv[0], Decode(kv[1]));
    }
    if (absl::StartsWith(fields[3], "error:")) {
      std::vector<std::string> parts = absl::StrSplit(fields[3], absl::MaxSplits(':', 2));
      step.ok = false;
      step.code = parts[1];
      step.message = parts[2];
    } else {
      std::vector<std::string> parts = absl::StrSplit(fields[3], ':');
      for (size_t i = 1; i < parts.size(); ++i) step.expected.push_back(Decode(parts[i]));
    }
    if (fields[4] != "-") {
      std::vector<std::string> kv = absl::StrSplit(fields[4], ':');
      EXPECT_TRUE(absl::SimpleAtoi(kv[0], &step.sort_keys));
      EXPECT_TRUE(absl::SimpleAtoi(kv[1], &step.sort_values));
    }
    steps.push_back(std::move(step));
  }
  return steps;
}

// Element i of t as text (exact: floats by their bits' decimal expansion via %a).
std::string Element(const Tensor& t, int64_t i) {
  switch (t.dtype()) {
    case DT_STRING:
      return absl::CEscape(t.flat<std::string>()(i));
    case DT_BOOL:
      return t.flat<bool>()(i) ? "true" : "false";
    case DT_INT32:
      return absl::StrCat(t.flat<int32_t>()(i));
    case DT_INT64:
      return absl::StrCat(t.flat<int64_t>()(i));
    case DT_FLOAT:
      return absl::StrFormat("%a", t.flat<float>()(i));
    case DT_DOUBLE:
      return absl::StrFormat("%a", t.flat<double>()(i));
    default:
      return "?";
  }
}

// dtype, shape and elements, one line.
std::string Describe(const Tensor& t) {
  std::string out = absl::StrCat(DataTypeString(t.dtype()), t.shape().DebugString(), ":");
  for (int64_t i = 0; i < t.NumElements(); ++i) absl::StrAppend(&out, " ", Element(t, i));
  return out;
}

// The rows of an export ordered by key: "key => row" lines.
std::vector<std::string> SortedRows(const Tensor& keys, const Tensor& values) {
  std::vector<std::string> rows;
  const int64_t n = keys.NumElements();
  const int64_t width = n == 0 ? 0 : values.NumElements() / n;
  for (int64_t i = 0; i < n; ++i) {
    std::string row = Element(keys, i) + " =>";
    for (int64_t j = 0; j < width; ++j) absl::StrAppend(&row, " ", Element(values, i * width + j));
    rows.push_back(row);
  }
  return rows;
}

std::vector<std::string> SortedByKey(const Tensor& keys, const Tensor& values) {
  std::vector<int64_t> order(keys.NumElements());
  std::iota(order.begin(), order.end(), 0);
  auto less = [&](int64_t a, int64_t b) {
    switch (keys.dtype()) {
      case DT_STRING:
        return keys.flat<std::string>()(a) < keys.flat<std::string>()(b);
      case DT_INT32:
        return keys.flat<int32_t>()(a) < keys.flat<int32_t>()(b);
      case DT_INT64:
        return keys.flat<int64_t>()(a) < keys.flat<int64_t>()(b);
      default:
        return a < b;
    }
  };
  std::stable_sort(order.begin(), order.end(), less);
  std::vector<std::string> rows = SortedRows(keys, values);
  std::vector<std::string> sorted;
  for (int64_t i : order) sorted.push_back(rows[i]);
  return sorted;
}

int Replay(const std::string& name) {
  GraphDef graph;
  absl::Status s = ReadGraphDefFile(kDir + name + ".pbtxt", &graph);
  EXPECT_TRUE(s.ok()) << s;
  std::unique_ptr<Session> session;
  EXPECT_TRUE(NewSession(SessionOptions(), &session).ok());
  s = session->Create(graph);
  EXPECT_TRUE(s.ok()) << name << ": " << s;
  if (!s.ok()) return 0;
  const std::vector<Step> steps = ReadSteps(name);
  EXPECT_FALSE(steps.empty());
  for (const Step& step : steps) {
    std::vector<Tensor> outputs;
    s = session->Run(step.feeds, step.fetches, step.targets, &outputs);
    const std::string trace = name + ": " + step.line;
    if (!step.ok) {
      EXPECT_EQ(absl::StatusCodeToString(s.code()), step.code) << trace << "\n" << s;
      EXPECT_NE(Escaped(s.message()).find(step.message), std::string::npos)
          << trace << "\nwant: " << step.message << "\ngot:  " << s.message();
      continue;
    }
    EXPECT_TRUE(s.ok()) << trace << ": " << s;
    if (!s.ok()) continue;
    EXPECT_EQ(outputs.size(), step.expected.size()) << trace;
    if (outputs.size() != step.expected.size()) continue;
    for (size_t i = 0; i < outputs.size(); ++i) {
      const int fetch = static_cast<int>(i);
      if (fetch == step.sort_values) continue;
      if (fetch == step.sort_keys) {
        const Tensor& got_v = outputs[step.sort_values];
        const Tensor& want_v = step.expected[step.sort_values];
        EXPECT_EQ(Describe(Tensor(outputs[i].dtype())), Describe(Tensor(step.expected[i].dtype())));
        EXPECT_EQ(outputs[i].shape().DebugString(), step.expected[i].shape().DebugString())
            << trace;
        EXPECT_EQ(got_v.dtype(), want_v.dtype()) << trace;
        EXPECT_EQ(got_v.shape().DebugString(), want_v.shape().DebugString()) << trace;
        EXPECT_EQ(SortedByKey(outputs[i], got_v), SortedRows(step.expected[i], want_v)) << trace;
        continue;
      }
      EXPECT_EQ(Describe(outputs[i]), Describe(step.expected[i])) << trace << " fetch " << i;
    }
  }
  EXPECT_TRUE(session->Close().ok());
  return static_cast<int>(steps.size());
}

TEST(LookupGraphsTest, HashTablesOfEveryRegisteredPair) { EXPECT_EQ(Replay("hash_tables"), 99); }
TEST(LookupGraphsTest, HashTableErrorsSharingAndAnonymousTables) {
  EXPECT_GT(Replay("hash_table_errors"), 0);
}
TEST(LookupGraphsTest, MutableHashTables) { EXPECT_GT(Replay("mutable_tables"), 0); }
TEST(LookupGraphsTest, MutableHashTablesOfTensors) { EXPECT_GT(Replay("tables_of_tensors"), 0); }
TEST(LookupGraphsTest, DenseHashTablesBucketForBucket) { EXPECT_GT(Replay("dense_tables"), 0); }
TEST(LookupGraphsTest, RefTypedV1Tables) { EXPECT_GT(Replay("v1_tables"), 0); }
TEST(LookupGraphsTest, TextFileInitializers) { EXPECT_GT(Replay("text_files"), 0); }
TEST(LookupGraphsTest, KerasStringLookup) { EXPECT_GT(Replay("keras_string_lookup"), 0); }
TEST(LookupGraphsTest, KerasIntegerLookup) { EXPECT_GT(Replay("keras_integer_lookup"), 0); }
TEST(LookupGraphsTest, KerasStringLookupFromAVocabularyFile) {
  EXPECT_GT(Replay("keras_string_lookup_file"), 0);
}
TEST(LookupGraphsTest, KerasStringLookupInverted) {
  EXPECT_GT(Replay("keras_string_lookup_invert"), 0);
}
TEST(LookupGraphsTest, KerasTextVectorization) { EXPECT_GT(Replay("keras_text_vectorization"), 0); }
TEST(LookupGraphsTest, KerasStringLookupOneHot) {
  EXPECT_GT(Replay("keras_string_lookup_one_hot"), 0);
}

}  // namespace
}  // namespace sluice
