// The discrete Fourier transforms on the CPU: FFT/IFFT (complex to complex) and RFFT/IRFFT
// (real to half spectrum and back) over the innermost 1, 2 or 3 dims of the input, every dim
// before them a batch. The 1-D transforms are Eigen's (unsupported/Eigen/FFT, KissFFT);
// a transform of several dims is 1-D transforms along each of its axes in turn.
//
// As in TensorFlow:
//  - IFFT divides by the number of points; FFT does not;
//  - RFFT of length n gives the n / 2 + 1 non-negative frequencies of the innermost dim
//    (0 of them when n is 0), then transforms the outer dims in full; IRFFT does the outer
//    dims first, then rebuilds n real points from n / 2 + 1 frequencies, ignoring the
//    imaginary parts of the zero (and, for even n, the n / 2) frequency;
//  - fft_length crops the input: each transformed input dim must be at least its length
//    (for IRFFT's innermost dim, length / 2 + 1), except an empty dim, whose (zero-filled)
//    transform is zeros. The kernel never zero-pads a non-empty dim: tf.signal pads in
//    Python before it builds the op.
//  - The errors, INVALID_ARGUMENT: "Input must have rank of at least 1 but got: []",
//    "fft_length must have shape [1]", "fft_length[0] must >= 0, but got: -2", "Input
//    dimension 1 must have length of at least 12 but got: 8", and "Wrong types for forward
//    real FFT: in=1 out=18" when Treal and Tcomplex are not float/complex64 or
//    double/complex128 (TensorFlow registers one kernel for every pair and checks there).
// A zero fft_length with a non-empty input gives an empty output (TensorFlow's FFT library
// aborts the process on it).
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/types/span.h"
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

using Dims = absl::InlinedVector<int64_t, 4>;

// A tensor of dims [outer, n, inner]: the `lines` along its middle dim, each n elements
// `inner` apart. Line k starts at (k / inner) * n * inner + k % inner.
struct Lines {
  int64_t outer;
  int64_t n;
  int64_t inner;
  int64_t count() const { return outer * inner; }
  int64_t start(int64_t k) const { return (k / inner) * n * inner + k % inner; }
};

// The lines of axis `axis` of a row-major tensor of dims `dims`.
Lines LinesAlong(const Dims& dims, int axis) {
  Lines lines{1, dims[axis], 1};
  for (int d = 0; d < axis; ++d) lines.outer *= dims[d];
  for (int d = axis + 1; d < static_cast<int>(dims.size()); ++d) lines.inner *= dims[d];
  return lines;
}

// Work estimate of one transform of n points, for ParallelFor's cost model.
Eigen::TensorOpCost LineCost(int64_t n, int bytes_per_point) {
  const double log_n = n > 1 ? std::log2(static_cast<double>(n)) : 1.0;
  return Eigen::TensorOpCost(bytes_per_point * n, bytes_per_point * n, 5.0 * n * log_n);
}

// 1-D transforms of one thread's lines. Eigen's FFT object caches its plans and scratch
// buffers, so each ParallelFor range makes its own.
template <typename Real>
class LineFft {
 public:
  using Complex = std::complex<Real>;

  LineFft() { fft_.SetFlag(Eigen::FFT<Real>::HalfSpectrum); }

  // out = the DFT of in (inverse: the inverse DFT, divided by n); n points each, out != in.
  void Complex1D(const Complex* in, Complex* out, int64_t n, bool inverse) {
    if (n == 1) {
      out[0] = in[0];
    } else if (inverse) {
      fft_.inv(out, in, n);
    } else {
      fft_.fwd(out, in, n);
    }
  }

  // out[0, n / 2] = the non-negative frequencies of the DFT of the n real points in.
  void RealForward(const Real* in, Complex* out, int64_t n) {
    if (n == 1) {
      out[0] = Complex(in[0], 0);
    } else {
      fft_.fwd(out, in, n);
    }
  }

  // out = the n real points whose DFT has in[0, n / 2] as its non-negative frequencies,
  // divided by n.
  void RealInverse(const Complex* in, Real* out, int64_t n) {
    if (n == 1) {
      out[0] = in[0].real();
    } else {
      fft_.inv(out, in, n);
    }
  }

 private:
  Eigen::FFT<Real> fft_;
};

