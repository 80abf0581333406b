#include "passes/pad_folding.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/graph.h"
#include "graph/import/graph_testutil.h"
#include "graph/op/op_registry.h"
#include "gtest/gtest.h"
#include "proto/graph.pb.h"

namespace sluice {
namespace {

// An int32 [4, 2] paddings Const.
std::string Paddings(const std::string& name, const std::vector<int>& values) {
  std::string vals;
  for (int v : values) absl::StrAppend(&vals, " int_val: ", v);
  return absl::StrCat("node { name: '", name,
                      "' op: 'Const' attr { key: 'dtype' value { type: DT_INT32 } }"
                      " attr { key: 'value' value { tensor { dtype: DT_INT32 tensor_shape {"
                      " dim { size: 4 } dim { size: 2 } }",
                      vals, " } } } }");
}

std::string Node(const std::string& name, const std::string& op,
                 const std::vector<std::string>& inputs, const std::string& attrs = "") {
  std::string s = absl::StrCat("node { name: '", name, "' op: '", op, "'");
  for (const std::string& in : inputs) absl::StrAppend(&s, " input: '", in, "'");
  return absl::StrCat(s, " attr { key: 'T' value { type: DT_FLOAT } }", attrs, " }");
}

std::string ConvAttrs(int stride, const std::string& padding, const std::string& extra = "") {
  return absl::StrCat(" attr { key: 'strides' value { list { i: [1, ", stride, ", ", stride,
                      ", 1] } } } attr { key: 'padding' value { s: '", padding, "' } }", extra);
}

class PadFoldingTest : public ::testing::Test {
 protected:
  void Load(const std::string& text) {
    g_ = std::make_unique<Graph>(OpRegistry::Global());
    const absl::Status s = GraphFromTextForTest(text, g_.get());
    ASSERT_TRUE(s.ok()) << s;
  }

  bool Fold() {
    bool changed = false;
    const absl::Status s = FoldPadIntoConvolutions(opts_, g_.get(), &changed);
    EXPECT_TRUE(s.ok()) << s;
    out_ = GraphDef();
    g_->ToGraphDef(&out_);
    return changed;
  }

  const NodeDef* Find(const std::string& name) const { return FindNodeDefForTest(out_, name); }

  static std::string Ints(const NodeDef& n, const std::string& attr) {
    const auto& list = n.attr().at(attr).list().i();
    return absl::StrJoin(list.begin(), list.end(), ",");
  }

