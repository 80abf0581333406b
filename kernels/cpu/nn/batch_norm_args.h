// The attrs and argument checks of FusedBatchNorm/FusedBatchNormV3's forward kernels, shared by
// the CPU kernel (fused_batch_norm_op.cc) and the GPU one (kernels/cuda), so that both accept
// the same nodes and inputs and fail with TensorFlow's messages.
#ifndef SLUICE_KERNELS_CPU_NN_BATCH_NORM_ARGS_H_
#define SLUICE_KERNELS_CPU_NN_BATCH_NORM_ARGS_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_format.h"
#include "graph/core/tensor_shape.h"
#include "runtime/framework/op_kernel.h"

namespace sluice {

struct BatchNormAttrs {
  float epsilon = 0;
  float exponential_avg_factor = 1;
  bool channels_last = true;
  bool is_training = true;
};

// The data viewed as [outer, channels, inner]: channels last (NHWC, NDHWC) is [rows, C, 1],
// channels first (NCHW, NCDHW) is [N, C, spatial].
struct BatchNormLayout {
  int64_t outer = 0;
  int64_t channels = 0;
  int64_t inner = 0;
};

inline absl::Status ParseBatchNormAttrs(OpKernelConstruction* ctx, BatchNormAttrs* attrs) {
  RETURN_IF_ERROR(ctx->GetAttr("epsilon", &attrs->epsilon));
  RETURN_IF_ERROR(ctx->GetAttr("exponential_avg_factor", &attrs->exponential_avg_factor));
  std::string format_name;
  RETURN_IF_ERROR(ctx->GetAttr("data_format", &format_name));
  TensorFormat format;
  if (!FormatFromString(format_name, &format) || (format != FORMAT_NHWC && format != FORMAT_NCHW)) {
    return errors::InvalidArgument("Invalid data format");
  }
  attrs->channels_last = format == FORMAT_NHWC;
  return ctx->GetAttr("is_training", &attrs->is_training);
}

// Checks the five inputs (x, scale, offset, mean, variance) and sets *layout (outer and inner
// are 0 for an empty x).
inline absl::Status CheckBatchNormArgs(const BatchNormAttrs& attrs, const Tensor& x,
                                       const Tensor& scale, const Tensor& offset,
                                       const Tensor& mean, const Tensor& variance,
                                       BatchNormLayout* layout) {
  if (x.dims() != 4 && x.dims() != 5) {
    return errors::InvalidArgument("input must be 4 or 5-dimensional", x.shape().DebugString());
  }
  if (scale.dims() != 1) {
    return errors::InvalidArgument("scale must be 1-dimensional", scale.shape().DebugString());
  }
  if (offset.dims() != 1) {
    return errors::InvalidArgument("offset must be 1-dimensional", offset.shape().DebugString());
  }
  if (mean.dims() != 1) {
    return errors::InvalidArgument("estimated_mean must be 1-dimensional",
                                   mean.shape().DebugString());
  }
  if (variance.dims() != 1) {
    return errors::InvalidArgument("estimated_variance must be 1-dimensional",
                                   variance.shape().DebugString());
  }
  const int64_t channels = x.dim_size(attrs.channels_last ? x.dims() - 1 : 1);
  if (scale.NumElements() != channels) {
    return errors::InvalidArgument(
        "scale must have the same number of elements as the channels of x, got ",
        scale.NumElements(), " and ", channels);
  }
  if (offset.NumElements() != channels) {
    return errors::InvalidArgument(
        "offset must have the same number of elements as the channels of x, got ",
        offset.NumElements(), " and ", channels);
  }
  if (!attrs.is_training || attrs.exponential_avg_factor != 1.0f) {
    const char* prefix =
        attrs.is_training ? "When exponential_avg_factor != 1" : "When is_training=false";
    if (mean.NumElements() != channels) {
      return errors::InvalidArgument(prefix,
                                     ", mean must have the same number of elements as the "
                                     "channels of x, got ",
                                     mean.NumElements(), " and ", channels);
    }
    if (variance.NumElements() != channels) {
      return errors::InvalidArgument(prefix,
                                     ", variance must have the same number of elements as the "
                                     "channels of x, got ",
                                     variance.NumElements(), " and ", channels);
    }
  }
  layout->channels = channels;
  if (x.NumElements() == 0) {
    layout->outer = 0;
    layout->inner = 0;
  } else if (attrs.channels_last) {
    layout->outer = x.NumElements() / channels;
    layout->inner = 1;
  } else {
    layout->outer = x.dim_size(0);
    layout->inner = x.NumElements() / (layout->outer * channels);
  }
  return absl::OkStatus();
}

// reserve_space_3's shape (FusedBatchNormV3), as TensorFlow's CPU kernels give it: [0] where
// its oneDNN kernel runs (4-D float and bfloat16), a scalar where its Eigen kernel does (half,
// and 5-D data). It carries nothing.
inline TensorShape ReserveSpace3Shape(const Tensor& x) {
  const bool onednn = x.dims() == 4 && (x.dtype() == DT_FLOAT || x.dtype() == DT_BFLOAT16);
  return onednn ? TensorShape({0}) : TensorShape({});
}

}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_NN_BATCH_NORM_ARGS_H_
