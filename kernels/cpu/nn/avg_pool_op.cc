// AvgPool on the CPU: the mean over each spatial window (TensorFlow's semantics).
//
// SAME padding does not dilute the mean: each output divides by the number of input
// elements its window actually covers. half and bfloat16 accumulate in float, float in
// float, double in double. NHWC always; NCHW for float and bfloat16, where TensorFlow's
// oneDNN kernel accepts it. Pooling over channels is UNIMPLEMENTED, as in TensorFlow.
//
// Algorithm: float NHWC runs one oneDNN pooling primitive (pooling_avg_exclude_padding, what
// TensorFlow's oneDNN builds run too), cached per input shape. Everything else is as MaxPool
// (max_pool_ops.cc): one NHWC walk, each task owning whole output rows, summing the window's
// pixels into a per-task channel vector.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "graph/core/errors.h"
#include "graph/core/padding.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_format.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/linalg/onednn_util.h"
#include "kernels/cpu/nn/pool_params.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"
#include "unsupported/Eigen/CXX11/Tensor"

namespace sluice {
namespace {

template <typename T>
using AccumulatorOf = std::conditional_t<std::is_same_v<T, double>, double, float>;

// `s` is scratch of g.depth accumulators.
template <typename T>
void AvgPoolRows(const PoolGeometry& g, const T* in, T* out, int64_t first_row, int64_t last_row,
                 AccumulatorOf<T>* s) {
  using Acc = AccumulatorOf<T>;
  const int64_t depth = g.depth;
  for (int64_t row = first_row; row < last_row; ++row) {
    const int64_t b = row / g.out_rows;
    const int64_t h_start = (row % g.out_rows) * g.row_stride - g.pad_top;
    const int64_t h0 = std::max<int64_t>(h_start, 0);
    const int64_t h1 = std::min(h_start + g.window_rows, g.in_rows);
    for (int64_t ow = 0; ow < g.out_cols; ++ow) {
      const int64_t w_start = ow * g.col_stride - g.pad_left;
      const int64_t w0 = std::max<int64_t>(w_start, 0);
      const int64_t w1 = std::min(w_start + g.window_cols, g.in_cols);
      std::fill(s, s + depth, Acc(0));
      for (int64_t h = h0; h < h1; ++h) {
        for (int64_t w = w0; w < w1; ++w) {
          const T* x = in + ((b * g.in_rows + h) * g.in_cols + w) * depth;
          for (int64_t c = 0; c < depth; ++c) s[c] += static_cast<Acc>(x[c]);
        }
      }
      const Acc count =
          static_cast<Acc>(std::max<int64_t>(h1 - h0, 0) * std::max<int64_t>(w1 - w0, 0));
      T* o = out + (row * g.out_cols + ow) * depth;
      for (int64_t c = 0; c < depth; ++c) o[c] = static_cast<T>(s[c] / count);
    }
  }
}

// float NHWC average pooling on oneDNN, one primitive per input geometry.
class OneDnnAvgPool {
 public:
  // REQUIRES: g came from ComputePoolGeometry for an NHWC input, spatial pooling only, and
  // the output is not empty.
  absl::Status Run(OpKernelContext* ctx, const PoolGeometry& g, const float* in, float* out) {
    const std::vector<int64_t> key = {g.batch,       g.in_rows,     g.in_cols,    g.depth,
                                      g.window_rows, g.window_cols, g.row_stride, g.col_stride,
                                      g.pad_top,     g.pad_left,    g.out_rows,   g.out_cols};
    std::shared_ptr<const Primitive> p;
    RETURN_IF_ERROR(cache_.Get(
        key, [&](std::shared_ptr<const Primitive>* made) { return Create(g, made); }, &p));
    return RunSrcDstPrimitive(ctx, "average pooling", p->primitive, p->pd, in, out);
  }

 private:
  struct Primitive {
    dnnl::pooling_forward::primitive_desc pd;
    dnnl::pooling_forward primitive;
  };

