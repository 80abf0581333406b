// AudioSummaryV2 (and the deprecated AudioSummary, whose sample rate is an attr) on the CPU: up to
// max_outputs WAV clips (wav_encoder.h) from a [batch, frames] or [batch, frames, channels]
// tensor. The values' tags are "<tag>/audio/<i>", or "<tag>/audio" when max_outputs is 1; each
// records the sample rate as given, the channel and frame counts and content type "audio/wav".
// The WAV header's rate is the sample rate rounded to the nearest integer (at least 1).
//
// Errors are TensorFlow's (INVALID_ARGUMENT): a non-scalar tag, a tensor of rank other than 2 or
// 3, a sample_rate input with other than one element, a sample rate that is not > 0 (NaN
// included), and the encoder's (a rate of 2^32 or more, 2^16 channels or more, no channels
// with frames: "audio is null").
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/summary/summary_output.h"
#include "kernels/cpu/summary/wav_encoder.h"
#include "proto/summary.pb.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// The WAV header's rate for a sample rate > 0: lrintf's value, which on x86-64 (where
// TensorFlow's numbers come from) is 2^63 for anything at or beyond 2^63, infinity included;
// the encoder then refuses it with that number in its message.
uint64_t WavSampleRate(float sample_rate) {
  constexpr float k2To63 = 9223372036854775808.0f;
  if (!(sample_rate < k2To63)) return uint64_t{1} << 63;
  const long rounded = std::lrint(sample_rate);  // NOLINT(runtime/int): lrint's type
  return rounded == 0 ? 1 : static_cast<uint64_t>(rounded);
}

class AudioSummaryOp : public OpKernel {
 public:
  explicit AudioSummaryOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("max_outputs", &max_outputs_));
    OP_REQUIRES(ctx, max_outputs_ > 0, errors::InvalidArgument("max_outputs must be > 0"));
    // Only the deprecated AudioSummary has the attr; AudioSummaryV2 takes an input.
    has_sample_rate_attr_ = ctx->GetAttr("sample_rate", &sample_rate_attr_).ok();
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& tag = ctx->input(0);
    const Tensor& tensor = ctx->input(1);
    OP_REQUIRES(ctx, tag.dims() == 0, errors::InvalidArgument("Tag must be a scalar"));
    OP_REQUIRES(
        ctx, tensor.dims() >= 2 && tensor.dims() <= 3,
        errors::InvalidArgument("Tensor must be 3-D or 2-D, got: ", tensor.shape().DebugString()));
    float sample_rate = sample_rate_attr_;
    if (!has_sample_rate_attr_) {
      const Tensor& rate = ctx->input(2);
      OP_REQUIRES(ctx, rate.NumElements() == 1,
                  errors::InvalidArgument("sample_rate must be rank-0 or contain a single value"));
      sample_rate = rate.flat<float>()(0);
    }
    OP_REQUIRES(ctx, sample_rate > 0.0f, errors::InvalidArgument("sample_rate must be > 0"));

    const std::string& base_tag = tag.scalar<std::string>()();
    const int64_t batch = tensor.dim_size(0);
    const int64_t frames = tensor.dim_size(1);
    const int64_t channels = tensor.dims() == 2 ? 1 : tensor.dim_size(2);
    const int64_t count = std::min<int64_t>(max_outputs_, batch);
    // An empty tensor has no data: the encoder refuses it when it has frames, as TensorFlow's
    // does (its empty tensors have no buffer).
    const float* data = tensor.NumElements() == 0 ? nullptr : tensor.base<float>();
    Summary summary;
    for (int64_t i = 0; i < count; ++i) {
      Summary::Value* v = summary.add_value();
      v->set_tag(max_outputs_ > 1 ? absl::StrCat(base_tag, "/audio/", i)
                                  : absl::StrCat(base_tag, "/audio"));
      Summary::Audio* audio = v->mutable_audio();
      audio->set_sample_rate(sample_rate);
      audio->set_num_channels(channels);
      audio->set_length_frames(frames);
      audio->set_content_type("audio/wav");
      const float* clip = data == nullptr ? nullptr : data + i * frames * channels;
      OP_REQUIRES_OK(ctx, summary::EncodeWav16(clip, WavSampleRate(sample_rate), channels, frames,
                                               audio->mutable_encoded_audio_string()));
    }
    OP_REQUIRES_OK(ctx, summary::SetSummaryOutput(ctx, summary));
  }

 private:
  int max_outputs_ = 0;
  bool has_sample_rate_attr_ = false;
  float sample_rate_attr_ = 0.0f;
};

REGISTER_KERNEL_BUILDER(Name("AudioSummaryV2").Device(DEVICE_CPU), AudioSummaryOp);
REGISTER_KERNEL_BUILDER(Name("AudioSummary").Device(DEVICE_CPU), AudioSummaryOp);

}  // namespace
}  // namespace sluice
