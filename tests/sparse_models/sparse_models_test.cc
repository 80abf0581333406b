// A frozen TF1 graph of sparse feature lookups (gen_sparse_models.py: safe_embedding_lookup_sparse
// with the sum, mean and sqrtn combiners, with and without per-id weights and with a default
// id, sparse_dense_matmul, sparse reduce_sum and reduce_max, sparse add of a reordered copy),
// fed through sparse placeholders batch by batch in a Sluice session as a serving client would,
// every output compared with TensorFlow's. The batches leave rows empty, repeat an id and hold
// an empty row set, the cases SparseFillEmptyRows and the segment reductions exist for.
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
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

const char kDir[] = "tests/sparse_models/";

struct RunSpec {
  int batches = 0;
  std::vector<std::string> feeds;
  std::vector<std::string> fetches;
};

RunSpec ReadSpec(const std::string& model) {
  std::string text;
  EXPECT_TRUE(ReadFileToString(absl::StrCat(kDir, model, ".run.txt"), &text).ok());
  RunSpec spec;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    if (absl::StartsWith(line, "#")) continue;
    std::vector<std::string> f = absl::StrSplit(line, ' ');
    if (f.size() != 2) continue;
    if (f[0] == "batches") EXPECT_TRUE(absl::SimpleAtoi(f[1], &spec.batches));
    if (f[0] == "feed") spec.feeds.push_back(f[1]);
    if (f[0] == "fetch") spec.fetches.push_back(f[1]);
  }
  return spec;
}

std::map<std::string, Tensor> ReadRun(const std::string& model) {
  GraphDef run;
  EXPECT_TRUE(ReadBinaryProtoFile(absl::StrCat(kDir, model, ".run.pb"), &run).ok());
  std::map<std::string, Tensor> values;
  for (const NodeDef& node : run.node()) {
    Tensor t;
    EXPECT_TRUE(TensorFromProto(node.attr().at("value").tensor(), &t).ok()) << node.name();
    values[node.name()] = t;
  }
  return values;
}

// Float outputs within a few float ulps of TensorFlow's (sums may run in another order).
void ExpectClose(const std::string& what, const Tensor& got, const Tensor& want) {
  ASSERT_EQ(got.dtype(), want.dtype()) << what;
  ASSERT_EQ(got.shape().DebugString(), want.shape().DebugString()) << what;
  auto g = got.flat<float>();
  auto w = want.flat<float>();
  for (int64_t i = 0; i < w.size(); ++i) {
    EXPECT_NEAR(g(i), w(i), 1e-5 * (1 + std::fabs(w(i)))) << what << " element " << i;
  }
}

TEST(SparseModelsTest, LookupsMatchTensorFlow) {
  const std::string model = "sparse_lookup";
  const RunSpec spec = ReadSpec(model);
  ASSERT_GT(spec.batches, 0);
  std::map<std::string, Tensor> run = ReadRun(model);
  GraphDef graph;
  ASSERT_TRUE(ReadBinaryProtoFile(absl::StrCat(kDir, model, ".pb"), &graph).ok());
  std::unique_ptr<Session> session;
  ASSERT_TRUE(NewSession(SessionOptions(), &session).ok());
  absl::Status s = session->Create(graph);
  ASSERT_TRUE(s.ok()) << s;
  for (int b = 0; b < spec.batches; ++b) {
    std::vector<std::pair<std::string, Tensor>> feeds;
    for (const std::string& name : spec.feeds) {
      feeds.emplace_back(name, run.at(absl::StrCat("feed/", b, "/", name)));
    }
    std::vector<Tensor> out;
    s = session->Run(RunOptions(), feeds, spec.fetches, {}, &out, nullptr);
    ASSERT_TRUE(s.ok()) << "batch " << b << ": " << s;
    for (size_t i = 0; i < spec.fetches.size(); ++i) {
      const std::string& name = spec.fetches[i];
      ExpectClose(absl::StrCat("batch ", b, " ", name), out[i],
                  run.at(absl::StrCat("out/", b, "/", name)));
    }
  }
}

}  // namespace
}  // namespace sluice
