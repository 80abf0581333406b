// MaxPool3D and AvgPool3D on the CPU: windows over the three spatial dims of NDHWC volumes.
//
// Checked as TensorFlow does, with its messages: NDHWC only on the CPU, ksize and strides of
// 5 values, positive window sizes, no pooling over the batch or the channels (UNIMPLEMENTED)
// (all at construction); a 5-D input and non-negative output sizes. Padding follows
// TensorFlow's SAME/VALID arithmetic (pool_params.h).
//
// Values follow TensorFlow's Eigen CuboidMaxPooling/CuboidAvgPooling, which pad the volume
// with -highest (the lowest finite value) and reduce the windows: a max over a window that
// reaches into the padding is at least -highest (so a window of -inf values next to the
// border gives -highest), NaN is skipped by the max, and the average skips every entry equal
// to -highest, padding or not, and divides the sum of the rest by their count. Sums are in
// float; TensorFlow sums bfloat16 in its own precision, so those averages may differ from it
// in the last bits. Output cells are split over the
// intra-op pool.
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "graph/core/errors.h"
#include "graph/core/padding.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/nn/pool_params.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

struct Pool3DGeometry {
  int64_t batch = 0;
  int64_t in[3] = {0, 0, 0};  // planes, rows, cols
  int64_t window[3] = {1, 1, 1};
  int64_t stride[3] = {1, 1, 1};
  int64_t pad[3] = {0, 0, 0};
  int64_t out[3] = {0, 0, 0};
  int64_t depth = 0;
};

// The attrs, read and checked at construction.
struct Pool3DAttrs {
  std::vector<int32_t> ksize;
  std::vector<int32_t> strides;
  Padding padding = VALID;
};

absl::Status ReadPool3DAttrs(OpKernelConstruction* ctx, Pool3DAttrs* attrs) {
  std::string data_format;
  RETURN_IF_ERROR(ctx->GetAttr("data_format", &data_format));
  if (data_format != "NDHWC") {
    return errors::InvalidArgument("Default Pooling3DOp only supports NDHWC on device type CPU");
  }
  RETURN_IF_ERROR(ctx->GetAttr("ksize", &attrs->ksize));
  if (attrs->ksize.size() != 5) {
    return errors::InvalidArgument("Sliding window ksize field must specify 5 dimensions");
  }
  for (int32_t k : attrs->ksize) {
    if (k <= 0) {
      return errors::InvalidArgument(
          "Sliding window ksize field must have non-negative dimensions");
    }
  }
  RETURN_IF_ERROR(ctx->GetAttr("strides", &attrs->strides));
  if (attrs->strides.size() != 5) {
    return errors::InvalidArgument("Sliding window stride field must specify 5 dimensions");
  }
  std::string padding;
  RETURN_IF_ERROR(ctx->GetAttr("padding", &padding));
  RETURN_IF_ERROR(GetPaddingFromString(padding, &attrs->padding));
  if (attrs->ksize[0] != 1 || attrs->strides[0] != 1) {
    return errors::Unimplemented("Pooling is not yet supported on the batch dimension.");
  }
  if (attrs->ksize[4] != 1 || attrs->strides[4] != 1) {
    return errors::Unimplemented("Pooling is not yet supported on the depth dimension.");
  }
  return absl::OkStatus();
}

// Checks the input and allocates the output; false (with the status set) on failure or
// when the output is empty.
bool Prepare(OpKernelContext* ctx, const Pool3DAttrs& attrs, Pool3DGeometry* geo, Tensor** output) {
  const Tensor& input = ctx->input(0);
  if (input.dims() != 5) {
    ctx->CtxFailure(errors::InvalidArgument("tensor_in must be 5-dimensional"));
    return false;
  }
  geo->batch = input.dim_size(0);
  geo->depth = input.dim_size(4);
  // TensorFlow sizes the dims from the innermost (cols) out; the first failure is reported.
  for (int d = 2; d >= 0; --d) {
    geo->in[d] = input.dim_size(d + 1);
    geo->window[d] = attrs.ksize[d + 1];
    geo->stride[d] = attrs.strides[d + 1];
    absl::Status status = WindowedOutputSize(geo->in[d], geo->window[d], geo->stride[d],
                                             attrs.padding, 0, 0, &geo->out[d], &geo->pad[d]);
    if (!status.ok()) {
      ctx->CtxFailure(status);
      return false;
    }
  }
  TensorShape shape;
  absl::Status status = TensorShape::BuildTensorShape(
      {geo->batch, geo->out[0], geo->out[1], geo->out[2], geo->depth}, &shape);
  if (status.ok()) status = ctx->allocate_output(0, shape, output);
  if (!status.ok()) {
    ctx->CtxFailure(status);
    return false;
  }
  return (*output)->NumElements() > 0;
}

template <typename T>
using AccumulatorType = std::conditional_t<std::is_same_v<T, double>, double, float>;

// One channel's running value in a window: the sum (or maximum) and how many entries it has.
template <typename Acc>
struct ChannelSum {
  Acc value;
  int64_t count;
};

