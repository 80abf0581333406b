// Feeds 100,000 hostile inputs through the GraphDef loading path: ParseGraphDef, then
// ValidateGraphDefAgainstOpRegistry, AddDefaultAttrsToGraphDef and validation again, then
// InOutTypesForNode on every node of each graph that validated. Nothing may crash (the suite
// also runs under ASan/UBSan) or write to stderr, and these properties must hold:
//  - validating a graph gives the same verdict before and after its defaults are filled in;
//  - every validation error names a node ("{{node ...}}");
//  - a graph that validates has computable input and output types for every node.
// The generators are seeded, so a failure reproduces; the counts at the end prove that the
// mutations reach past the parser (some still parse, some of those fail validation, some
// pass), so the test cannot pass by rejecting everything. It takes about 13 s in a
// fastbuild and 16 s under --config=asan on these machines.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "google/protobuf/text_format.h"
#include "graph/import/graph_def_io.h"
#include "graph/op/graph_def_util.h"
#include "graph/op/node_def_util.h"
#include "graph/op/op_registry.h"
#include "gtest/gtest.h"
#include "proto/graph.pb.h"
#include "proto/tensor.pb.h"
#include "tests/fixture_manifest.h"

namespace sluice {
namespace {

struct Counts {
  int cases = 0;
  int parsed = 0;
  int valid = 0;
  int invalid = 0;
  int verdict_changed_by_defaults = 0;
  int error_without_node = 0;
  int types_failed_on_valid_graph = 0;
};

void RunCase(const std::string& bytes, Counts* counts) {
  ++counts->cases;
  GraphDef graph_def;
  if (!ParseGraphDef(bytes, &graph_def).ok()) return;
  ++counts->parsed;
  const OpRegistryInterface& registry = *OpRegistry::Global();
  CheckGraphDefVersions(graph_def.versions()).IgnoreError();
  absl::Status raw = ValidateGraphDefAgainstOpRegistry(graph_def, registry);
  if (!AddDefaultAttrsToGraphDef(&graph_def, registry).ok()) {
    if (raw.ok()) ++counts->verdict_changed_by_defaults;  // a valid graph has known ops
    ++counts->invalid;
    return;
  }
  absl::Status filled = ValidateGraphDefAgainstOpRegistry(graph_def, registry);
  if (raw.ok() != filled.ok()) ++counts->verdict_changed_by_defaults;
  if (!filled.ok()) {
    ++counts->invalid;
    if (!absl::StrContains(filled.message(), "{{node ")) ++counts->error_without_node;
    return;
  }
  ++counts->valid;
  for (const NodeDef& node : graph_def.node()) {
    const OpDef* op_def = nullptr;
    DataTypeVector inputs, outputs;
    if (!registry.LookUpOpDef(node.op(), &op_def).ok() ||
        !InOutTypesForNode(node, *op_def, &inputs, &outputs).ok()) {
      ++counts->types_failed_on_valid_graph;
    }
  }
}

// `graph_def` with every large Const value replaced by a scalar, so that mutations land on
// the graph's structure rather than mostly inside weights.
GraphDef Skeleton(const GraphDef& graph_def) {
  GraphDef skeleton = graph_def;
  for (NodeDef& node : *skeleton.mutable_node()) {
    auto value = node.mutable_attr()->find("value");
    if (node.op() != "Const" || value == node.mutable_attr()->end()) continue;
    TensorProto* tensor = value->second.mutable_tensor();
    if (tensor->tensor_content().size() > 16) {
      tensor->clear_tensor_content();
      tensor->clear_tensor_shape();
    }
  }
  return skeleton;
}

// `node`'s attr names, sorted: protobuf's map iteration order is not reproducible from run to
// run, so the generators draw random numbers in name order.
std::vector<std::string> SortedAttrNames(const NodeDef& node) {
  std::vector<std::string> names;
  for (const auto& attr : node.attr()) names.push_back(attr.first);
  std::sort(names.begin(), names.end());
  return names;
}

// Values for int attrs: boundaries, and counts too large for a node to have.
constexpr int64_t kInterestingInts[] = {-1,
                                        0,
                                        1,
                                        2,
                                        3,
                                        100,
                                        int64_t{1} << 31,
                                        std::numeric_limits<int64_t>::max(),
                                        std::numeric_limits<int64_t>::min()};

class GraphDefFuzzTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::vector<fixtures::FixtureModel> models;
    ASSERT_TRUE(fixtures::ReadFixtureManifest(fixtures::FixturesDir(), &models).ok());
    for (const fixtures::FixtureModel& model : models) {
      std::string bytes;
      ASSERT_TRUE(ReadFileToString(model.pb_path, &bytes).ok());
      binaries_.push_back(bytes);
      ASSERT_TRUE(ReadFileToString(model.pbtxt_path, &bytes).ok());
      texts_.push_back(bytes);
      GraphDef graph_def;
      ASSERT_TRUE(ParseGraphDef(binaries_.back(), &graph_def).ok());
      skeletons_.push_back(Skeleton(graph_def));
      ASSERT_TRUE(SerializeDeterministic(skeletons_.back(), &bytes).ok());
      skeleton_binaries_.push_back(bytes);
      ASSERT_TRUE(google::protobuf::TextFormat::PrintToString(skeletons_.back(), &bytes));
      skeleton_texts_.push_back(bytes);
    }
    ASSERT_FALSE(binaries_.empty());
  }

