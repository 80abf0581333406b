// Launch functions of the CUDA elementwise kernels (cwise_ops.cu, cast_op.cu): what the
// g++-compiled kernel classes call. Plain C++: the stream is CUDA's cudaStream_t, declared here
// as the struct it points to, so including this header needs no CUDA header.
//
// Contract of every launcher:
//  - buffers are device memory of `type`'s elements (Half/BFloat16 buffers hold Sluice's
//    half/bfloat16, which have the same 16-bit layout); an output may be the same buffer as
//    an input of its shape (each element is read before it is written);
//  - the work is enqueued on `stream` and the launcher returns without waiting; launch
//    errors are left for the caller to collect (LastLaunchStatus, cuda_status.h);
//  - REQUIRES: at least one element (callers launch nothing for empty tensors);
//  - returns false, enqueuing nothing, for a type the launcher was not compiled for.
#ifndef SLUICE_KERNELS_CUDA_CWISE_LAUNCH_H_
#define SLUICE_KERNELS_CUDA_CWISE_LAUNCH_H_

#include <cstdint>

#include "kernels/cuda/broadcast_index.h"

struct CUstream_st;

namespace sluice {
namespace cuda {

// The element types the CUDA kernels handle. Elementwise math, BiasAdd, softmax and the
// reductions take kFloat, kHalf and kBFloat16; Cast takes them all.
enum class ElementType { kFloat, kHalf, kBFloat16, kDouble, kInt32, kInt64, kBool };

enum class UnaryKind {
  kRelu,
  kRelu6,
  kElu,
  kSelu,
  kSigmoid,
  kTanh,
  kSoftplus,
  kSoftsign,
  kLeakyRelu,  // x > 0 ? x : alpha * x, alpha rounded to the element type
  kNeg,
  kAbs,
  kSquare,
  kFloor,
  kCeil,
  kSqrt,
  kRsqrt,
  kReciprocal,
  kExp,
  kExpm1,
  kLog,
  kLog1p,
  kErf,
  kErfc,
  kSin,
  kCos,
};

enum class BinaryKind {
  kAdd,
  kSub,
  kMul,
  kRealDiv,
  kMaximum,
  kMinimum,
  kSquaredDifference,
  kPow,
};

// y[i] = op(x[i]) for i < n; `alpha` is LeakyRelu's (ignored by the other ops).
bool LaunchUnary(UnaryKind op, ElementType type, const void* x, void* y, int64_t n, float alpha,
                 CUstream_st* stream);

// Which operand of a flat binary op repeats its single element.
enum class ScalarOperand { kNone, kX, kY };

// z[i] = op(x[i or 0], y[i or 0]) for i < n: both operands have n elements (kNone), or the
// named one has a single element.
bool LaunchBinaryFlat(BinaryKind op, ElementType type, const void* x, const void* y, void* z,
                      int64_t n, ScalarOperand scalar, CUstream_st* stream);

// z[i] = op(x[xo], y[yo]) for i < index.num_elements, with index.Offsets(i, &xo, &yo).
bool LaunchBinaryBroadcast(BinaryKind op, ElementType type, const void* x, const void* y, void* z,
                           const BroadcastIndex& index, CUstream_st* stream);

// out[i] = value[i] + bias[(i / inner) % channels] for i < n: inner is 1 for a channel-last
// layout (NHWC) and the product of the dims after the channel dim for NCHW.
bool LaunchBiasAdd(ElementType type, const void* value, const void* bias, void* out, int64_t n,
                   int64_t channels, int64_t inner, CUstream_st* stream);

// Whether LaunchCast converts src to dst (every pair of distinct types above).
bool CastSupported(ElementType src, ElementType dst);

// y[i] = x[i] converted from src to dst for i < n, as Sluice's CPU Cast converts (see
// cast_op.cu): truncate is Cast's Truncate attr (float or double to a type with fewer
// mantissa bits rounds toward zero). REQUIRES: src != dst.
bool LaunchCast(ElementType src, ElementType dst, bool truncate, const void* x, void* y, int64_t n,
                CUstream_st* stream);

}  // namespace cuda
}  // namespace sluice

#endif  // SLUICE_KERNELS_CUDA_CWISE_LAUNCH_H_