// Transforms every line along `axis` of the complex tensor `data` of dims `dims` in place.
// Each range gathers a line into its own scratch (2 * n points from the allocator: the
// line, then its transform); RESOURCE_EXHAUSTED when the allocator refuses them.
template <typename Real>
absl::Status TransformAxis(OpKernelContext* ctx, std::complex<Real>* data, const Dims& dims,
                           int axis, bool inverse) {
  using Complex = std::complex<Real>;
  const Lines lines = LinesAlong(dims, axis);
  // A 1-point transform is the identity.
  if (lines.n <= 1 || lines.count() == 0) return absl::OkStatus();
  const int64_t total = lines.count() * lines.n;
  return ParallelForWithScratch<Complex>(ctx, lines.count(), total,
                                         LineCost(lines.n, sizeof(Complex)), 2 * lines.n,
                                         [&](int64_t first, int64_t last, Complex* scratch) {
                                           LineFft<Real> fft;
                                           Complex* in = scratch;
                                           Complex* out = scratch + lines.n;
                                           for (int64_t k = first; k < last; ++k) {
                                             Complex* line = data + lines.start(k);
                                             for (int64_t i = 0; i < lines.n; ++i)
                                               in[i] = line[i * lines.inner];
                                             fft.Complex1D(in, out, lines.n, inverse);
                                             for (int64_t i = 0; i < lines.n; ++i)
                                               line[i * lines.inner] = out[i];
                                           }
                                         });
}

// Copies the leading block of `src` (row-major dims `src_dims`) of dims `block` into `dst`
// (row-major dims `block`): the crop of every dim to its block size. Elements are
// `element_bytes` wide.
void CopyLeadingBlock(const char* src, const Dims& src_dims, char* dst, const Dims& block,
                      size_t element_bytes) {
  const int rank = static_cast<int>(block.size());
  int64_t rows = 1;
  for (int d = 0; d + 1 < rank; ++d) rows *= block[d];
  const size_t row_bytes = block[rank - 1] * element_bytes;
  if (rows == 0 || row_bytes == 0) return;
  // heap-ok: one per dim of the input (rank <= 254)
  Dims index(rank, 0);
  // heap-ok: one per dim of the input (rank <= 254)
  Dims src_strides(rank, 1);
  for (int d = rank - 2; d >= 0; --d) src_strides[d] = src_strides[d + 1] * src_dims[d + 1];
  for (int64_t row = 0; row < rows; ++row) {
    int64_t offset = 0;
    for (int d = 0; d + 1 < rank; ++d) offset += index[d] * src_strides[d];
    std::memcpy(dst + row * row_bytes, src + offset * element_bytes, row_bytes);
    for (int d = rank - 2; d >= 0; --d) {
      if (++index[d] < block[d]) break;
      index[d] = 0;
    }
  }
}

// FFT/IFFT: out (of in's shape) = the transform of in along its innermost `rank` dims.
template <typename Real>
absl::Status ComplexFft(OpKernelContext* ctx, const Tensor& in, Tensor* out, int rank,
                        bool inverse) {
  using Complex = std::complex<Real>;
  const int64_t n = in.NumElements();
  Complex* data = out->base<Complex>();
  std::copy(in.base<Complex>(), in.base<Complex>() + n, data);
  // heap-ok: one per dim of the input (rank <= 254)
  const Dims dims(in.shape().dim_sizes().begin(), in.shape().dim_sizes().end());
  for (int axis = in.dims() - rank; axis < in.dims(); ++axis) {
    RETURN_IF_ERROR(TransformAxis<Real>(ctx, data, dims, axis, inverse));
  }
  return absl::OkStatus();
}

// RFFT: the real transform of the innermost dim (cropped to `lengths`' last), then complex
// transforms of the outer transformed dims. `lengths` are the fft lengths, all positive.
template <typename Real>
absl::Status RealForwardFft(OpKernelContext* ctx, const Tensor& in, Tensor* out,
                            const Dims& lengths) {
  using Complex = std::complex<Real>;
  const int rank = static_cast<int>(lengths.size());
  const int dims = in.dims();
  // heap-ok: one per dim of the input (rank <= 254)
  const Dims in_dims(in.shape().dim_sizes().begin(), in.shape().dim_sizes().end());
  // heap-ok: one per dim of the output (rank <= 254)
  const Dims out_dims(out->shape().dim_sizes().begin(), out->shape().dim_sizes().end());
  const int64_t n = lengths[rank - 1];
  const int64_t half = out_dims[dims - 1];
  const int64_t in_inner = in_dims[dims - 1];
  // Output rows: one per index of the dims before the innermost one; the input row of the
  // same index (the outer transformed dims are cropped, so the index maps directly).
  const int64_t rows = out->NumElements() / half;
  // heap-ok: one per dim of the output (rank <= 254)
  Dims row_dims(out_dims.begin(), out_dims.end() - 1);
  // heap-ok: one per transformed dim (fft_rank <= 3)
  Dims in_row_strides(dims - 1, in_inner);
  for (int d = dims - 3; d >= 0; --d) in_row_strides[d] = in_row_strides[d + 1] * in_dims[d + 1];
  const Real* src = in.base<Real>();
  Complex* dst = out->base<Complex>();
  ParallelFor(ctx, rows, out->NumElements(), LineCost(n, sizeof(Real)),
              [&](int64_t first, int64_t last) {
                LineFft<Real> fft;
                for (int64_t row = first; row < last; ++row) {
                  int64_t offset = 0;
                  int64_t rest = row;
                  for (int d = dims - 2; d >= 0; --d) {
                    offset += (rest % row_dims[d]) * in_row_strides[d];
                    rest /= row_dims[d];
                  }
                  fft.RealForward(src + offset, dst + row * half, n);
                }
              });
  for (int axis = dims - rank; axis < dims - 1; ++axis) {
    RETURN_IF_ERROR(TransformAxis<Real>(ctx, dst, out_dims, axis, /*inverse=*/false));
  }
  return absl::OkStatus();
}

