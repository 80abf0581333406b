// The ops TensorFlow's gradient functions emit for elementwise, activation and plumbing ops
// (tf.gradients and optimizer.minimize in TF1 graphs): the activation gradients (ReluGrad ...
// SoftsignGrad), the gradients of y = f(x) written in terms of y (TanhGrad ... InvGrad), the
// reduction indices of a broadcast (BroadcastGradientArgs), the offsets of a concat's inputs
// (ConcatOffset), BiasAdd's gradient, and DynamicStitch, which the gradients of reductions
// and gathers use to build shapes and to merge partitions. Names, attrs and shape functions
// are TensorFlow's.
#include <algorithm>
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/tensor.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"

namespace sluice {
namespace {

using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

// The dtypes of Relu and Relu6 (TensorFlow's realnumbertypes, in its order).
constexpr char kRealNumberTypes[] =
    "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
    "uint64}";
constexpr char kFloatTypes[] = "T: {half, bfloat16, float, double}";
constexpr char kFloatOrComplexTypes[] = "T: {bfloat16, half, float, double, complex64, complex128}";

// Gradients of x -> f(x) given the gradient and f's input or output: both of one shape.
#define SLUICE_ACTIVATION_GRAD(name, second, types) \
  REGISTER_OP(name)                                 \
      .Input("gradients: T")                        \
      .Input(second ": T")                          \
      .Output("backprops: T")                       \
      .Attr(types)                                  \
      .SetShapeFn(shape_inference::MergeBothInputsShapeFn)

// Gradients of y = f(x) from y and dy. TensorFlow's shape function takes y's shape alone
// (its kernel only requires as many elements in dy).
#define SLUICE_OUTPUT_GRAD(name)  \
  REGISTER_OP(name)               \
      .Input("y: T")              \
      .Input("dy: T")             \
      .Output("z: T")             \
      .Attr(kFloatOrComplexTypes) \
      .SetShapeFn(shape_inference::UnchangedShape)

// r0 and r1 are vectors whose length depends on the values of s0 and s1.
absl::Status BroadcastGradientArgsShape(InferenceContext* c) {
  ShapeHandle unused;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 1, &unused));
  RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &unused));
  c->set_output(0, c->Vector(InferenceContext::kUnknownDim));
  c->set_output(1, c->Vector(InferenceContext::kUnknownDim));
  return absl::OkStatus();
}

// Each offset has the shape of the shape vector it belongs to; nothing is checked (as in
// TensorFlow: the kernel checks the values).
absl::Status ConcatOffsetShape(InferenceContext* c) {
  for (int i = 1; i < c->num_inputs(); ++i) c->set_output(i - 1, c->input(i));
  return absl::OkStatus();
}

