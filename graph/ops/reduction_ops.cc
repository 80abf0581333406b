// Reductions over the axes given by a second input (Sum, Mean, ..., with keep_dims) and
// the index-of-extremum reductions ArgMax/ArgMin over one axis.
#include <cstdint>
#include <vector>

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
using shape_inference::ReductionShape;
using shape_inference::ShapeHandle;

// The numbertype list without complex types, plus the quantized types.
constexpr char kOrderedOrQuantizedTypes[] =
    "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
    "uint64, qint8, quint8, qint32, qint16, quint16}";

// The input's shape without the reduced axis. A scalar or vector input gives a scalar
// whatever the axis; an unknown axis still fixes the output's rank.
absl::Status ArgReductionShape(InferenceContext* c) {
  ShapeHandle unused;
  RETURN_IF_ERROR(c->WithRank(c->input(1), 0, &unused));
  ShapeHandle input = c->input(0);
  if (!c->RankKnown(input)) {
    c->set_output(0, c->UnknownShape());
    return absl::OkStatus();
  }
  const int32_t rank = c->Rank(input);
  if (rank <= 1) {
    c->set_output(0, c->Scalar());
    return absl::OkStatus();
  }
  const Tensor* dimension = c->input_tensor(1);
  if (dimension == nullptr) {
    c->set_output(0, c->UnknownShapeOfRank(rank - 1));
    return absl::OkStatus();
  }
  int64_t axis;
  RETURN_IF_ERROR(IntegerTensorScalar(*dimension, &axis));
  if (axis < -rank || axis >= rank) {
    return errors::InvalidArgument("Dimension (", axis, ") must be in the range [", -rank, ", ",
                                   rank, "), where ", rank,
                                   " is the number of dimensions in the input.");
  }
  if (axis < 0) axis += rank;
  std::vector<DimensionHandle> dims;
  for (int32_t i = 0; i < rank; ++i) {
    if (i != axis) dims.push_back(c->Dim(input, i));
  }
  c->set_output(0, c->MakeShape(dims));
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("Sum")
    .Input("input: T")
    .Input("reduction_indices: Tidx")
    .Output("output: T")
    .Attr("keep_dims: bool = false")
    .Attr("T: numbertype")
    .Attr("Tidx: {int32, int64} = DT_INT32")
    .SetShapeFn(ReductionShape);

REGISTER_OP("Mean")
    .Input("input: T")
    .Input("reduction_indices: Tidx")
    .Output("output: T")
    .Attr("keep_dims: bool = false")
    .Attr("T: numbertype")
    .Attr("Tidx: {int32, int64} = DT_INT32")
    .SetShapeFn(ReductionShape);

REGISTER_OP("Prod")
    .Input("input: T")
    .Input("reduction_indices: Tidx")
    .Output("output: T")
    .Attr("keep_dims: bool = false")
    .Attr("T: numbertype")
    .Attr("Tidx: {int32, int64} = DT_INT32")
    .SetShapeFn(ReductionShape);

REGISTER_OP("Max")
    .Input("input: T")
    .Input("reduction_indices: Tidx")
    .Output("output: T")
    .Attr("keep_dims: bool = false")
    .Attr(kOrderedOrQuantizedTypes)
    .Attr("Tidx: {int32, int64} = DT_INT32")
    .SetShapeFn(ReductionShape);

REGISTER_OP("Min")
    .Input("input: T")
    .Input("reduction_indices: Tidx")
    .Output("output: T")
    .Attr("keep_dims: bool = false")
    .Attr(kOrderedOrQuantizedTypes)
    .Attr("Tidx: {int32, int64} = DT_INT32")
    .SetShapeFn(ReductionShape);

REGISTER_OP("All")
    .Input("input: bool")
    .Input("reduction_indices: Tidx")
    .Output("output: bool")
    .Attr("keep_dims: bool = false")
    .Attr("Tidx: {int32, int64} = DT_INT32")
    .SetShapeFn(ReductionShape);

REGISTER_OP("Any")
    .Input("input: bool")
    .Input("reduction_indices: Tidx")
    .Output("output: bool")
    .Attr("keep_dims: bool = false")
    .Attr("Tidx: {int32, int64} = DT_INT32")
    .SetShapeFn(ReductionShape);

// ArgMax accepts more index types than ArgMin; TensorFlow widened only ArgMax.
REGISTER_OP("ArgMax")
    .Input("input: T")
    .Input("dimension: Tidx")
    .Output("output: output_type")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, "
        "uint32, uint64, qint8, quint8, qint32, qint16, quint16, bool}")
    .Attr("Tidx: {int16, int32, int64} = DT_INT32")
    .Attr("output_type: {int16, uint16, int32, int64} = DT_INT64")
    .SetShapeFn(ArgReductionShape);

REGISTER_OP("ArgMin")
    .Input("input: T")
    .Input("dimension: Tidx")
    .Output("output: output_type")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, "
        "uint32, uint64, qint8, quint8, qint32, qint16, quint16, bool}")
    .Attr("Tidx: {int32, int64} = DT_INT32")
    .Attr("output_type: {int32, int64} = DT_INT64")
    .SetShapeFn(ArgReductionShape);

}  // namespace sluice