  std::unique_ptr<Graph> g_;
  PadFoldingOptions opts_;
  GraphDef out_;
};

// ResNet's stem: a symmetric pad of 3, then a 7x7 VALID convolution.
TEST_F(PadFoldingTest, ConvolutionTakesThePadAsExplicitPadding) {
  Load(FloatPlaceholderText("x", {-1, 16, 16, 3}) + FloatPlaceholderText("w", {7, 7, 3, 8}) +
       Paddings("pads", {0, 0, 3, 3, 2, 1, 0, 0}) + Node("pad", "Pad", {"x", "pads"}) +
       Node("conv", "Conv2D", {"pad", "w"}, ConvAttrs(2, "VALID")));
  ASSERT_TRUE(Fold());
  EXPECT_EQ(Find("pad"), nullptr);
  EXPECT_EQ(Find("pads"), nullptr);
  const NodeDef* conv = Find("conv");
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(absl::StrJoin(conv->input(), ","), "x,w");
  EXPECT_EQ(conv->attr().at("padding").s(), "EXPLICIT");
  EXPECT_EQ(Ints(*conv, "explicit_paddings"), "0,0,3,3,2,1,0,0");
}

TEST_F(PadFoldingTest, ExplicitPaddingsAddUp) {
  Load(FloatPlaceholderText("x", {1, 8, 8, 2}) + FloatPlaceholderText("w", {3, 3, 2, 2}) +
       Paddings("pads", {0, 0, 1, 0, 0, 2, 0, 0}) + Node("pad", "Pad", {"x", "pads"}) +
       Node("conv", "Conv2D", {"pad", "w"},
            ConvAttrs(1, "EXPLICIT",
                      " attr { key: 'explicit_paddings' value { list { i: [0, 0, 1, 1, 1, "
                      "1, 0, 0] } } }")));
  ASSERT_TRUE(Fold());
  EXPECT_EQ(Ints(*Find("conv"), "explicit_paddings"), "0,0,2,1,1,3,0,0");
}

// MobileNetV2's stride-2 depthwise convolutions: Keras pads (0, 1) on an even size, which is
// what SAME pads; on an odd size it pads (1, 1), which SAME would not.
TEST_F(PadFoldingTest, DepthwisePadFoldsOnlyWhenItIsSame) {
  const std::string dw_attrs = ConvAttrs(2, "VALID");
  Load(FloatPlaceholderText("x", {-1, 12, 12, 4}) + FloatPlaceholderText("y", {-1, 11, 11, 4}) +
       FloatPlaceholderText("w", {3, 3, 4, 1}) + Paddings("even_pads", {0, 0, 0, 1, 0, 1, 0, 0}) +
       Paddings("odd_pads", {0, 0, 0, 1, 0, 1, 0, 0}) +
       Node("even_pad", "Pad", {"x", "even_pads"}) + Node("odd_pad", "Pad", {"y", "odd_pads"}) +
       Node("even", "DepthwiseConv2dNative", {"even_pad", "w"}, dw_attrs) +
       Node("odd", "DepthwiseConv2dNative", {"odd_pad", "w"}, dw_attrs));
  ASSERT_TRUE(Fold());
  EXPECT_EQ(Find("even_pad"), nullptr);
  EXPECT_EQ(Find("even")->attr().at("padding").s(), "SAME");
  EXPECT_EQ(absl::StrJoin(Find("even")->input(), ","), "x,w");
  // 11 with stride 2: SAME pads one on each side.
  ASSERT_NE(Find("odd_pad"), nullptr);
  EXPECT_EQ(Find("odd")->attr().at("padding").s(), "VALID");
}

TEST_F(PadFoldingTest, DepthwiseWithAnUnknownSpatialSizeIsLeftAlone) {
  Load(FloatPlaceholderText("x", {-1, -1, -1, 4}) + FloatPlaceholderText("w", {3, 3, 4, 1}) +
       Paddings("pads", {0, 0, 0, 1, 0, 1, 0, 0}) + Node("pad", "Pad", {"x", "pads"}) +
       Node("dw", "DepthwiseConv2dNative", {"pad", "w"}, ConvAttrs(2, "VALID")));
  EXPECT_FALSE(Fold());
  EXPECT_NE(Find("pad"), nullptr);
}

TEST_F(PadFoldingTest, PadsThatAreNotSpatialZerosAreLeftAlone) {
  const std::string base =
      FloatPlaceholderText("x", {1, 8, 8, 2}) + FloatPlaceholderText("w", {3, 3, 2, 2});
  const std::string conv = Node("conv", "Conv2D", {"pad", "w"}, ConvAttrs(1, "VALID"));
  // Channel padding; a SAME convolution; a pad another node reads; a PadV2 with a nonzero
  // constant; a pad that is fetched.
  Load(base + Paddings("pads", {0, 0, 1, 1, 1, 1, 0, 1}) + Node("pad", "Pad", {"x", "pads"}) +
       conv);
  EXPECT_FALSE(Fold());
  Load(base + Paddings("pads", {0, 0, 1, 1, 1, 1, 0, 0}) + Node("pad", "Pad", {"x", "pads"}) +
       Node("conv", "Conv2D", {"pad", "w"}, ConvAttrs(1, "SAME")));
  EXPECT_FALSE(Fold());
  Load(base + Paddings("pads", {0, 0, 1, 1, 1, 1, 0, 0}) + Node("pad", "Pad", {"x", "pads"}) +
       conv + Node("other", "Relu", {"pad"}));
  EXPECT_FALSE(Fold());
  Load(base + Paddings("pads", {0, 0, 1, 1, 1, 1, 0, 0}) +
       "node { name: 'one' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } }"
       " attr { key: 'value' value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 1 } } }"
       " }" +
       Node("pad", "PadV2", {"x", "pads", "one"}) + conv);
  EXPECT_FALSE(Fold());
  Load(base + Paddings("pads", {0, 0, 1, 1, 1, 1, 0, 0}) + Node("pad", "Pad", {"x", "pads"}) +
       conv);
  opts_.protected_names.insert("pad");
  EXPECT_FALSE(Fold());
  opts_.protected_names.clear();
  EXPECT_TRUE(Fold());
}

}  // namespace
}  // namespace sluice
