// Gradient functions of the 3-D convolution and pooling ops (Keras's Conv3D, MaxPooling3D and
// AveragePooling3D layers), as TensorFlow defines them: the forward op's attrs carry over to
// its backprop ops.
#include <string>
#include <vector>

#include "cc_api/grad_op_registry.h"
#include "cc_api/gradients.h"
#include "cc_api/standard_ops.h"
#include "graph/core/errors.h"
#include "graph/op/node_def_util.h"

namespace sluice {
namespace gradients {
namespace {

using GradList = std::vector<Output>;

absl::Status Conv3DGrad(const Scope& scope, const Operation& op, const GradList& grads,
                        GradList* out) {
  const AttrSlice a = op.node()->attrs();
  std::vector<int32_t> strides, dilations;
  std::string padding, data_format;
  RETURN_IF_ERROR(GetNodeAttr(a, "strides", &strides));
  RETURN_IF_ERROR(GetNodeAttr(a, "dilations", &dilations));
  RETURN_IF_ERROR(GetNodeAttr(a, "padding", &padding));
  RETURN_IF_ERROR(GetNodeAttr(a, "data_format", &data_format));
  const Output x = op.input(0), filter = op.input(1), dy = grads[0];
  const ops::ShapeN shapes(scope, {x, filter});
  out->push_back(ops::Conv3DBackpropInputV2(
      scope, shapes.output[0], filter, dy, strides, padding,
      ops::Conv3DBackpropInputV2::DataFormat(data_format).Dilations(dilations)));
  out->push_back(ops::Conv3DBackpropFilterV2(
      scope, x, shapes.output[1], dy, strides, padding,
      ops::Conv3DBackpropFilterV2::DataFormat(data_format).Dilations(dilations)));
  return scope.status();
}
REGISTER_GRADIENT_OP("Conv3D", Conv3DGrad);

// The window attrs both 3-D pools pass on to their gradients.
struct Pool3DAttrs {
  std::vector<int32_t> ksize;
  std::vector<int32_t> strides;
  std::string padding;
  std::string data_format;
};

absl::Status ReadPool3DAttrs(const Operation& op, Pool3DAttrs* p) {
  const AttrSlice a = op.node()->attrs();
  RETURN_IF_ERROR(GetNodeAttr(a, "ksize", &p->ksize));
  RETURN_IF_ERROR(GetNodeAttr(a, "strides", &p->strides));
  RETURN_IF_ERROR(GetNodeAttr(a, "padding", &p->padding));
  return GetNodeAttr(a, "data_format", &p->data_format);
}

absl::Status MaxPool3DGrad(const Scope& scope, const Operation& op, const GradList& grads,
                           GradList* out) {
  Pool3DAttrs p;
  RETURN_IF_ERROR(ReadPool3DAttrs(op, &p));
  out->push_back(ops::MaxPool3DGrad(scope, op.input(0), op.output(0), grads[0], p.ksize, p.strides,
                                    p.padding, ops::MaxPool3DGrad::DataFormat(p.data_format)));
  return scope.status();
}
REGISTER_GRADIENT_OP("MaxPool3D", MaxPool3DGrad);

absl::Status AvgPool3DGrad(const Scope& scope, const Operation& op, const GradList& grads,
                           GradList* out) {
  Pool3DAttrs p;
  RETURN_IF_ERROR(ReadPool3DAttrs(op, &p));
  out->push_back(ops::AvgPool3DGrad(scope, ops::Shape(scope, op.input(0)), grads[0], p.ksize,
                                    p.strides, p.padding,
                                    ops::AvgPool3DGrad::DataFormat(p.data_format)));
  return scope.status();
}
REGISTER_GRADIENT_OP("AvgPool3D", AvgPool3DGrad);

}  // namespace
}  // namespace gradients
}  // namespace sluice
