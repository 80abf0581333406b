// Conv3D and its input gradient (Conv3DBackpropInputV2, and the deprecated
// Conv3DBackpropInput) on the CPU: NDHWC volumes and a [planes, rows, cols, in_depth,
// out_depth] filter.
//
// Conv3D is checked as TensorFlow does, with its messages: strides and dilations of 5 values,
// 1 for the batch and the channels, positive for the spatial dims (at construction); a 5-D
// input and filter, a non-zero filter depth dividing the input depth, a non-empty filter,
// non-negative output sizes; and, as TensorFlow's CPU kernel, NDHWC only, dilations of 1
// and a filter depth equal to the input depth (no groups). (Keras dilates a Conv3D with
// SpaceToBatchND around it instead.)
//
// Conv3D's computation: im2col and a matrix product. Blocks of output cells gather their
// input patches (zeros in the padding) into a [cells, planes * rows * cols * in_depth]
// matrix, which an Eigen GEMM multiplies by the filter (already a [that, out_depth]
// row-major matrix). half and bfloat16 are computed in float and rounded once; double in
// double. TensorFlow's Eigen contraction sums in another order, so results differ from it in
// the last bits. Blocks are split over the intra-op pool; each block's GEMM is
// single-threaded.
//
// The input gradient (what Keras's Conv3DTranspose computes) is checked as TensorFlow's CPU
// kernels do, with their messages: NDHWC only, dilations of 1 and strides of 1 in the batch
// and channels (at construction); input_sizes a vector of 5 non-negative values (V2; V1 takes
// the shape of its `input`); 5-D filter and out_backprop whose channels match the input's
// and each other; equal batches; a positive filter depth dividing the input depth; each
// spatial size of out_backprop the forward convolution's; and not all of the three products
// (output cells x out_depth, filter size x out_depth, output cells x filter size) empty.
// Computation, per image: the matrix product of out_backprop [output cells, out_depth] by
// the transposed filter gives every output cell's gradient patch [filter size]
// (TensorFlow's col2im buffer), in blocks over the pool; then every input cell gathers the
// patch entries that cover it, in the order of the output cells (TensorFlow's col2im adds
// them in that order), split over the pool as well.
#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "Eigen/Core"
#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/padding.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "kernels/cpu/linalg/conv3d_params.h"
#include "kernels/cpu/linalg/conv_params.h"
#include "kernels/cpu/parallel_for.h"
#include "kernels/cpu/scratch.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

// Output cells per GEMM block.
constexpr int64_t kBlockCells = 256;

template <typename T>
using ComputeType = std::conditional_t<std::is_same_v<T, double>, double, float>;

