// AudioSpectrogram on the CPU: for each channel of [samples, channels] float audio, the
// squared magnitude (or, by default, the magnitude) of the FFT of each window of window_size
// samples, stride apart, under a periodic Hann window (0.5 - 0.5 cos(2 pi i / n)), zero
// padded to the next power of two. The output is [channels, windows, fft_length / 2 + 1]:
// windows = 1 + (samples - window_size) / stride, or 0 when a channel is shorter than a window.
//
// As in TensorFlow, the window and the FFT are in double precision (TensorFlow's is Ooura's
// rdft; here Eigen's FFT, as the FFT kernels use), and the squared magnitude is rounded to
// float before its square root (sqrtf). The two FFTs round differently: outputs agree to about
// 1e-6 of the window's largest bin, not to the bit.
//
// Errors, INVALID_ARGUMENT with TensorFlow's messages: window_size < 2 or stride < 1 when the
// kernel is built, and an input not of rank 2.
#include <cmath>
#include <complex>
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/scratch.h"
#include "runtime/framework/op_kernel.h"
#include "unsupported/Eigen/FFT"

namespace sluice {
namespace {

class AudioSpectrogramOp : public OpKernel {
 public:
  explicit AudioSpectrogramOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("window_size", &window_size_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("stride", &stride_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("magnitude_squared", &magnitude_squared_));
    OP_REQUIRES(ctx, window_size_ > 1,
                errors::InvalidArgument("window_size must be > 1, got ", window_size_));
    OP_REQUIRES(ctx, stride_ > 0, errors::InvalidArgument("stride must be > 0, got ", stride_));
    fft_length_ = 1;
    while (fft_length_ < window_size_) fft_length_ *= 2;
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    OP_REQUIRES(
        ctx, input.dims() == 2,
        errors::InvalidArgument("input must be 2-dimensional", input.shape().DebugString()));
    const int64_t samples = input.dim_size(0);
    const int64_t channels = input.dim_size(1);
    const int64_t bins = fft_length_ / 2 + 1;
    const int64_t windows = samples < window_size_ ? 0 : 1 + (samples - window_size_) / stride_;
    // An input of 2^40 samples and a window of 2^29 would overflow the element count.
    TensorShape shape;
    OP_REQUIRES_OK(ctx, TensorShape::BuildTensorShape({channels, windows, bins}, &shape));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &output));
    if (output->NumElements() == 0) return;

    const double pi = std::atan(1.0) * 4;
    ScratchArray<double> hann;
    OP_REQUIRES_OK(ctx, hann.Allocate(ctx, window_size_));
    for (int64_t i = 0; i < window_size_; ++i) {
      hann[i] = 0.5 - 0.5 * std::cos((2 * pi * i) / window_size_);
    }

    const float* in = input.flat<float>().data();
    float* out = output->flat<float>().data();
    const int64_t fft_length = fft_length_;
    const int64_t window_size = window_size_;
    const int64_t stride = stride_;
    const bool squared = magnitude_squared_;
    // Each range holds one windowed frame (fft_length doubles, as fft_length / 2 complex
    // numbers' storage) and its half spectrum.
    const int64_t scratch = fft_length / 2 + bins;
    const double log_n = std::log2(static_cast<double>(fft_length));
    const Eigen::TensorOpCost cost(sizeof(float) * window_size, sizeof(float) * bins,
                                   5.0 * fft_length * log_n);
    OP_REQUIRES_OK(ctx, ParallelForWithScratch<std::complex<double>>(
                            ctx, channels * windows, output->NumElements(), cost, scratch,
                            [&](int64_t first, int64_t last, std::complex<double>* buffer) {
                              Eigen::FFT<double> fft;
                              fft.SetFlag(Eigen::FFT<double>::HalfSpectrum);
                              double* frame = reinterpret_cast<double*>(buffer);
                              std::complex<double>* spectrum = buffer + fft_length / 2;
                              for (int64_t k = first; k < last; ++k) {
                                const int64_t channel = k / windows;
                                const int64_t start = (k % windows) * stride;
                                for (int64_t i = 0; i < window_size; ++i) {
                                  frame[i] =
                                      static_cast<double>(in[(start + i) * channels + channel]) *
                                      hann[i];
                                }
                                for (int64_t i = window_size; i < fft_length; ++i) frame[i] = 0.0;
                                fft.fwd(spectrum, frame, fft_length);
                                float* row = out + k * bins;
                                for (int64_t b = 0; b < bins; ++b) {
                                  const double re = spectrum[b].real();
                                  const double im = spectrum[b].imag();
                                  const float power = static_cast<float>(re * re + im * im);
                                  row[b] = squared ? power : std::sqrt(power);
                                }
                              }
                            }));
  }

 private:
  int32_t window_size_;
  int32_t stride_;
  bool magnitude_squared_;
  int64_t fft_length_;
};

REGISTER_KERNEL_BUILDER(Name("AudioSpectrogram").Device(DEVICE_CPU), AudioSpectrogramOp);

}  // namespace
}  // namespace sluice
