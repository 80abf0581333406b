// Neural-network ops other than convolution and pooling: bias addition, batch
// normalization, activations, softmax, local response normalization and top-k.
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/tensor.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"

namespace sluice {
namespace {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;
using shape_inference::UnchangedShape;

constexpr char kFloatTypes[] = "T: {half, bfloat16, float, double}";

absl::Status SoftmaxShape(InferenceContext* c) {
  return shape_inference::UnchangedShapeWithRankAtLeast(c, 1);
}

absl::Status LrnShape(InferenceContext* c) { return shape_inference::UnchangedShapeWithRank(c, 4); }

// LRNGrad: the incoming gradient, LRN's input and LRN's output, all one 4-D shape.
absl::Status LrnGradShape(InferenceContext* c) {
  ShapeHandle s;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 4, &s));
  RETURN_IF_ERROR(c->Merge(s, c->input(1), &s));
  RETURN_IF_ERROR(c->Merge(s, c->input(2), &s));
  c->set_output(0, s);
  return absl::OkStatus();
}

// Both outputs are the input's shape with the last dim replaced by k; k may not exceed
// that dim when both are known.
absl::Status TopKOutputShape(InferenceContext* c, DimensionHandle k) {
  ShapeHandle input;
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(0), 1, &input));
  DimensionHandle last = c->Dim(input, -1);
  if (c->ValueKnown(last) && c->ValueKnown(k) && c->Value(last) < c->Value(k)) {
    return errors::InvalidArgument("input must have last dimension >= k = ", c->Value(k),
                                   " but is ", c->Value(last));
  }
  ShapeHandle out;
  RETURN_IF_ERROR(c->Subshape(input, 0, -1, &out));
  RETURN_IF_ERROR(c->Concatenate(out, c->Vector(k), &out));
  c->set_output(0, out);
  c->set_output(1, out);
  return absl::OkStatus();
}

// TopKV2: k is input 1, known when constant.
absl::Status TopKV2Shape(InferenceContext* c) {
  ShapeHandle input;
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(0), 1, &input));
  // k may be int16, which InferenceContext::MakeDimForScalarInput does not read.
  DimensionHandle k = c->UnknownDim();
  if (const Tensor* k_t = c->input_tensor(1)) {
    int64_t value;
    RETURN_IF_ERROR(IntegerTensorScalar(*k_t, &value));
    if (value < 0) {
      return errors::InvalidArgument(
          "Dimension size, given by scalar input 1, must be non-negative but is ", value);
    }
    k = c->MakeDim(value);
  }
  return TopKOutputShape(c, k);
}

// TopK: k is an attr.
absl::Status TopKShape(InferenceContext* c) {
  int64_t k = 0;
  RETURN_IF_ERROR(c->GetAttr("k", &k));
  return TopKOutputShape(c, c->MakeDim(k));
}

}  // namespace

REGISTER_OP("BiasAdd")
    .Attr("T: numbertype")
    .Input("value: T")
    .Input("bias: T")
    .Attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
    .Output("output: T")
    .SetShapeFn(shape_inference::BiasAddShape);

// The first BiasAdd: the bias always runs along the last dim (no data_format attr).
REGISTER_OP("BiasAddV1")
    .Input("value: T")
    .Input("bias: T")
    .Output("output: T")
    .Attr("T: numbertype")
    .SetShapeFn(shape_inference::BiasAddShape);

// Ints that name dims, or vectors indexed by dims, of one layout mapped to another
// (TensorFlow's layout optimizer puts them where it converts NHWC to NCHW).
REGISTER_OP("DataFormatDimMap")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {int32, int64} = DT_INT32")
    .Attr("src_format: string = 'NHWC'")
    .Attr("dst_format: string = 'NCHW'")
    .SetShapeFn(UnchangedShape);

REGISTER_OP("DataFormatVecPermute")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {int32, int64} = DT_INT32")
    .Attr("src_format: string = 'NHWC'")
    .Attr("dst_format: string = 'NCHW'")
    .SetShapeFn(UnchangedShape);

// ---- Batch normalization -------------------------------------------------------------

// reserve_space_* carry the batch statistics from the forward to the backward op.
REGISTER_OP("FusedBatchNorm")
    .Input("x: T")
    .Input("scale: T")
    .Input("offset: T")
    .Input("mean: T")
    .Input("variance: T")
    .Output("y: T")
    .Output("batch_mean: T")
    .Output("batch_variance: T")
    .Output("reserve_space_1: T")
    .Output("reserve_space_2: T")
    .Attr("T: {float}")
    .Attr("epsilon: float = 0.0001")
    .Attr("exponential_avg_factor: float = 1.0")
    .Attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
    .Attr("is_training: bool = true")
    .SetShapeFn(shape_inference::FusedBatchNormShape);

