// Automatic mixed precision through a real DirectSession on the CPU: the bfloat16 rewrite
// (rewrite_options.auto_mixed_precision_onednn_bfloat16 = ON) changes the numbers a little,
// keeps the fetches float32, and leaves Casts in the graphs that run.
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/unknown_field_set.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "gtest/gtest.h"
#include "proto/config.pb.h"
#include "proto/graph.pb.h"
#include "runtime/device/session_options.h"
#include "runtime/session/session.h"

namespace sluice {
namespace {

// A float Const of `dims` whose values are 0.3 * sin(1 + 0.7 i): not exact in bfloat16.
std::string WeightConst(const std::string& name, const std::vector<int>& dims) {
  int64_t n = 1;
  std::string shape;
  for (int d : dims) {
    n *= d;
    absl::StrAppend(&shape, " dim { size: ", d, " }");
  }
  std::string values;
  for (int64_t i = 0; i < n; ++i)
    absl::StrAppend(&values, " float_val: ", 0.3 * std::sin(1 + 0.7 * i));
  return absl::StrCat("node { name: '", name,
                      "' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } }"
                      " attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape {",
                      shape, " }", values, " } } } }");
}

std::string FloatOp(const std::string& name, const std::string& op,
                    const std::vector<std::string>& inputs, const std::string& attrs = "") {
  std::string s = absl::StrCat("node { name: '", name, "' op: '", op, "'");
  for (const std::string& in : inputs) absl::StrAppend(&s, " input: '", in, "'");
  return absl::StrCat(s, " attr { key: 'T' value { type: DT_FLOAT } }", attrs, " }");
}

// x [4,16] -> MatMul w [16,8] -> BiasAdd b -> Relu -> MatMul w2 [8,4] -> out (Identity);
// img [1,6,6,3] -> Conv2D f [3,3,3,4] (SAME) -> Relu -> conv_out (Identity).
GraphDef SmallModel() {
  const std::string text =
      "node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }"
      "node { name: 'img' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }" +
      WeightConst("w", {16, 8}) + WeightConst("b", {8}) + WeightConst("w2", {8, 4}) +
      WeightConst("f", {3, 3, 3, 4}) + FloatOp("mm", "MatMul", {"x", "w"}) +
      FloatOp("ba", "BiasAdd", {"mm", "b"}) + FloatOp("r", "Relu", {"ba"}) +
      FloatOp("mm2", "MatMul", {"r", "w2"}) + FloatOp("out", "Identity", {"mm2"}) +
      FloatOp("conv", "Conv2D", {"img", "f"},
              " attr { key: 'strides' value { list { i: [1, 1, 1, 1] } } }"
              " attr { key: 'padding' value { s: 'SAME' } }") +
      FloatOp("cr", "Relu", {"conv"}) + FloatOp("conv_out", "Identity", {"cr"});
  GraphDef gdef;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &gdef));
  return gdef;
}

Tensor Input(std::vector<int64_t> dims) {
  Tensor t(DT_FLOAT, TensorShape(dims));
  auto flat = t.flat<float>();
  for (int64_t i = 0; i < flat.size(); ++i) flat(i) = std::cos(0.37 * i) + 0.1f;
  return t;
}

struct Result {
  std::vector<Tensor> outputs;
  int casts = 0;
  int bfloat16_nodes = 0;
};

Result RunModel(const ConfigProto& config) {
  SessionOptions options;
  options.config = config;
  std::unique_ptr<Session> session;
  Result result;
  absl::Status s = NewSession(options, &session);
  EXPECT_TRUE(s.ok()) << s;
  if (!s.ok()) return result;
  s = session->Create(SmallModel());
  EXPECT_TRUE(s.ok()) << s;
  RunOptions run_options;
  run_options.set_output_partition_graphs(true);
  RunMetadata metadata;
  s = session->Run(run_options, {{"x", Input({4, 16})}, {"img", Input({1, 6, 6, 3})}},
                   {"out", "conv_out"}, {}, &result.outputs, &metadata);
  EXPECT_TRUE(s.ok()) << s;
  for (const GraphDef& partition : metadata.partition_graphs()) {
    for (const NodeDef& node : partition.node()) {
      result.casts += node.op() == "Cast";
      for (const auto& [name, value] : node.attr()) {
        if (node.op() != "Cast" && value.value_case() == AttrValue::kType &&
            value.type() == DT_BFLOAT16) {
          ++result.bfloat16_nodes;
          break;
        }
      }
    }
  }
  return result;
}