template <typename T>
using RowMajorMatrix =
    Eigen::Matrix<ComputeType<T>, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

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
    OP_REQUIRES_OK(ctx, Convolve(ctx, input.base<T>(), filter, batch, in, window, stride, pad, out,
                                 in_depth, out_depth, output->base<T>()));
  }

 private:
  using C = ComputeType<T>;
  using Matrix = RowMajorMatrix<T>;

  // The filter matrix and each block's patches and products are scratch from the device's
  // allocator.
  static absl::Status Convolve(OpKernelContext* ctx, const T* input, const Tensor& filter_t,
                               int64_t batch, const int64_t in[3], const int64_t window[3],
                               const int64_t stride[3], const int64_t pad[3], const int64_t out[3],
                               int64_t in_depth, int64_t out_depth, T* output) {
    const int64_t k = window[0] * window[1] * window[2] * in_depth;
    // The filter as a [k, out_depth] matrix of C.
    ScratchArray<C> filter_data;
    RETURN_IF_ERROR(filter_data.Allocate(ctx, k * out_depth));
    const T* f = filter_t.base<T>();
    for (int64_t i = 0; i < k * out_depth; ++i) filter_data[i] = static_cast<C>(f[i]);
    const Eigen::Map<const Matrix> filter(filter_data.data(), k, out_depth);
    const int64_t cells = batch * out[0] * out[1] * out[2];
    const int64_t blocks = (cells + kBlockCells - 1) / kBlockCells;
    const Eigen::TensorOpCost cost(kBlockCells * k * sizeof(T), kBlockCells * out_depth * sizeof(T),
                                   2.0 * kBlockCells * k * out_depth);
    // Per call: a block's patches [kBlockCells, k], then its products [kBlockCells, out_depth].
    const int64_t block_scratch = kBlockCells * (k + out_depth);
    return ParallelForWithScratch<C>(
        ctx, blocks, cells * out_depth, cost, block_scratch,
        [&](int64_t first, int64_t last, C* scratch) {
          for (int64_t block = first; block < last; ++block) {
            const int64_t begin = block * kBlockCells;
            const int64_t n = std::min(cells, begin + kBlockCells) - begin;
            Eigen::Map<Matrix> patches(scratch, n, k);
            patches.setZero();
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
              Eigen::Map<Matrix> result(scratch + kBlockCells * k, n, out_depth);
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

// input_sizes as a shape, as TensorFlow's tensor::MakeShape reads it.
absl::Status ShapeFromSizes(const Tensor& sizes, TensorShape* shape) {
  if (sizes.dims() != 1) {
    return errors::InvalidArgument("shape must be a vector of {int32,int64}, got shape ",
                                   sizes.shape().DebugString());
  }
  IntegerValues values;
  RETURN_IF_ERROR(IntegerTensorValues(sizes, &values));
  for (const int64_t v : values) {
    if (v < 0) return errors::InvalidArgument("Dimension ", v, " must be >= 0");
  }
  return TensorShape::BuildTensorShape(values, shape);
}

// in_grad = the gradient of Conv3D(input, filter) with respect to its input, given
// out_backprop; in_grad is [batch, dims[].in, in_depth], out_backprop [batch, dims[].out,
// out_depth], neither empty.
template <typename T>
absl::Status BackpropInput(OpKernelContext* ctx, const Conv3DSpatialDim dims[3], int64_t batch,
                           int64_t in_depth, int64_t out_depth, const Tensor& filter_t,
                           const T* out_backprop, T* in_grad) {
  using C = ComputeType<T>;
  using Matrix = RowMajorMatrix<T>;
  const int64_t window_cells = dims[0].window * dims[1].window * dims[2].window;
  const int64_t k = window_cells * in_depth;
  const int64_t in_cells = dims[0].in * dims[1].in * dims[2].in;
  const int64_t out_cells = dims[0].out * dims[1].out * dims[2].out;
  // The filter as a [k, out_depth] matrix of C.
  ScratchArray<C> filter_data;
  RETURN_IF_ERROR(filter_data.Allocate(ctx, k * out_depth));
  const T* f = filter_t.base<T>();
  for (int64_t i = 0; i < k * out_depth; ++i) filter_data[i] = static_cast<C>(f[i]);
  const Eigen::Map<const Matrix> filter(filter_data.data(), k, out_depth);
  // One image's gradient patches, [out_cells, k].
  Tensor patches_t;
  TensorShape patches_shape;
  RETURN_IF_ERROR(TensorShape::BuildTensorShape({out_cells, k}, &patches_shape));
  RETURN_IF_ERROR(ctx->allocate_temp(DataTypeToEnum<C>::value, patches_shape, &patches_t));
  C* patches = patches_t.base<C>();

  const int64_t blocks = (out_cells + kBlockCells - 1) / kBlockCells;
  const Eigen::TensorOpCost gemm_cost(kBlockCells * out_depth * sizeof(T),
                                      kBlockCells * k * sizeof(C),
                                      2.0 * kBlockCells * k * out_depth);
  const Eigen::TensorOpCost gather_cost(window_cells * in_depth * sizeof(C), in_depth * sizeof(T),
                                        window_cells * in_depth);
  for (int64_t b = 0; b < batch; ++b) {
    const T* dy = out_backprop + b * out_cells * out_depth;
    // Per call: a block of out_backprop as C, [kBlockCells, out_depth].
    RETURN_IF_ERROR(ParallelForWithScratch<C>(
        ctx, blocks, out_cells * k, gemm_cost, kBlockCells * out_depth,
        [&](int64_t first, int64_t last, C* dy_data) {
          for (int64_t block = first; block < last; ++block) {
            const int64_t begin = block * kBlockCells;
            const int64_t n = std::min(out_cells, begin + kBlockCells) - begin;
            Eigen::Map<Matrix> result(patches + begin * k, n, k);
            if constexpr (std::is_same_v<T, C>) {
              Eigen::Map<const Matrix> rows(dy + begin * out_depth, n, out_depth);
              result.noalias() = rows * filter.transpose();
            } else {
              Eigen::Map<Matrix> dy_block(dy_data, n, out_depth);
              const T* src = dy + begin * out_depth;
              for (int64_t i = 0; i < n * out_depth; ++i)
                dy_block.data()[i] = static_cast<C>(src[i]);
              result.noalias() = dy_block * filter.transpose();
            }
          }
        }));
    T* dx = in_grad + b * in_cells * in_depth;
    RETURN_IF_ERROR(ParallelForWithScratch<C>(
        ctx, in_cells, in_cells * in_depth, gather_cost, in_depth,
        [&](int64_t first, int64_t last, C* sum) {
          for (int64_t cell = first; cell < last; ++cell) {
            const int64_t c = cell % dims[2].in;
            const int64_t r = (cell / dims[2].in) % dims[1].in;
            const int64_t p = cell / (dims[2].in * dims[1].in);
            std::fill(sum, sum + in_depth, C(0));
            // Window positions from the last to the first: the covering output cells in
            // increasing order.
            for (int64_t i = dims[0].window - 1; i >= 0; --i) {
              const int64_t tp = p + dims[0].pad - i;
              if (tp < 0 || tp % dims[0].stride != 0 || tp / dims[0].stride >= dims[0].out)
                continue;
              const int64_t op = tp / dims[0].stride;
              for (int64_t j = dims[1].window - 1; j >= 0; --j) {
                const int64_t tr = r + dims[1].pad - j;
                if (tr < 0 || tr % dims[1].stride != 0 || tr / dims[1].stride >= dims[1].out)
                  continue;
                const int64_t orow = tr / dims[1].stride;
                for (int64_t l = dims[2].window - 1; l >= 0; --l) {
                  const int64_t tc = c + dims[2].pad - l;
                  if (tc < 0 || tc % dims[2].stride != 0 || tc / dims[2].stride >= dims[2].out) {
                    continue;
                  }
                  const int64_t oc = tc / dims[2].stride;
                  const C* src = patches + ((op * dims[1].out + orow) * dims[2].out + oc) * k +
                                 ((i * dims[1].window + j) * dims[2].window + l) * in_depth;
                  for (int64_t d = 0; d < in_depth; ++d) sum[d] += src[d];
                }
              }
            }
            T* dst = dx + cell * in_depth;
            for (int64_t d = 0; d < in_depth; ++d) dst[d] = static_cast<T>(sum[d]);
          }
        }));
  }
  return absl::OkStatus();
}

// Conv3DBackpropInputV2 (input_sizes holds the gradient's shape) and Conv3DBackpropInput
// (the gradient has the shape of `input`).
template <typename T, bool kTakesShape>
class Conv3DBackpropInputOp : public OpKernel {
 public:
  explicit Conv3DBackpropInputOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    OP_REQUIRES_OK(ctx,
                   ReadConv3DBackpropAttrs(ctx, kTakesShape ? "Conv3DBackpropInputOpV2" : nullptr,
                                           &strides_, &padding_));
  }

  void Compute(OpKernelContext* ctx) override {
    const Tensor& filter = ctx->input(1);
    const Tensor& out_backprop = ctx->input(2);
    TensorShape input_shape;
    if (kTakesShape) {
      OP_REQUIRES_OK(ctx, ShapeFromSizes(ctx->input(0), &input_shape));
    } else {
      input_shape = ctx->input(0).shape();
    }
    OP_REQUIRES(ctx, input_shape.dims() == 5,
                errors::InvalidArgument("input tensor must have 5 dimensions"));
    OP_REQUIRES(ctx, filter.dims() == 5,
                errors::InvalidArgument("filter_sizes tensor must have 5 dimensions"));
    OP_REQUIRES(ctx, out_backprop.dims() == 5,
                errors::InvalidArgument("out_backprop tensor must have 5 dimensions"));
    OP_REQUIRES(ctx, input_shape.dim_size(4) == filter.dim_size(3),
                errors::InvalidArgument("input and filter_sizes must have the same number of "
                                        "channels. Got ",
                                        input_shape.dim_size(4), " for input and ",
                                        filter.dim_size(3), " for filter_sizes"));
    OP_REQUIRES(ctx, out_backprop.dim_size(4) == filter.dim_size(4),
                errors::InvalidArgument("out_backprop and filter_sizes must have the same number "
                                        "of channels. Got ",
                                        out_backprop.dim_size(4), " for out_backprop and ",
                                        filter.dim_size(4), " for filter_sizes"));
    Conv3DSpatialDim dims[3];
    OP_REQUIRES_OK(ctx, Conv3DBackpropDims("Conv3DBackpropInputOp", input_shape, filter.shape(),
                                           out_backprop.shape(), strides_, padding_, dims));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, input_shape, &output));
    const int64_t in_depth = input_shape.dim_size(4);
    const int64_t out_depth = filter.dim_size(4);
    const int64_t filter_size = dims[0].window * dims[1].window * dims[2].window * in_depth;
    const int64_t out_cells = dims[0].out * dims[1].out * dims[2].out;
    OP_REQUIRES(ctx,
                (out_cells > 0 && out_depth > 0) || (filter_size > 0 && out_depth > 0) ||
                    (out_cells > 0 && filter_size > 0),
                errors::InvalidArgument("input, filter_sizes and out_backprop tensors must all "
                                        "have at least 1 element"));
    if (output->NumElements() == 0) return;
    if (filter_size == 0 || out_depth == 0 || out_cells == 0) {
      // Nothing reaches the input: its gradient is zero.
      std::fill_n(output->base<T>(), output->NumElements(), T(0));
      return;
    }
    OP_REQUIRES_OK(ctx, BackpropInput<T>(ctx, dims, input_shape.dim_size(0), in_depth, out_depth,
                                         filter, out_backprop.base<T>(), output->base<T>()));
  }

 private:
  std::vector<int32_t> strides_;
  Padding padding_ = VALID;
};

#define REGISTER_CONV3D(T) \
  REGISTER_KERNEL_BUILDER(Name("Conv3D").Device(DEVICE_CPU).TypeConstraint<T>("T"), Conv3DOp<T>);
SLUICE_CALL_FLOAT_TYPES(REGISTER_CONV3D)
#undef REGISTER_CONV3D

// TensorFlow's CPU kernels: V2 for half, bfloat16, float and double; V1 (deprecated, no
// bfloat16 in its OpDef) for half, float and double.
#define REGISTER_CONV3D_BACKPROP_INPUT(T)                 \
  REGISTER_KERNEL_BUILDER(Name("Conv3DBackpropInputV2")   \
                              .Device(DEVICE_CPU)         \
                              .TypeConstraint<T>("T")     \
                              .HostMemory("input_sizes"), \
                          Conv3DBackpropInputOp<T, true>);
SLUICE_CALL_FLOAT_TYPES(REGISTER_CONV3D_BACKPROP_INPUT)
#undef REGISTER_CONV3D_BACKPROP_INPUT
#define REGISTER_CONV3D_BACKPROP_INPUT_V1(T)                                                     \
  REGISTER_KERNEL_BUILDER(Name("Conv3DBackpropInput").Device(DEVICE_CPU).TypeConstraint<T>("T"), \
                          Conv3DBackpropInputOp<T, false>);
SLUICE_CALL_half(REGISTER_CONV3D_BACKPROP_INPUT_V1)
    SLUICE_CALL_float(REGISTER_CONV3D_BACKPROP_INPUT_V1)
        SLUICE_CALL_double(REGISTER_CONV3D_BACKPROP_INPUT_V1)
#undef REGISTER_CONV3D_BACKPROP_INPUT_V1

}  // namespace
}  // namespace sluice
