// TensorFlow's CTC (Connectionist Temporal Classification) ops, which speech and OCR models use
// to train on unsegmented label sequences and to decode their per-frame logits: CTCLoss (the
// negative log-likelihood of each label sequence and its gradient w.r.t. the logits),
// CTCLossV2 (its float form whose only kernel in TensorFlow is cuDNN's), CTCGreedyDecoder and
// CTCBeamSearchDecoder. Logits are time-major [max_time, batch, num_classes]; the kernels are
// in kernels/cpu/ctc/.
#include "graph/core/errors.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"

namespace sluice {
namespace {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

// The loss is a [batch] vector and the gradient has the logits' shape, their batch dim merged
// with the sequence lengths'.
absl::Status CtcLossShape(InferenceContext* c) {
  ShapeHandle inputs;
  ShapeHandle labels_indices;
  ShapeHandle labels_values;
  ShapeHandle sequence_length;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 3, &inputs));
  RETURN_IF_ERROR(c->WithRank(c->input(1), 2, &labels_indices));
  RETURN_IF_ERROR(c->WithRank(c->input(2), 1, &labels_values));
  RETURN_IF_ERROR(c->WithRank(c->input(3), 1, &sequence_length));
  DimensionHandle unused;
  RETURN_IF_ERROR(c->Merge(c->Dim(labels_indices, 0), c->Dim(labels_values, 0), &unused));
  DimensionHandle batch_size;
  RETURN_IF_ERROR(c->Merge(c->Dim(inputs, 1), c->Dim(sequence_length, 0), &batch_size));
  RETURN_IF_ERROR(c->ReplaceDim(inputs, 1, batch_size, &inputs));
  c->set_output(0, c->Vector(batch_size));
  c->set_output(1, inputs);
  return absl::OkStatus();
}

// The batch size both decoders check: the logits' dim 1 merged with the lengths' dim 0.
absl::Status DecoderBatchSize(InferenceContext* c, DimensionHandle* batch_size) {
  ShapeHandle inputs;
  ShapeHandle sequence_length;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 3, &inputs));
  RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &sequence_length));
  return c->Merge(c->Dim(inputs, 1), c->Dim(sequence_length, 0), batch_size);
}

// One SparseTensor of decoded labels ([n, 2] indices, [n] values, [2] shape), then the
// [batch, 1] scores.
absl::Status GreedyDecoderShape(InferenceContext* c) {
  DimensionHandle batch_size;
  RETURN_IF_ERROR(DecoderBatchSize(c, &batch_size));
  DimensionHandle total_decoded = c->UnknownDim();
  c->set_output(0, c->Matrix(total_decoded, 2));
  c->set_output(1, c->Vector(total_decoded));
  c->set_output(2, c->Vector(2));
  c->set_output(3, c->Matrix(batch_size, 1));
  return absl::OkStatus();
}

// top_paths SparseTensors, as three lists (all indices, all values, all shapes), then the
// [batch, top_paths] scores.
absl::Status BeamSearchDecoderShape(InferenceContext* c) {
  DimensionHandle batch_size;
  RETURN_IF_ERROR(DecoderBatchSize(c, &batch_size));
  int64_t top_paths = 0;
  RETURN_IF_ERROR(c->GetAttr("top_paths", &top_paths));
  int out = 0;
  for (int64_t i = 0; i < top_paths; ++i) {
    c->set_output(out++, c->Matrix(InferenceContext::kUnknownDim, 2));
  }
  for (int64_t i = 0; i < top_paths; ++i) {
    c->set_output(out++, c->Vector(InferenceContext::kUnknownDim));
  }
  for (int64_t i = 0; i < top_paths; ++i) c->set_output(out++, c->Vector(2));
  c->set_output(out, c->Matrix(batch_size, top_paths));
  return absl::OkStatus();
}

REGISTER_OP("CTCLoss")
    .Input("inputs: T")
    .Input("labels_indices: int64")
    .Input("labels_values: int32")
    .Input("sequence_length: int32")
    .Attr("preprocess_collapse_repeated: bool = false")
    .Attr("ctc_merge_repeated: bool = true")
    .Attr("ignore_longer_outputs_than_inputs: bool = false")
    .Output("loss: T")
    .Output("gradient: T")
    .Attr("T: {float, double} = DT_FLOAT")
    .SetShapeFn(CtcLossShape);

REGISTER_OP("CTCLossV2")
    .Input("inputs: float")
    .Input("labels_indices: int64")
    .Input("labels_values: int32")
    .Input("sequence_length: int32")
    .Attr("preprocess_collapse_repeated: bool = false")
    .Attr("ctc_merge_repeated: bool = true")
    .Attr("ignore_longer_outputs_than_inputs: bool = false")
    .Output("loss: float")
    .Output("gradient: float")
    .SetShapeFn(CtcLossShape);

REGISTER_OP("CTCGreedyDecoder")
    .Input("inputs: T")
    .Input("sequence_length: int32")
    .Attr("merge_repeated: bool = false")
    .Attr("blank_index: int = -1")
    .Output("decoded_indices: int64")
    .Output("decoded_values: int64")
    .Output("decoded_shape: int64")
    .Output("log_probability: T")
    .Attr("T: {float, double} = DT_FLOAT")
    .SetShapeFn(GreedyDecoderShape);

REGISTER_OP("CTCBeamSearchDecoder")
    .Input("inputs: T")
    .Input("sequence_length: int32")
    .Attr("beam_width: int >= 1")
    .Attr("top_paths: int >= 1")
    .Attr("merge_repeated: bool = true")
    .Output("decoded_indices: top_paths * int64")
    .Output("decoded_values: top_paths * int64")
    .Output("decoded_shape: top_paths * int64")
    .Output("log_probability: T")
    .Attr("T: {float, double} = DT_FLOAT")
    .SetShapeFn(BeamSearchDecoderShape);

}  // namespace
}  // namespace sluice