TEST(AutoMixedPrecisionSessionTest, TensorFlowSerializedConfigParses) {
  // TensorFlow 2.21's ConfigProto with graph_options.rewrite_options {
  // auto_mixed_precision_onednn_bfloat16: ON, auto_mixed_precision: OFF, remapping: OFF }.
  const std::string bytes("\x52\x0a\x52\x08\x70\x02\xb8\x01\x02\xf8\x01\x01", 12);
  ConfigProto config;
  ASSERT_TRUE(config.ParseFromString(bytes));
  const RewriterConfig& rewrite = config.graph_options().rewrite_options();
  EXPECT_EQ(rewrite.auto_mixed_precision_onednn_bfloat16(), RewriterConfig::ON);
  EXPECT_EQ(rewrite.auto_mixed_precision(), RewriterConfig::OFF);
  // remapping (14) is not modelled: it is kept as an unknown field, and written back.
  const google::protobuf::UnknownFieldSet& unknown =
      rewrite.GetReflection()->GetUnknownFields(rewrite);
  ASSERT_EQ(unknown.field_count(), 1);
  EXPECT_EQ(unknown.field(0).number(), 14);
  EXPECT_EQ(unknown.field(0).varint(), 2u);
  ConfigProto again;
  ASSERT_TRUE(again.ParseFromString(config.SerializeAsString()));
  EXPECT_EQ(again.graph_options().rewrite_options().auto_mixed_precision_onednn_bfloat16(),
            RewriterConfig::ON);
  EXPECT_EQ(again.SerializeAsString().size(), bytes.size());
}

TEST(AutoMixedPrecisionSessionTest, Bfloat16OnCpuIsCloseToFloat32ButNotEqual) {
  const Result reference = RunModel(ConfigProto());
  ASSERT_EQ(reference.outputs.size(), 2u);
  EXPECT_EQ(reference.casts, 0);
  EXPECT_EQ(reference.bfloat16_nodes, 0);

  ConfigProto config;
  config.mutable_graph_options()
      ->mutable_rewrite_options()
      ->set_auto_mixed_precision_onednn_bfloat16(RewriterConfig::ON);
  const Result mixed = RunModel(config);
  ASSERT_EQ(mixed.outputs.size(), 2u);
  // Casts of the fed inputs to bfloat16 and of the results back to float32 (those of the
  // constant weights are folded into bfloat16 constants).
  EXPECT_GE(mixed.casts, 4);
  EXPECT_GT(mixed.bfloat16_nodes, 0);

  // bfloat16 keeps 8 significant bits (a relative error of 2^-9 per rounding); the sums here
  // run over at most 27 products, so 5% of (1 + |reference|) is loose but meaningful.
  for (int k = 0; k < 2; ++k) {
    const Tensor& want = reference.outputs[k];
    const Tensor& got = mixed.outputs[k];
    ASSERT_EQ(got.dtype(), DT_FLOAT);
    ASSERT_EQ(got.shape(), want.shape());
    float max_diff = 0;
    for (int64_t i = 0; i < want.NumElements(); ++i) {
      const float a = want.flat<float>()(i);
      const float b = got.flat<float>()(i);
      EXPECT_NEAR(b, a, 0.05 * (1 + std::fabs(a))) << "output " << k << " element " << i;
      max_diff = std::max(max_diff, std::fabs(a - b));
    }
    EXPECT_GT(max_diff, 1e-6) << "output " << k << " did not change: no rewrite?";
  }
}

TEST(AutoMixedPrecisionSessionTest, OffLeavesTheGraphAlone) {
  ConfigProto config;
  config.mutable_graph_options()
      ->mutable_rewrite_options()
      ->set_auto_mixed_precision_onednn_bfloat16(RewriterConfig::OFF);
  const Result result = RunModel(config);
  EXPECT_EQ(result.casts, 0);
  EXPECT_EQ(result.bfloat16_nodes, 0);
}

}  // namespace
}  // namespace sluice
