// TensorFlow's v1 control-flow ops: Switch/Merge for conditionals, Enter/Exit/NextIteration/
// LoopCond for while loops, and the Ref variants the same graphs may carry. The executor
// gives them meaning (dead tensors, frames); here they only forward shapes. Loops make the
// graph cyclic: a Merge may be shape-inferred before its NextIteration input exists, in
// which case that input reads as an unknown shape (see graph/shape_refiner.h).
#include <vector>

#include "graph/core/errors.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"

namespace sluice {
namespace {

using shape_inference::InferenceContext;
using shape_inference::ShapeAndType;
using shape_inference::ShapeHandle;
using shape_inference::UnchangedShape;

// Copies what resource/variant input 0 holds to outputs [0, num_outputs).
void ForwardHandleData(InferenceContext* c, int num_outputs) {
  const std::vector<ShapeAndType>* handle_data = c->input_handle_shapes_and_types(0);
  if (handle_data == nullptr) return;
  for (int i = 0; i < num_outputs; ++i) c->set_output_handle_shapes_and_types(i, *handle_data);
}

// Both outputs carry `data`; only one of them will be live at run time.
absl::Status SwitchShape(InferenceContext* c) {
  ShapeHandle unused;
  RETURN_IF_ERROR(c->WithRank(c->input(1), 0, &unused));
  c->set_output(0, c->input(0));
  c->set_output(1, c->input(0));
  ForwardHandleData(c, 2);
  return absl::OkStatus();
}

// The output is whichever input arrives, so only what all inputs agree on is known: the
// rank if every rank is known and equal, and each dim on which they all agree.
absl::Status MergeShape(InferenceContext* c) {
  ShapeHandle out = c->input(0);
  if (!c->RankKnown(out)) {
    out = c->UnknownShape();
  } else {
    const int32_t rank = c->Rank(out);
    for (int i = 1; i < c->num_inputs(); ++i) {
      ShapeHandle input = c->input(i);
      if (!c->RankKnown(input) || c->Rank(input) != rank) {
        out = c->UnknownShape();
        break;
      }
      for (int d = 0; d < rank; ++d) {
        if (c->Value(c->Dim(input, d)) != c->Value(c->Dim(out, d))) {
          RETURN_IF_ERROR(c->ReplaceDim(out, d, c->UnknownDim(), &out));
        }
      }
    }
  }
  c->set_output(0, out);
  c->set_output(1, c->Scalar());
  return absl::OkStatus();
}

// A loop variable may change shape from one iteration to the next, so only a constant
// (loop-invariant) Enter keeps its input's shape.
absl::Status EnterShape(InferenceContext* c) {
  c->set_output(0, c->UnknownShape());
  ForwardHandleData(c, 1);
  bool is_constant = false;
  RETURN_IF_ERROR(c->GetAttr("is_constant", &is_constant));
  if (is_constant) c->set_output(0, c->input(0));
  return absl::OkStatus();
}

absl::Status LoopCondShape(InferenceContext* c) {
  return shape_inference::UnchangedShapeWithRank(c, 0);
}

}  // namespace

REGISTER_OP("Switch")
    .Input("data: T")
    .Input("pred: bool")
    .Output("output_false: T")
    .Output("output_true: T")
    .Attr("T: type")
    .SetShapeFn(SwitchShape);

REGISTER_OP("RefSwitch")
    .Input("data: Ref(T)")
    .Input("pred: bool")
    .Output("output_false: Ref(T)")
    .Output("output_true: Ref(T)")
    .Attr("T: type")
    .SetAllowsUninitializedInput()
    .SetShapeFn(SwitchShape);

REGISTER_OP("Merge")
    .Input("inputs: N * T")
    .Output("output: T")
    .Output("value_index: int32")
    .Attr("T: type")
    .Attr("N: int >= 1")
    .SetShapeFn(MergeShape);

REGISTER_OP("RefMerge")
    .Input("inputs: Ref(N * T)")
    .Output("output: Ref(T)")
    .Output("value_index: int32")
    .Attr("T: type")
    .Attr("N: int >= 1")
    .SetShapeFn(MergeShape);

REGISTER_OP("Enter")
    .Input("data: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("frame_name: string")
    .Attr("is_constant: bool = false")
    .Attr("parallel_iterations: int = 10")
    .SetShapeFn(EnterShape);

// TensorFlow keeps RefEnter's older shape function, which forwards the shape even for a
// non-constant Enter.
REGISTER_OP("RefEnter")
    .Input("data: Ref(T)")
    .Output("output: Ref(T)")
    .Attr("T: type")
    .Attr("frame_name: string")
    .Attr("is_constant: bool = false")
    .Attr("parallel_iterations: int = 10")
    .SetShapeFn(UnchangedShape);

REGISTER_OP("Exit").Input("data: T").Output("output: T").Attr("T: type").SetShapeFn(UnchangedShape);

REGISTER_OP("RefExit")
    .Input("data: Ref(T)")
    .Output("output: Ref(T)")
    .Attr("T: type")
    .SetShapeFn(UnchangedShape);

REGISTER_OP("NextIteration")
    .Input("data: T")
    .Output("output: T")
    .Attr("T: type")
    .SetShapeFn(UnchangedShape);

REGISTER_OP("RefNextIteration")
    .Input("data: Ref(T)")
    .Output("output: Ref(T)")
    .Attr("T: type")
    .SetShapeFn(UnchangedShape);

REGISTER_OP("LoopCond").Input("input: bool").Output("output: bool").SetShapeFn(LoopCondShape);

// Exists only to carry control edges (the executor fires it even when its inputs are dead).
REGISTER_OP("ControlTrigger").SetShapeFn(shape_inference::NoOutputs);

REGISTER_OP("Abort")
    .Attr("error_msg: string = ''")
    .Attr("exit_without_error: bool = false")
    .SetShapeFn(shape_inference::NoOutputs);

}  // namespace sluice
