// MaxPool3DGrad and AvgPool3DGrad on the CPU: the gradients of MaxPool3D and AvgPool3D (Keras's
// MaxPooling3D and AveragePooling3D training steps) over NDHWC volumes.
//
// As TensorFlow's CPU kernels, with their checks and messages (NDHWC only, ksize and strides of
// 5 values, no pooling over the batch or the channels; AvgPool3DGrad also wants positive
// window sizes), and their arithmetic, so that results match bit for bit:
//  - Each output cell's window is clipped to the volume as TensorFlow's GetBroadcastSize
//    clips it: a window starting in the padding starts at 0, shortened by the padding, and a
//    window running past the end is cut to what remains, or to the window size, which for a
//    SAME window larger than the volume can reach past its true end.
//  - The cells are visited with the columns outermost, then rows, then planes (TensorFlow's
//    loop order), each adding its share to every input entry of its clipped window, in the
//    dtype itself: MaxPool3DGrad adds grad where |input - output| < 1e-5 (every entry within
//    that of the maximum, not only the first; computed in the dtype), AvgPool3DGrad adds
//    grad * T(1 / window entries) (the reciprocal in float, even for double).
//  - AvgPool3DGrad does not check grad's spatial sizes against the pooling's output: its
//    cells beyond it still add into the clipped windows, as in TensorFlow, and an index whose
//    window would start past the volume is INVALID_ARGUMENT.
// Batches and blocks of channels are split over the intra-op pool.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/padding.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/nn/pool_params.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/scratch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// Channels per task.
constexpr int64_t kChannelBlock = 64;

struct Pool3DGradAttrs {
  std::vector<int32_t> ksize;
  std::vector<int32_t> strides;
  Padding padding = VALID;
};

