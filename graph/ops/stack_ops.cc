// TensorFlow's stack ops (StackV2 and its Push, Pop and Close): a last-in first-out stack of
// tensors that lives for one step. TF1's gradients of while loops use them: the forward loop
// pushes the intermediates the backward loop needs, and the backward loop pops them in
// reverse order. The kernels are in kernels/cpu/lists/.
//
// As for TensorArrays, the handle's inferred shape is [2] (TensorFlow's shape functions keep
// the string handles of the ops' first versions), although the kernel makes a scalar handle.
#include "graph/core/errors.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"

namespace sluice {
namespace {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

absl::Status HandleOutput(InferenceContext* c) {
  c->set_output(0, c->Vector(2));
  return absl::OkStatus();
}

// StackCloseV2 checks that its handle could be a two-element vector, as TensorFlow's does.
absl::Status CloseShape(InferenceContext* c) {
  ShapeHandle handle;
  DimensionHandle unused;
  RETURN_IF_ERROR(c->WithRank(c->input(0), 1, &handle));
  return c->WithValue(c->Dim(handle, 0), 2, &unused);
}

// The pushed tensor passes through.
absl::Status PushShape(InferenceContext* c) {
  c->set_output(0, c->input(1));
  return absl::OkStatus();
}

REGISTER_OP("StackV2")
    .Input("max_size: int32")
    .Output("handle: resource")
    .Attr("elem_type: type")
    .Attr("stack_name: string = ''")
    .SetIsStateful()
    .SetShapeFn(HandleOutput);

REGISTER_OP("StackPushV2")
    .Input("handle: resource")
    .Input("elem: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("swap_memory: bool = false")
    .SetIsStateful()
    .SetShapeFn(PushShape);

REGISTER_OP("StackPopV2")
    .Input("handle: resource")
    .Output("elem: elem_type")
    .Attr("elem_type: type")
    .SetIsStateful()
    .SetShapeFn(shape_inference::UnknownShape);

REGISTER_OP("StackCloseV2").Input("handle: resource").SetIsStateful().SetShapeFn(CloseShape);

}  // namespace
}  // namespace sluice