// merged: [max index + 1] + data[i].shape[rank(indices[i]):]. The first dim is known only
// when every indices input is a known tensor. Each data[i] must start with indices[i]'s shape
// and leave the same rest; inputs of unknown indices rank are skipped, as in TensorFlow.
absl::Status DynamicStitchShape(InferenceContext* c) {
  int64_t n = 0;
  RETURN_IF_ERROR(c->GetAttr("N", &n));
  if (n < 1 || 2 * n != c->num_inputs()) {
    return errors::InvalidArgument("DynamicStitch needs N indices and N data inputs, got N = ", n,
                                   " and ", c->num_inputs(), " inputs");
  }
  bool all_indices_known = true;
  int64_t max_index = -1;
  ShapeHandle extra = c->UnknownShape();
  for (int i = 0; i < n; ++i) {
    const Tensor* indices = c->input_tensor(i);
    if (indices == nullptr) all_indices_known = false;
    const ShapeHandle indices_shape = c->input(i);
    if (!InferenceContext::RankKnown(indices_shape)) continue;
    ShapeHandle unused;
    RETURN_IF_ERROR(c->MergePrefix(c->input(n + i), indices_shape, &unused, &unused));
    ShapeHandle rest;
    RETURN_IF_ERROR(c->Subshape(c->input(n + i), InferenceContext::Rank(indices_shape), &rest));
    RETURN_IF_ERROR(c->Merge(extra, rest, &extra));
    if (indices != nullptr) {
      IntegerValues values;
      RETURN_IF_ERROR(IntegerTensorValues(*indices, &values));
      for (int64_t v : values) max_index = std::max(max_index, v);
    }
  }
  ShapeHandle out = c->Vector(all_indices_known ? c->MakeDim(max_index + 1) : c->UnknownDim());
  RETURN_IF_ERROR(c->Concatenate(out, extra, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

}  // namespace

// ---- Activation gradients --------------------------------------------------------------

SLUICE_ACTIVATION_GRAD("ReluGrad", "features", kRealNumberTypes);
SLUICE_ACTIVATION_GRAD("Relu6Grad", "features", kRealNumberTypes);
SLUICE_ACTIVATION_GRAD("EluGrad", "outputs", kFloatTypes);
SLUICE_ACTIVATION_GRAD("SeluGrad", "outputs", kFloatTypes);
SLUICE_ACTIVATION_GRAD("SoftplusGrad", "features", kFloatTypes);
SLUICE_ACTIVATION_GRAD("SoftsignGrad", "features", kFloatTypes);

REGISTER_OP("LeakyReluGrad")
    .Input("gradients: T")
    .Input("features: T")
    .Output("backprops: T")
    .Attr("alpha: float = 0.2")
    .Attr("T: {half, bfloat16, float, double} = DT_FLOAT")
    .SetShapeFn(shape_inference::MergeBothInputsShapeFn);

// ---- Gradients in terms of the output --------------------------------------------------

SLUICE_OUTPUT_GRAD("TanhGrad");
SLUICE_OUTPUT_GRAD("SigmoidGrad");
SLUICE_OUTPUT_GRAD("SqrtGrad");
SLUICE_OUTPUT_GRAD("RsqrtGrad");
SLUICE_OUTPUT_GRAD("ReciprocalGrad");
// ReciprocalGrad's name before TensorFlow 1.0, still in its registry and in old graphs.
SLUICE_OUTPUT_GRAD("InvGrad");

#undef SLUICE_ACTIVATION_GRAD
#undef SLUICE_OUTPUT_GRAD

// ---- Plumbing --------------------------------------------------------------------------

REGISTER_OP("BroadcastGradientArgs")
    .Input("s0: T")
    .Input("s1: T")
    .Output("r0: T")
    .Output("r1: T")
    .Attr("T: {int32, int64} = DT_INT32")
    .SetShapeFn(BroadcastGradientArgsShape);

REGISTER_OP("ConcatOffset")
    .Input("concat_dim: int32")
    .Input("shape: N * shape_type")
    .Output("offset: N * shape_type")
    .Attr("N: int >= 2")
    .Attr("shape_type: {int32, int64} = DT_INT32")
    .SetShapeFn(ConcatOffsetShape);

REGISTER_OP("BiasAddGrad")
    .Input("out_backprop: T")
    .Output("output: T")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "
        "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}")
    .Attr("data_format: {'NHWC', 'NCHW'} = 'NHWC'")
    .SetShapeFn(shape_inference::BiasAddGradShape);

REGISTER_OP("DynamicStitch")
    .Input("indices: N * int32")
    .Input("data: N * T")
    .Output("merged: T")
    .Attr("N: int >= 1")
    .Attr("T: type")
    .SetShapeFn(DynamicStitchShape);

REGISTER_OP("ParallelDynamicStitch")
    .Input("indices: N * int32")
    .Input("data: N * T")
    .Output("merged: T")
    .Attr("N: int >= 1")
    .Attr("T: type")
    .SetShapeFn(DynamicStitchShape);

}  // namespace sluice
