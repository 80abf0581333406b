// TensorFlow's functional control flow: If, StatelessIf, Case, StatelessCase, While and
// StatelessWhile, whose branches, condition and body are functions of the graph's library,
// and _SwitchN (the N-way Switch that Case lowers to). A session lowers the functional ops to
// v1 control flow before running (passes/lower_functional_ops.h); these definitions are what
// the importer validates them against.
#include <vector>

#include "graph/core/errors.h"
#include "graph/core/tensor_shape.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"

namespace sluice {
namespace {

using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

// The declared output_shapes when there is one per output, else unknown shapes.
absl::Status DeclaredOutputShapes(InferenceContext* c) {
  std::vector<PartialTensorShape> shapes;
  RETURN_IF_ERROR(c->GetAttr("output_shapes", &shapes));
  if (shapes.empty() || static_cast<int>(shapes.size()) != c->num_outputs()) {
    return shape_inference::UnknownShape(c);
  }
  for (int i = 0; i < c->num_outputs(); ++i) {
    ShapeHandle shape;
    RETURN_IF_ERROR(c->MakeShapeFromPartialTensorShape(shapes[i], &shape));
    c->set_output(i, shape);
  }
  return absl::OkStatus();
}

// A loop's outputs: the declared output_shapes, else the shapes of its inputs (a loop
// variable whose shape changes must be declared less specific in output_shapes).
absl::Status WhileShape(InferenceContext* c) {
  std::vector<PartialTensorShape> shapes;
  RETURN_IF_ERROR(c->GetAttr("output_shapes", &shapes));
  if (!shapes.empty()) return DeclaredOutputShapes(c);
  for (int i = 0; i < c->num_outputs(); ++i) c->set_output(i, c->input(i));
  return absl::OkStatus();
}

#define REGISTER_IF(name)            \
  REGISTER_OP(name)                  \
      .Input("cond: Tcond")          \
      .Input("input: Tin")           \
      .Output("output: Tout")        \
      .Attr("Tcond: type")           \
      .Attr("Tin: list(type) >= 0")  \
      .Attr("Tout: list(type) >= 0") \
      .Attr("then_branch: func")     \
      .Attr("else_branch: func")     \
      .Attr("output_shapes: list(shape) = []")

REGISTER_IF("If").SetIsStateful().SetShapeFn(DeclaredOutputShapes);
REGISTER_IF("StatelessIf").SetShapeFn(DeclaredOutputShapes);
#undef REGISTER_IF

#define REGISTER_CASE(name)              \
  REGISTER_OP(name)                      \
      .Input("branch_index: int32")      \
      .Input("input: Tin")               \
      .Output("output: Tout")            \
      .Attr("Tin: list(type) >= 0")      \
      .Attr("Tout: list(type) >= 0")     \
      .Attr("branches: list(func) >= 1") \
      .Attr("output_shapes: list(shape) = []")

REGISTER_CASE("Case").SetIsStateful().SetShapeFn(DeclaredOutputShapes);
REGISTER_CASE("StatelessCase").SetShapeFn(DeclaredOutputShapes);
#undef REGISTER_CASE

#define REGISTER_WHILE(name)                   \
  REGISTER_OP(name)                            \
      .Input("input: T")                       \
      .Output("output: T")                     \
      .Attr("T: list(type) >= 0")              \
      .Attr("cond: func")                      \
      .Attr("body: func")                      \
      .Attr("output_shapes: list(shape) = []") \
      .Attr("parallel_iterations: int = 10")

REGISTER_WHILE("While").SetIsStateful().SetShapeFn(WhileShape);
REGISTER_WHILE("StatelessWhile").SetShapeFn(WhileShape);
#undef REGISTER_WHILE

REGISTER_OP("_SwitchN")
    .Input("data: T")
    .Input("output_index: int32")
    .Output("outputs: num_outs * T")
    .Attr("num_outs: int >= 1")
    .Attr("T: type")
    .SetShapeFn([](InferenceContext* c) {
      for (int i = 0; i < c->num_outputs(); ++i) c->set_output(i, c->input(0));
      return absl::OkStatus();
    });

}  // namespace
}  // namespace sluice
