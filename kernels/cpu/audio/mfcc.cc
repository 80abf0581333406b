// MfccPlan (mfcc.h): the filterbank's bin-to-band map and weights and the DCT's cosines, built
// once per kernel run, then each frame's coefficients.
#include "kernels/cpu/audio/mfcc.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "absl/status/status.h"
#include "graph/core/errors.h"

namespace sluice {
namespace audio {
namespace {

double FreqToMel(double freq) { return 1127.0 * std::log1p(freq / 700.0); }

// static_cast<int>(value) as x86-64 computes it: NaN and values out of int's range give
// INT_MIN (cvttsd2si's "integer indefinite"), where C++ leaves it undefined.
int64_t TruncateToInt(double value) {
  if (!(value > -2147483649.0 && value < 2147483648.0)) {
    return std::numeric_limits<int32_t>::min();
  }
  return static_cast<int32_t>(value);
}

constexpr double kBandFloor = 1e-12;

}  // namespace

absl::Status MfccPlan::Initialize(OpKernelContext* ctx, const MfccParams& params,
                                  int32_t input_length, double sample_rate, bool* valid) {
  const double lower = params.lower_frequency_limit;
  const double upper = params.upper_frequency_limit;
  channels_ = params.filterbank_channel_count;
  coefficients_ = params.dct_coefficient_count;
  input_length_ = input_length;
  // TensorFlow also refuses a filterbank whose channel count plus one reaches INT_MAX.
  *valid = channels_ >= 1 && channels_ + 1 < std::numeric_limits<int32_t>::max() &&
           sample_rate > 0 && input_length >= 2 && !(lower < 0) && !(upper <= lower) &&
           coefficients_ >= 1 && coefficients_ <= channels_;
  if (!*valid) return absl::OkStatus();

  // Band centres, in mel; the extra one at the top is the last band's upper edge.
  ScratchArray<double> centers;
  RETURN_IF_ERROR(centers.Allocate(ctx, channels_ + 1));
  const double mel_low = FreqToMel(lower);
  const double mel_spacing = (FreqToMel(upper) - mel_low) / static_cast<double>(channels_ + 1);
  for (int64_t i = 0; i < channels_ + 1; ++i) centers[i] = mel_low + (mel_spacing * (i + 1));

  // The DC bin is always left out, as HTK does.
  const double hz_per_bin = 0.5 * sample_rate / static_cast<double>(input_length - 1);
  start_bin_ = TruncateToInt(1.5 + (lower / hz_per_bin));
  end_bin_ = TruncateToInt(upper / hz_per_bin);

  RETURN_IF_ERROR(band_of_bin_.Allocate(ctx, input_length));
  RETURN_IF_ERROR(weights_.Allocate(ctx, input_length));
  int64_t band = 0;
  for (int64_t i = 0; i < input_length; ++i) {
    const double mel = FreqToMel(i * hz_per_bin);
    if (i < start_bin_ || i > end_bin_) {
      band_of_bin_[i] = -2;
      weights_[i] = 0.0;
      continue;
    }
    while (band < channels_ && centers[band] < mel) ++band;
    band_of_bin_[i] = static_cast<int32_t>(band - 1);
    weights_[i] = band >= 1 ? (centers[band] - mel) / (centers[band] - centers[band - 1])
                            : (centers[0] - mel) / (centers[0] - mel_low);
  }

  RETURN_IF_ERROR(cosines_.Allocate(ctx, coefficients_ * channels_));
  const double norm = std::sqrt(2.0 / channels_);
  const double pi = std::atan(1.0) * 4;
  const double arg = pi / channels_;
  for (int64_t i = 0; i < coefficients_; ++i) {
    for (int64_t j = 0; j < channels_; ++j) {
      cosines_[i * channels_ + j] = norm * std::cos(i * arg * (j + 0.5));
    }
  }
  return absl::OkStatus();
}

void MfccPlan::Compute(const float* frame, double* bands, float* out) const {
  if (end_bin_ < 0 || input_length_ <= end_bin_) {
    std::fill(out, out + coefficients_, 0.0f);
    return;
  }
  std::fill(bands, bands + channels_, 0.0);
  // start_bin_ is negative only for a NaN lower limit, where TensorFlow reads before the
  // frame; here those bins do not exist.
  for (int64_t i = std::max<int64_t>(start_bin_, 0); i <= end_bin_; ++i) {
    const double magnitude = std::sqrt(static_cast<double>(frame[i]));
    const double weighted = magnitude * weights_[i];
    const int64_t band = band_of_bin_[i];
    if (band >= 0) bands[band] += weighted;
    if (band + 1 < channels_) bands[band + 1] += magnitude - weighted;
  }
  for (int64_t c = 0; c < channels_; ++c) {
    bands[c] = std::log(bands[c] < kBandFloor ? kBandFloor : bands[c]);
  }
  for (int64_t i = 0; i < coefficients_; ++i) {
    const double* cosines = cosines_.data() + i * channels_;
    double sum = 0.0;
    for (int64_t j = 0; j < channels_; ++j) sum += cosines[j] * bands[j];
    out[i] = static_cast<float>(sum);
  }
}

}  // namespace audio
}  // namespace sluice
