// StridedView: a strided view of a source buffer (StridedCopy's merged dims and strides,
// kernels/cpu/array/strided_copy.h) as it travels to a GPU kernel by value, so that a thread
// maps an output index to its source offset.
//
// Plain C++ with no dependencies: the host fills it (MakeStridedView), Offset runs in host or
// device code. Strides are in elements and may be zero or negative.
#ifndef SLUICE_KERNELS_CUDA_STRIDED_VIEW_H_
#define SLUICE_KERNELS_CUDA_STRIDED_VIEW_H_

#include <cstdint>

#include "kernels/cuda/half_bits.h"  // SLUICE_HOST_DEVICE

namespace sluice {
namespace cuda {

struct StridedView {
  // Views with more merged dims are refused: a transpose that keeps 9 dims apart after merging
  // is rare (TensorFlow's GPU kernels stop at 8 as well).
  static constexpr int kMaxDims = 8;

  int rank = 1;  // at least one dim
  int64_t dims[kMaxDims] = {1};
  int64_t strides[kMaxDims] = {1};
  int64_t num_elements = 1;
  // Whether every output index and every source offset fits int32, so that a kernel may use
  // 32-bit division.
  bool fits_int32 = true;

  // The source offset of output element i (0 <= i < num_elements); I is int64_t, or int32_t
  // when fits_int32.
  template <typename I>
  SLUICE_HOST_DEVICE I Offset(I i) const {
    I offset = 0;
    for (int d = rank - 1; d > 0; --d) {
      const I size = static_cast<I>(dims[d]);
      offset += (i % size) * static_cast<I>(strides[d]);
      i /= size;
    }
    return offset + i * static_cast<I>(strides[0]);
  }
};

// TiledTransposeView: a StridedView that moves the output's innermost dim (it reads the source
// with a stride other than 1, 0 or -1) while another dim, the "row" dim, reads it with stride
// 1: a transpose. Copied tile by tile through shared memory (kTile x kTile elements: rows
// along the row dim, columns along the innermost dim), each tile read along its rows and
// written along its columns, so that both the reads and the writes are contiguous; the
// plain gather reads one scattered address per element instead. The other dims are batches
// of such matrices.
struct TiledTransposeView {
  static constexpr int kTile = 32;
  static constexpr int kMaxBatchDims = StridedView::kMaxDims - 2;
  // Both tile dims must be at least this long for tiles to pay for their idle threads.
  static constexpr int64_t kMinDim = 8;

  int64_t rows = 1;            // the row dim's size; its source stride is 1
  int64_t row_out_stride = 1;  // its output stride
  int64_t cols = 1;            // the innermost dim's size; its output stride is 1
  int64_t col_src_stride = 1;  // its source stride
  int batch_rank = 0;
  int64_t batch_dims[kMaxBatchDims] = {};
  int64_t batch_src_strides[kMaxBatchDims] = {};
  int64_t batch_out_strides[kMaxBatchDims] = {};
  int64_t batches = 1;
  int64_t row_tiles = 1;  // ceil(rows / kTile)
  int64_t col_tiles = 1;  // ceil(cols / kTile)

  SLUICE_HOST_DEVICE int64_t num_tiles() const { return batches * row_tiles * col_tiles; }

