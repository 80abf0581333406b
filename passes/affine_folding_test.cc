#include "passes/affine_folding.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_proto.h"
#include "graph/core/tensor_types.h"
#include "graph/graph.h"
#include "graph/import/graph_testutil.h"
#include "graph/op/op_registry.h"
#include "gtest/gtest.h"
#include "proto/graph.pb.h"

namespace sluice {
namespace {

constexpr char kFloat[] = " attr { key: 'T' value { type: DT_FLOAT } }";

std::string Const(const std::string& name, const std::vector<int>& shape,
                  const std::vector<float>& values) {
  std::string dims;
  for (int d : shape) absl::StrAppend(&dims, " dim { size: ", d, " }");
  std::string vals;
  for (float v : values) absl::StrAppend(&vals, " float_val: ", v);
  return absl::StrCat("node { name: '", name,
                      "' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } }"
                      " attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape {",
                      dims, " }", vals, " } } } }");
}

std::string Node(const std::string& name, const std::string& op,
                 const std::vector<std::string>& inputs, const std::string& attrs = "") {
  std::string s = absl::StrCat("node { name: '", name, "' op: '", op, "'");
  for (const std::string& in : inputs) absl::StrAppend(&s, " input: '", in, "'");
  return absl::StrCat(s, kFloat, attrs, " }");
}

constexpr char kConvAttrs[] =
    " attr { key: 'strides' value { list { i: [1, 1, 1, 1] } } }"
    " attr { key: 'padding' value { s: 'VALID' } }";

// x: [1, 1, 1, 2] placeholder; w: a 1x1 conv from 2 to 3 channels.
std::string ConvBase() {
  return absl::StrCat(
      "node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }",
      Const("w", {1, 1, 2, 3}, {1, 2, 3, 4, 5, 6}), Node("conv", "Conv2D", {"x", "w"}, kConvAttrs));
}

class AffineFoldingTest : public ::testing::Test {
 protected:
  void Load(const std::string& text) {
    g_ = std::make_unique<Graph>(OpRegistry::Global());
    const absl::Status s = GraphFromTextForTest(text, g_.get());
    ASSERT_TRUE(s.ok()) << s;
  }

  bool Fold() {
    bool changed = false;
    const absl::Status s = FoldAffineIntoContractions(opts_, g_.get(), &changed);
    EXPECT_TRUE(s.ok()) << s.ToString();
    g_->ToGraphDef(&out_);
    return changed;
  }

  const NodeDef* Find(const std::string& name) const { return FindNodeDefForTest(out_, name); }

  std::vector<float> ConstValues(const std::string& name) const {
    const NodeDef* n = Find(name);
    if (n == nullptr) return {};
    Tensor t;
    EXPECT_TRUE(TensorFromProto(n->attr().at("value").tensor(), &t).ok());
    std::vector<float> v(t.flat<float>().data(), t.flat<float>().data() + t.NumElements());
    return v;
  }

