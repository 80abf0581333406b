// Fills a tensor's elements from a Philox stream with one of random_distributions.h's
// distributions, in TensorFlow's layout: group g of kGroupSize outputs comes from block g of
// the stream (fixed distributions) or from a stream started 256 outputs' worth of blocks per
// group further on (rejecting ones). The groups are split over the intra-op pool; the result
// does not depend on the split.
#ifndef SLUICE_KERNELS_CPU_RANDOM_FILL_RANDOM_H_
#define SLUICE_KERNELS_CPU_RANDOM_FILL_RANDOM_H_

#include <algorithm>
#include <cstdint>

#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/random/philox.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace random {

// The Philox blocks a rejecting distribution reserves per group of outputs.
template <typename Distribution>
constexpr uint64_t BlocksPerRejectingGroup() {
  return uint64_t{Distribution::kGroupSize} * 256 / Philox4x32::kBlockSize;
}

template <typename T, typename Distribution>
void FillRandom(OpKernelContext* ctx, const Philox4x32& stream, const Distribution& distribution,
                T* data, int64_t size) {
  constexpr int kGroup = Distribution::kGroupSize;
  const int64_t groups = (size + kGroup - 1) / kGroup;
  // About 40 cycles a uniform block, a few hundred for Box-Muller.
  const Eigen::TensorOpCost cost(0, kGroup * sizeof(T), Distribution::kRejects ? 600 : 200);
  ParallelFor(ctx, groups, size, cost, [&](int64_t first, int64_t last) {
    Philox4x32 generator = stream;
    if (!Distribution::kRejects) generator.Skip(first);
    for (int64_t group = first; group < last; ++group) {
      T values[kGroup];
      if constexpr (Distribution::kRejects) {
        Philox4x32 own = stream;
        own.Skip(group * BlocksPerRejectingGroup<Distribution>());
        SingleSamples samples(&own);
        distribution(&samples, values);
      } else {
        distribution(&generator, values);
      }
      const int64_t offset = group * kGroup;
      std::copy(values, values + std::min<int64_t>(kGroup, size - offset), data + offset);
    }
  });
}

}  // namespace random
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_RANDOM_FILL_RANDOM_H_
