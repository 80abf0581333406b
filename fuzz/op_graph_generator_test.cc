#include "fuzz/op_graph_generator.h"

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "fuzz/byte_source.h"
#include "fuzz/input_roles.h"
#include "fuzz/random_attrs.h"
#include "google/protobuf/util/message_differencer.h"
#include "graph/graph.h"
#include "graph/import/graph_constructor.h"
#include "graph/op/op_registry.h"
#include "gtest/gtest.h"

namespace sluice {
namespace fuzz {
namespace {

std::vector<uint8_t> RandomBytes(std::mt19937* rng, size_t size) {
  std::vector<uint8_t> bytes(size);
  for (uint8_t& b : bytes) b = static_cast<uint8_t>((*rng)());
  return bytes;
}

TEST(ByteSourceTest, ExhaustedInputGivesTheSmallestAnswers) {
  const uint8_t data[] = {7};
  ByteSource bytes(data, sizeof(data));
  EXPECT_EQ(bytes.Byte(), 7);
  EXPECT_EQ(bytes.remaining(), 0u);
  EXPECT_EQ(bytes.Byte(), 0);
  EXPECT_FALSE(bytes.Bool());
  EXPECT_EQ(bytes.Below(1000), 0u);
  EXPECT_EQ(bytes.InRange(-5, 5), -5);
  EXPECT_EQ(bytes.String(10), "");
}

TEST(ByteSourceTest, StringsStopAtTheEndOfTheInput) {
  // The length byte asks for 9 bytes; 3 remain after it.
  const uint8_t data[] = {9, 'a', 'b', 'c'};
  ByteSource bytes(data, sizeof(data));
  EXPECT_EQ(bytes.String(10), "abc");
  EXPECT_EQ(bytes.remaining(), 0u);
}

TEST(ByteSourceTest, RangesHoldTheirBounds) {
  std::mt19937 rng(1);
  const std::vector<uint8_t> data = RandomBytes(&rng, 4096);
  ByteSource bytes(data.data(), data.size());
  for (int i = 0; i < 200; ++i) {
    const int64_t v = bytes.InRange(-3, 9);
    EXPECT_GE(v, -3);
    EXPECT_LE(v, 9);
    EXPECT_LT(bytes.Below(300), 300u);
  }
  // The full int64 range must not overflow computing its width.
  bytes.InRange(std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max());
}

// A raw shape attr's dims are RandomInt shifted down by 2, and the extremes must not
// overflow doing it (UBSan stopped a one-hour campaign of session_graph_fuzzer there).
TEST(RandomAttrsTest, RawShapeDimsDoNotOverflow) {
  OpDef op_def;
  op_def.set_name("ShapeAttrOp");
  OpDef::AttrDef* attr = op_def.add_attr();
  attr->set_name("s");
  attr->set_type("shape");
  // The bytes: a raw shape (Below(16) == 1), a small rank (OneIn(4) no, Below(4) == 1), an
  // extreme int (OneIn(4) yes), kExtremeInts' index: 16 is INT64_MIN, 15 INT64_MAX.
  auto dim_drawn = [&](uint8_t extreme_index) {
    const uint8_t data[] = {1, 0, 1, 1, extreme_index};
    ByteSource bytes(data, sizeof(data));
    NodeDef node;
    EXPECT_TRUE(AddRandomAttrs(op_def, nullptr, &bytes, &node).ok());
    const TensorShapeProto& shape = node.attr().at("s").shape();
    EXPECT_EQ(shape.dim_size(), 1);
    return shape.dim_size() == 1 ? shape.dim(0).size() : 0;
  };
  EXPECT_EQ(dim_drawn(16), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(dim_drawn(15), std::numeric_limits<int64_t>::max() - 2);
  EXPECT_EQ(dim_drawn(1), -3);
}

TEST(InputRolesTest, ShapeArgumentsFitTheCommonShape) {
  EXPECT_EQ(RoleOfInput("shape"), InputRole::kRankVector);
  EXPECT_EQ(RoleOfInput("paddings"), InputRole::kRankPairs);
  EXPECT_EQ(RoleOfInput("limit"), InputRole::kScalar);
  EXPECT_EQ(RoleOfInput("x"), InputRole::kData);
  std::mt19937 rng(4);
  const std::vector<uint8_t> data = RandomBytes(&rng, 2000);
  ByteSource bytes(data.data(), data.size());
  int fitting = 0;
  for (int i = 0; i < 100; ++i) {
    absl::StatusOr<Tensor> pairs =
        TensorForRole(InputRole::kRankPairs, DT_INT32, TensorShape({2, 3, 4}), &bytes);
    ASSERT_TRUE(pairs.ok()) << pairs.status();
    fitting += pairs->shape() == TensorShape({3, 2});
  }
  // A role biases the draw: most fit, some do not.
  EXPECT_GT(fitting, 50);
  EXPECT_LT(fitting, 100);
}

TEST(OpGraphGeneratorTest, KernelsAreThisBinarysDrivableCpuKernels) {
  const std::vector<KernelDef> kernels = FuzzableCpuKernels();
  ASSERT_FALSE(kernels.empty());
  bool has_add = false;
  for (size_t i = 0; i < kernels.size(); ++i) {
    EXPECT_EQ(kernels[i].device_type(), "CPU");
    EXPECT_NE(kernels[i].op(), "_Send");
    if (i > 0) EXPECT_LE(kernels[i - 1].op(), kernels[i].op());
    has_add |= kernels[i].op() == "AddV2";
  }
  EXPECT_TRUE(has_add);
}

TEST(OpGraphGeneratorTest, SameBytesSameGraph) {
  const std::vector<KernelDef> kernels = FuzzableCpuKernels();
  std::mt19937 rng(2);
  for (int i = 0; i < 50; ++i) {
    const std::vector<uint8_t> data = RandomBytes(&rng, 200);
    OpGraph a, b;
    ByteSource first(data.data(), data.size()), second(data.data(), data.size());
    const absl::Status sa = GenerateOpGraph(kernels, OpGraphOptions(), &first, &a);
    const absl::Status sb = GenerateOpGraph(kernels, OpGraphOptions(), &second, &b);
    ASSERT_EQ(sa.ok(), sb.ok());
    EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(a.graph, b.graph));
  }
}

// Generated graphs must often be valid, or the fuzzers would only exercise validation.
TEST(OpGraphGeneratorTest, ManyGraphsImport) {
  const std::vector<KernelDef> kernels = FuzzableCpuKernels();
  std::mt19937 rng(3);
  OpGraphOptions options;
  options.max_ops = 3;
  int generated = 0, imported = 0, with_feeds = 0;
  for (int i = 0; i < 400; ++i) {
    const std::vector<uint8_t> data = RandomBytes(&rng, 300);
    ByteSource bytes(data.data(), data.size());
    OpGraph op_graph;
    if (!GenerateOpGraph(kernels, options, &bytes, &op_graph).ok()) continue;
    ++generated;
    EXPECT_EQ(op_graph.fetches.size(), op_graph.fetch_types.size());
    with_feeds += !op_graph.feeds.empty();
    Graph graph(OpRegistry::Global());
    GraphConstructorOptions import_options;
    import_options.validate_shape = true;
    imported += ConvertGraphDefToGraph(import_options, op_graph.graph, &graph).ok();
  }
  EXPECT_GT(generated, 300);
  EXPECT_GT(with_feeds, 50);
  EXPECT_GT(imported, 40) << "of " << generated;
}

TEST(OpGraphGeneratorTest, NoKernelsIsAnError) {
  ByteSource bytes(nullptr, 0);
  OpGraph op_graph;
  EXPECT_FALSE(GenerateOpGraph({}, OpGraphOptions(), &bytes, &op_graph).ok());
}

}  // namespace
}  // namespace fuzz
}  // namespace sluice
