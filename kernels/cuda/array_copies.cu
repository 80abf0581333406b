// The CUDA data-movement kernels: a strided gather (one thread per output element, its source
// offset from the view's dims), constant padding, pitched row copies, Gather's and GatherNd's
// indexed slices,
// Select's choice between two operands and OneHot's rows. See array_launch.h.
//
// They copy by element size only, so one instantiation per size serves every dtype. A view
// that moves the innermost dim (a transpose) goes through shared memory in tiles
// (TiledTransposeView), so that its reads are as contiguous as its writes; other views are
// gathered one element per thread.
#include <cstdint>
#include <cstring>

#include "kernels/cuda/array_launch.h"
#include "kernels/cuda/launch_util.cu.h"
#include "kernels/cuda/strided_view.h"

namespace sluice {
namespace cuda {
namespace {

struct alignas(16) Bytes16 {
  uint64_t lo, hi;
};

// Returns fn(U{}) with U the plain type of `bytes` bytes (1, 2, 4, 8 or 16), which every copy
// below moves elements as; false, calling nothing, for any other size. fn returns bool.
template <typename Fn>
bool VisitElementSize(int bytes, Fn&& fn) {
  switch (bytes) {
    case 1:
      return fn(uint8_t{});
    case 2:
      return fn(uint16_t{});
    case 4:
      return fn(uint32_t{});
    case 8:
      return fn(uint64_t{});
    case 16:
      return fn(Bytes16{});
    default:
      return false;
  }
}

template <typename U, typename I>
__global__ void StridedGatherKernel(const U* src, U* dst, StridedView view) {
  const I n = static_cast<I>(view.num_elements);
  const I stride = static_cast<I>(GridStride());
  for (I i = static_cast<I>(GridStart()); i < n; i += stride) dst[i] = src[view.Offset(i)];
}

// Rows of threads per tile: each thread moves kTile / kTileRows elements of a tile each way.
constexpr int kTileRows = 8;

// One block per tile (looping over tiles past the grid): threadIdx.x walks the tile's rows on
// the read (source stride 1) and its columns on the write (output stride 1). The padding
// column keeps the column-wise reads of the shared tile free of bank conflicts.
template <typename U>
__global__ void TiledTransposeKernel(const U* src, U* dst, TiledTransposeView view) {
  constexpr int kTile = TiledTransposeView::kTile;
  __shared__ U tile[kTile][kTile + 1];
  const int64_t per_batch = view.row_tiles * view.col_tiles;
  const int64_t tiles = view.num_tiles();
  for (int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const int64_t batch = t / per_batch;
    const int64_t in_batch = t - batch * per_batch;
    const int64_t row0 = in_batch / view.col_tiles * kTile;
    const int64_t col0 = in_batch % view.col_tiles * kTile;
    int64_t src_base;
    int64_t out_base;
    view.BatchOffsets(batch, &src_base, &out_base);
    const int64_t read_row = row0 + threadIdx.x;
    for (int j = threadIdx.y; j < kTile; j += kTileRows) {
      const int64_t col = col0 + j;
      if (read_row < view.rows && col < view.cols) {
        tile[j][threadIdx.x] = src[src_base + read_row + col * view.col_src_stride];
      }
    }
    __syncthreads();
    const int64_t write_col = col0 + threadIdx.x;
    for (int j = threadIdx.y; j < kTile; j += kTileRows) {
      const int64_t row = row0 + j;
      if (row < view.rows && write_col < view.cols) {
        dst[out_base + row * view.row_out_stride + write_col] = tile[threadIdx.x][j];
      }
    }
    __syncthreads();  // the tile is refilled by the next iteration
  }
}

template <typename U>
void StridedGather(const void* src, void* dst, const StridedView& view, CUstream_st* stream) {
  const U* s = static_cast<const U*>(src);
  U* d = static_cast<U*>(dst);
  TiledTransposeView tiled;
  if (MakeTiledTransposeView(view, &tiled)) {
    constexpr int64_t kMaxTileBlocks = 1 << 16;
    const int64_t tiles = tiled.num_tiles();
    const unsigned blocks = static_cast<unsigned>(tiles < kMaxTileBlocks ? tiles : kMaxTileBlocks);
    TiledTransposeKernel<U>
        <<<blocks, dim3(TiledTransposeView::kTile, kTileRows), 0, stream>>>(s, d, tiled);
    return;
  }
  const unsigned blocks = BlocksFor(view.num_elements);
  if (view.fits_int32) {
    StridedGatherKernel<U, int32_t><<<blocks, kBlockThreads, 0, stream>>>(s, d, view);
  } else {
    StridedGatherKernel<U, int64_t><<<blocks, kBlockThreads, 0, stream>>>(s, d, view);
  }
}

// Units of U per row; every address and pitch is a multiple of sizeof(U).
template <typename U>
__global__ void CopyRowsKernel(const char* src, int64_t src_pitch, char* dst, int64_t dst_pitch,
                               int64_t row_units, int64_t rows) {
  const int64_t n = row_units * rows;
  for (int64_t i = GridStart(); i < n; i += GridStride()) {
    const int64_t r = i / row_units;
    const int64_t u = i - r * row_units;
    reinterpret_cast<U*>(dst + r * dst_pitch)[u] =
        reinterpret_cast<const U*>(src + r * src_pitch)[u];
  }
}

template <typename U>
void CopyRowsIn(const void* src, int64_t src_pitch, void* dst, int64_t dst_pitch, int64_t row_bytes,
                int64_t rows, CUstream_st* stream) {
  const int64_t units = row_bytes / static_cast<int64_t>(sizeof(U));
  CopyRowsKernel<U><<<BlocksFor(units * rows), kBlockThreads, 0, stream>>>(
      static_cast<const char*>(src), src_pitch, static_cast<char*>(dst), dst_pitch, units, rows);
}

template <typename U>
__global__ void PadKernel(const U* src, U* dst, PaddedView view, U pad_value) {
  for (int64_t i = GridStart(); i < view.num_elements; i += GridStride()) {
    const int64_t source = view.Source(i);
    dst[i] = source < 0 ? pad_value : src[source];
  }
}

template <typename U>
void Pad(const void* src, void* dst, const PaddedView& view, const void* pad_value,
         CUstream_st* stream) {
  U value;
  memcpy(&value, pad_value, sizeof(U));
  PadKernel<U><<<BlocksFor(view.num_elements), kBlockThreads, 0, stream>>>(
      static_cast<const U*>(src), static_cast<U*>(dst), view, value);
}

// Index is the indices' type; I the arithmetic's (int32_t when view.fits_int32).
template <typename U, typename Index, typename I>
__global__ void GatherKernel(const U* params, const Index* indices, U* out, GatherView view) {
  const I n = static_cast<I>(view.num_elements);
  const I stride = static_cast<I>(GridStride());
  for (I i = static_cast<I>(GridStart()); i < n; i += stride) {
    const int64_t index = static_cast<int64_t>(indices[view.IndexPosition(i)]);
    // A bad index reads nothing and writes zeros, as TensorFlow's GPU kernel does (its index
    // is in device memory, where the host cannot check it before the launch).
    out[i] =
        index >= 0 && index < view.gather_dim ? params[view.Source(i, static_cast<I>(index))] : U{};
  }
}

template <typename U, typename Index>
void Gather(const void* params, const void* indices, void* out, const GatherView& view,
            CUstream_st* stream) {
  const unsigned blocks = BlocksFor(view.num_elements);
  const U* p = static_cast<const U*>(params);
  const Index* x = static_cast<const Index*>(indices);
  U* o = static_cast<U*>(out);
  if (view.fits_int32) {
    GatherKernel<U, Index, int32_t><<<blocks, kBlockThreads, 0, stream>>>(p, x, o, view);
  } else {
    GatherKernel<U, Index, int64_t><<<blocks, kBlockThreads, 0, stream>>>(p, x, o, view);
  }
}

template <typename U>
bool GatherWithIndex(int index_bytes, const void* params, const void* indices, void* out,
                     const GatherView& view, CUstream_st* stream) {
  if (index_bytes == 4) {
    Gather<U, int32_t>(params, indices, out, view, stream);
  } else if (index_bytes == 8) {
    Gather<U, int64_t>(params, indices, out, view, stream);
  } else {
    return false;
  }
  return true;
}

template <typename U, typename I>
__global__ void SelectKernel(const bool* cond, const U* t, const U* e, U* out, SelectView view) {
  const I n = static_cast<I>(view.num_elements);
  const I stride = static_cast<I>(GridStride());
  for (I i = static_cast<I>(GridStart()); i < n; i += stride) {
    I c, to, eo;
    view.Offsets(i, &c, &to, &eo);
    out[i] = cond[c] ? t[to] : e[eo];
  }
}

template <typename U>
void Select(const bool* cond, const void* t, const void* e, void* out, const SelectView& view,
            CUstream_st* stream) {
  const unsigned blocks = BlocksFor(view.num_elements);
  const U* tp = static_cast<const U*>(t);
  const U* ep = static_cast<const U*>(e);
  U* o = static_cast<U*>(out);
  if (view.fits_int32) {
    SelectKernel<U, int32_t><<<blocks, kBlockThreads, 0, stream>>>(cond, tp, ep, o, view);
  } else {
    SelectKernel<U, int64_t><<<blocks, kBlockThreads, 0, stream>>>(cond, tp, ep, o, view);
  }
}

template <typename U, typename Index>
__global__ void GatherNdKernel(const U* params, const Index* indices, U* out, GatherNdView view) {
  for (int64_t i = GridStart(); i < view.num_elements; i += GridStride()) {
    const int64_t row = i / view.slice;
    const int64_t offset = view.RowOffset(indices, row);
    // A bad index row gives zeros, as TensorFlow's GPU kernel (see GatherKernel).
    out[i] = offset < 0 ? U{} : params[offset + (i - row * view.slice)];
  }
}

template <typename U>
bool GatherNd(int index_bytes, const void* params, const void* indices, void* out,
              const GatherNdView& view, CUstream_st* stream) {
  const unsigned blocks = BlocksFor(view.num_elements);
  const U* p = static_cast<const U*>(params);
  U* o = static_cast<U*>(out);
  if (index_bytes == 4) {
    GatherNdKernel<U, int32_t>
        <<<blocks, kBlockThreads, 0, stream>>>(p, static_cast<const int32_t*>(indices), o, view);
  } else if (index_bytes == 8) {
    GatherNdKernel<U, int64_t>
        <<<blocks, kBlockThreads, 0, stream>>>(p, static_cast<const int64_t*>(indices), o, view);
  } else {
    return false;
  }
  return true;
}

template <typename U, typename Index>
__global__ void OneHotKernel(const Index* indices, const U* on, const U* off, U* out, int64_t depth,
                             int64_t suffix, int64_t n) {
  const U on_value = *on;
  const U off_value = *off;
  for (int64_t i = GridStart(); i < n; i += GridStride()) {
    const int64_t s = i % suffix;
    const int64_t row = i / suffix;  // p * depth + d
    const int64_t d = row % depth;
    const int64_t p = row / depth;
    out[i] = static_cast<int64_t>(indices[p * suffix + s]) == d ? on_value : off_value;
  }
}

template <typename U>
bool OneHot(int index_bytes, const void* indices, const void* on, const void* off, void* out,
            int64_t prefix, int64_t depth, int64_t suffix, CUstream_st* stream) {
  const int64_t n = prefix * depth * suffix;
  const U* on_value = static_cast<const U*>(on);
  const U* off_value = static_cast<const U*>(off);
  U* o = static_cast<U*>(out);
  if (index_bytes == 4) {
    OneHotKernel<U, int32_t><<<BlocksFor(n), kBlockThreads, 0, stream>>>(
        static_cast<const int32_t*>(indices), on_value, off_value, o, depth, suffix, n);
  } else if (index_bytes == 8) {
    OneHotKernel<U, int64_t><<<BlocksFor(n), kBlockThreads, 0, stream>>>(
        static_cast<const int64_t*>(indices), on_value, off_value, o, depth, suffix, n);
  } else {
    return false;
  }
  return true;
}

}  // namespace

bool LaunchGatherNd(int element_bytes, int index_bytes, const void* params, const void* indices,
                    void* out, const GatherNdView& view, CUstream_st* stream) {
  return VisitElementSize(element_bytes, [&](auto unit) {
    return GatherNd<decltype(unit)>(index_bytes, params, indices, out, view, stream);
  });
}

bool LaunchOneHot(int element_bytes, int index_bytes, const void* indices, const void* on,
                  const void* off, void* out, int64_t prefix, int64_t depth, int64_t suffix,
                  CUstream_st* stream) {
  return VisitElementSize(element_bytes, [&](auto unit) {
    return OneHot<decltype(unit)>(index_bytes, indices, on, off, out, prefix, depth, suffix,
                                  stream);
  });
}

bool LaunchGather(int element_bytes, int index_bytes, const void* params, const void* indices,
                  void* out, const GatherView& view, CUstream_st* stream) {
  return VisitElementSize(element_bytes, [&](auto unit) {
    return GatherWithIndex<decltype(unit)>(index_bytes, params, indices, out, view, stream);
  });
}

bool LaunchSelect(int element_bytes, const bool* cond, const void* t, const void* e, void* out,
                  const SelectView& view, CUstream_st* stream) {
  return VisitElementSize(element_bytes, [&](auto unit) {
    Select<decltype(unit)>(cond, t, e, out, view, stream);
    return true;
  });
}

bool LaunchPad(int element_bytes, const void* src, void* dst, const PaddedView& view,
               const void* pad_value, CUstream_st* stream) {
  return VisitElementSize(element_bytes, [&](auto unit) {
    Pad<decltype(unit)>(src, dst, view, pad_value, stream);
    return true;
  });
}

bool LaunchStridedGather(int element_bytes, const void* src, void* dst, const StridedView& view,
                         CUstream_st* stream) {
  return VisitElementSize(element_bytes, [&](auto unit) {
    StridedGather<decltype(unit)>(src, dst, view, stream);
    return true;
  });
}

void LaunchCopyRows(const void* src, int64_t src_pitch, void* dst, int64_t dst_pitch,
                    int64_t row_bytes, int64_t rows, CUstream_st* stream) {
  // The widest unit that divides both addresses, both pitches and the row.
  const uint64_t alignment = reinterpret_cast<uintptr_t>(src) | reinterpret_cast<uintptr_t>(dst) |
                             static_cast<uint64_t>(src_pitch) | static_cast<uint64_t>(dst_pitch) |
                             static_cast<uint64_t>(row_bytes);
  if (alignment % 16 == 0) {
    CopyRowsIn<Bytes16>(src, src_pitch, dst, dst_pitch, row_bytes, rows, stream);
  } else if (alignment % 8 == 0) {
    CopyRowsIn<uint64_t>(src, src_pitch, dst, dst_pitch, row_bytes, rows, stream);
  } else if (alignment % 4 == 0) {
    CopyRowsIn<uint32_t>(src, src_pitch, dst, dst_pitch, row_bytes, rows, stream);
  } else if (alignment % 2 == 0) {
    CopyRowsIn<uint16_t>(src, src_pitch, dst, dst_pitch, row_bytes, rows, stream);
  } else {
    CopyRowsIn<uint8_t>(src, src_pitch, dst, dst_pitch, row_bytes, rows, stream);
  }
}

}  // namespace cuda
}  // namespace sluice
