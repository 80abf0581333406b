// Conv3DBackpropFilterV2 on the CPU: the gradient of Conv3D with respect to its filter (what a
// Keras Conv3D layer's training step computes),
//
//   filter_grad[kp, kr, kc, ic, oc] = sum over n, op, or, oc' of
//       input[n, op * sp - pad_p + kp, or * sr - pad_r + kr, oc' * sc - pad_c + kc, ic]
//           * out_backprop[n, op, or, oc', oc]
//
// given the input, filter_sizes (the filter's shape, int32) and out_backprop.
//
// Checked as TensorFlow's CPU kernel does, with its messages: NDHWC only, dilations of 1 and
// strides of 1 in the batch and channels (at construction, conv3d_params.h); filter_sizes a
// vector of non-negative values; 5-D input, filter and out_backprop whose channels match; the
// shapes of Conv3DBackpropDims. An empty input gives a zero gradient; then, as TensorFlow,
// a filter and out_backprop that are both empty with no output cells is an error.
// Computation: oneDNN's backward-weights convolution for float and bfloat16 (bfloat16 in float
// where the CPU has no bfloat16 convolution), widened to float for half, and a plain gather
// per filter element for double. TensorFlow sums in another order (im2col and an Eigen
// contraction), so results differ from it in the last bits.
#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/padding.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/linalg/conv3d_params.h"
#include "kernels/cpu/linalg/onednn_conv3d_filter_grad.h"
#include "kernels/cpu/linalg/onednn_util.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// The gradient as one gather per filter element (no two tasks write the same element), for
// double, which oneDNN does not run.
template <typename T>
void ReferenceFilterGrad(OpKernelContext* ctx, const Conv3DSpatialDim dims[3], int64_t batch,
                         int64_t in_depth, int64_t out_depth, const T* in, const T* dy, T* out) {
  const int64_t total = dims[0].window * dims[1].window * dims[2].window * in_depth * out_depth;
  const int64_t cells = batch * dims[0].out * dims[1].out * dims[2].out;
  const Eigen::TensorOpCost cost(16.0 * cells, sizeof(T), 2.0 * cells);
  ParallelFor(ctx, total, total * cells, cost, [&](int64_t first, int64_t last) {
    for (int64_t i = first; i < last; ++i) {
      int64_t rest = i;
      const int64_t oc = rest % out_depth;
      rest /= out_depth;
      const int64_t ic = rest % in_depth;
      rest /= in_depth;
      const int64_t k[3] = {rest / (dims[1].window * dims[2].window),
                            (rest / dims[2].window) % dims[1].window, rest % dims[2].window};
      T sum = T(0);
      for (int64_t n = 0; n < batch; ++n) {
        for (int64_t p = 0; p < dims[0].out; ++p) {
          const int64_t ip = p * dims[0].stride - dims[0].pad + k[0];
          if (ip < 0 || ip >= dims[0].in) continue;
          for (int64_t r = 0; r < dims[1].out; ++r) {
            const int64_t ir = r * dims[1].stride - dims[1].pad + k[1];
            if (ir < 0 || ir >= dims[1].in) continue;
            for (int64_t c = 0; c < dims[2].out; ++c) {
              const int64_t icol = c * dims[2].stride - dims[2].pad + k[2];
              if (icol < 0 || icol >= dims[2].in) continue;
              const int64_t in_cell = ((n * dims[0].in + ip) * dims[1].in + ir) * dims[2].in + icol;
              const int64_t out_cell = ((n * dims[0].out + p) * dims[1].out + r) * dims[2].out + c;
              sum += in[in_cell * in_depth + ic] * dy[out_cell * out_depth + oc];
            }
          }
        }
      }
      out[i] = sum;
    }
  });
}