// IRFFT: the input cropped to the lengths (its innermost dim to the last length / 2 + 1),
// inverse complex transforms of the outer transformed dims, then the real inverse of the
// innermost one.
template <typename Real>
absl::Status RealInverseFft(OpKernelContext* ctx, const Tensor& in, Tensor* out,
                            const Dims& lengths) {
  using Complex = std::complex<Real>;
  const int rank = static_cast<int>(lengths.size());
  const int dims = in.dims();
  // heap-ok: one per dim of the input (rank <= 254)
  const Dims in_dims(in.shape().dim_sizes().begin(), in.shape().dim_sizes().end());
  const int64_t n = lengths[rank - 1];
  // heap-ok: one per dim of the output (rank <= 254)
  Dims spectrum_dims(out->shape().dim_sizes().begin(), out->shape().dim_sizes().end());
  spectrum_dims[dims - 1] = n / 2 + 1;
  Tensor spectrum;
  // shape-safe: no dim larger than the input's: FftOp::Compute checked each transformed input
  // dim against its length (the innermost against n / 2 + 1), and the input is not empty here
  RETURN_IF_ERROR(ctx->allocate_temp(DataTypeToEnum<Complex>::value,
                                     TensorShape(absl::MakeConstSpan(spectrum_dims)), &spectrum));
  Complex* spectrum_data = spectrum.base<Complex>();
  const int64_t spectrum_size = spectrum.NumElements();
  CopyLeadingBlock(reinterpret_cast<const char*>(in.base<Complex>()), in_dims,
                   reinterpret_cast<char*>(spectrum_data), spectrum_dims, sizeof(Complex));
  for (int axis = dims - rank; axis < dims - 1; ++axis) {
    RETURN_IF_ERROR(TransformAxis<Real>(ctx, spectrum_data, spectrum_dims, axis, /*inverse=*/true));
  }
  const int64_t half = spectrum_dims[dims - 1];
  const int64_t rows = spectrum_size / half;
  const Complex* src = spectrum_data;
  Real* dst = out->base<Real>();
  ParallelFor(ctx, rows, out->NumElements(), LineCost(n, sizeof(Complex)),
              [&](int64_t first, int64_t last) {
                LineFft<Real> fft;
                for (int64_t row = first; row < last; ++row) {
                  fft.RealInverse(src + row * half, dst + row * n, n);
                }
              });
  return absl::OkStatus();
}

// One kernel class for the twelve ops: `rank` transformed dims, forward or inverse, complex
// or real. Registered without type constraints, as TensorFlow does: the (Treal, Tcomplex)
// pair is checked at run time.
class FftOp : public OpKernel {
 public:
  FftOp(OpKernelConstruction* ctx, int rank, bool forward, bool real)
      : OpKernel(ctx), rank_(rank), forward_(forward), real_(real) {}

