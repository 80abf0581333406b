#include "kernels/cuda/broadcast_index.h"

#include <cstdint>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace sluice {
namespace cuda {
namespace {

struct Planned {
  BroadcastResult result;
  std::vector<int64_t> shape;
  BroadcastIndex index;
};

Planned Plan(const std::vector<int64_t>& x, const std::vector<int64_t>& y) {
  Planned p;
  p.shape.assign(std::max(x.size(), y.size()), -1);
  p.result = MakeBroadcastIndex(x.data(), static_cast<int>(x.size()), y.data(),
                                static_cast<int>(y.size()), p.shape.data(), &p.index);
  return p;
}

std::vector<int64_t> Dims(const BroadcastIndex& index) {
  return std::vector<int64_t>(index.dims, index.dims + index.rank);
}
std::vector<int64_t> Strides(const BroadcastIndex& index, int k) {
  return std::vector<int64_t>(index.strides[k], index.strides[k] + index.rank);
}

// The offset into an operand of `shape` (right-aligned against `out`) of output element i,
// computed the slow way: unravel i over the full output shape.
int64_t ReferenceOffset(const std::vector<int64_t>& shape, const std::vector<int64_t>& out,
                        int64_t i) {
  int64_t offset = 0;
  int64_t step = 1;
  const size_t lead = out.size() - shape.size();
  for (size_t d = out.size(); d-- > 0;) {
    const int64_t coord = i % out[d];
    i /= out[d];
    if (d >= lead) {
      const int64_t size = shape[d - lead];
      if (size != 1) offset += coord * step;
      step *= size;
    }
  }
  return offset;
}

TEST(BroadcastIndexTest, MergesDimsThatBroadcastAlike) {
  const Planned p = Plan({8, 4, 5}, {4, 5});
  ASSERT_EQ(p.result, BroadcastResult::kOk);
  EXPECT_EQ(p.shape, (std::vector<int64_t>{8, 4, 5}));
  EXPECT_EQ(Dims(p.index), (std::vector<int64_t>{8, 20}));
  EXPECT_EQ(Strides(p.index, 0), (std::vector<int64_t>{20, 1}));
  EXPECT_EQ(Strides(p.index, 1), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(p.index.num_elements, 160);
}

TEST(BroadcastIndexTest, BothOperandsBroadcast) {
  const Planned p = Plan({2, 1, 3}, {4, 1});
  ASSERT_EQ(p.result, BroadcastResult::kOk);
  EXPECT_EQ(p.shape, (std::vector<int64_t>{2, 4, 3}));
  EXPECT_EQ(Dims(p.index), (std::vector<int64_t>{2, 4, 3}));
  EXPECT_EQ(Strides(p.index, 0), (std::vector<int64_t>{3, 0, 1}));
  EXPECT_EQ(Strides(p.index, 1), (std::vector<int64_t>{0, 1, 0}));
}

TEST(BroadcastIndexTest, DimsOfOneAreDropped) {
  const Planned p = Plan({1, 3, 1, 5}, {1, 1, 1, 5});
  ASSERT_EQ(p.result, BroadcastResult::kOk);
  EXPECT_EQ(p.shape, (std::vector<int64_t>{1, 3, 1, 5}));
  EXPECT_EQ(Dims(p.index), (std::vector<int64_t>{3, 5}));
  EXPECT_EQ(Strides(p.index, 0), (std::vector<int64_t>{5, 1}));
  EXPECT_EQ(Strides(p.index, 1), (std::vector<int64_t>{0, 1}));
}

TEST(BroadcastIndexTest, ScalarsAndSingleElements) {
  const Planned scalars = Plan({}, {});
  ASSERT_EQ(scalars.result, BroadcastResult::kOk);
  EXPECT_TRUE(scalars.shape.empty());
  EXPECT_EQ(scalars.index.rank, 1);
  EXPECT_EQ(scalars.index.num_elements, 1);
  const Planned ones = Plan({1, 1}, {1});
  ASSERT_EQ(ones.result, BroadcastResult::kOk);
  EXPECT_EQ(ones.shape, (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(ones.index.num_elements, 1);
  int64_t xo = -1, yo = -1;
  ones.index.Offsets<int64_t>(0, &xo, &yo);
  EXPECT_EQ(xo, 0);
  EXPECT_EQ(yo, 0);
}

TEST(BroadcastIndexTest, EmptyOutputs) {
  const Planned p = Plan({0, 3}, {1, 3});
  ASSERT_EQ(p.result, BroadcastResult::kOk);
  EXPECT_EQ(p.shape, (std::vector<int64_t>{0, 3}));
  EXPECT_EQ(p.index.num_elements, 0);
  // An empty dim broadcasts against 1 only.
  EXPECT_EQ(Plan({0}, {2}).result, BroadcastResult::kIncompatible);
  EXPECT_EQ(Plan({2, 0}, {2, 1}).result, BroadcastResult::kOk);
}

TEST(BroadcastIndexTest, IncompatibleShapes) {
  EXPECT_EQ(Plan({2, 3}, {4}).result, BroadcastResult::kIncompatible);
  EXPECT_EQ(Plan({5, 2}, {3, 4, 1}).result, BroadcastResult::kIncompatible);
}

TEST(BroadcastIndexTest, OverflowingOutputIsIncompatible) {
  const int64_t big = int64_t{1} << 40;
  EXPECT_EQ(Plan({big, 1}, {1, big}).result, BroadcastResult::kIncompatible);
}

TEST(BroadcastIndexTest, TooManyAlternatingDims) {
  // Each dim flips which operand is broadcast: nothing merges.
  std::vector<int64_t> x, y;
  for (int d = 0; d < 9; ++d) {
    x.push_back(d % 2 == 0 ? 2 : 1);
    y.push_back(d % 2 == 0 ? 1 : 2);
  }
  const Planned nine = Plan(x, y);
  EXPECT_EQ(nine.result, BroadcastResult::kTooManyDims);
  EXPECT_EQ(nine.shape, std::vector<int64_t>(9, 2));  // still written
  x.pop_back();
  y.pop_back();
  const Planned eight = Plan(x, y);
  ASSERT_EQ(eight.result, BroadcastResult::kOk);
  EXPECT_EQ(eight.index.rank, 8);
}

// Random shapes of rank up to 5 with dims of 1 mixed in: every output element's offsets, in
// 64-bit and 32-bit arithmetic, match the unravelled reference.
TEST(BroadcastIndexTest, OffsetsMatchReferenceOnRandomShapes) {
  std::mt19937 rng(20261205);
  for (int trial = 0; trial < 500; ++trial) {
    const int rank = 1 + static_cast<int>(rng() % 5);
    std::vector<int64_t> out(rank), x, y;
    for (int d = 0; d < rank; ++d) out[d] = 1 + rng() % 4;
    const int x_rank = static_cast<int>(rng() % (rank + 1));
    const int y_rank = static_cast<int>(rng() % (rank + 1));
    for (int d = rank - x_rank; d < rank; ++d) x.push_back(rng() % 3 == 0 ? 1 : out[d]);
    for (int d = rank - y_rank; d < rank; ++d) y.push_back(rng() % 3 == 0 ? 1 : out[d]);
    const Planned p = Plan(x, y);
    ASSERT_EQ(p.result, BroadcastResult::kOk);
    int64_t n = 1;
    for (int64_t d : p.shape) n *= d;
    ASSERT_EQ(p.index.num_elements, n);
    for (int64_t i = 0; i < n; ++i) {
      int64_t xo, yo;
      p.index.Offsets(i, &xo, &yo);
      ASSERT_EQ(xo, ReferenceOffset(x, p.shape, i)) << "trial " << trial << " element " << i;
      ASSERT_EQ(yo, ReferenceOffset(y, p.shape, i)) << "trial " << trial << " element " << i;
      uint32_t xo32, yo32;
      p.index.Offsets(static_cast<uint32_t>(i), &xo32, &yo32);
      ASSERT_EQ(xo32, xo);
      ASSERT_EQ(yo32, yo);
    }
  }
}

}  // namespace
}  // namespace cuda
}  // namespace sluice
