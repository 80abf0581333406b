// MaxPool and AvgPool on a GPU, float32, float16 and bfloat16, NHWC and NCHW, with the CPU
// kernels' (TensorFlow's) semantics: a max window ignores NaN and padding, an average divides
// by the number of input cells its window covers (padding does not dilute it).
//
// Attrs and shapes are checked by the CPU kernels' code (kernels/cpu/nn/pool_params.h), so
// errors and output shapes are theirs. Pooling over channels is UNIMPLEMENTED on GPUs, as in
// TensorFlow. Which code pools:
//  - cuDNN (CUDNN_POOLING_MAX_DETERMINISTIC, CUDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING)
//    where its symmetric padding gives TensorFlow's windows: VALID, and SAME or EXPLICIT
//    whenever padding `before` on both sides yields TensorFlow's output size (conv_index.h's
//    PlanSpatialPadding argument: the windows then start at the same places, and where they
//    reach past the input neither kind of pooling counts padding);
//  - otherwise (SAME or EXPLICIT with more padding after than before where that adds a
//    window), and for bfloat16 always (so that it does not depend on which cuDNN pooling
//    supports it), a direct kernel computing each output as the CPU kernels do
//    (conv_index.h's PoolOutput). Padding the input instead would not do for averages: cuDNN
//    would count explicit zeros as cells.
// An NCHW tensor is pooled as an NHWC one of batch N*C and depth 1 (pool_params.h), so both
// formats take the same path. An empty output launches nothing.
#include <cstdint>
#include <string>
#include <type_traits>

