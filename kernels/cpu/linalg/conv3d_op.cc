// Conv3D on the CPU: NDHWC volumes convolved with a [planes, rows, cols, in_depth,
// out_depth] filter.
//
// Checked as TensorFlow does, with its messages: strides and dilations of 5 values, 1 for
// the batch and the channels, positive for the spatial dims (at construction); a 5-D input
// and filter, a non-zero filter depth dividing the input depth, a non-empty filter,
// non-negative output sizes; and, as TensorFlow's CPU kernel, NDHWC only, dilations of 1
// and a filter depth equal to the input depth (no groups). (Keras dilates a Conv3D with
// SpaceToBatchND around it instead.)
//
// Computation: im2col and a matrix product. Blocks of output cells gather their input
// patches (zeros in the padding) into a [cells, planes * rows * cols * in_depth] matrix,
// which an Eigen GEMM multiplies by the filter (already a [that, out_depth] row-major
// matrix). half and bfloat16 are computed in float and rounded once; double in double.
// TensorFlow's Eigen contraction sums in another order, so results differ from it in the
// last bits. Blocks are split over the intra-op pool; each block's GEMM is single-threaded.
#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "Eigen/Core"
#include "graph/core/errors.h"
#include "graph/core/padding.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "kernels/cpu/linalg/conv_params.h"
#include "kernels/cpu/parallel_for.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// Output cells per GEMM block.
constexpr int64_t kBlockCells = 256;

template <typename T>
using ComputeType = std::conditional_t<std::is_same_v<T, double>, double, float>;

