// The Winograd transforms, vectorised over channels: eight channels at a time in a GCC vector of
// floats, the remaining ones one at a time, with the same sequence of operations, so a channel's
// value does not depend on which path computed it.
#include "kernels/cpu/linalg/winograd_transforms.h"

#include <algorithm>
#include <cstring>

namespace sluice {
namespace winograd {
namespace {

// Every helper is always inlined: each then takes the instruction set of the copy that calls it
// (below), and no vector crosses a call between code of different instruction sets.
#define SLUICE_WINOGRAD_INLINE inline __attribute__((always_inline))

// Eight floats; loads and stores go through memcpy, so no alignment is assumed.
typedef float Vec8 __attribute__((vector_size(32)));

template <typename V>
SLUICE_WINOGRAD_INLINE V Load(const float* p) {
  V v;
  std::memcpy(&v, p, sizeof(V));
  return v;
}

template <typename V>
SLUICE_WINOGRAD_INLINE void Store(float* p, V v) {
  std::memcpy(p, &v, sizeof(V));
}

template <typename V>
constexpr int kLanes = sizeof(V) / sizeof(float);

template <typename V>
SLUICE_WINOGRAD_INLINE V Splat(float x) {
  return V{} + x;
}

// ---- F(2x2, 3x3): B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1],
//      A^T = [1 1 1 0; 0 1 -1 -1] ----

template <typename V>
SLUICE_WINOGRAD_INLINE void InputRows2(const V d[4], V out[4]) {
  out[0] = d[0] - d[2];
  out[1] = d[1] + d[2];
  out[2] = d[2] - d[1];
  out[3] = d[1] - d[3];
}

template <typename V>
SLUICE_WINOGRAD_INLINE void OutputRows2(const V s[4], V out[2]) {
  out[0] = s[0] + s[1] + s[2];
  out[1] = s[1] - s[2] - s[3];
}

// ---- F(4x4, 3x3): B^T rows (4 0 -5 0 1 0), (0 -4 -4 1 1 0), (0 4 -4 -1 1 0),
//      (0 -2 -1 2 1 0), (0 2 -1 -2 1 0), (0 4 0 -5 0 1);
//      A^T rows (1 1 1 1 1 0), (0 1 -1 2 -2 0), (0 1 1 4 4 0), (0 1 -1 8 -8 1)
//      ----

template <typename V>
SLUICE_WINOGRAD_INLINE void InputRows4(const V d[6], V out[6]) {
  const V four = Splat<V>(4.0f), five = Splat<V>(5.0f), two = Splat<V>(2.0f);
  const V d4_minus_d2 = d[4] - d[2];
  const V p = d[4] - four * d[2];  // shared by rows 1 and 2
  const V q = four * d[1] - d[3];
  out[0] = four * d[0] - five * d[2] + d[4];
  out[1] = p - q;
  out[2] = p + q;
  const V r = two * (d[3] - d[1]);
  out[3] = d4_minus_d2 + r;
  out[4] = d4_minus_d2 - r;
  out[5] = four * d[1] - five * d[3] + d[5];
}

template <typename V>
SLUICE_WINOGRAD_INLINE void OutputRows4(const V s[6], V out[4]) {
  const V two = Splat<V>(2.0f), four = Splat<V>(4.0f), eight = Splat<V>(8.0f);
  const V a = s[1] + s[2], b = s[1] - s[2];
  const V c = s[3] + s[4], e = s[3] - s[4];
  out[0] = s[0] + a + c;
  out[1] = b + two * e;
  out[2] = a + four * c;
  out[3] = b + eight * e + s[5];
}

template <int kAlpha, typename V>
SLUICE_WINOGRAD_INLINE void InputRows(const V d[kAlpha], V out[kAlpha]) {
  if constexpr (kAlpha == 4) {
    InputRows2(d, out);
  } else {
    InputRows4(d, out);
  }
}

template <int kAlpha, typename V>
SLUICE_WINOGRAD_INLINE void OutputRows(const V s[kAlpha], V out[kAlpha - 2]) {
  if constexpr (kAlpha == 4) {
    OutputRows2(s, out);
  } else {
    OutputRows4(s, out);
  }
}

// One tile's input transform for the channels [c, c + lanes of V).
template <int kAlpha, typename V>
SLUICE_WINOGRAD_INLINE void InputTile(const TileGeometry& geo, const float* image, int64_t row0,
                                      int64_t col0, int64_t c, float* v, int64_t plane_stride) {
  const int64_t depth = geo.in_depth;
  V d[kAlpha][kAlpha];
  for (int i = 0; i < kAlpha; ++i) {
    const int64_t row = row0 + i;
    const bool row_in = row >= 0 && row < geo.in_rows;
    for (int j = 0; j < kAlpha; ++j) {
      const int64_t col = col0 + j;
      d[i][j] = row_in && col >= 0 && col < geo.in_cols
                    ? Load<V>(image + (row * geo.in_cols + col) * depth + c)
                    : V{};
    }
  }
  // Columns first (each row of d times B), then rows (B^T times the result).
  V t[kAlpha][kAlpha];
  for (int i = 0; i < kAlpha; ++i) InputRows<kAlpha>(d[i], t[i]);
  for (int j = 0; j < kAlpha; ++j) {
    V column[kAlpha], out[kAlpha];
    for (int i = 0; i < kAlpha; ++i) column[i] = t[i][j];
    InputRows<kAlpha>(column, out);
    for (int i = 0; i < kAlpha; ++i) Store(v + (i * kAlpha + j) * plane_stride + c, out[i]);
  }
}

template <typename V>
SLUICE_WINOGRAD_INLINE V Activate(Activation activation, float leaky_alpha, V x) {
  const V zero = V{};
  switch (activation) {
    case Activation::kNone:
      return x;
    case Activation::kRelu:
      // A NaN compares false and stays NaN, as in TensorFlow's Relu.
      return x < zero ? zero : x;
    case Activation::kRelu6: {
      const V six = Splat<V>(6.0f);
      const V low = x < zero ? zero : x;
      return low > six ? six : low;
    }
    case Activation::kLeakyRelu:
      return x < zero ? Splat<V>(leaky_alpha) * x : x;
  }
  return x;
}

// One tile's output transform and epilogue for the channels [k, k + lanes of V).
template <int kAlpha, typename V>
SLUICE_WINOGRAD_INLINE void OutputTile(const TileGeometry& geo, const float* m,
                                       int64_t plane_stride, float* image, int64_t row0,
                                       int64_t col0, int64_t k, const OutputEpilogue& epilogue) {
  constexpr int kM = kAlpha - 2;
  V s[kAlpha][kM];
  for (int i = 0; i < kAlpha; ++i) {
    V row[kAlpha];
    for (int j = 0; j < kAlpha; ++j) row[j] = Load<V>(m + (i * kAlpha + j) * plane_stride + k);
    OutputRows<kAlpha>(row, s[i]);
  }
  const V bias = epilogue.bias != nullptr ? Load<V>(epilogue.bias + k) : V{};
  const int64_t depth = geo.out_depth;
  for (int j = 0; j < kM; ++j) {
    V column[kAlpha], y[kM];
    for (int i = 0; i < kAlpha; ++i) column[i] = s[i][j];
    OutputRows<kAlpha>(column, y);
    const int64_t col = col0 + j;
    if (col >= geo.out_cols) continue;
    for (int i = 0; i < kM; ++i) {
      const int64_t row = row0 + i;
      if (row >= geo.out_rows) break;
      float* out = image + (row * geo.out_cols + col) * depth + k;
      V x = y[i];
      if (epilogue.bias != nullptr) x = x + bias;
      if (epilogue.add_to_output) x = x + Load<V>(out);
      Store(out, Activate(epilogue.activation, epilogue.leaky_alpha, x));
    }
  }
}

struct TilePosition {
  int64_t image, row0,
      col0;  // row0, col0: the tile's first output row and column
};

SLUICE_WINOGRAD_INLINE TilePosition PositionOf(const TileGeometry& geo, int64_t tile) {
  const int64_t per_image = geo.tile_rows() * geo.tile_cols();
  const int64_t in_image = tile % per_image;
  return {tile / per_image, in_image / geo.tile_cols() * geo.m, in_image % geo.tile_cols() * geo.m};
}

template <int kAlpha>
SLUICE_WINOGRAD_INLINE void InputTiles(const TileGeometry& geo, const float* input,
                                       int64_t first_tile, int64_t tile_count, int64_t plane_stride,
                                       float* v) {
  const int64_t depth = geo.in_depth;
  const int64_t vector_end = depth - depth % kLanes<Vec8>;
  for (int64_t r = 0; r < tile_count; ++r) {
    const TilePosition p = PositionOf(geo, first_tile + r);
    const float* image = input + p.image * geo.in_rows * geo.in_cols * depth;
    float* row = v + r * depth;
    // The patch of output tile (row0, col0) starts at input (row0 - pad_top, col0 - pad_left).
    const int64_t in_row0 = p.row0 - geo.pad_top, in_col0 = p.col0 - geo.pad_left;
    int64_t c = 0;
    for (; c < vector_end; c += kLanes<Vec8>) {
      InputTile<kAlpha, Vec8>(geo, image, in_row0, in_col0, c, row, plane_stride);
    }
    for (; c < depth; ++c) {
      InputTile<kAlpha, float>(geo, image, in_row0, in_col0, c, row, plane_stride);
    }
  }
}

template <int kAlpha>
SLUICE_WINOGRAD_INLINE void OutputTiles(const TileGeometry& geo, const float* products,
                                        int64_t first_tile, int64_t tile_count,
                                        int64_t plane_stride, const OutputEpilogue& epilogue,
                                        float* output) {
  const int64_t depth = geo.out_depth;
  const int64_t vector_end = depth - depth % kLanes<Vec8>;
  for (int64_t r = 0; r < tile_count; ++r) {
    const TilePosition p = PositionOf(geo, first_tile + r);
    float* image = output + p.image * geo.out_rows * geo.out_cols * depth;
    const float* row = products + r * depth;
    int64_t k = 0;
    for (; k < vector_end; k += kLanes<Vec8>) {
      OutputTile<kAlpha, Vec8>(geo, row, plane_stride, image, p.row0, p.col0, k, epilogue);
    }
    for (; k < depth; ++k) {
      OutputTile<kAlpha, float>(geo, row, plane_stride, image, p.row0, p.col0, k, epilogue);
    }
  }
}

// G for m = 2: rows (1 0 0), (1/2 1/2 1/2), (1/2 -1/2 1/2), (0 0 1); for m = 4: (1/4 0 0), (-1/6
// -1/6 -1/6), (-1/6 1/6 -1/6), (1/24 1/12 1/6), (1/24 -1/12 1/6), (0 0 1).
void FilterRows(int m, const double g[3], double out[]) {
  if (m == 2) {
    out[0] = g[0];
    out[1] = (g[0] + g[1] + g[2]) / 2;
    out[2] = (g[0] - g[1] + g[2]) / 2;
    out[3] = g[2];
    return;
  }
  out[0] = g[0] / 4;
  out[1] = -(g[0] + g[1] + g[2]) / 6;
  out[2] = -(g[0] - g[1] + g[2]) / 6;
  out[3] = g[0] / 24 + g[1] / 12 + g[2] / 6;
  out[4] = g[0] / 24 - g[1] / 12 + g[2] / 6;
  out[5] = g[2];
}

}  // namespace

void TransformFilter(int m, const float* hwio, int64_t in_depth, int64_t out_depth,
                     int64_t u_row_stride, float* u) {
  const int alpha = m + 2;
  const int64_t plane = in_depth * u_row_stride;
  for (int64_t c = 0; c < in_depth; ++c) {
    for (int64_t k = 0; k < out_depth; ++k) {
      double g[3][3];
      for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) g[i][j] = hwio[((i * 3 + j) * in_depth + c) * out_depth + k];
      }
      // G g: each column of g through G, then each row of the result through G (G g G^T).
      double gg[6][3];
      for (int j = 0; j < 3; ++j) {
        const double column[3] = {g[0][j], g[1][j], g[2][j]};
        double out[6];
        FilterRows(m, column, out);
        for (int i = 0; i < alpha; ++i) gg[i][j] = out[i];
      }
      for (int i = 0; i < alpha; ++i) {
        double out[6];
        FilterRows(m, gg[i], out);
        for (int j = 0; j < alpha; ++j) {
          u[(i * alpha + j) * plane + c * u_row_stride + k] = static_cast<float>(out[j]);
        }
      }
    }
  }
  // Columns past out_depth pad the rows (the products never read them); zero them so the buffer
  // holds no uninitialised values.
  for (int xi = 0; xi < alpha * alpha; ++xi) {
    for (int64_t c = 0; c < in_depth; ++c) {
      float* row = u + xi * plane + c * u_row_stride;
      std::fill(row + out_depth, row + u_row_stride, 0.0f);
    }
  }
}