template <typename T>
class Conv3DBackpropFilterOp : public OpKernel {
 public:
  explicit Conv3DBackpropFilterOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx,
                   ReadConv3DBackpropAttrs(ctx, "Conv3DBackpropFilterOpV2", &strides_, &padding_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const Tensor& sizes = ctx->input(1);
    const Tensor& dy = ctx->input(2);
    OP_REQUIRES(
        ctx, sizes.dims() == 1,
        errors::InvalidArgument("filter_sizes shape must be rank 1 but is rank ", sizes.dims()));
    IntegerValues values;
    OP_REQUIRES_OK(ctx, IntegerTensorValues(sizes, &values));
    for (const int64_t v : values) {
      OP_REQUIRES(ctx, v >= 0, errors::InvalidArgument("Dimension ", v, " must be >= 0"));
    }
    TensorShape filter_shape;
    OP_REQUIRES_OK(ctx, TensorShape::BuildTensorShape(values, &filter_shape));
    OP_REQUIRES(ctx, input.dims() == 5,
                errors::InvalidArgument("input tensor must have 5 dimensions"));
    OP_REQUIRES(ctx, filter_shape.dims() == 5,
                errors::InvalidArgument("filter_sizes tensor must have 5 dimensions"));
    OP_REQUIRES(ctx, dy.dims() == 5,
                errors::InvalidArgument("out_backprop tensor must have 5 dimensions"));
    OP_REQUIRES(ctx, input.dim_size(4) == filter_shape.dim_size(3),
                errors::InvalidArgument("input and filter_sizes must have the same number of "
                                        "channels. Got ",
                                        input.dim_size(4), " for input and ",
                                        filter_shape.dim_size(3), " for filter_sizes"));
    OP_REQUIRES(ctx, dy.dim_size(4) == filter_shape.dim_size(4),
                errors::InvalidArgument("out_backprop and filter_sizes must have the same number "
                                        "of channels. Got ",
                                        dy.dim_size(4), " for out_backprop and ",
                                        filter_shape.dim_size(4), " for filter_sizes"));
    Conv3DSpatialDim dims[3];
    OP_REQUIRES_OK(ctx, Conv3DBackpropDims("Conv3DBackpropFilterOp", input.shape(), filter_shape,
                                           dy.shape(), strides_, padding_, dims));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, filter_shape, &output));
    T* out = output->base<T>();
    if (input.NumElements() == 0) {
      std::fill_n(out, output->NumElements(), T(0));
      return;
    }
    const int64_t in_depth = input.dim_size(4);
    const int64_t out_depth = filter_shape.dim_size(4);
    const int64_t filter_size = dims[0].window * dims[1].window * dims[2].window * in_depth;
    const int64_t out_cells = dims[0].out * dims[1].out * dims[2].out;
    OP_REQUIRES(ctx, out_cells * filter_size + out_cells * out_depth + filter_size * out_depth > 0,
                errors::InvalidArgument("input, filter_sizes and out_backprop tensors must all "
                                        "have at least 1 element"));
    if (output->NumElements() == 0) return;
    const int64_t batch = input.dim_size(0);
    if constexpr (std::is_same_v<T, double>) {
      ReferenceFilterGrad<T>(ctx, dims, batch, in_depth, out_depth, input.base<T>(), dy.base<T>(),
                             out);
    } else if constexpr (std::is_same_v<T, half>) {
      RunWidened(ctx, dims, batch, in_depth, out_depth, input, dy, output);
    } else {
      const absl::Status native =
          grad_.Run(ctx, dims, batch, in_depth, out_depth, OneDnnType<T>::value, input.raw_data(),
                    dy.raw_data(), output->raw_data());
      // CPUs without AVX-512 have no oneDNN bfloat16 convolution: compute it in float instead.
      if (std::is_same_v<T, bfloat16> && !native.ok()) {
        RunWidened(ctx, dims, batch, in_depth, out_depth, input, dy, output);
      } else {
        OP_REQUIRES_OK(ctx, native);
      }
    }
  }

 private:
  // The float gradient of input and dy cast to float, rounded into `out`.
  void RunWidened(OpKernelContext* ctx, const Conv3DSpatialDim dims[3], int64_t batch,
                  int64_t in_depth, int64_t out_depth, const Tensor& input, const Tensor& dy,
                  Tensor* out) {
    Tensor input_f, dy_f, out_f;
    OP_REQUIRES_OK(ctx, ctx->allocate_temp(DT_FLOAT, input.shape(), &input_f));
    OP_REQUIRES_OK(ctx, ctx->allocate_temp(DT_FLOAT, dy.shape(), &dy_f));
    OP_REQUIRES_OK(ctx, ctx->allocate_temp(DT_FLOAT, out->shape(), &out_f));
    input_f.flat<float>() = input.flat<T>().template cast<float>();
    dy_f.flat<float>() = dy.flat<T>().template cast<float>();
    OP_REQUIRES_OK(ctx,
                   grad_.Run(ctx, dims, batch, in_depth, out_depth, dnnl::memory::data_type::f32,
                             input_f.raw_data(), dy_f.raw_data(), out_f.raw_data()));
    out->flat<T>() = out_f.flat<float>().template cast<T>();
  }

  std::vector<int32_t> strides_;
  Padding padding_ = VALID;
  OneDnnConv3DFilterGrad grad_;
};

// TensorFlow's CPU kernels: half, bfloat16, float and double.
#define REGISTER_CPU(T)                                                         \
  REGISTER_KERNEL_BUILDER(                                                      \
      Name("Conv3DBackpropFilterV2").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
      Conv3DBackpropFilterOp<T>);
SLUICE_CALL_FLOAT_TYPES(REGISTER_CPU)
#undef REGISTER_CPU

}  // namespace
}  // namespace sluice
