// The Philox stream of a stateless op seeded by a pair of integers (the V1 stateless ops and
// StatelessMultinomial).
#ifndef SLUICE_KERNELS_CPU_RANDOM_STATELESS_SEED_H_
#define SLUICE_KERNELS_CPU_RANDOM_STATELESS_SEED_H_

#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "kernels/cpu/random/philox.h"

namespace sluice {
namespace random {

// `seed` must be a vector of two int32s or int64s; each is widened to 64 bits (an int32 -1
// becomes 2^64 - 1, as in TensorFlow) and the pair mixed by StatelessGenerator.
// INVALID_ARGUMENT for another shape or dtype.
absl::Status StatelessSeedStream(const Tensor& seed, Philox4x32* stream);

}  // namespace random
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_RANDOM_STATELESS_SEED_H_
