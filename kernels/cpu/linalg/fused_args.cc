// Parsing fused_ops, checking the extra arguments, and the activations as oneDNN post-ops.
#include "kernels/cpu/linalg/fused_args.h"

#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "graph/core/errors.h"
#include "graph/core/types.h"

namespace sluice {
namespace {

bool ParseActivation(const std::string& name, FusedContraction kind, bool allow_gelu,
                     FusedActivation* act) {
  static constexpr struct {
    const char* name;
    FusedActivation act;
  } kConv[] = {{"Relu", FusedActivation::kRelu},
               {"Relu6", FusedActivation::kRelu6},
               {"Elu", FusedActivation::kElu},
               {"LeakyRelu", FusedActivation::kLeakyRelu},
               {"_FusedSwish", FusedActivation::kSwish}},
    kMatMulOnly[] = {{"Tanh", FusedActivation::kTanh},
                     {"Sigmoid", FusedActivation::kSigmoid},
                     {"GeluApproximate", FusedActivation::kGeluApproximate},
                     {"GeluExact", FusedActivation::kGeluExact}};
  for (const auto& a : kConv) {
    if (name == a.name) {
      *act = a.act;
      return true;
    }
  }
  if (kind != FusedContraction::kMatMul) return false;
  for (const auto& a : kMatMulOnly) {
    if (name == a.name) {
      *act = a.act;
      const bool gelu =
          a.act == FusedActivation::kGeluApproximate || a.act == FusedActivation::kGeluExact;
      return allow_gelu || !gelu;
    }
  }
  return false;
}

const char* Label(FusedContraction kind) {
  switch (kind) {
    case FusedContraction::kConv2D:
      return "Conv2D";
    case FusedContraction::kDepthwiseConv2D:
      return "DepthwiseConv2D";
    case FusedContraction::kMatMul:
      return "MatMul";
  }
  return "";
}

// `what` names the argument, `values` its elements in the count message. Kernels read the
// argument as elements of the output's type, `dtype`.
absl::Status CheckVector(const Tensor& t, const char* what, const char* values, int64_t channels,
                         DataType dtype) {
  if (t.dtype() != dtype) {
    return errors::InvalidArgument(what, " must be ", DataTypeString(dtype), ", got ",
                                   DataTypeString(t.dtype()));
  }
  if (t.dims() != 1) {
    return errors::InvalidArgument(what, " must be 1-dimensional", t.shape().DebugString());
  }
  if (t.dim_size(0) != channels) {
    // TensorFlow's oneDNN kernels' message, naming the argument.
    return errors::InvalidArgument("Must provide as many ", values,
                                   " as the channel size: ", t.shape().DebugString(), " vs. ",
                                   channels);
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ParseFusion(OpKernelConstruction* ctx, FusedContraction kind, bool allow_gelu,
                         FusionSpec* spec) {
  std::vector<std::string> fused_ops;
  RETURN_IF_ERROR(ctx->GetAttr("fused_ops", &fused_ops));
  int num_args = 0;
  RETURN_IF_ERROR(ctx->GetAttr("num_args", &num_args));
  RETURN_IF_ERROR(ctx->GetAttr("leakyrelu_alpha", &spec->leakyrelu_alpha));
  if (fused_ops.empty()) {
    return errors::InvalidArgument("Fused ", Label(kind), " must have at least one fused op.");
  }
  const bool batch_norm = fused_ops[0] == "FusedBatchNorm";
  const bool add = kind == FusedContraction::kConv2D && fused_ops[0] == "BiasAdd" &&
                   fused_ops.size() >= 2 && fused_ops[1] == "Add";
  const size_t activation_at = add ? 2 : 1;
  bool known = fused_ops.size() <= activation_at + 1 &&
               (fused_ops[0] == "BiasAdd" || (batch_norm && kind == FusedContraction::kConv2D));
  if (known && fused_ops.size() == activation_at + 1) {
    known = ParseActivation(fused_ops[activation_at], kind, allow_gelu, &spec->activation) &&
            !(add && spec->activation == FusedActivation::kSwish);
  }
  if (!known) {
    return errors::Unimplemented("Fusion is not implemented: [", absl::StrJoin(fused_ops, ","),
                                 "]");
  }
  spec->batch_norm = batch_norm;
  if (batch_norm) {
    if (num_args != 4) {
      return errors::InvalidArgument(
          "Fused FusedBatchNorm must have four extra arguments: scale, offset, mean, "
          "variance.");
    }
    return ctx->GetAttr("epsilon", &spec->epsilon);
  }
  spec->add = add;
  if (add) {
    if (num_args != 2) {
      return errors::InvalidArgument("Fused ", Label(kind),
                                     " with Add must have two extra arguments: bias and add.");
    }
    return absl::OkStatus();
  }
  if (num_args != 1) {
    return errors::InvalidArgument("Fused ", Label(kind), " must have one extra argument: bias.");
  }
  return absl::OkStatus();
}

absl::Status ParseFusedConvolution(OpKernelConstruction* ctx, bool depthwise,
                                   absl::string_view device, FusionSpec* spec) {
  if (!depthwise) {
    std::string filter_format;
    RETURN_IF_ERROR(ctx->GetAttr("filter_format", &filter_format));
    if (filter_format != "HWIO") {
      return errors::Unimplemented("_FusedConv2D on ", device,
                                   " supports only the HWIO filter format, got ", filter_format);
    }
  }
  return ParseFusion(ctx,
                     depthwise ? FusedContraction::kDepthwiseConv2D : FusedContraction::kConv2D,
                     /*allow_gelu=*/false, spec);
}

absl::Status CheckFusionAddend(OpKernelContext* ctx, const TensorShape& shape) {
  const Tensor& addend = ctx->input(kAddendInput);
  if (addend.dtype() != ctx->expected_output_dtype(0)) {
    return errors::InvalidArgument("The addend of a fused Add must be ",
                                   DataTypeString(ctx->expected_output_dtype(0)), ", got ",
                                   DataTypeString(addend.dtype()));
  }
  if (addend.shape() != shape) {
    return errors::InvalidArgument("The addend of a fused Add must have the output's shape ",
                                   shape.DebugString(), ", got ", addend.shape().DebugString());
  }
  return absl::OkStatus();
}

absl::Status CheckFusionArgs(OpKernelContext* ctx, const FusionSpec& spec, int64_t channels) {
  const DataType dtype = ctx->expected_output_dtype(0);
  if (!spec.batch_norm) return CheckVector(ctx->input(2), "bias", "biases", channels, dtype);
  RETURN_IF_ERROR(CheckVector(ctx->input(2), "scale", "scales", channels, dtype));
  RETURN_IF_ERROR(CheckVector(ctx->input(3), "offset", "offsets", channels, dtype));
  RETURN_IF_ERROR(CheckVector(ctx->input(4), "estimated_mean", "means", channels, dtype));
  return CheckVector(ctx->input(5), "estimated_variance", "variances", channels, dtype);
}

Eltwise ActivationEltwise(const FusionSpec& spec) {
  using dnnl::algorithm;
  switch (spec.activation) {
    case FusedActivation::kNone:
      return {};
    case FusedActivation::kRelu:
      return {algorithm::eltwise_relu, 0.0f, 0.0f};
    case FusedActivation::kRelu6:
      return {algorithm::eltwise_clip, 0.0f, 6.0f};
    case FusedActivation::kElu:
      return {algorithm::eltwise_elu, 1.0f, 0.0f};
    case FusedActivation::kLeakyRelu:
      return {algorithm::eltwise_relu, spec.leakyrelu_alpha, 0.0f};
    case FusedActivation::kSwish:
      return {algorithm::eltwise_swish, 1.0f, 0.0f};  // x * sigmoid(alpha * x)
    case FusedActivation::kTanh:
      return {algorithm::eltwise_tanh, 0.0f, 0.0f};
    case FusedActivation::kSigmoid:
      return {algorithm::eltwise_logistic, 0.0f, 0.0f};
    case FusedActivation::kGeluApproximate:
      return {algorithm::eltwise_gelu_tanh, 0.0f, 0.0f};
    case FusedActivation::kGeluExact:
      return {algorithm::eltwise_gelu_erf, 0.0f, 0.0f};
  }
  return {};
}

}  // namespace sluice