  // Uniform in [0, n); n > 0. Written out rather than std::uniform_int_distribution, whose
  // results differ between standard libraries.
  size_t Below(size_t n) { return static_cast<size_t>(rng_() % n); }

  // A fixture's bytes, exactly as TensorFlow wrote them: binary three times in four, text
  // otherwise.
  const std::string& AnyFixture() {
    const std::vector<std::string>& pool = Below(4) == 0 ? texts_ : binaries_;
    return pool[Below(pool.size())];
  }

  // A skeleton fixture's bytes, binary three times in four, text otherwise.
  const std::string& AnySkeleton() {
    const std::vector<std::string>& pool = Below(4) == 0 ? skeleton_texts_ : skeleton_binaries_;
    return pool[Below(pool.size())];
  }

  std::string RandomBytes() {
    std::string bytes(Below(300), '\0');
    for (char& c : bytes) c = static_cast<char>(rng_());
    // Start some like a GraphDef (field 1, length-delimited) to get past the first tag.
    if (!bytes.empty() && Below(2) == 0) bytes[0] = '\x0a';
    return bytes;
  }

  std::string Truncated() {
    const std::string& source = AnyFixture();
    return source.substr(0, Below(source.size()));
  }

  std::string Flipped() {
    std::string bytes = AnySkeleton();
    const size_t flips = 1 + Below(4);
    for (size_t i = 0; i < flips; ++i) {
      char& c = bytes[Below(bytes.size())];
      c = Below(2) == 0 ? static_cast<char>(rng_()) : static_cast<char>(c ^ (1 << Below(8)));
    }
    return bytes;
  }

  std::string Spliced() {
    const std::string& a = AnySkeleton();
    const std::string& b = AnySkeleton();
    return a.substr(0, Below(a.size())) + b.substr(Below(b.size()));
  }

  // A well-formed GraphDef with one semantic change, so that validation, not parsing, is
  // what has to catch it.
  std::string Mutated() {
    GraphDef graph_def = skeletons_[Below(skeletons_.size())];
    NodeDef* node = graph_def.mutable_node(static_cast<int>(Below(graph_def.node_size())));
    const NodeDef& other = graph_def.node(static_cast<int>(Below(graph_def.node_size())));
    auto* attrs = node->mutable_attr();
    const std::vector<std::string> names = SortedAttrNames(*node);
    switch (Below(8)) {
      case 0:
        node->set_op(other.op());
        break;
      case 1:
        if (!names.empty()) attrs->erase(names[Below(names.size())]);
        break;
      case 2:
        for (const std::string& name : names) {
          AttrValue& value = (*attrs)[name];
          if (value.value_case() == AttrValue::kType) {
            value.set_type(static_cast<DataType>(Below(30)));
          }
        }
        break;
      case 3:
        for (const std::string& name : names) {
          AttrValue& value = (*attrs)[name];
          if (value.value_case() == AttrValue::kI) {
            value.set_i(kInterestingInts[Below(std::size(kInterestingInts))]);
          }
        }
        break;
      case 4:
        node->add_input(Below(2) == 0 ? other.name() : "^" + other.name());
        break;
      case 5:
        node->mutable_input()->Clear();
        break;
      case 6:
        node->set_name(Below(2) == 0 ? "" : "bad name!");
        break;
      default:
        (*attrs)[other.name()].set_s("unexpected");
        break;
    }
    std::string bytes;
    EXPECT_TRUE(SerializeDeterministic(graph_def, &bytes).ok());
    return bytes;
  }

  std::mt19937_64 rng_{20240229};
  std::vector<std::string> binaries_;
  std::vector<std::string> texts_;
  std::vector<GraphDef> skeletons_;
  std::vector<std::string> skeleton_binaries_;
  std::vector<std::string> skeleton_texts_;
};

TEST_F(GraphDefFuzzTest, HostileInputsNeverCrash) {
  const auto start = std::chrono::steady_clock::now();
  // Expected failures are reported through Status only; nothing may reach the log.
  ::testing::internal::CaptureStderr();
  Counts random, mutated;
  for (int i = 0; i < 35000; ++i) RunCase(RandomBytes(), &random);
  for (int i = 0; i < 20000; ++i) RunCase(Truncated(), &mutated);
  for (int i = 0; i < 30000; ++i) RunCase(Flipped(), &mutated);
  for (int i = 0; i < 10000; ++i) RunCase(Spliced(), &mutated);
  for (int i = 0; i < 5000; ++i) RunCase(Mutated(), &mutated);
  const std::string logged = ::testing::internal::GetCapturedStderr();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::printf("%d cases in %.1f s: random %d parsed; mutated %d parsed, %d valid, %d invalid\n",
              random.cases + mutated.cases, seconds, random.parsed, mutated.parsed, mutated.valid,
              mutated.invalid);
  EXPECT_EQ(logged.substr(0, 2000), "");
  EXPECT_GE(random.cases + mutated.cases, 100000);
  EXPECT_GT(mutated.parsed, 5000);
  EXPECT_GT(mutated.valid, 1000);
  EXPECT_GT(mutated.invalid, 1000);
  for (const Counts* counts : {&random, &mutated}) {
    EXPECT_EQ(counts->verdict_changed_by_defaults, 0);
    EXPECT_EQ(counts->error_without_node, 0);
    EXPECT_EQ(counts->types_failed_on_valid_graph, 0);
  }
}

}  // namespace
}  // namespace sluice
