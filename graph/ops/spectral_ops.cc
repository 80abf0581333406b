// The discrete Fourier transforms of tf.signal: FFT/IFFT (complex to complex) and
// RFFT/IRFFT (real to half spectrum and back), over the innermost 1, 2 or 3 dims of the
// input; the dims before them are a batch. Keras's STFT and MelSpectrogram layers use RFFT.
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/tensor.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"

namespace sluice {
namespace {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

// A complex transform keeps the input's shape, which needs `rank` dims to transform.
template <int rank>
absl::Status ComplexFftShape(InferenceContext* c) {
  return shape_inference::UnchangedShapeWithRankAtLeast(c, rank);
}

// RFFT/IRFFT of `rank` dims: the input's innermost `rank` dims become fft_length (a vector
// of `rank` int32), the last one fft_length[-1] / 2 + 1 for the forward transform (0 when
// the length is 0). Unknown lengths give unknown dims; so do negative ones, which the kernel
// rejects (TensorFlow's shape function computes a size from them).
template <bool forward, int rank>
absl::Status RealFftShape(InferenceContext* c) {
  ShapeHandle out;
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(0), rank, &out));
  ShapeHandle fft_length;
  RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &fft_length));
  DimensionHandle unused;
  RETURN_IF_ERROR(c->WithValue(c->Dim(fft_length, 0), rank, &unused));
  const Tensor* lengths_t = c->input_tensor(1);
  IntegerValues lengths;
  if (lengths_t != nullptr) {
    RETURN_IF_ERROR(IntegerTensorValues(*lengths_t, &lengths));
    if (lengths.size() != static_cast<size_t>(rank)) {
      return errors::InvalidArgument("fft_length must have shape [", rank, "], got ",
                                     lengths_t->shape().DebugString());
    }
  }
  for (int i = 0; i < rank; ++i) {
    DimensionHandle dim = c->UnknownDim();
    if (lengths_t != nullptr && lengths[i] >= 0) {
      const int64_t n = lengths[i];
      dim = c->MakeDim(forward && i == rank - 1 && n != 0 ? n / 2 + 1 : n);
    }
    RETURN_IF_ERROR(c->ReplaceDim(out, i - rank, dim, &out));
  }
  c->set_output(0, out);
  return absl::OkStatus();
}

}  // namespace

#define SLUICE_REGISTER_COMPLEX_FFT(name, rank)                 \
  REGISTER_OP(name)                                             \
      .Input("input: Tcomplex")                                 \
      .Output("output: Tcomplex")                               \
      .Attr("Tcomplex: {complex64, complex128} = DT_COMPLEX64") \
      .SetShapeFn(ComplexFftShape<rank>);

SLUICE_REGISTER_COMPLEX_FFT("FFT", 1)
SLUICE_REGISTER_COMPLEX_FFT("IFFT", 1)
SLUICE_REGISTER_COMPLEX_FFT("FFT2D", 2)
SLUICE_REGISTER_COMPLEX_FFT("IFFT2D", 2)
SLUICE_REGISTER_COMPLEX_FFT("FFT3D", 3)
SLUICE_REGISTER_COMPLEX_FFT("IFFT3D", 3)
#undef SLUICE_REGISTER_COMPLEX_FFT

#define SLUICE_REGISTER_RFFT(name, rank)                        \
  REGISTER_OP(name)                                             \
      .Input("input: Treal")                                    \
      .Input("fft_length: int32")                               \
      .Output("output: Tcomplex")                               \
      .Attr("Treal: {float, double} = DT_FLOAT")                \
      .Attr("Tcomplex: {complex64, complex128} = DT_COMPLEX64") \
      .SetShapeFn(RealFftShape<true, rank>);

SLUICE_REGISTER_RFFT("RFFT", 1)
SLUICE_REGISTER_RFFT("RFFT2D", 2)
SLUICE_REGISTER_RFFT("RFFT3D", 3)
#undef SLUICE_REGISTER_RFFT

#define SLUICE_REGISTER_IRFFT(name, rank)                       \
  REGISTER_OP(name)                                             \
      .Input("input: Tcomplex")                                 \
      .Input("fft_length: int32")                               \
      .Output("output: Treal")                                  \
      .Attr("Treal: {float, double} = DT_FLOAT")                \
      .Attr("Tcomplex: {complex64, complex128} = DT_COMPLEX64") \
      .SetShapeFn(RealFftShape<false, rank>);

SLUICE_REGISTER_IRFFT("IRFFT", 1)
SLUICE_REGISTER_IRFFT("IRFFT2D", 2)
SLUICE_REGISTER_IRFFT("IRFFT3D", 3)
#undef SLUICE_REGISTER_IRFFT

}  // namespace sluice
