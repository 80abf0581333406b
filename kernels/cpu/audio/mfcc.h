// The arithmetic of TensorFlow's Mfcc op, one spectrogram frame at a time: a mel filterbank
// (triangular filters between lower and upper frequency limit, evenly spaced in mel =
// 1127 ln(1 + f / 700), summing the square roots of the squared-magnitude bins), the log of each
// band (floored at 1e-12), and a DCT-II (sqrt(2 / bands) cos(pi i (j + 0.5) / bands)) keeping
// the first coefficients.
//
// Every step repeats TensorFlow's double-precision operations in TensorFlow's order (mfcc.cc,
// mfcc_mel_filterbank.cc, mfcc_dct.cc), so that outputs agree to the last bits of a float.
// Where TensorFlow converts an out-of-range double to int, the x86 result (INT_MIN) is used.
// A frame shorter than the filterbank's last bin gives zeros, as TensorFlow's does (its
// filterbank then leaves no bands, and its DCT sums nothing).
//
// Not thread-compatible while Initialize runs; Compute is const and may run concurrently.
#ifndef SLUICE_KERNELS_CPU_AUDIO_MFCC_H_
#define SLUICE_KERNELS_CPU_AUDIO_MFCC_H_

#include <cstdint>

#include "absl/status/status.h"
#include "kernels/cpu/scratch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace audio {

struct MfccParams {
  double upper_frequency_limit;
  double lower_frequency_limit;
  int32_t filterbank_channel_count;
  int32_t dct_coefficient_count;
};

class MfccPlan {
 public:
  // Plans frames of `input_length` bins of audio sampled at `sample_rate`. Sets `*valid` to
  // false, allocating nothing, for what TensorFlow's Mfcc::Initialize refuses: fewer than 1
  // filterbank channel or INT_MAX - 2 or more, a sample rate <= 0, fewer than 2 bins, a lower limit
  // < 0, an upper limit <= the lower, fewer than 1 coefficient or more coefficients than channels.
  // RESOURCE_EXHAUSTED when the tables do not fit the allocator.
  absl::Status Initialize(OpKernelContext* ctx, const MfccParams& params, int32_t input_length,
                          double sample_rate, bool* valid);

  // The coefficients of one frame of input_length squared magnitudes into `out`
  // (dct_coefficient_count floats). `bands` is room for filterbank_channel_count doubles.
  void Compute(const float* frame, double* bands, float* out) const;

 private:
  int64_t channels_ = 0;
  int64_t coefficients_ = 0;
  int64_t input_length_ = 0;
  int64_t start_bin_ = 0;
  int64_t end_bin_ = 0;
  // For each bin, the band whose falling edge it is on (-1: below the first band's peak; -2:
  // outside the limits), and the weight it gives that band; 1 - weight goes to the next band.
  ScratchArray<int32_t> band_of_bin_;
  ScratchArray<double> weights_;
  // coefficients_ rows of channels_ cosines.
  ScratchArray<double> cosines_;
};

}  // namespace audio
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_AUDIO_MFCC_H_
