// StridedView's offsets against a plain walk over the view's coordinates, and when it keeps to
// 32-bit arithmetic.
#include "kernels/cuda/strided_view.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace sluice {
namespace cuda {
namespace {

// Every element's offset by an odometer over the coordinates, outermost first.
std::vector<int64_t> WalkOffsets(const std::vector<int64_t>& dims,
                                 const std::vector<int64_t>& strides) {
  std::vector<int64_t> coord(dims.size(), 0);
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  std::vector<int64_t> offsets;
  for (int64_t i = 0; i < n; ++i) {
    int64_t off = 0;
    for (size_t d = 0; d < dims.size(); ++d) off += coord[d] * strides[d];
    offsets.push_back(off);
    for (int d = static_cast<int>(dims.size()) - 1; d >= 0; --d) {
      if (++coord[d] < dims[d]) break;
      coord[d] = 0;
    }
  }
  return offsets;
}

void ExpectOffsets(const std::vector<int64_t>& dims, const std::vector<int64_t>& strides) {
  StridedView view;
  ASSERT_TRUE(MakeStridedView(dims.data(), strides.data(), static_cast<int>(dims.size()), &view));
  const std::vector<int64_t> expected = WalkOffsets(dims, strides);
  ASSERT_EQ(view.num_elements, static_cast<int64_t>(expected.size()));
  for (int64_t i = 0; i < view.num_elements; ++i) {
    ASSERT_EQ(view.Offset<int64_t>(i), expected[i]) << "element " << i;
    if (view.fits_int32) {
      ASSERT_EQ(view.Offset<int32_t>(static_cast<int32_t>(i)), expected[i]) << "element " << i;
    }
  }
}

TEST(StridedViewTest, TransposeTileReverseAndBroadcastOffsets) {
  ExpectOffsets({3, 4}, {1, 3});              // transpose of a [4, 3] matrix
  ExpectOffsets({2, 3, 5}, {15, 1, 3});       // [2, 5, 3] with its last two dims swapped
  ExpectOffsets({2, 3, 2, 3}, {0, 3, 0, 1});  // Tile of [3, 3] by [2, 2], as [m, d] pairs
  ExpectOffsets({4, 6}, {-6, -1});            // ReverseV2 of both dims (from the last element)
  ExpectOffsets({5, 7}, {0, 1});              // BroadcastTo of a row
  ExpectOffsets({7}, {3});                    // every third element
  ExpectOffsets({2, 2, 2, 2, 2, 2, 2, 2}, {1, 2, 4, 8, 16, 32, 64, 128});  // 8 dims reversed
}

// Where each output element of a tiled transpose comes from, by walking the tiles as
// TiledTransposeKernel does (a tile read along its rows into tile[column][row], written along
// its columns); -1 for an element no tile writes, -2 for one written twice.
std::vector<int64_t> TiledSources(const TiledTransposeView& v, int64_t num_elements) {
  constexpr int64_t kTile = TiledTransposeView::kTile;
  std::vector<int64_t> sources(num_elements, -1);
  for (int64_t t = 0; t < v.num_tiles(); ++t) {
    const int64_t per_batch = v.row_tiles * v.col_tiles;
    const int64_t batch = t / per_batch;
    const int64_t row0 = t % per_batch / v.col_tiles * kTile;
    const int64_t col0 = t % per_batch % v.col_tiles * kTile;
    int64_t src_base;
    int64_t out_base;
    v.BatchOffsets(batch, &src_base, &out_base);
    int64_t tile[kTile][kTile];
    for (int64_t x = 0; x < kTile; ++x) {
      for (int64_t j = 0; j < kTile; ++j) {
        const int64_t row = row0 + x;
        const int64_t col = col0 + j;
        if (row < v.rows && col < v.cols) tile[j][x] = src_base + row + col * v.col_src_stride;
      }
    }
    for (int64_t x = 0; x < kTile; ++x) {
      for (int64_t j = 0; j < kTile; ++j) {
        const int64_t row = row0 + j;
        const int64_t col = col0 + x;
        if (row >= v.rows || col >= v.cols) continue;
        int64_t& slot = sources[out_base + row * v.row_out_stride + col];
        slot = slot == -1 ? tile[x][j] : -2;
      }
    }
  }
  return sources;
}

// The view of Transpose(x, perm) for x of `dims`, merged as StridedCopy would leave it (these
// cases merge nothing).
StridedView TransposeView(const std::vector<int64_t>& dims, const std::vector<int>& perm) {
  std::vector<int64_t> in_strides(dims.size(), 1);
  for (int d = static_cast<int>(dims.size()) - 2; d >= 0; --d) {
    in_strides[d] = in_strides[d + 1] * dims[d + 1];
  }
  std::vector<int64_t> out_dims;
  std::vector<int64_t> strides;
  for (int p : perm) {
    out_dims.push_back(dims[p]);
    strides.push_back(in_strides[p]);
  }
  StridedView view;
  EXPECT_TRUE(
      MakeStridedView(out_dims.data(), strides.data(), static_cast<int>(perm.size()), &view));
  return view;
}

void ExpectTiledLikeTheGather(const StridedView& view) {
  TiledTransposeView tiled;
  ASSERT_TRUE(MakeTiledTransposeView(view, &tiled));
  const std::vector<int64_t> expected =
      WalkOffsets(std::vector<int64_t>(view.dims, view.dims + view.rank),
                  std::vector<int64_t>(view.strides, view.strides + view.rank));
  const std::vector<int64_t> sources = TiledSources(tiled, view.num_elements);
  for (int64_t i = 0; i < view.num_elements; ++i) {
    ASSERT_EQ(sources[i], expected[i]) << "output element " << i;
  }
}

TEST(TiledTransposeViewTest, TilesCopyEveryElementFromWhereTheGatherReadsIt) {
  ExpectTiledLikeTheGather(TransposeView({37, 53}, {1, 0}));                   // edges of both dims
  ExpectTiledLikeTheGather(TransposeView({64, 32}, {1, 0}));                   // whole tiles
  ExpectTiledLikeTheGather(TransposeView({3, 40, 70}, {0, 2, 1}));             // a batch
  ExpectTiledLikeTheGather(TransposeView({2, 33, 5, 40}, {0, 3, 2, 1}));       // batches both sides
  ExpectTiledLikeTheGather(TransposeView({9, 2, 65}, {2, 1, 0}));              // batch between
  ExpectTiledLikeTheGather(TransposeView({4, 3, 2, 17, 9}, {4, 2, 1, 0, 3}));  // 3 batch dims
  // A reversed transpose and a broadcast batch (strides of Tile and BroadcastTo views).
  const int64_t reversed_dims[] = {40, 33};
  const int64_t reversed_strides[] = {1, -40};
  StridedView reversed;
  ASSERT_TRUE(MakeStridedView(reversed_dims, reversed_strides, 2, &reversed));
  ExpectTiledLikeTheGather(reversed);
  const int64_t broadcast_dims[] = {4, 20, 30};
  const int64_t broadcast_strides[] = {0, 1, 20};
  StridedView broadcast;
  ASSERT_TRUE(MakeStridedView(broadcast_dims, broadcast_strides, 3, &broadcast));
  ExpectTiledLikeTheGather(broadcast);
}

TEST(TiledTransposeViewTest, OnlyTransposesOfLongEnoughDimsAreTiled) {
  TiledTransposeView tiled;
  // The innermost dim read contiguously, reversed or broadcast: the gather is coalesced.
  EXPECT_FALSE(MakeTiledTransposeView(TransposeView({40, 50}, {0, 1}), &tiled));
  const int64_t dims[] = {40, 50};
  for (int64_t last_stride : {-1, 0}) {
    const int64_t strides[] = {1, last_stride};
    StridedView view;
    ASSERT_TRUE(MakeStridedView(dims, strides, 2, &view));
    EXPECT_FALSE(MakeTiledTransposeView(view, &tiled)) << last_stride;
  }
  // No dim read with stride 1 (every third column of a transpose).
  const int64_t every_third[] = {3, 150};
  StridedView strided;
  ASSERT_TRUE(MakeStridedView(dims, every_third, 2, &strided));
  EXPECT_FALSE(MakeTiledTransposeView(strided, &tiled));
  // Tile dims shorter than kMinDim, and a single dim.
  EXPECT_FALSE(MakeTiledTransposeView(TransposeView({5, 300}, {1, 0}), &tiled));
  EXPECT_FALSE(MakeTiledTransposeView(TransposeView({300, 5}, {1, 0}), &tiled));
  EXPECT_FALSE(MakeTiledTransposeView(TransposeView({300}, {0}), &tiled));
  // The longest stride-1 dim is the row dim.
  EXPECT_TRUE(MakeTiledTransposeView(TransposeView({37, 53}, {1, 0}), &tiled));
  EXPECT_EQ(tiled.rows, 53);
  EXPECT_EQ(tiled.cols, 37);
  EXPECT_EQ(tiled.row_out_stride, 37);
  EXPECT_EQ(tiled.col_src_stride, 53);
  EXPECT_EQ(tiled.num_tiles(), 4);
}

TEST(StridedViewTest, RefusesNoDimsAndMoreThanEight) {
  StridedView view;
  const int64_t dims[9] = {2, 2, 2, 2, 2, 2, 2, 2, 2};
  const int64_t strides[9] = {1, 2, 4, 8, 16, 32, 64, 128, 256};
  EXPECT_FALSE(MakeStridedView(dims, strides, 0, &view));
  EXPECT_FALSE(MakeStridedView(dims, strides, 9, &view));
  EXPECT_TRUE(MakeStridedView(dims, strides, 8, &view));
}

TEST(StridedViewTest, Uses32BitsOnlyWhenIndicesAndOffsetsFit) {
  StridedView view;
  const int64_t small_dims[2] = {1000, 1000};
  const int64_t small_strides[2] = {1, 1000};
  ASSERT_TRUE(MakeStridedView(small_dims, small_strides, 2, &view));
  EXPECT_TRUE(view.fits_int32);
  // Few elements, but far apart: the offsets need 64 bits.
  const int64_t far_dims[2] = {4, 4};
  const int64_t far_strides[2] = {int64_t{1} << 30, 1};
  ASSERT_TRUE(MakeStridedView(far_dims, far_strides, 2, &view));
  EXPECT_FALSE(view.fits_int32);
  EXPECT_EQ(view.Offset<int64_t>(15), 3 * (int64_t{1} << 30) + 3);
  // Negative strides count by magnitude.
  const int64_t reverse_strides[2] = {-(int64_t{1} << 29), -1};
  ASSERT_TRUE(MakeStridedView(far_dims, reverse_strides, 2, &view));
  EXPECT_TRUE(view.fits_int32);
  EXPECT_EQ(view.Offset<int32_t>(15), -3 * (1 << 29) - 3);
  // More than 2^31 elements.
  const int64_t big_dims[2] = {int64_t{1} << 16, int64_t{1} << 16};
  const int64_t big_strides[2] = {int64_t{1} << 16, 1};
  ASSERT_TRUE(MakeStridedView(big_dims, big_strides, 2, &view));
  EXPECT_FALSE(view.fits_int32);
}

TEST(PaddedViewTest, SourcesOfAPaddedMatrix) {
  // [2, 3] padded by (1, 0) rows and (2, 1) columns: [3, 6].
  PaddedView view;
  view.rank = 2;
  view.in_dims[0] = 2;
  view.in_dims[1] = 3;
  view.out_dims[0] = 3;
  view.out_dims[1] = 6;
  view.before[0] = 1;
  view.before[1] = 2;
  view.num_elements = 18;
  const int64_t expected[18] = {-1, -1, -1, -1, -1, -1,  //
                                -1, -1, 0,  1,  2,  -1,  //
                                -1, -1, 3,  4,  5,  -1};
  for (int64_t i = 0; i < 18; ++i) EXPECT_EQ(view.Source(i), expected[i]) << "element " << i;
}

// MirrorPad's two mirrors, on TensorFlow's documented example: [1,2,3] padded by 2 before and
// 2 after is [3,2,1,2,3,2,1] (REFLECT) and [2,1,1,2,3,3,2] (SYMMETRIC); then a matrix.
TEST(PaddedViewTest, SourcesOfMirrors) {
  PaddedView view;
  view.rank = 1;
  view.in_dims[0] = 3;
  view.out_dims[0] = 7;
  view.before[0] = 2;
  view.num_elements = 7;
  view.mirror = 1;
  const int64_t reflect[7] = {2, 1, 0, 1, 2, 1, 0};
  for (int64_t i = 0; i < 7; ++i) EXPECT_EQ(view.Source(i), reflect[i]) << "element " << i;
  view.mirror = 0;
  const int64_t symmetric[7] = {1, 0, 0, 1, 2, 2, 1};
  for (int64_t i = 0; i < 7; ++i) EXPECT_EQ(view.Source(i), symmetric[i]) << "element " << i;

  // [2, 3] padded by (1, 1) rows and (0, 2) columns, REFLECT: [4, 5].
  view.rank = 2;
  view.in_dims[0] = 2;
  view.in_dims[1] = 3;
  view.out_dims[0] = 4;
  view.out_dims[1] = 5;
  view.before[0] = 1;
  view.before[1] = 0;
  view.num_elements = 20;
  view.mirror = 1;
  const int64_t matrix[20] = {3, 4, 5, 4, 3,  //
                              0, 1, 2, 1, 0,  //
                              3, 4, 5, 4, 3,  //
                              0, 1, 2, 1, 0};
  for (int64_t i = 0; i < 20; ++i) EXPECT_EQ(view.Source(i), matrix[i]) << "element " << i;
}

// SelectView's three offsets against the same walk per operand, over Select's shapes as the
// CPU's BroadcastPlan merges them: a row-wise condition, a scalar one, and SelectV2 broadcasting
// all three operands.
void ExpectSelectOffsets(const std::vector<int64_t>& dims,
                         const std::vector<std::vector<int64_t>>& strides) {
  SelectView view;
  const int64_t* s[3] = {strides[0].data(), strides[1].data(), strides[2].data()};
  ASSERT_TRUE(MakeSelectView(dims.data(), s, static_cast<int>(dims.size()), &view));
  std::vector<int64_t> expected[3];
  for (int k = 0; k < 3; ++k) expected[k] = WalkOffsets(dims, strides[k]);
  ASSERT_EQ(view.num_elements, static_cast<int64_t>(expected[0].size()));
  ASSERT_TRUE(view.fits_int32);
  for (int64_t i = 0; i < view.num_elements; ++i) {
    int64_t c, t, e;
    view.Offsets<int64_t>(i, &c, &t, &e);
    ASSERT_EQ(c, expected[0][i]) << "element " << i;
    ASSERT_EQ(t, expected[1][i]) << "element " << i;
    ASSERT_EQ(e, expected[2][i]) << "element " << i;
    int32_t c32, t32, e32;
    view.Offsets<int32_t>(static_cast<int32_t>(i), &c32, &t32, &e32);
    ASSERT_EQ(c32, c);
    ASSERT_EQ(t32, t);
    ASSERT_EQ(e32, e);
  }
}

TEST(SelectViewTest, OffsetsOfEachOperand) {
  ExpectSelectOffsets({4, 6}, {{1, 0}, {6, 1}, {6, 1}});               // rows picked by a vector
  ExpectSelectOffsets({12}, {{0}, {1}, {1}});                          // a scalar condition
  ExpectSelectOffsets({2, 3, 4}, {{0, 4, 1}, {12, 0, 1}, {0, 0, 0}});  // SelectV2 broadcast
  SelectView view;
  const int64_t big[] = {int64_t{1} << 31};
  const int64_t zero[] = {0};
  const int64_t* s[3] = {zero, big, zero};
  const int64_t one_stride[] = {1};
  s[1] = one_stride;
  ASSERT_TRUE(MakeSelectView(big, s, 1, &view));
  EXPECT_FALSE(view.fits_int32);
  EXPECT_FALSE(MakeSelectView(big, s, 0, &view));
  EXPECT_FALSE(MakeSelectView(big, s, SelectView::kMaxDims + 1, &view));
}

// GatherView against a direct reading of Gather's definition: output [outer, n, inner], with
// batch_dims splitting outer into batches that each have their own n indices.
TEST(GatherViewTest, IndexPositionsAndSources) {
  const int64_t batch = 2, outer = 3, gather_dim = 5, n = 4, inner = 2;
  const GatherView view = MakeGatherView(batch, outer, gather_dim, n, inner);
  ASSERT_EQ(view.num_elements, batch * outer * n * inner);
  ASSERT_TRUE(view.fits_int32);
  int64_t i = 0;
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t k = 0; k < n; ++k) {
        for (int64_t j = 0; j < inner; ++j, ++i) {
          EXPECT_EQ(view.IndexPosition<int64_t>(i), b * n + k) << "element " << i;
          EXPECT_EQ(view.IndexPosition<int32_t>(static_cast<int32_t>(i)), b * n + k);
          const int64_t index = (k * 3 + 1) % gather_dim;
          const int64_t source = (((b * outer + o) * gather_dim) + index) * inner + j;
          EXPECT_EQ(view.Source<int64_t>(i, index), source) << "element " << i;
          EXPECT_EQ(view.Source<int32_t>(static_cast<int32_t>(i), static_cast<int32_t>(index)),
                    source);
        }
      }
    }
  }
  // Past 2^31 elements of params (or of the output) the arithmetic is 64-bit.
  EXPECT_FALSE(MakeGatherView(1, 1, int64_t{1} << 31, 1, 1).fits_int32);
  EXPECT_FALSE(MakeGatherView(1, 1, 2, int64_t{1} << 31, 1).fits_int32);
}

// GatherNdView's row offsets: params [4, 5, 3] indexed by pairs, slices of 3.
TEST(GatherNdViewTest, RowOffsetsAndBadRows) {
  GatherNdView view;
  view.depth = 2;
  view.dims[0] = 4;
  view.dims[1] = 5;
  view.strides[0] = 15;
  view.strides[1] = 3;
  view.slice = 3;
  const int64_t indices[] = {3, 1, 0, 4, 2, 5, -1, 0};
  EXPECT_EQ(view.RowOffset(indices, 0), 3 * 15 + 1 * 3);
  EXPECT_EQ(view.RowOffset(indices, 1), 4 * 3);
  EXPECT_EQ(view.RowOffset(indices, 2), -1);  // 5 is past the second dim
  EXPECT_EQ(view.RowOffset(indices, 3), -1);  // negative
  const int32_t narrow[] = {2, 2};
  EXPECT_EQ(view.RowOffset(narrow, 0), 2 * 15 + 2 * 3);
  view.depth = 0;  // no index columns: every row is all of params
  EXPECT_EQ(view.RowOffset(indices, 3), 0);
}

}  // namespace
}  // namespace cuda
}  // namespace sluice