  void Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    OP_REQUIRES(ctx, in.dims() >= rank_,
                errors::InvalidArgument("Input must have rank of at least ", rank_,
                                        " but got: ", in.shape().DebugString()));
    const int dims = in.dims();
    // heap-ok: one per dim of the input (rank <= 254)
    Dims out_dims(in.shape().dim_sizes().begin(), in.shape().dim_sizes().end());
    // heap-ok: one per transformed dim (fft_rank <= 3)
    Dims lengths(in.shape().dim_sizes().end() - rank_, in.shape().dim_sizes().end());
    if (real_) {
      const Tensor& fft_length = ctx->input(1);
      OP_REQUIRES(ctx, fft_length.dims() == 1 && fft_length.dim_size(0) == rank_,
                  errors::InvalidArgument("fft_length must have shape [", rank_, "]"));
      OP_REQUIRES(ctx, fft_length.dtype() == DT_INT32,
                  errors::InvalidArgument("fft_length must be int32, got ",
                                          DataTypeString(fft_length.dtype())));
      const int32_t* values = fft_length.base<int32_t>();
      for (int i = 0; i < rank_; ++i) {
        const int64_t length = values[i];
        OP_REQUIRES(ctx, length >= 0,
                    errors::InvalidArgument("fft_length[", i, "] must >= 0, but got: ", length));
        const bool innermost = i == rank_ - 1;
        const int64_t min_input = !forward_ && innermost ? length / 2 + 1 : length;
        const int input_index = dims - rank_ + i;
        const int64_t input_dim = in.dim_size(input_index);
        OP_REQUIRES(ctx, input_dim == 0 || input_dim >= min_input,
                    errors::InvalidArgument("Input dimension ", input_index,
                                            " must have length of at least ", min_input,
                                            " but got: ", input_dim));
        lengths[i] = length;
        out_dims[input_index] = forward_ && innermost && length != 0 ? length / 2 + 1 : length;
      }
    }
    const DataType in_type = input_type(0);
    const DataType out_type = output_type(0);
    const bool single = real_ ? (forward_ ? in_type == DT_FLOAT && out_type == DT_COMPLEX64
                                          : in_type == DT_COMPLEX64 && out_type == DT_FLOAT)
                              : in_type == DT_COMPLEX64;
    const bool wide = real_ ? (forward_ ? in_type == DT_DOUBLE && out_type == DT_COMPLEX128
                                        : in_type == DT_COMPLEX128 && out_type == DT_DOUBLE)
                            : in_type == DT_COMPLEX128;
    OP_REQUIRES(ctx, single || wide,
                errors::InvalidArgument(
                    "Wrong types for ",
                    real_ ? (forward_ ? "forward real FFT" : "backward real FFT") : "FFT",
                    ": in=", static_cast<int>(in_type), " out=", static_cast<int>(out_type)));
    TensorShape out_shape;
    OP_REQUIRES_OK(ctx, TensorShape::BuildTensorShape(out_dims, &out_shape));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &out));
    if (out->NumElements() == 0) return;
    if (in.NumElements() == 0) {
      // Some transformed dim is empty: the transform of zeros.
      std::memset(out->raw_data(), 0, out->TotalBytes());
      return;
    }
    OP_REQUIRES_OK(ctx,
                   single ? Run<float>(ctx, in, out, lengths) : Run<double>(ctx, in, out, lengths));
  }

 private:
  template <typename Real>
  absl::Status Run(OpKernelContext* ctx, const Tensor& in, Tensor* out, const Dims& lengths) {
    if (!real_) return ComplexFft<Real>(ctx, in, out, rank_, !forward_);
    if (forward_) return RealForwardFft<Real>(ctx, in, out, lengths);
    return RealInverseFft<Real>(ctx, in, out, lengths);
  }

  const int rank_;
  const bool forward_;
  const bool real_;
};

template <int kRank, bool kForward, bool kReal>
class FftOpOf : public FftOp {
 public:
  explicit FftOpOf(OpKernelConstruction* ctx) : FftOp(ctx, kRank, kForward, kReal) {}
};

REGISTER_KERNEL_BUILDER(Name("FFT").Device(DEVICE_CPU), FftOpOf<1, true, false>);
REGISTER_KERNEL_BUILDER(Name("IFFT").Device(DEVICE_CPU), FftOpOf<1, false, false>);
REGISTER_KERNEL_BUILDER(Name("FFT2D").Device(DEVICE_CPU), FftOpOf<2, true, false>);
REGISTER_KERNEL_BUILDER(Name("IFFT2D").Device(DEVICE_CPU), FftOpOf<2, false, false>);
REGISTER_KERNEL_BUILDER(Name("FFT3D").Device(DEVICE_CPU), FftOpOf<3, true, false>);
REGISTER_KERNEL_BUILDER(Name("IFFT3D").Device(DEVICE_CPU), FftOpOf<3, false, false>);
REGISTER_KERNEL_BUILDER(Name("RFFT").Device(DEVICE_CPU).HostMemory("fft_length"),
                        FftOpOf<1, true, true>);
REGISTER_KERNEL_BUILDER(Name("IRFFT").Device(DEVICE_CPU).HostMemory("fft_length"),
                        FftOpOf<1, false, true>);
REGISTER_KERNEL_BUILDER(Name("RFFT2D").Device(DEVICE_CPU).HostMemory("fft_length"),
                        FftOpOf<2, true, true>);
REGISTER_KERNEL_BUILDER(Name("IRFFT2D").Device(DEVICE_CPU).HostMemory("fft_length"),
                        FftOpOf<2, false, true>);
REGISTER_KERNEL_BUILDER(Name("RFFT3D").Device(DEVICE_CPU).HostMemory("fft_length"),
                        FftOpOf<3, true, true>);
REGISTER_KERNEL_BUILDER(Name("IRFFT3D").Device(DEVICE_CPU).HostMemory("fft_length"),
                        FftOpOf<3, false, true>);

}  // namespace
}  // namespace sluice
