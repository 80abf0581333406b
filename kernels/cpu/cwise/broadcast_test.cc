// BroadcastPlan: merged dims, strides and the row cursor's offsets.
#include "kernels/cpu/cwise/broadcast.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace sluice {
namespace {

using Dims = BroadcastPlan::Dims;

BroadcastPlan Plan(std::vector<TensorShape> shapes, bool* ok = nullptr) {
  std::vector<const TensorShape*> ptrs;
  for (const TensorShape& s : shapes) ptrs.push_back(&s);
  BroadcastPlan plan;
  const bool valid = MakeBroadcastPlan(ptrs, &plan);
  if (ok != nullptr) *ok = valid;
  return plan;
}

TEST(BroadcastPlanTest, MergesDimsThatBroadcastAlike) {
  BroadcastPlan p = Plan({TensorShape({8, 4, 5}), TensorShape({4, 5})});
  EXPECT_EQ(p.output_shape, TensorShape({8, 4, 5}));
  EXPECT_EQ(p.dims, (Dims{8, 20}));
  EXPECT_EQ(p.strides[0], (Dims{20, 1}));
  EXPECT_EQ(p.strides[1], (Dims{0, 1}));
  EXPECT_EQ(p.rows(), 8);
}

TEST(BroadcastPlanTest, BothOperandsBroadcast) {
  BroadcastPlan p = Plan({TensorShape({2, 1, 3}), TensorShape({4, 1})});
  EXPECT_EQ(p.output_shape, TensorShape({2, 4, 3}));
  EXPECT_EQ(p.dims, (Dims{2, 4, 3}));
  EXPECT_EQ(p.strides[0], (Dims{3, 0, 1}));
  EXPECT_EQ(p.strides[1], (Dims{0, 1, 0}));
  EXPECT_FALSE(p.inner_varies(1));
}

TEST(BroadcastPlanTest, SizeOneDimsAreDropped) {
  BroadcastPlan p = Plan({TensorShape({1, 4}), TensorShape({4})});
  EXPECT_EQ(p.output_shape, TensorShape({1, 4}));
  EXPECT_EQ(p.dims, (Dims{4}));
  p = Plan({TensorShape({1, 1}), TensorShape({})});
  EXPECT_EQ(p.output_shape, TensorShape({1, 1}));
  EXPECT_EQ(p.dims, (Dims{1}));
  EXPECT_EQ(p.rows(), 1);
}

TEST(BroadcastPlanTest, EmptyOutputs) {
  BroadcastPlan p = Plan({TensorShape({0, 1}), TensorShape({1, 4})});
  EXPECT_EQ(p.output_shape, TensorShape({0, 4}));
  EXPECT_EQ(p.rows(), 0);
  p = Plan({TensorShape({4, 0}), TensorShape({1, 1})});
  EXPECT_EQ(p.rows(), 0);
}

TEST(BroadcastPlanTest, IncompatibleShapes) {
  bool ok = true;
  Plan({TensorShape({2, 3}), TensorShape({4})}, &ok);
  EXPECT_FALSE(ok);
  Plan({TensorShape({0}), TensorShape({2})}, &ok);
  EXPECT_FALSE(ok);
  Plan({TensorShape({2, 1}), TensorShape({3}), TensorShape({4})}, &ok);
  EXPECT_FALSE(ok);
}

TEST(BroadcastPlanTest, ThreeOperands) {
  BroadcastPlan p = Plan({TensorShape({2, 1, 1}), TensorShape({1, 3, 1}), TensorShape({4})});
  EXPECT_EQ(p.output_shape, TensorShape({2, 3, 4}));
  EXPECT_EQ(p.strides[0], (Dims{1, 0, 0}));
  EXPECT_EQ(p.strides[1], (Dims{0, 1, 0}));
  EXPECT_EQ(p.strides[2], (Dims{0, 0, 1}));
}

TEST(RowCursorTest, OffsetsFollowTheOdometerFromAnyRow) {
  BroadcastPlan p = Plan({TensorShape({2, 1, 3}), TensorShape({4, 1})});
  // Rows are (a, b) for a < 2, b < 4: x offset a*3, y offset b.
  for (int64_t first = 0; first < 8; ++first) {
    int64_t row = first;
    for (RowCursor c(p, first); c.row() < 8; c.Next(), ++row) {
      EXPECT_EQ(c.row(), row);
      EXPECT_EQ(c.offset(0), (row / 4) * 3);
      EXPECT_EQ(c.offset(1), row % 4);
    }
  }
}

}  // namespace
}  // namespace sluice
