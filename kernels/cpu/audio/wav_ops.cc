// DecodeWav and EncodeWav on the CPU: 16-bit PCM WAV files to [frames, channels] float samples
// and back, as TensorFlow's kernels.
//
// DecodeWav scales each sample by 1 / 32768. desired_channels (-1: the file's) keeps the first
// channels or repeats the last one; desired_samples (-1: the file's) crops the frames or pads
// them with zeros. Its errors are INVALID_ARGUMENT: contents not a scalar, a malformed file
// (wav_decoder.h), then desired_channels or desired_samples below -1 (checked after the file,
// in TensorFlow's order).
//
// EncodeWav writes the samples, clamped to [-1, 1] and scaled by 32768, with the
// summary kernels' encoder (wav_encoder.h). Its errors are INVALID_ARGUMENT: audio not of rank
// 2, sample_rate not a scalar, 2^31 - 1 samples or more, and the encoder's (a rate outside
// (0, 2^32), read as TensorFlow does from a sign-extended int32, so -1 is 2^64 - 1; a channel
// count outside (0, 2^16)).
#include <cstdint>
#include <limits>
#include <string>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/audio/wav_decoder.h"
#include "kernels/cpu/summary/wav_encoder.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

class DecodeWavOp : public OpKernel {
 public:
  explicit DecodeWavOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("desired_channels", &desired_channels_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("desired_samples", &desired_samples_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& contents = ctx->input(0);
    OP_REQUIRES(ctx, contents.dims() == 0,
                errors::InvalidArgument("contents must be scalar, got shape ",
                                        contents.shape().DebugString()));
    const std::string& wav = contents.scalar<std::string>()();
    OP_REQUIRES(ctx, wav.size() <= static_cast<size_t>(std::numeric_limits<int>::max()),
                errors::InvalidArgument("WAV contents are too large for int: ", wav.size()));
    audio::WavLayout layout;
    OP_REQUIRES_OK(ctx, audio::ParseLin16Wav(wav, &layout));
    OP_REQUIRES(ctx, desired_channels_ >= -1,
                errors::InvalidArgument("desired_channels must be >= -1, got ", desired_channels_));
    OP_REQUIRES(ctx, desired_samples_ >= -1,
                errors::InvalidArgument("desired_samples must be >= -1, got ", desired_samples_));
    // TensorFlow keeps both counts in an int32, where a file of 2^31 frames or more turns
    // negative and is refused below.
    const int32_t frames =
        desired_samples_ == -1 ? static_cast<int32_t>(layout.frames) : desired_samples_;
    const int32_t channels =
        desired_channels_ == -1 ? static_cast<int32_t>(layout.channels) : desired_channels_;
    OP_REQUIRES(ctx, frames >= 0,
                errors::InvalidArgument("Output sample count must be >= 0, got ", frames));
    OP_REQUIRES(ctx, channels >= 0,
                errors::InvalidArgument("Output channel count must be >= 0, got ", channels));
    Tensor* audio = nullptr;
    // shape-safe: two int32 dims, both checked >= 0 above
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({frames, channels}), &audio));
    float* out = audio->flat<float>().data();
    const char* data = wav.data() + layout.data_offset;
    const int64_t file_frames = layout.frames;
    const int64_t file_channels = layout.channels;
    for (int64_t frame = 0; frame < frames; ++frame) {
      for (int64_t channel = 0; channel < channels; ++channel) {
        float value = 0.0f;
        if (frame < file_frames) {
          const int64_t source = channel < file_channels ? channel : file_channels - 1;
          value =
              audio::Pcm16ToFloat(audio::ReadPcm16(data + 2 * (frame * file_channels + source)));
        }
        out[frame * channels + channel] = value;
      }
    }
    Tensor* sample_rate = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape({}), &sample_rate));
    sample_rate->scalar<int32_t>()() = static_cast<int32_t>(layout.sample_rate);
  }

 private:
  int32_t desired_channels_;
  int32_t desired_samples_;
};

class EncodeWavOp : public OpKernel {
 public:
  explicit EncodeWavOp(OpKernelConstruction* ctx) : OpKernel(ctx) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& audio = ctx->input(0);
    OP_REQUIRES(
        ctx, audio.dims() == 2,
        errors::InvalidArgument("audio must be 2-dimensional", audio.shape().DebugString()));
    const Tensor& rate = ctx->input(1);
    OP_REQUIRES(ctx, rate.dims() == 0,
                errors::InvalidArgument("Input sample_rate should be a scalar tensor, got ",
                                        rate.shape().DebugString(), " instead."));
    OP_REQUIRES(ctx, audio.NumElements() < std::numeric_limits<int32_t>::max(),
                errors::InvalidArgument("Cannot encode audio with >= max int32 elements"));
    const int32_t sample_rate = rate.scalar<int32_t>()();
    const int32_t channels = static_cast<int32_t>(audio.dim_size(1));
    const int32_t frames = static_cast<int32_t>(audio.dim_size(0));
    Tensor* contents = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({}), &contents));
    // The encoder's "audio is null" is for a null buffer with frames; TensorFlow's fed tensors
    // have a buffer even when empty, so frames without channels fail on the channel count.
    static const float kNoSamples = 0.0f;
    const float* samples = audio.NumElements() == 0 ? &kNoSamples : audio.flat<float>().data();
    OP_REQUIRES_OK(ctx, summary::EncodeWav16(samples, static_cast<uint64_t>(int64_t{sample_rate}),
                                             static_cast<uint64_t>(int64_t{channels}),
                                             static_cast<uint64_t>(int64_t{frames}),
                                             &contents->scalar<std::string>()()));
  }
};

REGISTER_KERNEL_BUILDER(Name("DecodeWav").Device(DEVICE_CPU), DecodeWavOp);
REGISTER_KERNEL_BUILDER(Name("EncodeWav").Device(DEVICE_CPU), EncodeWavOp);

}  // namespace
}  // namespace sluice
