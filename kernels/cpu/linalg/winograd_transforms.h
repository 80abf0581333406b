// The three transforms of Winograd's minimal filtering for 3x3 convolutions, F(m x m, 3 x 3) with
// output tiles of m = 2 or m = 4 (input tiles of alpha = m + 2), on channels-last data.
//
// A convolution of stride 1 splits its output into m x m tiles. Each tile is computed from an alpha
// x alpha input patch d and the filter g as Y = A^T [(G g G^T) .* (B^T d B)] A: the elementwise
// product in the middle, summed over input channels, is alpha^2 independent matrix products (tiles
// x in_depth times in_depth x out_depth), which the caller runs as GEMMs. The transforms around
// them are what this file holds:
//  - TransformFilter: U[xi][c][k] = (G g_ck G^T)[xi], computed in double and rounded once;
//  - TransformInputTiles: V[xi][t][c] = (B^T d_tc B)[xi] for a run of tiles;
//  - TransformOutputTiles: Y = A^T M_tk A for a run of tiles, then the epilogue (bias, a residual
//    addend, ReLU, ReLU6 or LeakyReLU), stored into the output where the tile lies inside it.
// The matrices are Lavin and Gray's (interpolation points 0, +-1, +-2 and infinity for m = 4; 0,
// +-1 and infinity for m = 2). The arithmetic is a fixed sequence of float adds and multiplies (no
// fused multiply-add), so the result is the same on every CPU; the transforms run with AVX2 where
// the CPU has it and SSE2 otherwise, chosen on the first call.
//
// Layouts: the input is NHWC [batch, rows, cols, in_depth], the filter HWIO [3, 3, in_depth,
// out_depth], the output NHWC [batch, out_rows, out_cols, out_depth]. Tile t is (image, tile row,
// tile col) in row-major order. In V and M, plane xi holds `tile_count` rows of `depth` floats,
// `plane_stride` floats apart.
#ifndef SLUICE_KERNELS_CPU_LINALG_WINOGRAD_TRANSFORMS_H_
#define SLUICE_KERNELS_CPU_LINALG_WINOGRAD_TRANSFORMS_H_

#include <cstdint>

namespace sluice {
namespace winograd {

// The shape of one stride-1 3x3 convolution split into m x m output tiles.
struct TileGeometry {
  int m = 4;  // output tile size: 2 or 4
  int64_t batch = 0;
  int64_t in_rows = 0, in_cols = 0, in_depth = 0;
  int64_t out_rows = 0, out_cols = 0, out_depth = 0;
  int64_t pad_top = 0, pad_left = 0;

  int alpha() const { return m + 2; }
  int64_t tile_rows() const { return (out_rows + m - 1) / m; }
  int64_t tile_cols() const { return (out_cols + m - 1) / m; }
  int64_t tiles() const { return batch * tile_rows() * tile_cols(); }
};

enum class Activation { kNone, kRelu, kRelu6, kLeakyRelu };

// What the output transform applies to each transformed value, in this order: + bias[k] (bias may
// be null), + the output's previous value (add_to_output: a residual addend already copied there),
// then the activation.
struct OutputEpilogue {
  const float* bias = nullptr;
  bool add_to_output = false;
  Activation activation = Activation::kNone;
  float leaky_alpha = 0.0f;  // kLeakyRelu: x < 0 ? leaky_alpha * x : x
};

// u: alpha^2 planes of [in_depth][u_row_stride] floats (u_row_stride >= out_depth).
void TransformFilter(int m, const float* hwio, int64_t in_depth, int64_t out_depth,
                     int64_t u_row_stride, float* u);

// Transforms tiles [first_tile, first_tile + tile_count) of `input` into v: plane xi row r (tile
// first_tile + r) at v + xi * plane_stride + r * in_depth.
void TransformInputTiles(const TileGeometry& geo, const float* input, int64_t first_tile,
                         int64_t tile_count, int64_t plane_stride, float* v);

// Inverse-transforms the products of tiles [first_tile, first_tile + tile_count): plane xi row r of
// `products` (at products + xi * plane_stride + r * out_depth) holds tile first_tile + r's values;
// writes the epilogue's result into `output`.
void TransformOutputTiles(const TileGeometry& geo, const float* products, int64_t first_tile,
                          int64_t tile_count, int64_t plane_stride, const OutputEpilogue& epilogue,
                          float* output);

}  // namespace winograd
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_LINALG_WINOGRAD_TRANSFORMS_H_