// V2 separates the data type T (half, bfloat16 or float) from the statistics' type U.
REGISTER_OP("FusedBatchNormV2")
    .Input("x: T")
    .Input("scale: U")
    .Input("offset: U")
    .Input("mean: U")
    .Input("variance: U")
    .Output("y: T")
    .Output("batch_mean: U")
    .Output("batch_variance: U")
    .Output("reserve_space_1: U")
    .Output("reserve_space_2: U")
    .Attr("T: {half, bfloat16, float}")
    .Attr("U: {float}")
    .Attr("epsilon: float = 0.0001")
    .Attr("exponential_avg_factor: float = 1.0")
    .Attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
    .Attr("is_training: bool = true")
    .SetShapeFn(shape_inference::FusedBatchNormShape);

// V3 separates the data type T from the statistics' type U and accepts 5-D data.
REGISTER_OP("FusedBatchNormV3")
    .Input("x: T")
    .Input("scale: U")
    .Input("offset: U")
    .Input("mean: U")
    .Input("variance: U")
    .Output("y: T")
    .Output("batch_mean: U")
    .Output("batch_variance: U")
    .Output("reserve_space_1: U")
    .Output("reserve_space_2: U")
    .Output("reserve_space_3: U")
    .Attr("T: {half, bfloat16, float}")
    .Attr("U: {bfloat16, float}")
    .Attr("epsilon: float = 0.0001")
    .Attr("exponential_avg_factor: float = 1.0")
    .Attr("data_format: {'NHWC', 'NCHW', 'NDHWC', 'NCDHW'} = 'NHWC'")
    .Attr("is_training: bool = true")
    .SetShapeFn(shape_inference::FusedBatchNormV3Shape);

// ---- Activations ---------------------------------------------------------------------

REGISTER_OP("Relu")
    .Input("features: T")
    .Output("activations: T")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, "
        "uint32, uint64, qint8}")
    .SetShapeFn(UnchangedShape);

REGISTER_OP("Relu6")
    .Input("features: T")
    .Output("activations: T")
    .Attr("T: realnumbertype")
    .SetShapeFn(UnchangedShape);

REGISTER_OP("Elu")
    .Input("features: T")
    .Output("activations: T")
    .Attr(kFloatTypes)
    .SetShapeFn(UnchangedShape);

REGISTER_OP("Selu")
    .Input("features: T")
    .Output("activations: T")
    .Attr(kFloatTypes)
    .SetShapeFn(UnchangedShape);

REGISTER_OP("LeakyRelu")
    .Input("features: T")
    .Output("activations: T")
    .Attr("alpha: float = 0.2")
    .Attr("T: {half, bfloat16, float, double} = DT_FLOAT")
    .SetShapeFn(UnchangedShape);

REGISTER_OP("Softplus")
    .Input("features: T")
    .Output("activations: T")
    .Attr(kFloatTypes)
    .SetShapeFn(UnchangedShape);

REGISTER_OP("Softsign")
    .Input("features: T")
    .Output("activations: T")
    .Attr(kFloatTypes)
    .SetShapeFn(UnchangedShape);

// ---- Normalization over the last axis or across channels -----------------------------

REGISTER_OP("Softmax")
    .Input("logits: T")
    .Output("softmax: T")
    .Attr(kFloatTypes)
    .SetShapeFn(SoftmaxShape);

REGISTER_OP("LogSoftmax")
    .Input("logits: T")
    .Output("logsoftmax: T")
    .Attr(kFloatTypes)
    .SetShapeFn(SoftmaxShape);

REGISTER_OP("LRN")
    .Input("input: T")
    .Output("output: T")
    .Attr("depth_radius: int = 5")
    .Attr("bias: float = 1.0")
    .Attr("alpha: float = 1.0")
    .Attr("beta: float = 0.5")
    .Attr("T: {half, bfloat16, float} = DT_FLOAT")
    .SetShapeFn(LrnShape);

REGISTER_OP("LRNGrad")
    .Input("input_grads: T")
    .Input("input_image: T")
    .Input("output_image: T")
    .Output("output: T")
    .Attr("depth_radius: int = 5")
    .Attr("bias: float = 1.0")
    .Attr("alpha: float = 1.0")
    .Attr("beta: float = 0.5")
    .Attr("T: {half, bfloat16, float} = DT_FLOAT")
    .SetShapeFn(LrnGradShape);

// ---- Top-k ---------------------------------------------------------------------------

REGISTER_OP("TopKV2")
    .Input("input: T")
    .Input("k: Tk")
    .Output("values: T")
    .Output("indices: index_type")
    .Attr("sorted: bool = true")
    .Attr("T: realnumbertype")
    .Attr("Tk: {int16, int32, int64} = DT_INT32")
    .Attr("index_type: {int16, int32, int64} = DT_INT32")
    .SetShapeFn(TopKV2Shape);

// The first TopK: k is an attr, the indices int32 (deprecated at GraphDef version 7 for
// TopKV2, which graphs of TensorFlow 1.x still hold).
REGISTER_OP("TopK")
    .Input("input: T")
    .Output("values: T")
    .Output("indices: int32")
    .Attr("k: int >= 0")
    .Attr("sorted: bool = true")
    .Attr("T: realnumbertype")
    .Deprecated(7, "Use TopKV2 instead")
    .SetShapeFn(TopKShape);

}  // namespace sluice
