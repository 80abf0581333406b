// A strided pass over device memory: Einsum's transposes with diagonals, sums over labels and
// scatters onto an output's diagonal (kernels/cpu/linalg/einsum_plan.h's StridedPass), one
// output element per thread. The index arithmetic is host-and-device code, checked on the
// host against the CPU kernel (strided_pass_test.cc). Plain C++.
//
// For each index (i_0, ..., i_n) of `dims` (row-major),
//   dst[sum_d i_d * dst_strides[d]] = sum over r of src[sum_d i_d * src_strides[d] +
//                                                       sum_e r_e * reduce_strides[e]]
// with r over `reduce` (row-major, outermost first, as the CPU kernel sums), accumulated in
// double and rounded to the element type once, as the CPU kernel rounds its double sum to
// float (and then to the element type).
#ifndef SLUICE_KERNELS_CUDA_STRIDED_PASS_H_
#define SLUICE_KERNELS_CUDA_STRIDED_PASS_H_

#include <cstdint>

#include "kernels/cuda/cwise_launch.h"
#include "kernels/cuda/half_bits.h"

struct CUstream_st;

namespace sluice {
namespace cuda {

// Dims a pass may have (kept and reduced, each) after the plan merged what it could.
inline constexpr int kMaxPassDims = 12;

struct PassShape {
  int kept_dims = 0;
  int reduce_dims = 0;
  int64_t dims[kMaxPassDims] = {};
  int64_t src_strides[kMaxPassDims] = {};
  int64_t dst_strides[kMaxPassDims] = {};
  int64_t reduce[kMaxPassDims] = {};
  int64_t reduce_strides[kMaxPassDims] = {};
  int64_t kept = 1;     // product of dims
  int64_t reduced = 1;  // product of reduce
};

// The source and destination offsets of kept element i (row-major over dims).
SLUICE_HOST_DEVICE inline void PassOffsets(const PassShape& p, int64_t i, int64_t* src,
                                           int64_t* dst) {
  int64_t s = 0, d = 0;
  for (int k = p.kept_dims - 1; k >= 0; --k) {
    const int64_t index = i % p.dims[k];
    i /= p.dims[k];
    s += index * p.src_strides[k];
    d += index * p.dst_strides[k];
  }
  *src = s;
  *dst = d;
}

// The pass's value for the kept element whose source offset is `offset`.
template <typename S>
SLUICE_HOST_DEVICE inline S PassValue(const PassShape& p, const S* src, int64_t offset) {
  if (p.reduce_dims == 0) return src[offset];
  double sum = 0;
  for (int64_t r = 0; r < p.reduced; ++r) {
    int64_t o = offset;
    int64_t rest = r;
    for (int k = p.reduce_dims - 1; k >= 0; --k) {
      o += (rest % p.reduce[k]) * p.reduce_strides[k];
      rest /= p.reduce[k];
    }
    sum += static_cast<double>(Load<S>(src[o]));
  }
  return Store<S>(static_cast<ComputeType<S>>(static_cast<float>(sum)));
}

// Runs the pass from src to dst (device memory of `type`: float, half or bfloat16) on `stream`,
// one thread per kept element; launch errors are left for LastLaunchStatus. Nothing is
// launched for no kept element; false (nothing launched) for another type.
bool LaunchStridedPass(ElementType type, const PassShape& pass, const void* src, void* dst,
                       CUstream_st* stream);

}  // namespace cuda
}  // namespace sluice

#endif  // SLUICE_KERNELS_CUDA_STRIDED_PASS_H_
