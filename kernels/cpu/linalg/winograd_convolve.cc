#include "kernels/cpu/linalg/winograd_convolve.h"

#include <omp.h>

#include <algorithm>
#include <atomic>

#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "oneapi/dnnl/dnnl.h"

namespace sluice {
namespace winograd {
namespace {

// Floats of one block's transformed input (V) and products (M), rounded up to 16 floats so every
// thread's part of the scratch stays 64-byte aligned.
int64_t BlockFloats(const TileGeometry& geo, int64_t block_tiles) {
  const int64_t planes = geo.alpha() * geo.alpha();
  const int64_t floats = planes * block_tiles * (geo.in_depth + geo.out_depth);
  return (floats + 15) / 16 * 16;
}

// With fewer blocks than this per thread, the last round of blocks leaves threads idle for too
// large a share of the time, and the phases are split instead.
constexpr int64_t kMinBlocksPerThread = 4;

}  // namespace

int64_t BlockTiles(const TileGeometry& geo) {
  // Below this many rows oneDNN's GEMM kernels lose much of their speed.
  constexpr int64_t kMinTiles = 48;
  constexpr int64_t kCacheBytes = 512 * 1024;
  const int64_t planes = geo.alpha() * geo.alpha();
  const int64_t per_tile = planes * (geo.in_depth + geo.out_depth) * int64_t{sizeof(float)};
  const int64_t tiles = std::max(kMinTiles, kCacheBytes / per_tile);
  return std::min(tiles, geo.tiles());
}

int64_t ScratchFloats(const TileGeometry& geo, int threads) {
  threads = std::max(threads, 1);
  const int64_t blocks = (geo.tiles() + BlockTiles(geo) - 1) / BlockTiles(geo);
  if (threads == 1 || blocks >= kMinBlocksPerThread * threads) {
    return BlockFloats(geo, BlockTiles(geo)) * std::min<int64_t>(threads, blocks);
  }
  return BlockFloats(geo, geo.tiles());
}

absl::Status Convolve(const TileGeometry& geo, const float* u, int64_t u_row_stride,
                      const float* input, const OutputEpilogue& epilogue, int threads,
                      float* scratch, float* output) {
  const int64_t tiles = geo.tiles();
  const int64_t block_tiles = BlockTiles(geo);
  const int64_t blocks = (tiles + block_tiles - 1) / block_tiles;
  const int planes = geo.alpha() * geo.alpha();
  const int64_t in_depth = geo.in_depth, out_depth = geo.out_depth;
  const int64_t u_plane = in_depth * u_row_stride;
  threads = std::max(threads, 1);
  std::atomic<int> failed_status{dnnl_success};
  // Inside a parallel region oneDNN runs each GEMM on the calling thread alone.
  auto gemm = [&](int xi, int64_t rows, const float* v, float* m) {
    const dnnl_status_t s =
        dnnl_sgemm('N', 'N', rows, out_depth, in_depth, 1.0f, v + xi * rows * in_depth, in_depth,
                   u + xi * u_plane, u_row_stride, 0.0f, m + xi * rows * out_depth, out_depth);
    if (s != dnnl_success) failed_status.store(s);
  };

  if (threads == 1 || blocks >= kMinBlocksPerThread * threads) {
    // Blocks: each thread runs whole blocks, its V and M in its own part of the scratch.
    const int64_t per_thread = BlockFloats(geo, block_tiles);
    threads = static_cast<int>(std::min<int64_t>(threads, blocks));
#pragma omp parallel num_threads(threads)
    {
      float* v = scratch + omp_get_thread_num() * per_thread;
      float* m = v + planes * block_tiles * in_depth;
#pragma omp for schedule(static)
      for (int64_t block = 0; block < blocks; ++block) {
        const int64_t first = block * block_tiles;
        const int64_t count = std::min(block_tiles, tiles - first);
        // Each plane's rows are `count` apart, so the GEMMs see dense matrices.
        TransformInputTiles(geo, input, first, count, count * in_depth, v);
        for (int xi = 0; xi < planes; ++xi) gemm(xi, count, v, m);
        TransformOutputTiles(geo, m, first, count, count * out_depth, epilogue, output);
      }
    }
  } else {
    // Too few blocks to share: all tiles at once, the threads splitting each phase (tiles for the
    // transforms, planes for the products).
    float* v = scratch;
    float* m = v + planes * tiles * in_depth;
#pragma omp parallel num_threads(threads)
    {
      // The team may be smaller than asked for (nested in another region, say).
      const int64_t chunk = (tiles + omp_get_num_threads() - 1) / omp_get_num_threads();
      const int64_t first = std::min(tiles, omp_get_thread_num() * chunk);
      const int64_t count = std::min(chunk, tiles - first);
      if (count > 0) {
        TransformInputTiles(geo, input, first, count, tiles * in_depth, v + first * in_depth);
      }
#pragma omp barrier
#pragma omp for schedule(static)
      for (int xi = 0; xi < planes; ++xi) gemm(xi, tiles, v, m);
      if (count > 0) {
        TransformOutputTiles(geo, m + first * out_depth, first, count, tiles * out_depth, epilogue,
                             output);
      }
    }
  }
  if (failed_status.load() != dnnl_success) {
    return errors::Internal("oneDNN sgemm failed in a Winograd convolution (status ",
                            static_cast<int>(failed_status.load()), ")");
  }
  return absl::OkStatus();
}

}  // namespace winograd
}  // namespace sluice
