#include "kernels/cpu/reduction/reduction_plan.h"

#include <vector>

#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "gtest/gtest.h"
#include "runtime/framework/op_kernel_test_util.h"

namespace sluice {
namespace {

using test::MakeTensor;

// "outer,reduced,inner;..." for the plan's passes.
std::string Passes(const ReductionPlan& plan) {
  std::string s;
  for (const ReductionPass& p : plan.passes()) {
    if (!s.empty()) s += ";";
    s += std::to_string(p.outer) + "," + std::to_string(p.reduced) + "," + std::to_string(p.inner);
  }
  return s;
}

ReductionPlan Plan(const TensorShape& shape, std::vector<int32_t> axes, bool keep_dims) {
  ReductionPlan plan;
  const Tensor t = MakeTensor<int32_t>(TensorShape({static_cast<int64_t>(axes.size())}), axes);
  EXPECT_TRUE(MakeReductionPlan(shape, t, keep_dims, &plan).ok());
  return plan;
}

TEST(ReductionPlanTest, MergesNeighboursAndDropsOnes) {
  const ReductionPlan plan = Plan(TensorShape({2, 3, 1, 4, 5}), {1, 3}, false);
  EXPECT_EQ(plan.output_shape(), TensorShape({2, 1, 5}));
  EXPECT_EQ(plan.reduced_count(), 12);
  EXPECT_EQ(Passes(plan), "2,12,5");
}

TEST(ReductionPlanTest, AlternatingGroupsInnermostFirst) {
  const ReductionPlan plan = Plan(TensorShape({2, 3, 4, 5}), {0, -2}, true);
  EXPECT_EQ(plan.output_shape(), TensorShape({1, 3, 1, 5}));
  EXPECT_EQ(Passes(plan), "6,4,5;1,2,15");
}

TEST(ReductionPlanTest, SizeOneAxesAreAnIdentity) {
  const ReductionPlan plan = Plan(TensorShape({3, 1}), {1}, false);
  EXPECT_TRUE(plan.passes().empty());
  EXPECT_EQ(plan.output_shape(), TensorShape({3}));
}

TEST(ReductionPlanTest, EmptyReducedDimStays) {
  const ReductionPlan plan = Plan(TensorShape({3, 0}), {1}, false);
  EXPECT_EQ(plan.reduced_count(), 0);
  EXPECT_EQ(Passes(plan), "3,0,1");
}

TEST(ReductionPlanTest, RejectsBadAxes) {
  ReductionPlan plan;
  const Tensor out_of_range = MakeTensor<int64_t>(TensorShape({1}), {2});
  EXPECT_EQ(MakeReductionPlan(TensorShape({2, 3}), out_of_range, false, &plan).message(),
            "Invalid reduction dimension (2 for input with 2 dimension(s)");
  const Tensor duplicate = MakeTensor<int32_t>(TensorShape({2}), {1, -1});
  EXPECT_EQ(MakeReductionPlan(TensorShape({2, 3}), duplicate, false, &plan).message(),
            "Invalid reduction arguments: Axes contains duplicate dimension: 1");
}

}  // namespace
}  // namespace sluice