#include "absl/strings/str_join.h"
#include "graph/core/errors.h"
#include "graph/core/padding.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_format.h"
#include "graph/core/types.h"
#include "kernels/cpu/nn/pool_params.h"
#include "kernels/cuda/conv/conv_index.h"
#include "kernels/cuda/conv/conv_launch.h"
#include "kernels/cuda/conv/cudnn_util.h"
#include "runtime/framework/gpu/cuda_libraries.h"
#include "runtime/framework/gpu/cuda_status.h"
#include "runtime/framework/gpu/gpu_device_context.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {
namespace {

using cuda::PoolMode;

cuda::PoolDims ToPoolDims(const PoolGeometry& g) {
  cuda::PoolDims d;
  d.batch = g.batch;
  d.in_rows = g.in_rows;
  d.in_cols = g.in_cols;
  d.depth = g.depth;
  d.window_rows = g.window_rows;
  d.window_cols = g.window_cols;
  d.row_stride = g.row_stride;
  d.col_stride = g.col_stride;
  d.pad_top = g.pad_top;
  d.pad_left = g.pad_left;
  d.out_rows = g.out_rows;
  d.out_cols = g.out_cols;
  return d;
}

// Whether cuDNN's symmetric padding gives these windows (see the file comment).
bool CudnnPoolsAlike(const cuda::PoolDims& d) {
  return cuda::SymmetricOutputSize(d.in_rows, d.window_rows, d.row_stride, d.pad_top) ==
             d.out_rows &&
         cuda::SymmetricOutputSize(d.in_cols, d.window_cols, d.col_stride, d.pad_left) ==
             d.out_cols &&
         cuda::FitInt(
             {d.window_rows, d.window_cols, d.row_stride, d.col_stride, d.pad_top, d.pad_left});
}

absl::Status CudnnPool(GpuDeviceContext& gpu, DataType dtype, PoolMode mode,
                       const cuda::PoolDims& d, const void* in, void* out) {
  const CudaLibraries& libs = gpu.libraries();
  cudnnDataType_t type;
  RETURN_IF_ERROR(cuda::CudnnDataType(dtype, &type));
  cuda::CudnnDescriptor<cudnnTensorDescriptor_t> x, y;
  RETURN_IF_ERROR(cuda::MakeTensorDescriptor(libs, CUDNN_TENSOR_NHWC, type, d.batch, d.depth,
                                             d.in_rows, d.in_cols, &x));
  RETURN_IF_ERROR(cuda::MakeTensorDescriptor(libs, CUDNN_TENSOR_NHWC, type, d.batch, d.depth,
                                             d.out_rows, d.out_cols, &y));
  cuda::CudnnDescriptor<cudnnPoolingDescriptor_t> pool;
  RETURN_IF_ERROR(pool.Create(libs, libs.cudnnCreatePoolingDescriptor,
                              libs.cudnnDestroyPoolingDescriptor, "cudnnCreatePoolingDescriptor"));
  // NaN is not propagated: the CPU kernels' max never takes a NaN.
  RETURN_IF_ERROR(CudnnStatus(
      libs,
      libs.cudnnSetPooling2dDescriptor(
          pool.get(),
          mode == PoolMode::kMax ? CUDNN_POOLING_MAX_DETERMINISTIC
                                 : CUDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING,
          CUDNN_NOT_PROPAGATE_NAN, static_cast<int>(d.window_rows), static_cast<int>(d.window_cols),
          static_cast<int>(d.pad_top), static_cast<int>(d.pad_left), static_cast<int>(d.row_stride),
          static_cast<int>(d.col_stride)),
      "cudnnSetPooling2dDescriptor"));
  const float alpha = 1.0f, beta = 0.0f;
  return CudnnStatus(libs,
                     libs.cudnnPoolingForward(gpu.cudnn_handle(), pool.get(), &alpha, x.get(), in,
                                              &beta, y.get(), out),
                     "cudnnPoolingForward");
}

template <typename T, PoolMode kMode>
class GpuPoolOp : public OpKernel {
 public:
  explicit GpuPoolOp(OpKernelConstruction* ctx) : OpKernel(ctx) {
    std::string format;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("data_format", &format));
    OP_REQUIRES(ctx,
                FormatFromString(format, &window_.format) &&
                    (window_.format == FORMAT_NHWC || window_.format == FORMAT_NCHW),
                errors::InvalidArgument("Invalid data format"));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("ksize", &window_.ksize));
    OP_REQUIRES(ctx, window_.ksize.size() == 4,
                errors::InvalidArgument("Sliding window ksize field must specify 4 dimensions"));
    for (int32_t k : window_.ksize) {
      // Each op's CPU kernel words this differently.
      OP_REQUIRES(ctx, k > 0,
                  kMode == PoolMode::kMax
                      ? errors::InvalidArgument(
                            "Sliding window ksize must be positive. The specified or inferred "
                            "ksize is: ",
                            absl::StrJoin(window_.ksize, ","))
                      : errors::InvalidArgument("ksize must be a positive int32 value, got:", k));
    }
    OP_REQUIRES_OK(ctx, ctx->GetAttr("strides", &window_.strides));
    std::string padding;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("padding", &padding));
    OP_REQUIRES_OK(ctx, GetPaddingFromString(padding, &window_.padding));
    if (ctx->HasAttr("explicit_paddings")) {
      OP_REQUIRES_OK(ctx, ctx->GetAttr("explicit_paddings", &window_.explicit_paddings));
    }
    OP_REQUIRES_OK(ctx, CheckPoolWindowSizes(window_));
    OP_REQUIRES_OK(ctx, CheckExplicitPoolPadding(window_));
  }

  void Compute(OpKernelContext* ctx) override {
    GpuDeviceContext* gpu = ctx->device()->gpu_device_context();
    OP_REQUIRES(
        ctx, gpu != nullptr,
        errors::Internal("A GPU kernel ran on ", ctx->device()->name(), ", which is not a GPU"));
    const Tensor& input = ctx->input(0);
    PoolGeometry g;
    OP_REQUIRES_OK(ctx, ComputePoolGeometry(input.shape(), window_, &g));
    OP_REQUIRES(
        ctx, g.depth_window == 1,
        kMode == PoolMode::kMax
            ? errors::Unimplemented(
                  "Depthwise max pooling is currently only implemented for CPU devices.")
            : errors::Unimplemented("Non-spatial pooling is not yet supported. Volunteers? :)"));
    Tensor* output = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, g.output_shape, &output));
    if (output->NumElements() == 0) return;
    const cuda::PoolDims dims = ToPoolDims(g);
    if (!std::is_same_v<T, bfloat16> && CudnnPoolsAlike(dims)) {
      OP_REQUIRES_OK(ctx, CudnnPool(*gpu, DataTypeToEnum<T>::value, kMode, dims, input.raw_data(),
                                    output->raw_data()));
      return;
    }
    cuda::ConvElement type;
    OP_REQUIRES_OK(ctx, cuda::ConvElementOf(DataTypeToEnum<T>::value, &type));
    OP_REQUIRES(ctx,
                cuda::LaunchPool(input.raw_data(), output->raw_data(), dims, kMode, type,
                                 gpu->compute_stream()),
                errors::Internal("No CUDA pooling kernel for ", DataTypeString(input.dtype())));
    OP_REQUIRES_OK(ctx, LastLaunchStatus(type_string()));
  }

 private:
  PoolWindow window_;
};

#define REGISTER_GPU_POOL(T)                                                         \
  REGISTER_KERNEL_BUILDER(Name("MaxPool").Device(DEVICE_GPU).TypeConstraint<T>("T"), \
                          GpuPoolOp<T, PoolMode::kMax>);                             \
  REGISTER_KERNEL_BUILDER(Name("AvgPool").Device(DEVICE_GPU).TypeConstraint<T>("T"), \
                          GpuPoolOp<T, PoolMode::kAverage>);
REGISTER_GPU_POOL(float)
REGISTER_GPU_POOL(half)
REGISTER_GPU_POOL(bfloat16)
#undef REGISTER_GPU_POOL

}  // namespace
}  // namespace sluice
