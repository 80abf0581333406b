// See fractional_pool_sequence.h. The arithmetic keeps TensorFlow's types (int lengths, double
// alpha and bounds), which decide the ceilings at the boundaries.
#include "kernels/cpu/nn/fractional_pool_sequence.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

#include "kernels/cpu/random/philox.h"
#include "kernels/cpu/random/random_distributions.h"

namespace sluice {
namespace {

using random::Philox4x32;
using random::SingleSamples;

void PseudoRandomSequence(int32_t input_length, int32_t output_length, Philox4x32* stream,
                          int64_t* cum) {
  Philox4x32 reserved = *stream;
  stream->Skip(1);  // two 32-bit samples: one block
  const double alpha = static_cast<double>(input_length) / output_length;
  const int32_t k = input_length / output_length;
  // The first step may not exceed k + 1, nor the last fall below k.
  const double u_max_first = (k + 2) / alpha - 1;
  const double u_max_last = (input_length + 1 - k) / alpha - (output_length - 1);
  SingleSamples samples(&reserved);
  const uint32_t high = samples();
  const uint32_t low = samples();
  const double u = random::UniformDouble(high, low) * std::min(u_max_first, u_max_last);
  cum[0] = 0;
  for (int32_t i = 1; i < output_length; ++i) {
    cum[i] = static_cast<int32_t>(std::ceil(alpha * (i + u))) - 1;
  }
  cum[output_length] = input_length;
}

void RandomSequence(int32_t input_length, int32_t output_length, Philox4x32* stream, int64_t* cum) {
  Philox4x32 reserved = *stream;
  stream->Skip((static_cast<uint64_t>(output_length) + 3) / 4);
  const int64_t k = input_length / output_length;
  const int64_t longer = input_length % output_length;
  // The steps go to cum[1 ..], shuffled there, then summed in place.
  int64_t* steps = cum + 1;
  for (int64_t i = 0; i < output_length; ++i) steps[i] = i < longer ? k + 1 : k;
  SingleSamples samples(&reserved);
  for (int64_t i = 0; i + 1 < output_length; ++i) {
    const uint32_t range = static_cast<uint32_t>(output_length - i);
    std::swap(steps[i], steps[i + samples() % range]);
  }
  cum[0] = 0;
  for (int64_t i = 1; i <= output_length; ++i) cum[i] += cum[i - 1];
}

}  // namespace

void FractionalPoolingSequence(int32_t input_length, int32_t output_length, bool pseudo_random,
                               random::Philox4x32* stream, int64_t* cum) {
  if (pseudo_random) {
    PseudoRandomSequence(input_length, output_length, stream, cum);
  } else {
    RandomSequence(input_length, output_length, stream, cum);
  }
}

}  // namespace sluice
