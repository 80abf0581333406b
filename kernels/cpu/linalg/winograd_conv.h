// WinogradConv: forward float 3x3 convolutions of stride 1 by Winograd's minimal filtering
// F(m x m, 3 x 3), which needs 2.25 (m = 2) or 4 (m = 4) times fewer multiplications than a
// direct convolution. Where a CPU's direct kernels already run near the core's peak
// (ResNet-style networks), fewer multiplications are what is left to gain.
//
// Which convolutions: NHWC, one group, a 3x3 filter, stride 1, no dilation, float, with an
// epilogue of bias, residual sum and ReLU, ReLU6 or LeakyReLU (or none of them), and a shape
// where Winograd is measured to be faster (TileSize): at least 24 input and output channels
// (64 for m = 2), and outputs whose tiles waste little. Everything else stays on oneDNN.
//
// Precision: the products are float GEMMs like a direct convolution's, but the transforms add
// terms of both signs. With m = 2 the error against an exact result is about the same as a
// direct convolution's (measured: 0.3-0.6x of it); with m = 4 it is 4-7 times larger (about
// 5e-6 of the output's magnitude per layer). A NaN or infinity in an input patch reaches every
// output of its tile, not only the outputs whose windows hold it. SLUICE_WINOGRAD=0 in the
// environment turns the path off (every convolution runs direct), SLUICE_WINOGRAD=2 limits it
// to m = 2.
//
// The transformed filter is cached like OneDnnConv's reordered one: by the filter's buffer and
// shape, with a content fingerprint unless the filter is read-only. Thread safety: Run may be
// called concurrently.
#ifndef SLUICE_KERNELS_CPU_LINALG_WINOGRAD_CONV_H_
#define SLUICE_KERNELS_CPU_LINALG_WINOGRAD_CONV_H_

#include <cstdint>
#include <memory>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "graph/core/tensor.h"
#include "kernels/cpu/linalg/conv_params.h"
#include "kernels/cpu/linalg/onednn_conv.h"
#include "kernels/cpu/linalg/winograd_transforms.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {

class WinogradConv {
 public:
  // The output tile size (2 or 4) for `geo`, or 0 where this path does not apply or would not be
  // faster. Depends on SLUICE_WINOGRAD as stated above.
  static int TileSize(const ConvGeometry& geo);

  // Whether the output transform can apply `epilogue` (bias, sum, activation); if so, fills `out`
  // with the float bias pointer unchanged.
  static bool TranslateEpilogue(const ConvEpilogue& epilogue, winograd::OutputEpilogue* out);

  // Convolves float `src` with `filter` into `dst` with tiles of TileSize(geo) and applies
  // `epilogue` (which TranslateEpilogue accepted; with sum, dst holds the addend). REQUIRES:
  // TileSize(geo) != 0 and the output is not empty.
  absl::Status Run(OpKernelContext* ctx, const ConvGeometry& geo, const Tensor& filter,
                   const float* src, float* dst, const winograd::OutputEpilogue& epilogue);

 private:
  struct TransformedFilter {
    Tensor filter;             // keeps the source buffer alive, so its address identifies it
    uint64_t fingerprint = 0;  // of the filter's contents; 0 for a read-only filter
    int64_t row_stride = 0;
    Tensor u;  // alpha^2 planes of [in_depth][row_stride] floats
  };

  absl::Mutex mu_;
  // One entry per tile size ([1] for m = 4): a batch size change can switch between them.
  std::shared_ptr<const TransformedFilter> cached_[2] ABSL_GUARDED_BY(mu_);
};

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_LINALG_WINOGRAD_CONV_H_