  std::unique_ptr<Graph> g_;
  AffineFoldingOptions opts_;
  GraphDef out_;
};

TEST_F(AffineFoldingTest, BatchNormArithmeticFoldsIntoFilterAndBias) {
  Load(ConvBase() + Const("b", {3}, {1, 1, 1}) + Node("bias", "BiasAdd", {"conv", "b"}) +
       Const("s", {3}, {2, 3, 4}) + Node("mul", "Mul", {"bias", "s"}) +
       Const("t", {1, 1, 1, 3}, {10, 20, 30}) + Node("add", "AddV2", {"t", "mul"}) +
       Node("relu", "Relu", {"add"}));
  ASSERT_TRUE(Fold());
  EXPECT_EQ(Find("mul"), nullptr);
  EXPECT_EQ(Find("bias"), nullptr);
  EXPECT_EQ(Find("s"), nullptr);
  const NodeDef* add = Find("add");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->op(), "BiasAdd");
  ASSERT_EQ(add->input_size(), 2);
  EXPECT_EQ(add->input(0), "conv");
  // bias = b * s + t.
  EXPECT_EQ(ConstValues(add->input(1)), (std::vector<float>{12, 23, 34}));
  // Filter columns (output channels) scaled by s.
  const NodeDef* conv = Find("conv");
  EXPECT_EQ(ConstValues(conv->input(1)), (std::vector<float>{2, 6, 12, 8, 15, 24}));
  EXPECT_EQ(Find("relu")->input(0), "add");
}

TEST_F(AffineFoldingTest, ScalarScaleWithoutBias) {
  Load(ConvBase() + Const("s", {}, {0.5}) + Node("mul", "Mul", {"s", "conv"}) +
       Node("out", "Identity", {"mul"}));
  ASSERT_TRUE(Fold());
  EXPECT_EQ(Find("mul")->op(), "BiasAdd");
  EXPECT_EQ(ConstValues(Find("mul")->input(1)), (std::vector<float>{0, 0, 0}));
  EXPECT_EQ(ConstValues(Find("conv")->input(1)), (std::vector<float>{0.5, 1, 1.5, 2, 2.5, 3}));
}

TEST_F(AffineFoldingTest, DepthwiseAndTransposedMatMulScaleTheirChannels) {
  Load(absl::StrCat(
      "node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }",
      Const("w", {1, 1, 2, 2}, {1, 1, 1, 1}),
      Node("dw", "DepthwiseConv2dNative", {"x", "w"}, kConvAttrs), Const("s", {4}, {1, 2, 3, 4}),
      Node("mul", "Mul", {"dw", "s"}), Const("m", {3, 2}, {1, 1, 1, 1, 1, 1}),
      Node("mm", "MatMul", {"x", "m"}, " attr { key: 'transpose_b' value { b: true } }"),
      Const("s2", {3}, {1, 2, 3}), Node("mul2", "Mul", {"mm", "s2"})));
  ASSERT_TRUE(Fold());
  EXPECT_EQ(ConstValues(Find("dw")->input(1)), (std::vector<float>{1, 2, 3, 4}));
  EXPECT_EQ(ConstValues(Find("mm")->input(1)), (std::vector<float>{1, 1, 2, 2, 3, 3}));
}

TEST_F(AffineFoldingTest, WhatCannotFoldStays) {
  // The scale is per pixel, not per channel.
  Load(ConvBase() + Const("s", {1, 1, 1, 1, 3}, {1, 2, 3}) + Node("mul", "Mul", {"conv", "s"}));
  EXPECT_FALSE(Fold());
  // The conv's output is also read elsewhere.
  Load(ConvBase() + Const("s", {3}, {1, 2, 3}) + Node("mul", "Mul", {"conv", "s"}) +
       Node("peek", "Identity", {"conv"}));
  EXPECT_FALSE(Fold());
  // The scale is not a constant.
  Load(ConvBase() + Node("mul", "Mul", {"conv", "x"}));
  EXPECT_FALSE(Fold());
  // A protected (fetched) node is never folded away.
  Load(ConvBase() + Const("s", {3}, {1, 2, 3}) + Node("mul", "Mul", {"conv", "s"}));
  opts_.protected_names = {"mul"};
  EXPECT_FALSE(Fold());
  opts_.protected_names.clear();
  // The contraction is fetched: its sole consumer is a _Retval, which has no outputs.
  Load(ConvBase() + Node("ret", "_Retval", {"conv"}, " attr { key: 'index' value { i: 0 } }"));
  EXPECT_FALSE(Fold());
  // A bias alone has nothing to fold.
  Load(ConvBase() + Const("b", {3}, {1, 1, 1}) + Node("bias", "BiasAdd", {"conv", "b"}));
  EXPECT_FALSE(Fold());
}

TEST_F(AffineFoldingTest, SharedFilterIsKeptForItsOtherReader) {
  Load(ConvBase() + Node("conv2", "Conv2D", {"x", "w"}, kConvAttrs) + Const("s", {3}, {2, 2, 2}) +
       Node("mul", "Mul", {"conv", "s"}));
  ASSERT_TRUE(Fold());
  EXPECT_EQ(Find("conv2")->input(1), "w");
  EXPECT_NE(Find("conv")->input(1), "w");
  EXPECT_EQ(ConstValues("w"), (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

}  // namespace
}  // namespace sluice