  static absl::Status Create(const PoolGeometry& g, std::shared_ptr<const Primitive>* out) {
    using dnnl::memory;
    auto p = std::make_shared<Primitive>();
    // Padding after the data: whatever makes oneDNN's output size TensorFlow's (SAME's
    // remainder; none for VALID, whose last window ends inside the input).
    const int64_t pad_bottom = std::max<int64_t>(
        (g.out_rows - 1) * g.row_stride + g.window_rows - g.in_rows - g.pad_top, 0);
    const int64_t pad_right = std::max<int64_t>(
        (g.out_cols - 1) * g.col_stride + g.window_cols - g.in_cols - g.pad_left, 0);
    RETURN_IF_ERROR(OneDnnCall("average pooling creation", [&] {
      const memory::desc src({g.batch, g.depth, g.in_rows, g.in_cols}, memory::data_type::f32,
                             memory::format_tag::nhwc);
      const memory::desc dst({g.batch, g.depth, g.out_rows, g.out_cols}, memory::data_type::f32,
                             memory::format_tag::nhwc);
      p->pd = dnnl::pooling_forward::primitive_desc(
          dnnl::pooling_forward::desc(dnnl::prop_kind::forward_inference,
                                      dnnl::algorithm::pooling_avg_exclude_padding, src, dst,
                                      {g.row_stride, g.col_stride}, {g.window_rows, g.window_cols},
                                      {g.pad_top, g.pad_left}, {pad_bottom, pad_right}),
          ScratchpadAttr(), OneDnnEngine());
      p->primitive = dnnl::pooling_forward(p->pd);
    }));
    *out = std::move(p);
    return absl::OkStatus();
  }

  OneDnnShapeCache<std::vector<int64_t>, Primitive> cache_;
};

template <typename T>
class AvgPoolOp : public OpKernel {
 public:
  explicit AvgPoolOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string format;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("data_format", &format));
    OP_REQUIRES(ctx, FormatFromString(format, &window_.format),
                errors::InvalidArgument("Invalid data format"));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("ksize", &window_.ksize));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("strides", &window_.strides));
    std::string padding;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("padding", &padding));
    OP_REQUIRES_OK(ctx, GetPaddingFromString(padding, &window_.padding));
    constexpr bool kSupportsNchw = std::is_same_v<T, float> || std::is_same_v<T, bfloat16>;
    OP_REQUIRES(
        ctx,
        window_.format == FORMAT_NHWC || (kSupportsNchw && window_.format == FORMAT_NCHW &&
                                          window_.ksize.size() == 4 && window_.ksize[1] == 1),
        errors::InvalidArgument("Default AvgPoolingOp only supports NHWC on device type CPU"));
    OP_REQUIRES(ctx, window_.ksize.size() == 4,
                errors::InvalidArgument("Sliding window ksize field must specify 4 dimensions"));
    for (int32_t k : window_.ksize) {
      OP_REQUIRES(ctx, k > 0,
                  errors::InvalidArgument("ksize must be a positive int32 value, got:", k));
    }
    OP_REQUIRES_OK(ctx, CheckPoolWindowSizes(window_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    PoolGeometry g;
    OP_REQUIRES_OK(ctx, ComputePoolGeometry(input.shape(), window_, &g));
    OP_REQUIRES(ctx, g.depth_window == 1,
                errors::Unimplemented("Non-spatial pooling is not yet supported. Volunteers? :)"));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, g.output_shape, &output));
    const int64_t n = g.output_shape.num_elements();
    if (n == 0) return;
    const T* in = input.flat<T>().data();
    T* out = output->flat<T>().data();
    if constexpr (std::is_same_v<T, float>) {
      // Should oneDNN refuse a geometry, the loop below computes it.
      if (window_.format == FORMAT_NHWC) {
        if (onednn_.Run(ctx, g, in, out).ok()) return;
      }
    }
    const double window_elements = static_cast<double>(g.window_rows * g.window_cols);
    const double row_elements = static_cast<double>(g.out_cols * g.depth);
    const Eigen::TensorOpCost row_cost(row_elements * window_elements * sizeof(T),
                                       row_elements * sizeof(T),
                                       row_elements * (window_elements + 1));
    OP_REQUIRES_OK(ctx, ParallelForWithScratch<AccumulatorOf<T>>(
                            ctx, g.batch * g.out_rows, n, row_cost, g.depth,
                            [&](int64_t first, int64_t last, AccumulatorOf<T>* sums) {
                              AvgPoolRows<T>(g, in, out, first, last, sums);
                            }));
  }

 private:
  PoolWindow window_;
  OneDnnAvgPool onednn_;
};

#define REGISTER_AVG_POOL(T) \
  REGISTER_KERNEL_BUILDER(Name("AvgPool").Device(DEVICE_CPU).TypeConstraint<T>("T"), AvgPoolOp<T>);
SLUICE_CALL_FLOAT_TYPES(REGISTER_AVG_POOL)
#undef REGISTER_AVG_POOL

}  // namespace
}  // namespace sluice