  // The source and output offsets of element (row 0, column 0) of batch b (0 <= b < batches).
  SLUICE_HOST_DEVICE void BatchOffsets(int64_t b, int64_t* src, int64_t* out) const {
    int64_t s = 0;
    int64_t o = 0;
    for (int d = batch_rank - 1; d >= 0; --d) {
      const int64_t coord = b % batch_dims[d];
      b /= batch_dims[d];
      s += coord * batch_src_strides[d];
      o += coord * batch_out_strides[d];
    }
    *src = s;
    *out = o;
  }
};

// Fills *tiled from `view` when it is such a transpose with both tile dims at least kMinDim
// (the longest stride-1 dim is the row dim); false, leaving *tiled unspecified, otherwise.
inline bool MakeTiledTransposeView(const StridedView& view, TiledTransposeView* tiled) {
  const int last = view.rank - 1;
  const int64_t col_stride = view.strides[last];
  if (last < 1 || col_stride == 1 || col_stride == 0 || col_stride == -1 ||
      view.dims[last] < TiledTransposeView::kMinDim) {
    return false;
  }
  int row_dim = -1;
  for (int d = 0; d < last; ++d) {
    if (view.strides[d] == 1 && (row_dim < 0 || view.dims[d] > view.dims[row_dim])) row_dim = d;
  }
  if (row_dim < 0 || view.dims[row_dim] < TiledTransposeView::kMinDim) return false;
  constexpr int64_t kTile = TiledTransposeView::kTile;
  int64_t out_stride = 1;  // the output is dense, row-major in view's dims
  tiled->batch_rank = 0;
  tiled->batches = 1;
  int64_t batch_out[TiledTransposeView::kMaxBatchDims];
  for (int d = last; d >= 0; --d) {
    if (d == last) {
      tiled->cols = view.dims[d];
      tiled->col_src_stride = col_stride;
    } else if (d == row_dim) {
      tiled->rows = view.dims[d];
      tiled->row_out_stride = out_stride;
    } else {
      batch_out[d] = out_stride;
    }
    out_stride *= view.dims[d];
  }
  for (int d = 0; d < last; ++d) {
    if (d == row_dim) continue;
    const int k = tiled->batch_rank++;
    tiled->batch_dims[k] = view.dims[d];
    tiled->batch_src_strides[k] = view.strides[d];
    tiled->batch_out_strides[k] = batch_out[d];
    tiled->batches *= view.dims[d];
  }
  tiled->row_tiles = (tiled->rows + kTile - 1) / kTile;
  tiled->col_tiles = (tiled->cols + kTile - 1) / kTile;
  return true;
}

// PaddedView: an output that surrounds an input with a constant (Pad, PadV2) or with the
// input's mirror image (MirrorPad), as a GPU thread sees it: output element i is input element
// Source(i), or the constant where Source is -1. Dims are the kernel's merged ones
// (kernels/cpu/indexing/pad_op.cc) or, for a mirror, the input's own, outermost first.
struct PaddedView {
  static constexpr int kMaxDims = 8;

  int rank = 1;
  int64_t in_dims[kMaxDims] = {1};
  int64_t out_dims[kMaxDims] = {1};
  int64_t before[kMaxDims] = {0};
  int64_t num_elements = 1;  // of the output
  // -1: constant padding. 0: a mirror past the edge (SYMMETRIC: [1,2,3] padded by 2 before is
  // [2,1,1,2,3]); 1: a mirror on the edge element (REFLECT: [3,2,1,2,3]). A mirror's padding
  // is at most the dim (SYMMETRIC) or below it (REFLECT), so one reflection reaches the input.
  int mirror = -1;

  SLUICE_HOST_DEVICE int64_t Source(int64_t i) const {
    int64_t source = 0;
    int64_t in_stride = 1;
    for (int d = rank - 1; d >= 0; --d) {
      int64_t coord = i % out_dims[d] - before[d];
      i /= out_dims[d];
      if (coord < 0 || coord >= in_dims[d]) {
        if (mirror < 0) return -1;
        if (coord < 0) coord = -coord - 1 + mirror;
        if (coord >= in_dims[d]) coord = 2 * in_dims[d] - 1 - mirror - coord;
      }
      source += coord * in_stride;
      in_stride *= in_dims[d];
    }
    return source;
  }
};

// SelectView: Select's three operands (condition, then, else) broadcast against the output
// (kernels/cpu/cwise/select_plan.h's merged dims), as a GPU thread sees them: output element i
// reads each operand at Offsets(i).
struct SelectView {
  static constexpr int kMaxDims = 8;

  int rank = 1;
  int64_t dims[kMaxDims] = {1};
  // strides[k][d]: operand k's (0 condition, 1 then, 2 else) element stride along dim d; 0
  // where it is broadcast.
  int64_t strides[3][kMaxDims] = {};
  int64_t num_elements = 1;
  // Whether every output index (hence every operand offset, as no operand is larger than the
  // output) fits int32.
  bool fits_int32 = true;

  template <typename I>
  SLUICE_HOST_DEVICE void Offsets(I i, I* c, I* t, I* e) const {
    I co = 0;
    I to = 0;
    I eo = 0;
    for (int d = rank - 1; d > 0; --d) {
      const I size = static_cast<I>(dims[d]);
      const I coord = i % size;
      i /= size;
      co += coord * static_cast<I>(strides[0][d]);
      to += coord * static_cast<I>(strides[1][d]);
      eo += coord * static_cast<I>(strides[2][d]);
    }
    *c = co + i * static_cast<I>(strides[0][0]);
    *t = to + i * static_cast<I>(strides[1][0]);
    *e = eo + i * static_cast<I>(strides[2][0]);
  }
};

// GatherView: Gather's output [outer, n, inner] read from params [outer, gather_dim, inner]
// (kernels/cpu/indexing/gather_plan.h; outer here is the plan's batch * outer), as a GPU
// thread sees it: output element i takes index indices[IndexPosition(i)] and, when that index
// is in [0, gather_dim), params element Source(i, index).
struct GatherView {
  int64_t outer = 1;            // batch * outer
  int64_t outer_per_batch = 1;  // the plan's outer: the slices that share one batch's indices
  int64_t gather_dim = 0;
  int64_t n = 0;  // indices per batch
  int64_t inner = 1;
  int64_t num_elements = 0;  // outer * n * inner
  // Whether every output index and params offset fits int32.
  bool fits_int32 = true;

