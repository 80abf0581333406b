// HistogramFixedWidth: counts of values in nbins equal-width bins over value_range (values
// outside it counted in the first or last bin).
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"

namespace sluice {
namespace {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

absl::Status HistogramFixedWidthShape(InferenceContext* c) {
  ShapeHandle range, nbins_shape;
  RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &range));
  RETURN_IF_ERROR(c->WithRank(c->input(2), 0, &nbins_shape));
  DimensionHandle unused;
  RETURN_IF_ERROR(c->WithValue(c->Dim(range, 0), 2, &unused));
  const Tensor* nbins_t = c->input_tensor(2);
  if (nbins_t == nullptr) {
    c->set_output(0, c->UnknownShapeOfRank(1));
    return absl::OkStatus();
  }
  int64_t nbins = 0;
  RETURN_IF_ERROR(c->GetScalarFromTensor(nbins_t, &nbins));
  if (nbins <= 0) return errors::InvalidArgument("Requires nbins > 0: ", nbins);
  c->set_output(0, c->Vector(nbins));
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("HistogramFixedWidth")
    .Input("values: T")
    .Input("value_range: T")
    .Input("nbins: int32")
    .Output("out: dtype")
    .Attr("T: {int32, int64, float, double}")
    .Attr("dtype: {int32, int64} = DT_INT32")
    .SetShapeFn(HistogramFixedWidthShape);

}  // namespace sluice