namespace {

// Each transform is compiled twice, for AVX2 and for the baseline, and picked on the first
// call by what the CPU supports. The AVX2 copy does not enable FMA, so both compute the same
// values. (GCC's target_clones would pick through an ifunc, which the dynamic loader resolves
// before a sanitizer's runtime is up; a ThreadSanitizer build then crashes at start.)
void InputBaseline(const TileGeometry& geo, const float* input, int64_t first_tile,
                   int64_t tile_count, int64_t plane_stride, float* v) {
  if (geo.m == 2) {
    InputTiles<4>(geo, input, first_tile, tile_count, plane_stride, v);
  } else {
    InputTiles<6>(geo, input, first_tile, tile_count, plane_stride, v);
  }
}

__attribute__((target("avx2"))) void InputAvx2(const TileGeometry& geo, const float* input,
                                               int64_t first_tile, int64_t tile_count,
                                               int64_t plane_stride, float* v) {
  if (geo.m == 2) {
    InputTiles<4>(geo, input, first_tile, tile_count, plane_stride, v);
  } else {
    InputTiles<6>(geo, input, first_tile, tile_count, plane_stride, v);
  }
}

void OutputBaseline(const TileGeometry& geo, const float* products, int64_t first_tile,
                    int64_t tile_count, int64_t plane_stride, const OutputEpilogue& epilogue,
                    float* output) {
  if (geo.m == 2) {
    OutputTiles<4>(geo, products, first_tile, tile_count, plane_stride, epilogue, output);
  } else {
    OutputTiles<6>(geo, products, first_tile, tile_count, plane_stride, epilogue, output);
  }
}

__attribute__((target("avx2"))) void OutputAvx2(const TileGeometry& geo, const float* products,
                                                int64_t first_tile, int64_t tile_count,
                                                int64_t plane_stride,
                                                const OutputEpilogue& epilogue, float* output) {
  if (geo.m == 2) {
    OutputTiles<4>(geo, products, first_tile, tile_count, plane_stride, epilogue, output);
  } else {
    OutputTiles<6>(geo, products, first_tile, tile_count, plane_stride, epilogue, output);
  }
}

bool HasAvx2() {
  static const bool avx2 = __builtin_cpu_supports("avx2");
  return avx2;
}

}  // namespace

void TransformInputTiles(const TileGeometry& geo, const float* input, int64_t first_tile,
                         int64_t tile_count, int64_t plane_stride, float* v) {
  (HasAvx2() ? InputAvx2 : InputBaseline)(geo, input, first_tile, tile_count, plane_stride, v);
}

void TransformOutputTiles(const TileGeometry& geo, const float* products, int64_t first_tile,
                          int64_t tile_count, int64_t plane_stride, const OutputEpilogue& epilogue,
                          float* output) {
  (HasAvx2() ? OutputAvx2 : OutputBaseline)(geo, products, first_tile, tile_count, plane_stride,
                                            epilogue, output);
}

}  // namespace winograd
}  // namespace sluice
