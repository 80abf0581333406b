// Launch functions of the CUDA data-movement kernels (array_copies.cu): the copies behind the
// array kernels (Transpose, Slice, StridedSlice, Tile, ReverseV2, Split, Unpack, Concat, Pack;
// kernels/cpu/array) on a GPU, and Gather's and Select's element moves (indexing_ops.cc). Contract
// as cwise_launch.h's: device buffers, enqueued on `stream` without waiting, launch errors left for
// LastLaunchStatus, nothing launched for no work.
#ifndef SLUICE_KERNELS_CUDA_ARRAY_LAUNCH_H_
#define SLUICE_KERNELS_CUDA_ARRAY_LAUNCH_H_

#include <cstdint>

#include "kernels/cuda/strided_view.h"

struct CUstream_st;

namespace sluice {
namespace cuda {

// dst[i] = src[view.Offset(i)] for i < view.num_elements, elements of element_bytes bytes
// (1, 2, 4, 8 or 16; false, launching nothing, for any other size). src points at the
// view's element 0; dst does not overlap the source. A transpose that moves the innermost
// dim (MakeTiledTransposeView) is copied in shared-memory tiles.
bool LaunchStridedGather(int element_bytes, const void* src, void* dst, const StridedView& view,
                         CUstream_st* stream);

// For r < rows: row_bytes bytes from src + r * src_pitch to dst + r * dst_pitch (pitches in
// bytes, rows not overlapping), in the widest units that the addresses and sizes allow.
void LaunchCopyRows(const void* src, int64_t src_pitch, void* dst, int64_t dst_pitch,
                    int64_t row_bytes, int64_t rows, CUstream_st* stream);

// dst[i] = view.Source(i) < 0 ? *pad_value : src[view.Source(i)] for i < view.num_elements
// (a mirror's view has no -1 source),
// elements of element_bytes bytes (1, 2, 4, 8 or 16; false otherwise); pad_value is one
// element in host memory, passed by value.
bool LaunchPad(int element_bytes, const void* src, void* dst, const PaddedView& view,
               const void* pad_value, CUstream_st* stream);

// out[i] = index in [0, view.gather_dim) ? params[view.Source(i, index)] : zero bytes, with
// index = indices[view.IndexPosition(i)], for i < view.num_elements (> 0). Indices are
// index_bytes wide (4: int32, 8: int64). False, launching nothing, for another element or
// index size.
bool LaunchGather(int element_bytes, int index_bytes, const void* params, const void* indices,
                  void* out, const GatherView& view, CUstream_st* stream);

// out[i] = cond[c] ? t[te] : e[ee] with view.Offsets(i, &c, &te, &ee), for i <
// view.num_elements (> 0), elements of element_bytes bytes (false for another size); out may
// be t or e when that operand has the output's shape.
bool LaunchSelect(int element_bytes, const bool* cond, const void* t, const void* e, void* out,
                  const SelectView& view, CUstream_st* stream);

// GatherNd: out[i] = params[view.RowOffset(indices, i / slice) + i % slice], or zero bytes where
// the row's offset is -1, for i < view.num_elements (> 0); indices of index_bytes (4 or 8).
// False for another element or index size.
bool LaunchGatherNd(int element_bytes, int index_bytes, const void* params, const void* indices,
                    void* out, const GatherNdView& view, CUstream_st* stream);

// OneHot: out[(p * depth + d) * suffix + s] = indices[p * suffix + s] == d ? *on : *off for
// every p < prefix, d < depth, s < suffix (a non-empty output), elements of element_bytes bytes
// and indices of index_bytes (4 or 8); on and off are one element each in device memory. False
// for another size.
bool LaunchOneHot(int element_bytes, int index_bytes, const void* indices, const void* on,
                  const void* off, void* out, int64_t prefix, int64_t depth, int64_t suffix,
                  CUstream_st* stream);

}  // namespace cuda
}  // namespace sluice

#endif  // SLUICE_KERNELS_CUDA_ARRAY_LAUNCH_H_