// `kernel` names TensorFlow's kernel in the data-format message; `positive_ksize` adds
// AvgPool3DGrad's window check.
absl::Status ReadAttrs(OpKernelConstruction* ctx, const char* kernel, bool positive_ksize,
                       Pool3DGradAttrs* attrs) {
  std::string data_format;
  RETURN_IF_ERROR(ctx->GetAttr("data_format", &data_format));
  if (data_format != "NDHWC") {
    return errors::InvalidArgument("Default ", kernel, " only supports NDHWC on device type CPU");
  }
  RETURN_IF_ERROR(ctx->GetAttr("ksize", &attrs->ksize));
  if (attrs->ksize.size() != 5) {
    return errors::InvalidArgument("Sliding window ksize field must specify 5 dimensions");
  }
  if (positive_ksize) {
    for (const int32_t k : attrs->ksize) {
      if (k <= 0) return errors::InvalidArgument("ksize must be positive, got: ", k);
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

// The pooling of a volume of `in` (planes, rows, cols): output sizes and padding before, dims
// sized from the columns in, as TensorFlow reports the first failure.
struct Pool3DWindows {
  int64_t in[3] = {0, 0, 0};
  int64_t window[3] = {1, 1, 1};
  int64_t stride[3] = {1, 1, 1};
  int64_t pad[3] = {0, 0, 0};
  int64_t out[3] = {0, 0, 0};
};

absl::Status ComputeWindows(const TensorShape& input, const Pool3DGradAttrs& attrs,
                            Pool3DWindows* w) {
  for (int d = 2; d >= 0; --d) {
    w->in[d] = input.dim_size(d + 1);
    w->window[d] = attrs.ksize[d + 1];
    w->stride[d] = attrs.strides[d + 1];
    RETURN_IF_ERROR(WindowedOutputSize(w->in[d], w->window[d], w->stride[d], attrs.padding, 0, 0,
                                       &w->out[d], &w->pad[d]));
  }
  return absl::OkStatus();
}

// A clipped window along one dim: input entries [begin, begin + size).
struct Span1D {
  int64_t begin;
  int64_t size;
};

// TensorFlow's GetBroadcastSize for grad index `index`; false when index * stride passes the
// end of the dim.
bool BroadcastSpan(int64_t index, int64_t in_size, int64_t ksize, int64_t stride, int64_t pad,
                   Span1D* span) {
  if (index * stride > in_size) return false;
  int64_t begin = index * stride;
  int64_t size = ksize;
  if (begin < pad) {
    size = ksize + begin - pad;
    begin = 0;
  } else {
    begin -= pad;
  }
  if (begin + ksize > in_size) size = std::min(in_size - begin, ksize);
  *span = {begin, size};
  return true;
}

// The clipped windows of `count` grad indices along dim d, in `spans`. Sets *ok to false when
// one of them fails.
absl::Status DimSpans(OpKernelContext* ctx, const Pool3DWindows& w, int d, int64_t count,
                      ScratchArray<Span1D>* spans, bool* ok) {
  RETURN_IF_ERROR(spans->Allocate(ctx, count));
  *ok = true;
  for (int64_t i = 0; i < count; ++i) {
    *ok = *ok && BroadcastSpan(i, w.in[d], w.window[d], w.stride[d], w.pad[d], &(*spans)[i]);
  }
  return absl::OkStatus();
}

// Adds every grad cell's contribution into `out` ([batch, w.in, depth], zeroed here) in
// TensorFlow's order. grad is [batch, grad_dims, depth]; term(cell_offset, input_offset, c,
// scale) returns the term for channel c of the input entry at input_offset (element offsets,
// channel 0) from the grad cell at cell_offset, whose clipped window has 1 / scale entries
// (scale: TensorFlow's float reciprocal, rounded to T).
template <typename T, typename Term>
absl::Status Scatter(OpKernelContext* ctx, const Pool3DWindows& w, int64_t batch, int64_t depth,
                     const int64_t grad_dims[3], T* out, Term term) {
  ScratchArray<Span1D> spans[3];
  bool ok[3];
  for (int d = 0; d < 3; ++d) RETURN_IF_ERROR(DimSpans(ctx, w, d, grad_dims[d], &spans[d], ok + d));
  // TensorFlow checks the columns' windows, then (when there are columns) the rows', then
  // (when there are rows too) the planes'.
  const bool reached_rows = grad_dims[2] > 0;
  const bool reached_planes = reached_rows && grad_dims[1] > 0;
  if (!ok[2] || (reached_rows && !ok[1]) || (reached_planes && !ok[0])) {
    return errors::InvalidArgument("index * stride must be less than or equal to input size");
  }
  const int64_t in_cells = w.in[0] * w.in[1] * w.in[2];
  const int64_t grad_cells = grad_dims[0] * grad_dims[1] * grad_dims[2];
  const int64_t blocks = (depth + kChannelBlock - 1) / kChannelBlock;
  const int64_t tasks = batch * blocks;
  const int64_t window = w.window[0] * w.window[1] * w.window[2];
  const Eigen::TensorOpCost cost(in_cells * kChannelBlock * sizeof(T),
                                 in_cells * kChannelBlock * sizeof(T),
                                 grad_cells * window * kChannelBlock);
  ParallelFor(ctx, tasks, batch * in_cells * depth, cost, [&](int64_t first, int64_t last) {
    for (int64_t task = first; task < last; ++task) {
      const int64_t b = task / blocks;
      const int64_t c0 = (task % blocks) * kChannelBlock;
      const int64_t c1 = std::min(depth, c0 + kChannelBlock);
      T* image = out + b * in_cells * depth;
      for (int64_t cell = 0; cell < in_cells; ++cell) {
        std::fill(image + cell * depth + c0, image + cell * depth + c1, T(0));
      }
      for (int64_t gc = 0; gc < grad_dims[2]; ++gc) {
        const Span1D& sc = spans[2][gc];
        for (int64_t gr = 0; gr < grad_dims[1]; ++gr) {
          const Span1D& sr = spans[1][gr];
          for (int64_t gp = 0; gp < grad_dims[0]; ++gp) {
            const Span1D& sp = spans[0][gp];
            const int64_t cell_offset =
                (((b * grad_dims[0] + gp) * grad_dims[1] + gr) * grad_dims[2] + gc) * depth;
            const T scale = static_cast<T>(1.0f / static_cast<float>(sp.size * sr.size * sc.size));
            for (int64_t p = sp.begin; p < sp.begin + sp.size; ++p) {
              for (int64_t r = sr.begin; r < sr.begin + sr.size; ++r) {
                for (int64_t col = sc.begin; col < sc.begin + sc.size; ++col) {
                  const int64_t in_offset = ((p * w.in[1] + r) * w.in[2] + col) * depth;
                  T* dst = image + in_offset;
                  for (int64_t c = c0; c < c1; ++c) {
                    dst[c] += term(cell_offset, b * in_cells * depth + in_offset, c, scale);
                  }
                }
              }
            }
          }
        }
      }
    }
  });
  return absl::OkStatus();
}

template <typename T>
class MaxPool3DGradOp : public OpKernel {
 public:
  explicit MaxPool3DGradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ReadAttrs(ctx, "MaxPooling3dGradOp", false, &attrs_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& tensor_in = ctx->input(0);
    const Tensor& tensor_out = ctx->input(1);
    const Tensor& grad = ctx->input(2);
    OP_REQUIRES(ctx, tensor_in.dims() == 5,
                errors::InvalidArgument("tensor_in must be 5-dimensional"));
    OP_REQUIRES(ctx, tensor_out.dims() == 5,
                errors::InvalidArgument("tensor_out must be 5-dimensional"));
    OP_REQUIRES(ctx, grad.dims() == 5,
                errors::InvalidArgument("out_backprop must be 5-dimensional"));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, tensor_in.shape(), &output));
    Pool3DWindows w;
    OP_REQUIRES_OK(ctx, ComputeWindows(tensor_in.shape(), attrs_, &w));
    const int64_t batch = tensor_in.dim_size(0);
    const int64_t depth = tensor_in.dim_size(4);
    TensorShape out_shape;
    OP_REQUIRES_OK(ctx, TensorShape::BuildTensorShape({batch, w.out[0], w.out[1], w.out[2], depth},
                                                      &out_shape));
    OP_REQUIRES(
        ctx, tensor_out.shape() == out_shape,
        errors::InvalidArgument("Expected orig_output shape to be ", out_shape.DebugString(),
                                ", but got ", tensor_out.shape().DebugString()));
    OP_REQUIRES(ctx, grad.shape() == out_shape,
                errors::InvalidArgument("Expected grad shape to be ", out_shape.DebugString(),
                                        ", but got ", grad.shape().DebugString()));
    if (output->NumElements() == 0) return;
    const T* in = tensor_in.base<T>();
    const T* pooled = tensor_out.base<T>();
    const T* g = grad.base<T>();
    const T tolerance = static_cast<T>(1e-5f);
    OP_REQUIRES_OK(ctx, Scatter<T>(ctx, w, batch, depth, w.out, output->base<T>(),
                                   [&](int64_t cell, int64_t entry, int64_t c, T) {
                                     const T diff = in[entry + c] - pooled[cell + c];
                                     return Eigen::numext::abs(diff) < tolerance ? g[cell + c]
                                                                                 : T(0);
                                   }));
  }

 private:
  Pool3DGradAttrs attrs_;
};

template <typename T>
class AvgPool3DGradOp : public OpKernel {
 public:
  explicit AvgPool3DGradOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ReadAttrs(ctx, "AvgPooling3dGradOp", true, &attrs_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& shape_t = ctx->input(0);
    const Tensor& grad = ctx->input(1);
    OP_REQUIRES(ctx, shape_t.dims() == 1 && shape_t.NumElements() == 5,
                errors::InvalidArgument("tensor_in must be 1-dimensional and 5 elements"));
    OP_REQUIRES(ctx, grad.dims() == 5,
                errors::InvalidArgument("out_backprop must be 5-dimensional"));
    IntegerValues sizes;
    OP_REQUIRES_OK(ctx, IntegerTensorValues(shape_t, &sizes));
    TensorShape shape;
    OP_REQUIRES_OK(ctx, TensorShape::BuildTensorShape(sizes, &shape));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, shape, &output));
    Pool3DWindows w;
    OP_REQUIRES_OK(ctx, ComputeWindows(shape, attrs_, &w));
    OP_REQUIRES(ctx, shape.dim_size(0) == grad.dim_size(0),
                errors::InvalidArgument("Expected first dimension of tensor_in_shape and "
                                        "out_backprop to match, got ",
                                        shape.dim_size(0), " and ", grad.dim_size(0)));
    OP_REQUIRES(ctx, shape.dim_size(4) == grad.dim_size(4),
                errors::InvalidArgument("Expected last dimension of tensor_in_shape and "
                                        "out_backprop to match, got ",
                                        shape.dim_size(4), " and ", grad.dim_size(4)));
    const int64_t grad_dims[3] = {grad.dim_size(1), grad.dim_size(2), grad.dim_size(3)};
    const int64_t batch = shape.dim_size(0);
    const int64_t depth = shape.dim_size(4);
    const T* g = grad.base<T>();
    OP_REQUIRES_OK(ctx, Scatter<T>(ctx, w, batch, depth, grad_dims, output->base<T>(),
                                   [&](int64_t cell, int64_t, int64_t c, T scale) {
                                     return static_cast<T>(g[cell + c] * scale);
                                   }));
  }

 private:
  Pool3DGradAttrs attrs_;
};

// TensorFlow's CPU kernels: float and bfloat16 (MaxPool3DGrad with TInput equal to T), though
// the OpDefs allow half (and double for AvgPool3DGrad).
#define REGISTER_CPU(T)                                                                            \
  REGISTER_KERNEL_BUILDER(                                                                         \
      Name("MaxPool3DGrad").Device(DEVICE_CPU).TypeConstraint<T>("T").TypeConstraint<T>("TInput"), \
      MaxPool3DGradOp<T>);                                                                         \
  REGISTER_KERNEL_BUILDER(Name("AvgPool3DGrad")                                                    \
                              .Device(DEVICE_CPU)                                                  \
                              .TypeConstraint<T>("T")                                              \
                              .HostMemory("orig_input_shape"),                                     \
                          AvgPool3DGradOp<T>);
SLUICE_CALL_bfloat16(REGISTER_CPU) SLUICE_CALL_float(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
