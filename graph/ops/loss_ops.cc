// Ops of training losses and metrics: softmax cross entropy (dense and sparse labels), each
// giving the per-example loss and its gradient, and InTopK.
#include "graph/core/errors.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"

namespace sluice {
namespace {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

// loss [batch] and backprop [batch, classes]. Labels of the logits' [batch, classes] shape
// merge with them; otherwise the two broadcast, and the result must be a matrix.
absl::Status SoftmaxCrossEntropyShape(InferenceContext* c) {
  ShapeHandle input;
  if (c->WithRank(c->input(0), 2, &input).ok() && c->Merge(input, c->input(1), &input).ok()) {
    c->set_output(0, c->Vector(c->Dim(input, 0)));
    c->set_output(1, input);
    return absl::OkStatus();
  }
  RETURN_IF_ERROR(shape_inference::BroadcastBinaryOpOutputShapeFn(c, 1));
  if (!c->RankKnown(c->output(1))) {
    return errors::InvalidArgument(
        "Shape must be broadcasted with rank 2, but is rank is unknown.");
  }
  if (c->Rank(c->output(1)) != 2) {
    return errors::InvalidArgument("Shape must be broadcasted with rank 2, but is rank ",
                                   c->Rank(c->output(1)));
  }
  c->set_output(0, c->Vector(c->Dim(c->output(1), 0)));
  return absl::OkStatus();
}

// Logits [batch, classes] and one label per example: loss [batch], backprop like the logits
// with the batch dim merged from both.
absl::Status SparseSoftmaxCrossEntropyShape(InferenceContext* c) {
  ShapeHandle features;
  ShapeHandle labels;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 2, &features));
  RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &labels));
  DimensionHandle batch;
  RETURN_IF_ERROR(c->Merge(c->Dim(features, 0), c->Dim(labels, 0), &batch));
  RETURN_IF_ERROR(c->ReplaceDim(features, 0, batch, &features));
  c->set_output(0, c->Vector(batch));
  c->set_output(1, features);
  return absl::OkStatus();
}

// Predictions [batch, classes] and targets [batch] give one bool per example. InTopKV2's k
// is not checked here: TensorFlow leaves it to the kernel.
absl::Status InTopKShape(InferenceContext* c) {
  ShapeHandle predictions;
  ShapeHandle targets;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 2, &predictions));
  RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &targets));
  DimensionHandle batch;
  RETURN_IF_ERROR(c->Merge(c->Dim(predictions, 0), c->Dim(targets, 0), &batch));
  c->set_output(0, c->Vector(batch));
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("SoftmaxCrossEntropyWithLogits")
    .Input("features: T")
    .Input("labels: T")
    .Output("loss: T")
    .Output("backprop: T")
    .Attr("T: {half, bfloat16, float, double}")
    .SetShapeFn(SoftmaxCrossEntropyShape);

REGISTER_OP("SparseSoftmaxCrossEntropyWithLogits")
    .Input("features: T")
    .Input("labels: Tlabels")
    .Output("loss: T")
    .Output("backprop: T")
    .Attr("T: {half, bfloat16, float, double}")
    .Attr("Tlabels: {int32, int64} = DT_INT64")
    .SetShapeFn(SparseSoftmaxCrossEntropyShape);

REGISTER_OP("InTopK")
    .Input("predictions: float")
    .Input("targets: T")
    .Output("precision: bool")
    .Attr("k: int")
    .Attr("T: {int32, int64} = DT_INT32")
    .SetShapeFn(InTopKShape);

REGISTER_OP("InTopKV2")
    .Input("predictions: float")
    .Input("targets: T")
    .Input("k: T")
    .Output("precision: bool")
    .Attr("T: {int32, int64} = DT_INT32")
    .SetShapeFn(InTopKShape);

}  // namespace sluice
