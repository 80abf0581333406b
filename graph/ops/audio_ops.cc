// The audio ops of TensorFlow's speech models: DecodeWav and EncodeWav (16-bit PCM WAV files
// to and from float samples), AudioSpectrogram (windowed FFT power of each channel) and Mfcc
// (mel-frequency cepstral coefficients of a spectrogram).
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"

namespace sluice {
namespace {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

// A dim for an attr that is -1 when unset: unknown then, otherwise its value.
absl::Status DesiredDim(InferenceContext* c, const char* attr, const char* what,
                        DimensionHandle* dim) {
  int32_t value;
  RETURN_IF_ERROR(c->GetAttr(attr, &value));
  if (value == -1) {
    *dim = c->UnknownDim();
    return absl::OkStatus();
  }
  if (value < 0) return errors::InvalidArgument(what, " must be non-negative, got ", value);
  *dim = c->MakeDim(value);
  return absl::OkStatus();
}

absl::Status DecodeWavShapeFn(InferenceContext* c) {
  ShapeHandle unused;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 0, &unused));
  DimensionHandle channels;
  RETURN_IF_ERROR(DesiredDim(c, "desired_channels", "channels", &channels));
  DimensionHandle samples;
  RETURN_IF_ERROR(DesiredDim(c, "desired_samples", "samples", &samples));
  c->set_output(0, c->MakeShape({samples, channels}));
  c->set_output(1, c->Scalar());
  return absl::OkStatus();
}

absl::Status EncodeWavShapeFn(InferenceContext* c) {
  ShapeHandle unused;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 2, &unused));
  RETURN_IF_ERROR(c->WithRank(c->input(1), 0, &unused));
  c->set_output(0, c->Scalar());
  return absl::OkStatus();
}

// Input [samples, channels] gives [channels, windows, 1 + fft_length / 2], fft_length being
// the window size rounded up to a power of two.
absl::Status AudioSpectrogramShapeFn(InferenceContext* c) {
  ShapeHandle input;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 2, &input));
  int32_t window_size;
  RETURN_IF_ERROR(c->GetAttr("window_size", &window_size));
  if (window_size <= 1) {
    return errors::InvalidArgument("window size must be > 1, got ", window_size);
  }
  int32_t stride;
  RETURN_IF_ERROR(c->GetAttr("stride", &stride));
  if (stride <= 0) return errors::InvalidArgument("stride must be strictly positive, got ", stride);
  const DimensionHandle length = c->Dim(input, 0);
  DimensionHandle windows = c->UnknownDim();
  if (c->ValueKnown(length)) {
    const int64_t past_first = c->Value(length) - window_size;
    windows = c->MakeDim(past_first < 0 ? 0 : 1 + past_first / stride);
  }
  int64_t fft_length = 1;
  while (fft_length < window_size) fft_length *= 2;
  c->set_output(0, c->MakeShape({c->Dim(input, 1), windows, c->MakeDim(1 + fft_length / 2)}));
  return absl::OkStatus();
}

absl::Status MfccShapeFn(InferenceContext* c) {
  ShapeHandle spectrogram;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 3, &spectrogram));
  ShapeHandle unused;
  RETURN_IF_ERROR(c->WithRank(c->input(1), 0, &unused));
  int32_t coefficients;
  RETURN_IF_ERROR(c->GetAttr("dct_coefficient_count", &coefficients));
  const DimensionHandle out = coefficients >= 0 ? c->MakeDim(coefficients) : c->UnknownDim();
  c->set_output(0, c->MakeShape({c->Dim(spectrogram, 0), c->Dim(spectrogram, 1), out}));
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("DecodeWav")
    .Input("contents: string")
    .Attr("desired_channels: int = -1")
    .Attr("desired_samples: int = -1")
    .Output("audio: float")
    .Output("sample_rate: int32")
    .SetShapeFn(DecodeWavShapeFn);

REGISTER_OP("EncodeWav")
    .Input("audio: float")
    .Input("sample_rate: int32")
    .Output("contents: string")
    .SetShapeFn(EncodeWavShapeFn);

REGISTER_OP("AudioSpectrogram")
    .Input("input: float")
    .Attr("window_size: int")
    .Attr("stride: int")
    .Attr("magnitude_squared: bool = false")
    .Output("spectrogram: float")
    .SetShapeFn(AudioSpectrogramShapeFn);

REGISTER_OP("Mfcc")
    .Input("spectrogram: float")
    .Input("sample_rate: int32")
    .Attr("upper_frequency_limit: float = 4000")
    .Attr("lower_frequency_limit: float = 20")
    .Attr("filterbank_channel_count: int = 40")
    .Attr("dct_coefficient_count: int = 13")
    .Output("output: float")
    .SetShapeFn(MfccShapeFn);

}  // namespace sluice
