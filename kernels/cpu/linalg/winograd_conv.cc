// WinogradConv: which convolutions take the Winograd path, and the cached filter transform.
//
// The thresholds in TileSize come from timing this path against oneDNN's direct AVX2 kernels
// on ResNet50's and InceptionV3's 3x3 convolutions and on smaller ones (bench/
// winograd_conv_bench; the figures are in docs/benchmarks.md). With fewer channels the
// transforms cost more than the saved multiplications: below 24 for m = 4, below 64 for m = 2,
// which saves less. A tile size whose tiles overhang the output by more than a third wastes the
// savings. And m = 4 needs at least 16 tiles: with fewer GEMM rows its transformed filter, four
// times the filter's size, is read from memory more slowly than it is used.
#include "kernels/cpu/linalg/winograd_conv.h"

#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "graph/core/errors.h"
#include "graph/core/tensor_types.h"
#include "kernels/cpu/linalg/onednn_util.h"
#include "kernels/cpu/linalg/winograd_convolve.h"

namespace sluice {
namespace {

constexpr int64_t kMinChannelsForM4 = 24;
constexpr int64_t kMinChannelsForM2 = 64;
constexpr double kMaxOverhang = 1.35;
constexpr int64_t kMinTilesForM4 = 16;
constexpr int64_t kMinTilesForM2 = 4;

// SLUICE_WINOGRAD: "0" off, "2" tiles of 2 only, anything else (or unset) both sizes.
int LargestTileSize() {
  static const int largest = [] {
    const char* value = std::getenv("SLUICE_WINOGRAD");
    if (value == nullptr) return 4;
    if (std::strcmp(value, "0") == 0) return 0;
    if (std::strcmp(value, "2") == 0) return 2;
    return 4;
  }();
  return largest;
}

winograd::TileGeometry TileGeometryOf(const ConvGeometry& geo, int m) {
  winograd::TileGeometry t;
  t.m = m;
  t.batch = geo.batch;
  t.in_rows = geo.in_rows;
  t.in_cols = geo.in_cols;
  t.in_depth = geo.in_depth;
  t.out_rows = geo.out_rows;
  t.out_cols = geo.out_cols;
  t.out_depth = geo.out_depth;
  t.pad_top = geo.pad_top;
  t.pad_left = geo.pad_left;
  return t;
}

// How much of the tiled area lies outside the output: 1 when the tiles fit exactly.
double Overhang(const winograd::TileGeometry& t) {
  return static_cast<double>(t.tile_rows() * t.m * t.tile_cols() * t.m) /
         static_cast<double>(t.out_rows * t.out_cols);
}

// Rows of the transformed filter: out_depth floats, padded where a row would be a multiple of 2 KiB
// long, since GEMMs that read such rows hit the same cache sets over and over.
int64_t FilterRowStride(int64_t out_depth) {
  return out_depth % 512 == 0 ? out_depth + 16 : out_depth;
}

}  // namespace

int WinogradConv::TileSize(const ConvGeometry& geo) {
  const int largest = LargestTileSize();
  if (largest == 0) return 0;
  if (geo.data_format != FORMAT_NHWC || geo.groups != 1 || geo.filter_rows != 3 ||
      geo.filter_cols != 3 || geo.stride_rows != 1 || geo.stride_cols != 1 ||
      geo.dilation_rows != 1 || geo.dilation_cols != 1 || geo.pad_top < 0 || geo.pad_left < 0 ||
      geo.out_rows <= 0 || geo.out_cols <= 0) {
    return 0;
  }
  const int64_t channels = std::min(geo.in_depth, geo.out_depth);
  const winograd::TileGeometry four = TileGeometryOf(geo, 4);
  if (largest == 4 && channels >= kMinChannelsForM4 && four.tiles() >= kMinTilesForM4 &&
      Overhang(four) <= kMaxOverhang) {
    return 4;
  }
  const winograd::TileGeometry two = TileGeometryOf(geo, 2);
  if (channels >= kMinChannelsForM2 && two.tiles() >= kMinTilesForM2 &&
      Overhang(two) <= kMaxOverhang) {
    return 2;
  }
  return 0;
}

bool WinogradConv::TranslateEpilogue(const ConvEpilogue& epilogue, winograd::OutputEpilogue* out) {
  using winograd::Activation;
  *out = {};
  out->bias = static_cast<const float*>(epilogue.bias);
  out->add_to_output = epilogue.sum;
  switch (epilogue.activation) {
    case dnnl::algorithm::undef:
      out->activation = Activation::kNone;
      return true;
    case dnnl::algorithm::eltwise_relu:
      out->activation = epilogue.alpha == 0.0f ? Activation::kRelu : Activation::kLeakyRelu;
      out->leaky_alpha = epilogue.alpha;
      return true;
    case dnnl::algorithm::eltwise_clip:
      if (epilogue.alpha == 0.0f && epilogue.beta == 6.0f) {
        out->activation = Activation::kRelu6;
        return true;
      }
      return false;
    default:
      return false;
  }
}

absl::Status WinogradConv::Run(OpKernelContext* ctx, const ConvGeometry& geo, const Tensor& filter,
                               const float* src, float* dst,
                               const winograd::OutputEpilogue& epilogue) {
  const int m = TileSize(geo);
  if (m == 0) return errors::Internal("Winograd convolution run for an unsupported shape");
  const winograd::TileGeometry tiles = TileGeometryOf(geo, m);

  std::shared_ptr<const TransformedFilter> transformed;
  const bool caching = OneDnnCachingEnabled();
  if (caching) {
    absl::MutexLock lock(&mu_);
    transformed = cached_[m == 4];
  }
  const bool valid = transformed != nullptr &&
                     transformed->filter.raw_data() == filter.raw_data() &&
                     transformed->filter.shape() == filter.shape() &&
                     (filter.IsReadOnly() || transformed->fingerprint == TensorFingerprint(filter));
  if (!valid) {
    auto t = std::make_shared<TransformedFilter>();
    t->filter = filter;
    t->fingerprint = filter.IsReadOnly() ? 0 : TensorFingerprint(filter);
    t->row_stride = FilterRowStride(geo.out_depth);
    const int64_t alpha = m + 2;
    // alpha^2 planes of [in_depth, row_stride] floats, as separate dims so that
    // BuildTensorShape checks their product.
    TensorShape u_shape;
    RETURN_IF_ERROR(
        TensorShape::BuildTensorShape({alpha * alpha, geo.in_depth, t->row_stride}, &u_shape));
    RETURN_IF_ERROR(ctx->allocate_temp(DT_FLOAT, u_shape, &t->u));
    winograd::TransformFilter(m, filter.flat<float>().data(), geo.in_depth, geo.out_depth,
                              t->row_stride, t->u.flat<float>().data());
    transformed = std::move(t);
    if (caching) {
      absl::MutexLock lock(&mu_);
      cached_[m == 4] = transformed;
    }
  }

  const int threads = omp_get_max_threads();
  Tensor scratch;
  TensorShape scratch_shape;
  RETURN_IF_ERROR(
      TensorShape::BuildTensorShape({winograd::ScratchFloats(tiles, threads)}, &scratch_shape));
  RETURN_IF_ERROR(ctx->allocate_temp(DT_FLOAT, scratch_shape, &scratch));
  return winograd::Convolve(tiles, transformed->u.flat<float>().data(), transformed->row_stride,
                            src, epilogue, threads, scratch.flat<float>().data(), dst);
}

}  // namespace sluice
