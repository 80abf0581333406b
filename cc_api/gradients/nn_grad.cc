// Gradient functions of the neural-network ops: activations, softmax and its losses, bias,
// convolutions, pooling and fused batch normalization.
#include <string>
#include <vector>

#include "cc_api/const_op.h"
#include "cc_api/grad_op_registry.h"
#include "cc_api/gradients.h"
#include "cc_api/gradients/grad_helpers.h"
#include "cc_api/standard_ops.h"
#include "graph/core/errors.h"
#include "graph/op/node_def_util.h"

namespace sluice {
namespace gradients {
namespace {

using GradList = std::vector<Output>;

absl::Status ReluGrad(const Scope& scope, const Operation& op, const GradList& grads,
                      GradList* out) {
  out->push_back(ops::internal::ReluGrad(scope, grads[0], op.input(0)));
  return scope.status();
}
REGISTER_GRADIENT_OP("Relu", ReluGrad);

absl::Status Relu6Grad(const Scope& scope, const Operation& op, const GradList& grads,
                       GradList* out) {
  out->push_back(ops::internal::Relu6Grad(scope, grads[0], op.input(0)));
  return scope.status();
}
REGISTER_GRADIENT_OP("Relu6", Relu6Grad);

// Elu and Selu differentiate through their outputs.
absl::Status EluGrad(const Scope& scope, const Operation& op, const GradList& grads,
                     GradList* out) {
  out->push_back(ops::internal::EluGrad(scope, grads[0], op.output(0)));
  return scope.status();
}
REGISTER_GRADIENT_OP("Elu", EluGrad);

absl::Status SeluGrad(const Scope& scope, const Operation& op, const GradList& grads,
                      GradList* out) {
  out->push_back(ops::internal::SeluGrad(scope, grads[0], op.output(0)));
  return scope.status();
}
REGISTER_GRADIENT_OP("Selu", SeluGrad);

absl::Status LeakyReluGrad(const Scope& scope, const Operation& op, const GradList& grads,
                           GradList* out) {
  float alpha = 0.2f;
  RETURN_IF_ERROR(GetNodeAttr(op.node()->attrs(), "alpha", &alpha));
  out->push_back(ops::internal::LeakyReluGrad(scope, grads[0], op.input(0),
                                              ops::internal::LeakyReluGrad::Alpha(alpha)));
  return scope.status();
}
REGISTER_GRADIENT_OP("LeakyRelu", LeakyReluGrad);

// LeakyReluGrad(dy, x) is linear in dy with the same slopes; x (where the slope changes)
// gets none.
absl::Status LeakyReluGradGrad(const Scope& scope, const Operation& op, const GradList& grads,
                               GradList* out) {
  float alpha = 0.2f;
  RETURN_IF_ERROR(GetNodeAttr(op.node()->attrs(), "alpha", &alpha));
  out->push_back(ops::internal::LeakyReluGrad(scope, grads[0], op.input(1),
                                              ops::internal::LeakyReluGrad::Alpha(alpha)));
  out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("LeakyReluGrad", LeakyReluGradGrad);

absl::Status SoftplusGrad(const Scope& scope, const Operation& op, const GradList& grads,
                          GradList* out) {
  out->push_back(ops::internal::SoftplusGrad(scope, grads[0], op.input(0)));
  return scope.status();
}
REGISTER_GRADIENT_OP("Softplus", SoftplusGrad);

absl::Status SoftsignGrad(const Scope& scope, const Operation& op, const GradList& grads,
                          GradList* out) {
  out->push_back(ops::internal::SoftsignGrad(scope, grads[0], op.input(0)));
  return scope.status();
}
REGISTER_GRADIENT_OP("Softsign", SoftsignGrad);

// Softmax y: dx = (dy - sum(dy * y, last axis)) * y.
absl::Status SoftmaxGrad(const Scope& scope, const Operation& op, const GradList& grads,
                         GradList* out) {
  const Output y = op.output(0), dy = grads[0];
  auto dot = ops::Sum(scope, ops::Mul(scope, dy, y), {-1}, ops::Sum::KeepDims(true));
  out->push_back(ops::Mul(scope, ops::Sub(scope, dy, dot), y));
  return scope.status();
}
REGISTER_GRADIENT_OP("Softmax", SoftmaxGrad);

// LogSoftmax y: dx = dy - exp(y) * sum(dy, last axis).
absl::Status LogSoftmaxGrad(const Scope& scope, const Operation& op, const GradList& grads,
                            GradList* out) {
  const Output dy = grads[0];
  auto total = ops::Sum(scope, dy, {-1}, ops::Sum::KeepDims(true));
  out->push_back(ops::Sub(scope, dy, ops::Mul(scope, ops::Exp(scope, op.output(0)), total)));
  return scope.status();
}
REGISTER_GRADIENT_OP("LogSoftmax", LogSoftmaxGrad);

// A ZerosLike the gradient builder put in for an output nothing differentiated: the second-
// order terms it would feed are zero.
bool IsZerosLike(const Output& grad) {
  return grad.node() != nullptr && grad.node()->type_string() == "ZerosLike";
}

// Outputs (loss [batch], backprop [batch, classes]). The loss's gradient scales the backprop
// row; the labels' gradient is -log_softmax(logits) scaled the same way. A gradient flowing
// into `backprop` itself adds its second-order term (through the softmax).
absl::Status SoftmaxCrossEntropyWithLogitsGrad(const Scope& scope, const Operation& op,
                                               const GradList& grads, GradList* out) {
  const Output logits = op.input(0);
  auto dloss = ops::ExpandDims(scope, grads[0], -1);
  Output dlogits = ops::Mul(scope, dloss, op.output(1));
  const Output dbackprop = grads[1];
  if (!IsZerosLike(dbackprop)) {
    auto softmax = ops::Softmax(scope, logits);
    auto projected = ops::Squeeze(scope,
                                  ops::BatchMatMulV2(scope, ops::ExpandDims(scope, dbackprop, 1),
                                                     ops::ExpandDims(scope, softmax, 2)),
                                  ops::Squeeze::Axis({1}));
    dlogits =
        ops::Add(scope, dlogits, ops::Mul(scope, ops::Sub(scope, dbackprop, projected), softmax));
  }
  out->push_back(dlogits);
  out->push_back(ops::Mul(scope, dloss, ops::Neg(scope, ops::LogSoftmax(scope, logits))));
  return scope.status();
}
REGISTER_GRADIENT_OP("SoftmaxCrossEntropyWithLogits", SoftmaxCrossEntropyWithLogitsGrad);

absl::Status SparseSoftmaxCrossEntropyWithLogitsGrad(const Scope& scope, const Operation& op,
                                                     const GradList& grads, GradList* out) {
  auto dloss = ops::ExpandDims(scope, grads[0], -1);
  out->push_back(ops::Mul(scope, dloss, op.output(1)));
  out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("SparseSoftmaxCrossEntropyWithLogits",
                     SparseSoftmaxCrossEntropyWithLogitsGrad);

absl::Status L2LossGrad(const Scope& scope, const Operation& op, const GradList& grads,
                        GradList* out) {
  out->push_back(ops::Mul(scope, op.input(0), grads[0]));
  return scope.status();
}
REGISTER_GRADIENT_OP("L2Loss", L2LossGrad);

absl::Status BiasAddGrad(const Scope& scope, const Operation& op, const GradList& grads,
                         GradList* out) {
  std::string data_format = "NHWC";
  RETURN_IF_ERROR(GetNodeAttr(op.node()->attrs(), "data_format", &data_format));
  out->push_back(ops::Identity(scope, grads[0]));
  out->push_back(ops::BiasAddGrad(scope, grads[0], ops::BiasAddGrad::DataFormat(data_format)));
  return scope.status();
}
REGISTER_GRADIENT_OP("BiasAdd", BiasAddGrad);

// The attrs a convolution's backprop ops take from the forward op.
struct ConvAttrs {
  std::vector<int32_t> strides;
  std::vector<int32_t> dilations;
  std::vector<int32_t> explicit_paddings;
  std::string padding;
  std::string data_format;
};

absl::Status ReadConvAttrs(const Operation& op, ConvAttrs* attrs) {
  const AttrSlice a = op.node()->attrs();
  RETURN_IF_ERROR(GetNodeAttr(a, "strides", &attrs->strides));
  RETURN_IF_ERROR(GetNodeAttr(a, "padding", &attrs->padding));
  RETURN_IF_ERROR(GetNodeAttr(a, "data_format", &attrs->data_format));
  RETURN_IF_ERROR(GetNodeAttr(a, "dilations", &attrs->dilations));
  TryGetNodeAttr(a, "explicit_paddings", &attrs->explicit_paddings);
  return absl::OkStatus();
}

absl::Status Conv2DGrad(const Scope& scope, const Operation& op, const GradList& grads,
                        GradList* out) {
  ConvAttrs c;
  RETURN_IF_ERROR(ReadConvAttrs(op, &c));
  const Output x = op.input(0), filter = op.input(1), dy = grads[0];
  out->push_back(ops::Conv2DBackpropInput(scope, ops::Shape(scope, x), filter, dy, c.strides,
                                          c.padding,
                                          ops::Conv2DBackpropInput::DataFormat(c.data_format)
                                              .Dilations(c.dilations)
                                              .ExplicitPaddings(c.explicit_paddings)));
  out->push_back(ops::Conv2DBackpropFilter(scope, x, ops::Shape(scope, filter), dy, c.strides,
                                           c.padding,
                                           ops::Conv2DBackpropFilter::DataFormat(c.data_format)
                                               .Dilations(c.dilations)
                                               .ExplicitPaddings(c.explicit_paddings)));
  return scope.status();
}
REGISTER_GRADIENT_OP("Conv2D", Conv2DGrad);

// Conv2DBackpropInput(input_sizes, filter, dy) is linear in filter and in dy: its gradient
// with respect to dy is the forward convolution, and with respect to the filter the filter
// backprop of that convolution with the roles of input and output exchanged.
absl::Status Conv2DBackpropInputGrad(const Scope& scope, const Operation& op, const GradList& grads,
                                     GradList* out) {
  ConvAttrs c;
  RETURN_IF_ERROR(ReadConvAttrs(op, &c));
  const Output filter = op.input(1), dy = op.input(2), g = grads[0];
  out->push_back(NoGradient());
  out->push_back(ops::Conv2DBackpropFilter(scope, g, ops::Shape(scope, filter), dy, c.strides,
                                           c.padding,
                                           ops::Conv2DBackpropFilter::DataFormat(c.data_format)
                                               .Dilations(c.dilations)
                                               .ExplicitPaddings(c.explicit_paddings)));
  out->push_back(ops::Conv2D(scope, g, filter, c.strides, c.padding,
                             ops::Conv2D::DataFormat(c.data_format)
                                 .Dilations(c.dilations)
                                 .ExplicitPaddings(c.explicit_paddings)));
  return scope.status();
}
REGISTER_GRADIENT_OP("Conv2DBackpropInput", Conv2DBackpropInputGrad);

absl::Status DepthwiseConv2dNativeGrad(const Scope& scope, const Operation& op,
                                       const GradList& grads, GradList* out) {
  ConvAttrs c;
  RETURN_IF_ERROR(ReadConvAttrs(op, &c));
  const Output x = op.input(0), filter = op.input(1), dy = grads[0];
  out->push_back(ops::DepthwiseConv2dNativeBackpropInput(
      scope, ops::Shape(scope, x), filter, dy, c.strides, c.padding,
      ops::DepthwiseConv2dNativeBackpropInput::DataFormat(c.data_format)
          .Dilations(c.dilations)
          .ExplicitPaddings(c.explicit_paddings)));
  out->push_back(ops::DepthwiseConv2dNativeBackpropFilter(
      scope, x, ops::Shape(scope, filter), dy, c.strides, c.padding,
      ops::DepthwiseConv2dNativeBackpropFilter::DataFormat(c.data_format)
          .Dilations(c.dilations)
          .ExplicitPaddings(c.explicit_paddings)));
  return scope.status();
}
REGISTER_GRADIENT_OP("DepthwiseConv2dNative", DepthwiseConv2dNativeGrad);

absl::Status MaxPoolGrad(const Scope& scope, const Operation& op, const GradList& grads,
                         GradList* out) {
  const AttrSlice a = op.node()->attrs();
  std::vector<int32_t> ksize, strides, explicit_paddings;
  std::string padding, data_format;
  RETURN_IF_ERROR(GetNodeAttr(a, "ksize", &ksize));
  RETURN_IF_ERROR(GetNodeAttr(a, "strides", &strides));
  RETURN_IF_ERROR(GetNodeAttr(a, "padding", &padding));
  RETURN_IF_ERROR(GetNodeAttr(a, "data_format", &data_format));
  TryGetNodeAttr(a, "explicit_paddings", &explicit_paddings);
  out->push_back(ops::internal::MaxPoolGrad(
      scope, op.input(0), op.output(0), grads[0], ksize, strides, padding,
      ops::internal::MaxPoolGrad::DataFormat(data_format).ExplicitPaddings(explicit_paddings)));
  return scope.status();
}
REGISTER_GRADIENT_OP("MaxPool", MaxPoolGrad);

absl::Status MaxPoolV2Grad(const Scope& scope, const Operation& op, const GradList& grads,
                           GradList* out) {
  const AttrSlice a = op.node()->attrs();
  std::string padding, data_format;
  RETURN_IF_ERROR(GetNodeAttr(a, "padding", &padding));
  RETURN_IF_ERROR(GetNodeAttr(a, "data_format", &data_format));
  out->push_back(ops::MaxPoolGradV2(scope, op.input(0), op.output(0), grads[0], op.input(1),
                                    op.input(2), padding,
                                    ops::MaxPoolGradV2::DataFormat(data_format)));
  out->push_back(NoGradient());
  out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("MaxPoolV2", MaxPoolV2Grad);

absl::Status AvgPoolGrad(const Scope& scope, const Operation& op, const GradList& grads,
                         GradList* out) {
  const AttrSlice a = op.node()->attrs();
  std::vector<int32_t> ksize, strides;
  std::string padding, data_format;
  RETURN_IF_ERROR(GetNodeAttr(a, "ksize", &ksize));
  RETURN_IF_ERROR(GetNodeAttr(a, "strides", &strides));
  RETURN_IF_ERROR(GetNodeAttr(a, "padding", &padding));
  RETURN_IF_ERROR(GetNodeAttr(a, "data_format", &data_format));
  out->push_back(ops::internal::AvgPoolGrad(scope, ops::Shape(scope, op.input(0)), grads[0], ksize,
                                            strides, padding,
                                            ops::internal::AvgPoolGrad::DataFormat(data_format)));
  return scope.status();
}
REGISTER_GRADIENT_OP("AvgPool", AvgPoolGrad);

// The fractional poolings differentiate over the windows the forward op returned (outputs 1
// and 2), which have no gradient of their own.
absl::Status FractionalMaxPoolGrad(const Scope& scope, const Operation& op, const GradList& grads,
                                   GradList* out) {
  bool overlapping = false;
  RETURN_IF_ERROR(GetNodeAttr(op.node()->attrs(), "overlapping", &overlapping));
  out->push_back(ops::internal::FractionalMaxPoolGrad(
      scope, op.input(0), op.output(0), grads[0], op.output(1), op.output(2),
      ops::internal::FractionalMaxPoolGrad::Overlapping(overlapping)));
  return scope.status();
}
REGISTER_GRADIENT_OP("FractionalMaxPool", FractionalMaxPoolGrad);

absl::Status FractionalAvgPoolGrad(const Scope& scope, const Operation& op, const GradList& grads,
                                   GradList* out) {
  bool overlapping = false;
  RETURN_IF_ERROR(GetNodeAttr(op.node()->attrs(), "overlapping", &overlapping));
  out->push_back(ops::internal::FractionalAvgPoolGrad(
      scope, ops::Shape(scope, op.input(0), ops::Shape::OutType(DT_INT64)), grads[0], op.output(1),
      op.output(2), ops::internal::FractionalAvgPoolGrad::Overlapping(overlapping)));
  return scope.status();
}
REGISTER_GRADIENT_OP("FractionalAvgPool", FractionalAvgPoolGrad);

// LRN differentiates through its input and output with the forward op's attrs (TensorFlow's
// C++ function passes LRNGrad's defaults instead, which is right only for an LRN with default
// attrs; its Python gradient, which this follows, passes them on).
absl::Status LrnGrad(const Scope& scope, const Operation& op, const GradList& grads,
                     GradList* out) {
  const AttrSlice a = op.node()->attrs();
  int64_t depth_radius = 5;
  float bias = 1.0f, alpha = 1.0f, beta = 0.5f;
  RETURN_IF_ERROR(GetNodeAttr(a, "depth_radius", &depth_radius));
  RETURN_IF_ERROR(GetNodeAttr(a, "bias", &bias));
  RETURN_IF_ERROR(GetNodeAttr(a, "alpha", &alpha));
  RETURN_IF_ERROR(GetNodeAttr(a, "beta", &beta));
  out->push_back(ops::internal::LRNGrad(
      scope, grads[0], op.input(0), op.output(0),
      ops::internal::LRNGrad::DepthRadius(depth_radius).Bias(bias).Alpha(alpha).Beta(beta)));
  return scope.status();
}
REGISTER_GRADIENT_OP("LRN", LrnGrad);

// FusedBatchNorm and V3: x, scale and offset get gradients; mean and variance (inputs 3
// and 4) none. In training the saved batch statistics (reserve spaces) are used; in inference
// the population mean and variance the op was given.
absl::Status FusedBatchNormGrad(const Scope& scope, const Operation& op, const GradList& grads,
                                GradList* out) {
  const AttrSlice a = op.node()->attrs();
  float epsilon = 1e-4f;
  std::string data_format = "NHWC";
  bool is_training = true;
  RETURN_IF_ERROR(GetNodeAttr(a, "epsilon", &epsilon));
  RETURN_IF_ERROR(GetNodeAttr(a, "data_format", &data_format));
  RETURN_IF_ERROR(GetNodeAttr(a, "is_training", &is_training));
  const Output x = op.input(0), scale = op.input(1);
  const Output saved_1 = is_training ? op.output(3) : op.input(3);
  const Output saved_2 = is_training ? op.output(4) : op.input(4);
  const std::string& type = op.node()->type_string();
  Output dx, dscale, doffset;
  if (type == "FusedBatchNormV3") {
    auto g = ops::FusedBatchNormGradV3(scope, grads[0], x, scale, saved_1, saved_2, op.output(5),
                                       ops::FusedBatchNormGradV3::Epsilon(epsilon)
                                           .DataFormat(data_format)
                                           .IsTraining(is_training));
    dx = g.x_backprop, dscale = g.scale_backprop, doffset = g.offset_backprop;
  } else {
    auto g = ops::FusedBatchNormGrad(
        scope, grads[0], x, scale, saved_1, saved_2,
        ops::FusedBatchNormGrad::Epsilon(epsilon).DataFormat(data_format).IsTraining(is_training));
    dx = g.x_backprop, dscale = g.scale_backprop, doffset = g.offset_backprop;
  }
  *out = {dx, dscale, doffset, NoGradient(), NoGradient()};
  return scope.status();
}
REGISTER_GRADIENT_OP("FusedBatchNorm", FusedBatchNormGrad);
REGISTER_GRADIENT_OP("FusedBatchNormV3", FusedBatchNormGrad);

}  // namespace
}  // namespace gradients
}  // namespace sluice