// Calls reduce(image, start, sums, out) for each output cell, split over the pool: the
// input image's base, the window's first input offsets, g.depth ChannelSums of scratch and
// the cell's output channels. RESOURCE_EXHAUSTED when the scratch is refused.
template <typename T, typename Reduce>
absl::Status ForEachCell(OpKernelContext* ctx, const Pool3DGeometry& g, const T* in, T* out,
                         Reduce reduce) {
  using Sum = ChannelSum<AccumulatorType<T>>;
  const int64_t cells = g.batch * g.out[0] * g.out[1] * g.out[2];
  const int64_t window = g.window[0] * g.window[1] * g.window[2];
  const Eigen::TensorOpCost cost(window * g.depth * sizeof(T), g.depth * sizeof(T),
                                 window * g.depth);
  return ParallelForWithScratch<Sum>(
      ctx, cells, cells * g.depth, cost, g.depth, [&](int64_t first, int64_t last, Sum* sums) {
        for (int64_t cell = first; cell < last; ++cell) {
          int64_t rest = cell;
          const int64_t oc = rest % g.out[2];
          rest /= g.out[2];
          const int64_t orow = rest % g.out[1];
          rest /= g.out[1];
          const int64_t op = rest % g.out[0];
          const int64_t b = rest / g.out[0];
          const int64_t start[3] = {op * g.stride[0] - g.pad[0], orow * g.stride[1] - g.pad[1],
                                    oc * g.stride[2] - g.pad[2]};
          const T* image = in + b * g.in[0] * g.in[1] * g.in[2] * g.depth;
          reduce(image, start, sums, out + cell * g.depth);
        }
      });
}

// Visits the window at `start`: fn(pointer to the channels of an input entry) for each entry
// inside the volume; returns whether the window reaches into the padding.
template <typename T, typename Fn>
bool VisitWindow(const Pool3DGeometry& g, const T* image, const int64_t start[3], Fn fn) {
  bool padded = false;
  for (int64_t i = 0; i < g.window[0]; ++i) {
    const int64_t p = start[0] + i;
    if (p < 0 || p >= g.in[0]) {
      padded = true;
      continue;
    }
    for (int64_t j = 0; j < g.window[1]; ++j) {
      const int64_t r = start[1] + j;
      if (r < 0 || r >= g.in[1]) {
        padded = true;
        continue;
      }
      for (int64_t k = 0; k < g.window[2]; ++k) {
        const int64_t c = start[2] + k;
        if (c < 0 || c >= g.in[2]) {
          padded = true;
          continue;
        }
        fn(image + ((p * g.in[1] + r) * g.in[2] + c) * g.depth);
      }
    }
  }
  return padded;
}

template <typename T>
class MaxPool3DOp : public OpKernel {
 public:
  explicit MaxPool3DOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ReadPool3DAttrs(ctx, &attrs_));
  }

  void Compute(OpKernelContext* ctx) override {
    Pool3DGeometry g;
    Tensor* output = nullptr;
    if (!Prepare(ctx, attrs_, &g, &output)) return;
    using Acc = AccumulatorType<T>;
    const Acc lowest = -std::numeric_limits<Acc>::infinity();
    const Acc pad_value = static_cast<Acc>(std::numeric_limits<T>::lowest());
    OP_REQUIRES_OK(
        ctx,
        ForEachCell<T>(ctx, g, ctx->input(0).base<T>(), output->base<T>(),
                       [&](const T* image, const int64_t start[3], ChannelSum<Acc>* acc, T* out) {
                         for (int64_t c = 0; c < g.depth; ++c) acc[c].value = lowest;
                         const bool padded = VisitWindow(g, image, start, [&](const T* v) {
                           for (int64_t c = 0; c < g.depth; ++c) {
                             const Acc x = static_cast<Acc>(v[c]);
                             if (x > acc[c].value) acc[c].value = x;
                           }
                         });
                         for (int64_t c = 0; c < g.depth; ++c) {
                           if (padded && pad_value > acc[c].value) acc[c].value = pad_value;
                           out[c] = static_cast<T>(acc[c].value);
                         }
                       }));
  }

 private:
  Pool3DAttrs attrs_;
};

template <typename T>
class AvgPool3DOp : public OpKernel {
 public:
  explicit AvgPool3DOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ReadPool3DAttrs(ctx, &attrs_));
  }

  void Compute(OpKernelContext* ctx) override {
    Pool3DGeometry g;
    Tensor* output = nullptr;
    if (!Prepare(ctx, attrs_, &g, &output)) return;
    using Acc = AccumulatorType<T>;
    const T skipped = std::numeric_limits<T>::lowest();
    OP_REQUIRES_OK(
        ctx,
        ForEachCell<T>(ctx, g, ctx->input(0).base<T>(), output->base<T>(),
                       [&](const T* image, const int64_t start[3], ChannelSum<Acc>* acc, T* out) {
                         for (int64_t c = 0; c < g.depth; ++c) acc[c] = {0, 0};
                         VisitWindow(g, image, start, [&](const T* v) {
                           for (int64_t c = 0; c < g.depth; ++c) {
                             if (v[c] == skipped) continue;
                             acc[c].value += static_cast<Acc>(v[c]);
                             ++acc[c].count;
                           }
                         });
                         for (int64_t c = 0; c < g.depth; ++c) {
                           out[c] = static_cast<T>(acc[c].value / static_cast<Acc>(acc[c].count));
                         }
                       }));
  }

 private:
  Pool3DAttrs attrs_;
};

// TensorFlow's CPU kernels: float and bfloat16 only, though the OpDefs allow half (and
// double for AvgPool3D).
#define REGISTER_POOL_3D(T)                                                            \
  REGISTER_KERNEL_BUILDER(Name("MaxPool3D").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          MaxPool3DOp<T>);                                             \
  REGISTER_KERNEL_BUILDER(Name("AvgPool3D").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          AvgPool3DOp<T>);
SLUICE_CALL_bfloat16(REGISTER_POOL_3D) SLUICE_CALL_float(REGISTER_POOL_3D)
#undef REGISTER_POOL_3D

}  // namespace
}  // namespace sluice
