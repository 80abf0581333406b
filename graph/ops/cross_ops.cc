// Cross: the cross products of pairs of 3-element vectors (the innermost dimension).
#include "graph/core/errors.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"

namespace sluice {
namespace {

using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

// a and b of one shape whose last dimension is 3; the product has that shape.
absl::Status CrossShape(InferenceContext* c) {
  ShapeHandle a, b;
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(0), 1, &a));
  RETURN_IF_ERROR(c->WithRankAtLeast(c->input(1), 1, &b));
  RETURN_IF_ERROR(c->Merge(a, b, &a));
  if (c->RankKnown(a)) {
    auto last = c->Dim(a, c->Rank(a) - 1);
    RETURN_IF_ERROR(c->WithValue(last, 3, &last));
  }
  c->set_output(0, a);
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("Cross")
    .Input("a: T")
    .Input("b: T")
    .Output("product: T")
    .Attr("T: realnumbertype")
    .SetShapeFn(CrossShape);

}  // namespace sluice
