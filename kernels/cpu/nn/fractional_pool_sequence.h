// The pooling windows of fractional pooling along one dimension, drawn as TensorFlow draws
// them (its GeneratePoolingSequence) from the kernel's Philox stream, so that a seeded node
// pools over TensorFlow's windows and returns its row and column sequences bit for bit.
//
// A sequence is the output_length + 1 boundaries 0 = a_0 < a_1 < ... < a_n = input_length;
// window i starts at a_i. Its steps are floor(input / output) or one more:
//   random:        the steps, the longer ones first, shuffled by a forward Fisher-Yates walk
//                  (position i swaps with i + sample % (n - i)), on (n + 3) / 4 blocks;
//   pseudo_random: a_i = ceil(alpha * (i + u)) - 1 with alpha = input / output and one
//                  uniform double u (52 bits from two samples) scaled below the bound that
//                  keeps the first and last steps in range, on one block.
// Each call reads a copy of the stream and moves the stream on by the blocks it reserves.
#ifndef SLUICE_KERNELS_CPU_NN_FRACTIONAL_POOL_SEQUENCE_H_
#define SLUICE_KERNELS_CPU_NN_FRACTIONAL_POOL_SEQUENCE_H_

#include <cstdint>

#include "kernels/cpu/random/philox.h"

namespace sluice {

// Writes the boundaries to cum[0 .. output_length]. REQUIRES: 1 <= output_length <=
// input_length <= INT32_MAX (TensorFlow computes the lengths in int).
void FractionalPoolingSequence(int32_t input_length, int32_t output_length, bool pseudo_random,
                               random::Philox4x32* stream, int64_t* cum);

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_NN_FRACTIONAL_POOL_SEQUENCE_H_
