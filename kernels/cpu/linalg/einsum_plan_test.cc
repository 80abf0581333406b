// Einsum's equation parser and planner: every error, and the plans of the common forms (which
// inputs are used as they are, the product's sizes, whether the result is the output).
#include "kernels/cpu/linalg/einsum_plan.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "graph/core/tensor_shape.h"
#include "gtest/gtest.h"

namespace sluice {
namespace einsum {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

absl::Status Parse(const std::string& text, int n) {
  Equation eq;
  return ParseEquation(text, n, &eq);
}

absl::Status PlanFor(const std::string& text, const std::vector<TensorShape>& shapes, Plan* plan) {
  Equation eq;
  absl::Status s = ParseEquation(text, static_cast<int>(shapes.size()), &eq);
  if (!s.ok()) return s;
  return MakePlan(eq, shapes, plan);
}

Plan MustPlan(const std::string& text, const std::vector<TensorShape>& shapes) {
  Plan plan;
  const absl::Status s = PlanFor(text, shapes, &plan);
  EXPECT_TRUE(s.ok()) << text << ": " << s;
  return plan;
}

// The message of a failed plan, or "" (and a test failure) when it succeeds.
std::string PlanError(const std::string& text, const std::vector<TensorShape>& shapes) {
  Plan plan;
  const absl::Status s = PlanFor(text, shapes, &plan);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << text << ": " << s;
  return std::string(s.message());
}

TEST(EinsumParseTest, NumbersLabelsInOrderOfAppearance) {
  Equation eq;
  ASSERT_TRUE(ParseEquation("bij,b...jk->...ik", 2, &eq).ok());
  EXPECT_EQ(eq.names, "bijk");
  EXPECT_THAT(eq.inputs[0], ElementsAre(0, 1, 2));
  EXPECT_THAT(eq.inputs[1], ElementsAre(0, kEllipsis, 2, 3));
  EXPECT_THAT(eq.output, ElementsAre(kEllipsis, 1, 3));
  EXPECT_TRUE(eq.output_has_ellipsis);
  // Any character but '.' is a label, as in TensorFlow's kernel.
  ASSERT_TRUE(ParseEquation("A0,0z->zA", 2, &eq).ok());
  EXPECT_EQ(eq.names, "A0z");
  ASSERT_TRUE(ParseEquation("->", 1, &eq).ok());
  EXPECT_THAT(eq.inputs[0], IsEmpty());
  ASSERT_TRUE(ParseEquation(",->", 2, &eq).ok());
}

TEST(EinsumParseTest, RejectsMalformedEquations) {
  EXPECT_THAT(Parse("ij,jk", 2).message(),
              HasSubstr("Expecting exactly one '->' in einsum equation: ij,jk"));
  EXPECT_THAT(Parse("ij->ji->ij", 1).message(), HasSubstr("Expecting exactly one '->'"));
  EXPECT_THAT(Parse("", 1).message(), HasSubstr("Expecting exactly one '->'"));
  EXPECT_THAT(Parse("i,j,k->ijk", 3).message(),
              HasSubstr("Expecting 1 or 2 input subscripts in equation 'i,j,k->ijk' but got: 3"));
  EXPECT_THAT(Parse("ij,jk->ik", 1).message(),
              HasSubstr("Expected 2 inputs for equation ij,jk->ik but got: 1"));
  EXPECT_THAT(Parse("ij->ji", 2).message(), HasSubstr("Expected 1 inputs"));
  EXPECT_THAT(Parse("ij->ik", 1).message(),
              HasSubstr("has label 'k' which is not present in the input subscripts"));
  EXPECT_THAT(Parse("i.j->ij", 1).message(),
              HasSubstr("Expected at most one ellipsis (...), but found 1 periods"));
  EXPECT_THAT(Parse("..i.->i", 1).message(), HasSubstr("Periods found outside of ellipsis"));
  EXPECT_THAT(Parse("...i...->i", 1).message(), HasSubstr("found 6 periods"));
  EXPECT_THAT(Parse("ij->..", 1).message(), HasSubstr("found 2 periods"));
  EXPECT_EQ(Parse("ij->....", 1).code(), absl::StatusCode::kInvalidArgument);
}

TEST(EinsumPlanTest, RejectsShapesThatDoNotFit) {
  EXPECT_THAT(PlanError("ijk->k", {TensorShape({2, 3})}),
              HasSubstr("Expected input 0 to have rank 3 but got: 2"));
  EXPECT_THAT(PlanError("ij,...jk->ik", {TensorShape({2, 3}), TensorShape({3})}),
              HasSubstr("Expected input 1 to have rank at least 2 but got: 1"));
  EXPECT_THAT(PlanError("ij,jk->ik", {TensorShape({2, 3}), TensorShape({4, 3})}),
              HasSubstr("Expected dimension 3 at axis 0 of the input shaped [4,3] but got "
                        "dimension 4 (label 'j' of input 1"));
  EXPECT_THAT(PlanError("ii->i", {TensorShape({2, 3})}),
              HasSubstr("Expected dimension 2 at axis 1 of the input shaped [2,3] but got "
                        "dimension 3 (label 'i'"));
  // Named labels do not broadcast, even from size 1; a 0 is a size like any other.
  EXPECT_THAT(PlanError("bij,bjk->bik", {TensorShape({1, 2, 3}), TensorShape({4, 3, 2})}),
              HasSubstr("Expected dimension 1 at axis 0"));
  EXPECT_THAT(PlanError("ij,jk->ik", {TensorShape({2, 0}), TensorShape({5, 3})}),
              HasSubstr("Expected dimension 0 at axis 0 of the input shaped [5,3]"));
  EXPECT_THAT(PlanError("...ij->ij", {TensorShape({4, 2, 3})}),
              HasSubstr("Output contains 1 broadcasting dimension(s) but no ellipsis (...)"));
  EXPECT_THAT(
      PlanError("...ij,...jk->...ik", {TensorShape({2, 2, 3}), TensorShape({5, 3, 4})}),
      HasSubstr("Invalid broadcasting dimensions: the dims under the ellipsis (...) of input 0 "
                "shaped [2,2,3] and input 1 shaped [5,3,4] do not broadcast (2 vs. 5)"));
  EXPECT_THAT(PlanError("i->iiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiii",
                        {TensorShape({10})}),
              HasSubstr("too large"));
}

TEST(EinsumPlanTest, BatchedProductsUseTheirInputsAsTheyAre) {
  Plan p = MustPlan("bij,bjk->bik", {TensorShape({4, 2, 3}), TensorShape({4, 3, 5})});
  EXPECT_TRUE(p.x.direct && p.y.direct);
  EXPECT_FALSE(p.x.transposed || p.y.transposed);
  EXPECT_EQ(p.x.input, 0);
  EXPECT_THAT(p.batch, ElementsAre(4));
  EXPECT_EQ(p.m, 2);
  EXPECT_EQ(p.k, 3);
  EXPECT_EQ(p.n, 5);
  EXPECT_TRUE(p.result_is_output);
  EXPECT_EQ(p.output_shape, TensorShape({4, 2, 5}));

  // Attention scores: keys are the transposed Y; the batch dims b, h merge.
  p = MustPlan("bhqd,bhkd->bhqk", {TensorShape({2, 4, 8, 16}), TensorShape({2, 4, 10, 16})});
  EXPECT_TRUE(p.x.direct && p.y.direct);
  EXPECT_FALSE(p.x.transposed);
  EXPECT_TRUE(p.y.transposed);
  EXPECT_THAT(p.batch, ElementsAre(8));
  EXPECT_EQ(p.m, 8);
  EXPECT_EQ(p.k, 16);
  EXPECT_EQ(p.n, 10);
  EXPECT_TRUE(p.result_is_output);

  p = MustPlan("bhqk,bhkd->bhqd", {TensorShape({2, 4, 8, 10}), TensorShape({2, 4, 10, 16})});
  EXPECT_TRUE(p.x.direct && p.y.direct);
  EXPECT_FALSE(p.x.transposed || p.y.transposed);
  EXPECT_TRUE(p.result_is_output);

  // A dense layer: the batch dims a, b are rows of one product.
  p = MustPlan("abc,cd->abd", {TensorShape({2, 3, 4}), TensorShape({4, 5})});
  EXPECT_TRUE(p.x.direct && p.y.direct);
  EXPECT_THAT(p.batch, IsEmpty());
  EXPECT_EQ(p.m, 6);
  EXPECT_EQ(p.k, 4);
  EXPECT_EQ(p.n, 5);
  EXPECT_TRUE(p.result_is_output);

  // A transposed X: "ji" is X stored [K, M].
  p = MustPlan("ji,jk->ik", {TensorShape({3, 2}), TensorShape({3, 5})});
  EXPECT_TRUE(p.x.direct && p.x.transposed);
  EXPECT_TRUE(p.y.direct && !p.y.transposed);
}

TEST(EinsumPlanTest, EllipsisDimsBroadcastInTheProduct) {
  const Plan p =
      MustPlan("...ij,...jk->...ik", {TensorShape({2, 1, 2, 3}), TensorShape({5, 3, 4})});
  EXPECT_TRUE(p.x.direct && p.y.direct);
  EXPECT_THAT(p.batch, ElementsAre(2, 5));
  EXPECT_THAT(p.x_batch, ElementsAre(2, 1));
  EXPECT_THAT(p.y_batch, ElementsAre(1, 5));
  EXPECT_TRUE(p.result_is_output);
  EXPECT_EQ(p.output_shape, TensorShape({2, 5, 2, 4}));
}

TEST(EinsumPlanTest, SwapsTheInputsToMatchTheOutputOrder) {
  // Keras' attention scores: key "aecd", query "abcd" -> "acbe". The query's free label b
  // comes first in the output, so the query is X and the result needs no transpose.
  Plan p = MustPlan("aecd,abcd->acbe", {TensorShape({2, 7, 4, 8}), TensorShape({2, 5, 4, 8})});
  EXPECT_EQ(p.x.input, 1);
  EXPECT_EQ(p.y.input, 0);
  EXPECT_FALSE(p.x.direct || p.y.direct);
  EXPECT_EQ(p.m, 5);
  EXPECT_EQ(p.n, 7);
  EXPECT_EQ(p.k, 8);
  EXPECT_TRUE(p.result_is_output);
  // Keras' attention output "acbe,aecd->abcd": the result [a,c,b,d] is permuted at the end.
  p = MustPlan("acbe,aecd->abcd", {TensorShape({2, 4, 5, 7}), TensorShape({2, 7, 4, 8})});
  EXPECT_EQ(p.x.input, 0);
  EXPECT_TRUE(p.x.direct);
  EXPECT_FALSE(p.y.direct);
  EXPECT_FALSE(p.result_is_output);
}

TEST(EinsumPlanTest, OneInput) {
  Plan p = MustPlan("ij->ij", {TensorShape({2, 3})});
  EXPECT_TRUE(p.forward);
  p = MustPlan("ij->ji", {TensorShape({2, 3})});
  EXPECT_FALSE(p.forward);
  EXPECT_EQ(p.output_shape, TensorShape({3, 2}));
  // Only size-1 dims move: the same memory.
  p = MustPlan("ijk->kji", {TensorShape({1, 3, 1})});
  EXPECT_TRUE(p.forward);
  p = MustPlan("ii->i", {TensorShape({3, 3})});
  EXPECT_FALSE(p.forward);
  EXPECT_THAT(p.x.prepare.dims, ElementsAre(3));
  EXPECT_THAT(p.x.prepare.src_strides, ElementsAre(4));
  p = MustPlan("ij->i", {TensorShape({2, 3})});
  EXPECT_FALSE(p.forward);
  EXPECT_THAT(p.x.prepare.reduce_dims, ElementsAre(3));
  p = MustPlan("i->ii", {TensorShape({3})});
  EXPECT_TRUE(p.inflate);
  EXPECT_THAT(p.x.prepare.dst_strides, ElementsAre(4));
  EXPECT_EQ(p.output_shape, TensorShape({3, 3}));
}

TEST(EinsumPlanTest, EmptyShapes) {
  Plan p = MustPlan("ij,jk->ik", {TensorShape({0, 3}), TensorShape({3, 5})});
  EXPECT_TRUE(p.output_empty);
  p = MustPlan("ij,jk->ik", {TensorShape({2, 0}), TensorShape({0, 5})});
  EXPECT_FALSE(p.output_empty);
  EXPECT_TRUE(p.zeros);
  EXPECT_EQ(p.output_shape, TensorShape({2, 5}));
}

TEST(EinsumPlanTest, SimplifyMergesContiguousDims) {
  StridedPass pass;
  pass.dims = {2, 1, 3, 4};
  pass.src_strides = {12, 99, 4, 1};
  pass.dst_strides = {12, 0, 4, 1};
  pass.reduce_dims = {5, 1, 6};
  pass.reduce_strides = {1, 7, 5};
  pass.Simplify();
  EXPECT_THAT(pass.dims, ElementsAre(24));
  EXPECT_THAT(pass.src_strides, ElementsAre(1));
  EXPECT_THAT(pass.reduce_dims, ElementsAre(30));
  EXPECT_THAT(pass.reduce_strides, ElementsAre(1));
  EXPECT_EQ(pass.NumKept(), 24);
  EXPECT_EQ(pass.NumReduced(), 30);
}

}  // namespace
}  // namespace einsum
}  // namespace sluice
