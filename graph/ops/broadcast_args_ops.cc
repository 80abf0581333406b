// BroadcastArgs: the shape two shapes broadcast to (numpy's rules), computed from the shape
// vectors themselves. tf.linspace and tf.broadcast_dynamic_shape emit it.
#include <algorithm>
#include <cstdint>

#include "graph/core/errors.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"

namespace sluice {
namespace {

using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

// A vector as long as the longer of the two shape vectors (unknown when either length is).
// The values are not read, as in TensorFlow.
absl::Status BroadcastArgsShape(InferenceContext* c) {
  ShapeHandle s0;
  ShapeHandle s1;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 1, &s0));
  RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &s1));
  const int64_t n0 = c->Value(c->Dim(s0, 0));
  const int64_t n1 = c->Value(c->Dim(s1, 0));
  if (!c->ValueKnown(n0) || !c->ValueKnown(n1)) {
    c->set_output(0, c->Vector(InferenceContext::kUnknownDim));
  } else {
    c->set_output(0, c->Vector(std::max(n0, n1)));
  }
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("BroadcastArgs")
    .Input("s0: T")
    .Input("s1: T")
    .Output("r0: T")
    .Attr("T: {int32, int64} = DT_INT32")
    .SetShapeFn(BroadcastArgsShape);

}  // namespace sluice
