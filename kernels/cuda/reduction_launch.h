// Launch functions of the CUDA reductions (reduction_ops.cu, argminmax_ops.cu): Sum, Mean,
// Prod, Max and Min, and ArgMax/ArgMin, over one [outer, reduced, inner] view of a tensor at a
// time. Plain C++, as cwise_launch.h, and under the same contract (device buffers, enqueued on
// `stream` without waiting, false for a type the launcher was not compiled for).
//
// A reduction over any set of axes is planned on the host (kernels/cpu/reduction/
// reduction_plan.h) as passes over such views, innermost reduced group first; each pass
// accumulates in float, whatever the element type, so half and bfloat16 round once at the
// end, as Sluice's CPU reducers do.
#ifndef SLUICE_KERNELS_CUDA_REDUCTION_LAUNCH_H_
#define SLUICE_KERNELS_CUDA_REDUCTION_LAUNCH_H_

#include <cstdint>

#include "kernels/cuda/cwise_launch.h"

struct CUstream_st;

namespace sluice {
namespace cuda {

// Mean is kSum whose last pass divides.
enum class ReduceKind { kSum, kProd, kMax, kMin };

// How many floats of device scratch LaunchReducePass needs for this view: 0, or room for
// partial results when a few long reductions are split across more blocks than one.
int64_t ReduceScratchElements(int64_t outer, int64_t reduced, int64_t inner);

// out[o, i] = reduction over r < reduced of in[o, r, i], for o < outer and i < inner, divided
// by `divisor` when `divide` (Mean's last pass). An empty reduction (reduced == 0) gives the
// identity: 0 for Sum, 1 for Prod, -inf for Max, +inf for Min (and 0 / divisor for Mean).
// Max and Min propagate NaN. in_type and out_type are each kFloat, kHalf or kBFloat16: the
// same type, or one of them kFloat (a pass reading or writing float partial results).
// Nothing is launched when outer * inner is 0. REQUIRES: `scratch` holds
// ReduceScratchElements(outer, reduced, inner) floats of device memory (null when that is 0).
bool LaunchReducePass(ReduceKind op, ElementType in_type, const void* in, ElementType out_type,
                      void* out, int64_t outer, int64_t reduced, int64_t inner, bool divide,
                      float divisor, float* scratch, CUstream_st* stream);

// out[o * inner + i] = the index r < reduced of the largest (max) or smallest element
// in[o, r, i], the first one on ties, never a NaN (0 when nothing compares better than the
// type's lowest/highest value): ArgMax/ArgMin with an int64 output. REQUIRES: reduced >= 1,
// outer * inner >= 1; in_type kFloat, kHalf or kBFloat16.
bool LaunchArgReduce(bool max, ElementType type, const void* in, int64_t outer, int64_t reduced,
                     int64_t inner, int64_t* out, CUstream_st* stream);

}  // namespace cuda
}  // namespace sluice

#endif  // SLUICE_KERNELS_CUDA_REDUCTION_LAUNCH_H_