template <typename T>
class Conv3DOp : public OpKernel {
 public:
  explicit Conv3DOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string data_format;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("data_format", &data_format));
    channels_first_ = data_format == "NCDHW";
    const int n = 0;
    const int c = channels_first_ ? 1 : 4;
    const int spatial = channels_first_ ? 2 : 1;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("strides", &strides_));
    OP_REQUIRES(ctx, strides_.size() == 5,
                errors::InvalidArgument("Sliding window strides field must specify 5 dimensions"));
    OP_REQUIRES(ctx, strides_[n] == 1 && strides_[c] == 1,
                errors::InvalidArgument("Current implementation does not yet support strides in "
                                        "the batch and depth dimensions."));
    OP_REQUIRES(ctx,
                strides_[spatial] > 0 && strides_[spatial + 1] > 0 && strides_[spatial + 2] > 0,
                errors::InvalidArgument("Spatial strides should be larger than 0."));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dilations", &dilations_));
    OP_REQUIRES(ctx, dilations_.size() == 5,
                errors::InvalidArgument("Dilation rates field must specify 5 dimensions"));
    OP_REQUIRES(ctx, dilations_[n] == 1 && dilations_[c] == 1,
                errors::InvalidArgument("Current implementation does not yet support dilation "
                                        "rates in the batch and depth dimensions."));
    OP_REQUIRES(
        ctx, dilations_[spatial] > 0 && dilations_[spatial + 1] > 0 && dilations_[spatial + 2] > 0,
        errors::InvalidArgument("Dilated rates should be larger than 0."));
    std::string padding;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("padding", &padding));
    OP_REQUIRES_OK(ctx, GetPaddingFromString(padding, &padding_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& input = ctx->input(0);
    const Tensor& filter = ctx->input(1);
    OP_REQUIRES(ctx, input.dims() == 5, errors::InvalidArgument("input must be 5-dimensional"));
    OP_REQUIRES(ctx, filter.dims() == 5, errors::InvalidArgument("filter must be 5-dimensional"));
    const int c_dim = channels_first_ ? 1 : 4;
    const int spatial = channels_first_ ? 2 : 1;
    const int64_t in_depth = input.dim_size(c_dim);
    const int64_t batch = input.dim_size(0);
    const int64_t filter_depth = filter.dim_size(3);
    const int64_t out_depth = filter.dim_size(4);
    OP_REQUIRES(ctx, filter_depth != 0, errors::InvalidArgument("filter_depth must be non-zero"));
    OP_REQUIRES(ctx, in_depth % filter_depth == 0,
                errors::InvalidArgument("Input depth must be evenly divisible by filter depth: ",
                                        in_depth, " vs ", filter_depth));
    OP_REQUIRES(ctx, filter.NumElements() > 0,
                errors::InvalidArgument("filter must not have zero elements (i.e. all "
                                        "dimensions must be non-zero)"));
    int64_t in[3], window[3], dilation[3], stride[3], out[3], pad[3];
    for (int d = 0; d < 3; ++d) {
      in[d] = input.dim_size(spatial + d);
      window[d] = filter.dim_size(d);
      dilation[d] = dilations_[spatial + d];
      stride[d] = strides_[spatial + d];
      int64_t pad_after = 0;
      OP_REQUIRES_OK(ctx, WindowedOutputSize(in[d], window[d], dilation[d], stride[d], padding_,
                                             &out[d], &pad[d], &pad_after));
    }
    TensorShape out_shape;
    OP_REQUIRES_OK(
        ctx, TensorShape::BuildTensorShape(
                 channels_first_ ? std::vector<int64_t>{batch, out_depth, out[0], out[1], out[2]}
                                 : std::vector<int64_t>{batch, out[0], out[1], out[2], out_depth},
                 &out_shape));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, out_shape, &output));
    if (out_shape.num_elements() == 0) return;
    OP_REQUIRES(ctx, !channels_first_,
                errors::InvalidArgument("CPU implementation of Conv3D currently only supports "
                                        "the NHWC tensor format."));
    OP_REQUIRES(ctx, dilation[0] == 1 && dilation[1] == 1 && dilation[2] == 1,
                errors::InvalidArgument("CPU implementation of Conv3D currently only supports "
                                        "dilated rates of 1."));
    OP_REQUIRES(ctx, filter_depth == in_depth,
                errors::InvalidArgument("Number of channels in filter (", filter_depth,
                                        ") must match last dimension of input (", in_depth, ")"));
    Convolve(ctx, input.base<T>(), filter, batch, in, window, stride, pad, out, in_depth, out_depth,
             output->base<T>());
  }

 private:
  using C = ComputeType<T>;
  using Matrix = Eigen::Matrix<C, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

  static void Convolve(OpKernelContext* ctx, const T* input, const Tensor& filter_t, int64_t batch,
                       const int64_t in[3], const int64_t window[3], const int64_t stride[3],
                       const int64_t pad[3], const int64_t out[3], int64_t in_depth,
                       int64_t out_depth, T* output) {
    const int64_t k = window[0] * window[1] * window[2] * in_depth;
    // The filter as a [k, out_depth] matrix of C.
    Matrix filter(k, out_depth);
    const T* f = filter_t.base<T>();
    for (int64_t i = 0; i < k * out_depth; ++i) filter.data()[i] = static_cast<C>(f[i]);
    const int64_t cells = batch * out[0] * out[1] * out[2];
    const int64_t blocks = (cells + kBlockCells - 1) / kBlockCells;
    const Eigen::TensorOpCost cost(kBlockCells * k * sizeof(T), kBlockCells * out_depth * sizeof(T),
                                   2.0 * kBlockCells * k * out_depth);
    ParallelFor(ctx, blocks, cells * out_depth, cost, [&](int64_t first, int64_t last) {
      Matrix patches;
      Matrix result;
      for (int64_t block = first; block < last; ++block) {
        const int64_t begin = block * kBlockCells;
        const int64_t n = std::min(cells, begin + kBlockCells) - begin;
        patches.setZero(n, k);
        for (int64_t row = 0; row < n; ++row) {
          int64_t rest = begin + row;
          const int64_t oc = rest % out[2];
          rest /= out[2];
          const int64_t orow = rest % out[1];
          rest /= out[1];
          const int64_t op = rest % out[0];
          const int64_t b = rest / out[0];
          const T* image = input + b * in[0] * in[1] * in[2] * in_depth;
          C* dst = patches.data() + row * k;
          for (int64_t i = 0; i < window[0]; ++i) {
            const int64_t p = op * stride[0] - pad[0] + i;
            if (p < 0 || p >= in[0]) continue;
            for (int64_t j = 0; j < window[1]; ++j) {
              const int64_t r = orow * stride[1] - pad[1] + j;
              if (r < 0 || r >= in[1]) continue;
              for (int64_t l = 0; l < window[2]; ++l) {
                const int64_t c = oc * stride[2] - pad[2] + l;
                if (c < 0 || c >= in[2]) continue;
                const T* src = image + ((p * in[1] + r) * in[2] + c) * in_depth;
                C* to = dst + ((i * window[1] + j) * window[2] + l) * in_depth;
                for (int64_t d = 0; d < in_depth; ++d) to[d] = static_cast<C>(src[d]);
              }
            }
          }
        }
        T* dst = output + begin * out_depth;
        if constexpr (std::is_same_v<T, C>) {
          Eigen::Map<Matrix> result_map(dst, n, out_depth);
          result_map.noalias() = patches * filter;
        } else {
          result.resize(n, out_depth);
          result.noalias() = patches * filter;
          for (int64_t i = 0; i < n * out_depth; ++i) dst[i] = static_cast<T>(result.data()[i]);
        }
      }
    });
  }

  bool channels_first_ = false;
  std::vector<int32_t> strides_;
  std::vector<int32_t> dilations_;
  Padding padding_ = VALID;
};

#define REGISTER_CONV3D(T) \
  REGISTER_KERNEL_BUILDER(Name("Conv3D").Device(DEVICE_CPU).TypeConstraint<T>("T"), Conv3DOp<T>);
SLUICE_CALL_FLOAT_TYPES(REGISTER_CONV3D)
#undef REGISTER_CONV3D

}  // namespace
}  // namespace sluice
