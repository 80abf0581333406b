// The CUDA reduction kernels (reduction_launch.h): one pass reduces in[outer, reduced, inner]
// to out[outer, inner], accumulating in float.
//
//  - inner == 1 (the reduced elements of an output are contiguous): a group of threads per
//    output (a warp, or the whole block for long rows) strides along the row, then combines
//    its partial results with shuffles;
//  - inner > 1: a block of 32 x 8 threads covers 32 neighbouring outputs (coalesced loads
//    along inner); its 8 rows of threads split the reduced dim and combine in shared memory.
// When there are too few outputs to occupy the GPU and each reduces many elements, the
// reduced dim is cut into chunks reduced by different blocks into float partial results in
// the caller's scratch ([outer, chunks, inner]), and a second pass reduces the chunks.
// Max and Min keep a NaN once met, whatever the order of combination.
#include <cstdint>
#include <type_traits>

#include "kernels/cuda/cwise_functors.h"
#include "kernels/cuda/half_bits.h"
#include "kernels/cuda/launch_util.cu.h"
#include "kernels/cuda/reduction_launch.h"

namespace sluice {
namespace cuda {
namespace {

struct SumReducer {
  static constexpr float kIdentity = 0.0f;
  __device__ float operator()(float a, float b) const { return a + b; }
};
struct ProdReducer {
  static constexpr float kIdentity = 1.0f;
  __device__ float operator()(float a, float b) const { return a * b; }
};
struct MaxReducer {
  static constexpr float kIdentity = -INFINITY;
  __device__ float operator()(float a, float b) const { return (b > a || IsNan(b)) ? b : a; }
};
struct MinReducer {
  static constexpr float kIdentity = INFINITY;
  __device__ float operator()(float a, float b) const { return (b < a || IsNan(b)) ? b : a; }
};

// One launch: out[(o * chunks + c) * inner + i] reduces in[o, r, i] over r in chunk c
// ([c * chunk_len, (c + 1) * chunk_len) within [0, reduced)).
struct PassShape {
  int64_t outer;
  int64_t reduced;
  int64_t inner;
  int64_t chunks;
  int64_t chunk_len;
  bool divide;
  float divisor;
};

template <typename Out>
__device__ Out Finish(float acc, const PassShape& p) {
  return Store<Out>(p.divide ? acc / p.divisor : acc);
}

template <typename R, typename In, typename Out, int kRowThreads>
__global__ void ReduceRowsKernel(const In* in, Out* out, PassShape p) {
  constexpr int kRowsPerBlock = kBlockThreads / kRowThreads;
  const int lane = threadIdx.x % kRowThreads;
  const int64_t rows = p.outer * p.chunks;
  const int64_t step = static_cast<int64_t>(gridDim.x) * kRowsPerBlock;
  const R combine;
  // Whole-block groups take the same rows in every thread (see GroupReduce).
  for (int64_t row = static_cast<int64_t>(blockIdx.x) * kRowsPerBlock + threadIdx.x / kRowThreads;
       row < rows; row += step) {
    const int64_t o = row / p.chunks;
    const int64_t begin = (row % p.chunks) * p.chunk_len;
    const int64_t end = begin + p.chunk_len < p.reduced ? begin + p.chunk_len : p.reduced;
    const In* src = in + o * p.reduced;
    float acc = R::kIdentity;
    for (int64_t r = begin + lane; r < end; r += kRowThreads) acc = combine(acc, Load<In>(src[r]));
    acc = GroupReduce<kRowThreads>(acc, combine);
    if (lane == 0) out[row] = Finish<Out>(acc, p);
  }
}

constexpr int kColumnThreads = 32;                           // along inner
constexpr int kColumnRows = kBlockThreads / kColumnThreads;  // along reduced

template <typename R, typename In, typename Out>
__global__ void ReduceColumnsKernel(const In* in, Out* out, PassShape p) {
  __shared__ float partial[kColumnRows][kColumnThreads + 1];
  const int tx = threadIdx.x % kColumnThreads;
  const int ty = threadIdx.x / kColumnThreads;
  const int64_t i = static_cast<int64_t>(blockIdx.x) * kColumnThreads + tx;
  const R combine;
  for (int64_t oc = blockIdx.y; oc < p.outer * p.chunks; oc += gridDim.y) {
    const int64_t o = oc / p.chunks;
    const int64_t begin = (oc % p.chunks) * p.chunk_len;
    const int64_t end = begin + p.chunk_len < p.reduced ? begin + p.chunk_len : p.reduced;
    float acc = R::kIdentity;
    if (i < p.inner) {
      const In* src = in + o * p.reduced * p.inner + i;
      for (int64_t r = begin + ty; r < end; r += kColumnRows) {
        acc = combine(acc, Load<In>(src[r * p.inner]));
      }
    }
    partial[ty][tx] = acc;
    __syncthreads();
    if (ty == 0 && i < p.inner) {
      for (int k = 1; k < kColumnRows; ++k) acc = combine(acc, partial[k][tx]);
      out[oc * p.inner + i] = Finish<Out>(acc, p);
    }
    __syncthreads();  // partial is rewritten by the next iteration
  }
}

template <typename R, typename In, typename Out>
void LaunchShape(const In* in, Out* out, const PassShape& p, CUstream_st* stream) {
  constexpr int64_t kMaxGrid = 65535;
  const int64_t groups = p.outer * p.chunks;
  if (p.inner == 1) {
    if (p.chunk_len <= 512) {
      constexpr int64_t kRowsPerBlock = kBlockThreads / 32;
      const int64_t blocks = (groups + kRowsPerBlock - 1) / kRowsPerBlock;
      ReduceRowsKernel<R, In, Out, 32>
          <<<static_cast<unsigned>(blocks < kMaxGrid ? blocks : kMaxGrid), kBlockThreads, 0,
             stream>>>(in, out, p);
    } else {
      ReduceRowsKernel<R, In, Out, kBlockThreads>
          <<<static_cast<unsigned>(groups < kMaxGrid ? groups : kMaxGrid), kBlockThreads, 0,
             stream>>>(in, out, p);
    }
  } else {
    const dim3 grid(static_cast<unsigned>((p.inner + kColumnThreads - 1) / kColumnThreads),
                    static_cast<unsigned>(groups < kMaxGrid ? groups : kMaxGrid));
    ReduceColumnsKernel<R, In, Out><<<grid, kBlockThreads, 0, stream>>>(in, out, p);
  }
}

// How many chunks to cut the reduced dim into: 1 unless the outputs give the GPU too few
// blocks to work on (about 2,000 keep a Hopper GPU busy) and each output reduces enough
// elements that a chunk still gives every thread of its block several of them.
int64_t Chunks(int64_t outer, int64_t reduced, int64_t inner) {
  if (outer == 0 || inner == 0) return 1;
  constexpr int64_t kTargetBlocks = 2048;
  const int64_t blocks =
      inner == 1 ? outer : outer * ((inner + kColumnThreads - 1) / kColumnThreads);
  const int64_t min_chunk = inner == 1 ? 4096 : 512;
  if (blocks >= kTargetBlocks / 2 || reduced < 2 * min_chunk) return 1;
  const int64_t by_length = reduced / min_chunk;
  const int64_t by_blocks = (kTargetBlocks + blocks - 1) / blocks;
  return by_length < by_blocks ? by_length : by_blocks;
}

template <typename R, typename In, typename Out>
void Reduce(const void* in, void* out, int64_t outer, int64_t reduced, int64_t inner, bool divide,
            float divisor, float* scratch, CUstream_st* stream) {
  const In* src = static_cast<const In*>(in);
  Out* dst = static_cast<Out*>(out);
  const int64_t chunks = Chunks(outer, reduced, inner);
  if (chunks == 1) {
    LaunchShape<R>(src, dst, PassShape{outer, reduced, inner, 1, reduced, divide, divisor}, stream);
    return;
  }
  const int64_t chunk_len = (reduced + chunks - 1) / chunks;
  LaunchShape<R>(src, scratch, PassShape{outer, reduced, inner, chunks, chunk_len, false, 1.0f},
                 stream);
  LaunchShape<R>(static_cast<const float*>(scratch), dst,
                 PassShape{outer, chunks, inner, 1, chunks, divide, divisor}, stream);
}

template <typename R>
bool ReduceTypes(ElementType in_type, const void* in, ElementType out_type, void* out,
                 int64_t outer, int64_t reduced, int64_t inner, bool divide, float divisor,
                 float* scratch, CUstream_st* stream) {
  bool launched = false;
  VisitFloatType(in_type, [&](auto in_tag) {
    VisitFloatType(out_type, [&](auto out_tag) {
      using In = decltype(in_tag);
      using Out = decltype(out_tag);
      // A pass keeps the element type or reads or writes float partial results.
      if constexpr (std::is_same_v<In, Out> || std::is_same_v<In, float> ||
                    std::is_same_v<Out, float>) {
        Reduce<R, In, Out>(in, out, outer, reduced, inner, divide, divisor, scratch, stream);
        launched = true;
      }
    });
  });
  return launched;
}

}  // namespace

int64_t ReduceScratchElements(int64_t outer, int64_t reduced, int64_t inner) {
  const int64_t chunks = Chunks(outer, reduced, inner);
  return chunks == 1 ? 0 : outer * chunks * inner;
}

bool LaunchReducePass(ReduceKind op, ElementType in_type, const void* in, ElementType out_type,
                      void* out, int64_t outer, int64_t reduced, int64_t inner, bool divide,
                      float divisor, float* scratch, CUstream_st* stream) {
  // No outputs: an earlier pass of a reduction whose input is empty (a later pass reduces
  // over the empty dim and writes the identities).
  if (outer == 0 || inner == 0) return true;
  switch (op) {
    case ReduceKind::kSum:
      return ReduceTypes<SumReducer>(in_type, in, out_type, out, outer, reduced, inner, divide,
                                     divisor, scratch, stream);
    case ReduceKind::kProd:
      return ReduceTypes<ProdReducer>(in_type, in, out_type, out, outer, reduced, inner, divide,
                                      divisor, scratch, stream);
    case ReduceKind::kMax:
      return ReduceTypes<MaxReducer>(in_type, in, out_type, out, outer, reduced, inner, divide,
                                     divisor, scratch, stream);
    case ReduceKind::kMin:
      return ReduceTypes<MinReducer>(in_type, in, out_type, out, outer, reduced, inner, divide,
                                     divisor, scratch, stream);
  }
  return false;
}

}  // namespace cuda
}  // namespace sluice