  template <typename I>
  SLUICE_HOST_DEVICE I IndexPosition(I i) const {
    const I slice = i / static_cast<I>(inner);
    const I in = static_cast<I>(n);
    return slice / in / static_cast<I>(outer_per_batch) * in + slice % in;
  }
  template <typename I>
  SLUICE_HOST_DEVICE I Source(I i, I index) const {
    const I in = static_cast<I>(inner);
    const I outer_index = i / in / static_cast<I>(n);
    return (outer_index * static_cast<I>(gather_dim) + index) * in + i % in;
  }
};

// GatherNdView: GatherNd's output [rows, slice] read from params, as a GPU thread sees it:
// output element i belongs to row i / slice, whose index row (`depth` indices) gives the
// params offset of the slice's start, or none when an index is out of its dim.
struct GatherNdView {
  static constexpr int kMaxDepth = 7;  // TensorFlow's limit (GatherNdPlan::kMaxDepth)

  int depth = 0;
  int64_t dims[kMaxDepth] = {};
  int64_t strides[kMaxDepth] = {};
  int64_t slice = 1;
  int64_t num_elements = 0;  // rows * slice

  // The params offset of row `row`'s slice, or -1. Index is the indices' element type.
  template <typename Index>
  SLUICE_HOST_DEVICE int64_t RowOffset(const Index* indices, int64_t row) const {
    int64_t offset = 0;
    for (int k = 0; k < depth; ++k) {
      const int64_t v = static_cast<int64_t>(indices[row * depth + k]);
      if (v < 0 || v >= dims[k]) return -1;
      offset += v * strides[k];
    }
    return offset;
  }
};

// Fills *view from `rank` dims (each >= 1) and strides, outermost first. False, leaving *view
// unspecified, when rank is 0 or above kMaxDims.
inline bool MakeStridedView(const int64_t* dims, const int64_t* strides, int rank,
                            StridedView* view) {
  if (rank < 1 || rank > StridedView::kMaxDims) return false;
  view->rank = rank;
  view->num_elements = 1;
  uint64_t reach = 0;  // the largest |offset| of any element
  for (int d = 0; d < rank; ++d) {
    view->dims[d] = dims[d];
    view->strides[d] = strides[d];
    view->num_elements *= dims[d];
    const uint64_t magnitude =
        strides[d] < 0 ? 0 - static_cast<uint64_t>(strides[d]) : static_cast<uint64_t>(strides[d]);
    reach += static_cast<uint64_t>(dims[d] - 1) * magnitude;
  }
  view->fits_int32 = view->num_elements <= INT32_MAX && reach <= INT32_MAX;
  return true;
}

// Fills *view from `rank` output dims (each >= 1) and each operand's strides (strides[k],
// `rank` entries, each >= 0). False when rank is 0 or above kMaxDims.
inline bool MakeSelectView(const int64_t* dims, const int64_t* const strides[3], int rank,
                           SelectView* view) {
  if (rank < 1 || rank > SelectView::kMaxDims) return false;
  view->rank = rank;
  view->num_elements = 1;
  for (int d = 0; d < rank; ++d) {
    view->dims[d] = dims[d];
    for (int k = 0; k < 3; ++k) view->strides[k][d] = strides[k][d];
    view->num_elements *= dims[d];
  }
  view->fits_int32 = view->num_elements <= INT32_MAX;
  return true;
}

// The view of a gather of `n` indices per batch over params [batch * outer, gather_dim, inner].
inline GatherView MakeGatherView(int64_t batch, int64_t outer, int64_t gather_dim, int64_t n,
                                 int64_t inner) {
  GatherView view;
  view.outer = batch * outer;
  view.outer_per_batch = outer;
  view.gather_dim = gather_dim;
  view.n = n;
  view.inner = inner;
  view.num_elements = view.outer * n * inner;
  view.fits_int32 = view.num_elements <= INT32_MAX && view.outer * gather_dim * inner <= INT32_MAX;
  return view;
}

}  // namespace cuda
}  // namespace sluice

#endif  // SLUICE_KERNELS_CUDA_STRIDED_VIEW_H_
