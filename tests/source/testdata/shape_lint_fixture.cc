// A fixture for shape_lint_test, never compiled. Every line that the lint must report, as an
// unjustified site or as an unused justification, says so in a comment in capitals; no other
// line does.
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/tensor_shape.h"

namespace sluice {

// Declarations and definitions of functions that return shapes are not constructions.
TensorShape OutputShape(const Geometry& geometry);
TensorShape OutputShape();
PartialTensorShape Tail(PartialTensorShape shape) { return shape; }
TensorShape Geometry::InputShape() const { return input_; }

void Literals(OpKernelContext* ctx, Tensor* out) {
  const TensorShape scalar = TensorShape();
  const TensorShape empty = TensorShape({});
  const TensorShape matrix = TensorShape({2, 3});
  const TensorShape braced{4, 5};
  const PartialTensorShape partial({-1, 3});
  const PartialTensorShape assigned = {2, -1};
  OP_REQUIRES_OK(ctx, ctx->allocate_output(0, {7}, &out));
  OP_REQUIRES_OK(ctx, ctx->forward_input_or_allocate_output({0}, 0, scalar, &out));
  // Mentions in comments and strings are not code: TensorShape(dims), shape.AddDim(n).
  LOG(INFO) << "TensorShape(dims) shape.AddDim(n)";
}

void Unjustified(OpKernelContext* ctx, const Tensor& sizes, int64_t n, Tensor* out) {
  const std::vector<int64_t> dims = ToDims(sizes);
  OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape(dims), &out));    // REPORTED
  OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape({n, 2}), &out));  // REPORTED
  TensorShape declared(dims);                                               // REPORTED
  TensorShape braced{n};                                                    // REPORTED
  PartialTensorShape assigned = {n, -1};                                    // REPORTED
  TensorShape grown;
  grown.AddDim(1);                                                 // REPORTED
  grown.set_dim(0, n);                                             // REPORTED
  grown.InsertDim(0, n);                                           // REPORTED
  grown.RemoveDim(3);                                              // REPORTED
  grown.AppendShape(declared);                                     // REPORTED
  PartialTensorShape longer = assigned.Concatenate(n);             // REPORTED
  OP_REQUIRES_OK(ctx, ctx->allocate_temp(DT_FLOAT, {n, 2}, out));  // REPORTED
  Tensor local(DT_INT64, {n});                                     // REPORTED
  // shape-safe:
  TensorShape no_reason(dims);  // REPORTED: a marker without a reason justifies nothing
  // A reason one statement too high does not reach the next statement.
  // shape-safe: the dims of sizes, checked above (REPORTED as unused)
  const int unrelated = 0;
  TensorShape too_far(dims);                                             // REPORTED
  OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({n}), &out));  // REPORTED
  // shape-safe: a comment after the site's line does not count (REPORTED as unused)
}

void Justified(InferenceContext* c, const Tensor& input, Tensor* out) {
  // shape-safe: the dims of an existing tensor's shape
  const PartialTensorShape copy(input.shape().dim_sizes());
  TensorShape shape = input.shape();
  shape.RemoveDim(0);  // shape-safe: input has rank >= 1, checked by the caller
  // shape-safe: a comment block above the statement may run over
  // several lines; the marker opens it.
  OP_REQUIRES_OK(
      ctx, ctx->allocate_output(0, TensorShape({input.dim_size(0), input.dim_size(1)}), &out));
  OP_REQUIRES_OK(ctx,
                 // shape-safe: inside the statement, above the site
                 ctx->allocate_output(1, TensorShape({input.dim_size(0)}), &out));
  // shape-safe: a braced list earlier in the statement does not end it
  const TensorShape either = input.dims() == 0 ? TensorShape({}) : TensorShape({input.dims()});
  ShapeHandle joined;
  RETURN_IF_ERROR(c->Concatenate(c->input(0), c->input(1), &joined));
}

// shape-safe: justifies nothing below (REPORTED as unused)
void Unused() {}

}  // namespace sluice
