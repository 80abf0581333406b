// Gradient functions of the ops that move, reshape, join, split, slice, pad, tile and gather
// elements: each routes dy back to where the elements came from.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "cc_api/const_op.h"
#include "cc_api/grad_op_registry.h"
#include "cc_api/gradients.h"
#include "cc_api/gradients/grad_helpers.h"
#include "cc_api/standard_ops.h"
#include "graph/core/errors.h"
#include "graph/op/node_def_util.h"

namespace sluice {
namespace gradients {
namespace {

using GradList = std::vector<Output>;

REGISTER_NO_GRADIENT_OP("Const");
REGISTER_NO_GRADIENT_OP("StopGradient");
REGISTER_NO_GRADIENT_OP("ConcatOffset");
REGISTER_NO_GRADIENT_OP("ZerosLike");
REGISTER_NO_GRADIENT_OP("OnesLike");
REGISTER_NO_GRADIENT_OP("InvertPermutation");
REGISTER_NO_GRADIENT_OP("Shape");
REGISTER_NO_GRADIENT_OP("ShapeN");
REGISTER_NO_GRADIENT_OP("Rank");
REGISTER_NO_GRADIENT_OP("Size");
REGISTER_NO_GRADIENT_OP("BroadcastGradientArgs");
REGISTER_NO_GRADIENT_OP("OneHot");
REGISTER_NO_GRADIENT_OP("Where");

absl::Status PreventGradientGrad(const Scope&, const Operation& op, const GradList&, GradList*) {
  std::string message;
  TryGetNodeAttr(op.node()->attrs(), "message", &message);
  return absl::InvalidArgumentError(
      absl::StrCat("Gradient explicitly disabled. Reason: ", message));
}
REGISTER_GRADIENT_OP("PreventGradient", PreventGradientGrad);

// The ops whose gradient is dy reshaped to the input's shape; their other inputs (a shape, an
// axis) get none.
absl::Status ReshapeLikeInputGrad(const Scope& scope, const Operation& op, const GradList& grads,
                                  GradList* out) {
  out->push_back(ops::Reshape(scope, grads[0], ops::Shape(scope, op.input(0))));
  for (int i = 1; i < op.num_inputs(); ++i) out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("Reshape", ReshapeLikeInputGrad);
REGISTER_GRADIENT_OP("ExpandDims", ReshapeLikeInputGrad);
REGISTER_GRADIENT_OP("Squeeze", ReshapeLikeInputGrad);

absl::Status TransposeGrad(const Scope& scope, const Operation& op, const GradList& grads,
                           GradList* out) {
  out->push_back(ops::Transpose(scope, grads[0], ops::InvertPermutation(scope, op.input(1))));
  out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("Transpose", TransposeGrad);

absl::Status ReverseV2Grad(const Scope& scope, const Operation& op, const GradList& grads,
                           GradList* out) {
  out->push_back(ops::Reverse(scope, grads[0], op.input(1)));
  out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("ReverseV2", ReverseV2Grad);

absl::Status PackGrad(const Scope& scope, const Operation& op, const GradList& grads,
                      GradList* out) {
  int64_t axis = 0;
  RETURN_IF_ERROR(GetNodeAttr(op.node()->attrs(), "axis", &axis));
  auto pieces = ops::Unstack(scope, grads[0], op.num_inputs(), ops::Unstack::Axis(axis));
  *out = pieces.output;
  return scope.status();
}
REGISTER_GRADIENT_OP("Pack", PackGrad);

absl::Status UnpackGrad(const Scope& scope, const Operation& op, const GradList& grads,
                        GradList* out) {
  int64_t axis = 0;
  RETURN_IF_ERROR(GetNodeAttr(op.node()->attrs(), "axis", &axis));
  out->push_back(ops::Stack(scope, grads, ops::Stack::Axis(axis)));
  return scope.status();
}
REGISTER_GRADIENT_OP("Unpack", UnpackGrad);

// ConcatV2(values..., axis) and Concat(axis, values...): each value gets the slice of dy at
// its offset along the axis.
absl::Status ConcatGradFor(const Scope& scope, const Operation& op, const GradList& grads,
                           int first_value, int num_values, const Output& axis, GradList* out) {
  std::vector<Output> values;
  for (int i = 0; i < num_values; ++i) values.push_back(op.input(first_value + i));
  auto shape_n = ops::ShapeN(scope, values);
  auto offsets = ops::ConcatOffset(scope, axis, shape_n.output);
  for (int i = 0; i < num_values; ++i) {
    out->push_back(ops::Slice(scope, grads[0], offsets.offset[i], shape_n.output[i]));
  }
  return scope.status();
}

absl::Status ConcatV2Grad(const Scope& scope, const Operation& op, const GradList& grads,
                          GradList* out) {
  const int n = op.num_inputs() - 1;
  const Output axis = op.input(n);
  // ConcatOffset takes an int32 axis, from 0 up.
  auto axis32 = ops::Cast(scope, axis, DT_INT32);
  auto rank = ops::Rank(scope, op.input(0));
  auto positive = ops::FloorMod(scope, axis32, rank);
  RETURN_IF_ERROR(ConcatGradFor(scope, op, grads, 0, n, positive, out));
  out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("ConcatV2", ConcatV2Grad);

absl::Status ConcatGrad(const Scope& scope, const Operation& op, const GradList& grads,
                        GradList* out) {
  const int n = op.num_inputs() - 1;
  auto positive = ops::FloorMod(scope, op.input(0), ops::Rank(scope, op.input(1)));
  out->push_back(NoGradient());
  return ConcatGradFor(scope, op, grads, 1, n, positive, out);
}
REGISTER_GRADIENT_OP("Concat", ConcatGrad);

// Split(axis, value): the pieces' gradients joined along the axis.
absl::Status SplitGrad(const Scope& scope, const Operation& op, const GradList& grads,
                       GradList* out) {
  out->push_back(NoGradient());
  out->push_back(ops::Concat(scope, grads, op.input(0)));
  return scope.status();
}
REGISTER_GRADIENT_OP("Split", SplitGrad);

// SplitV(value, size_splits, axis).
absl::Status SplitVGrad(const Scope& scope, const Operation& op, const GradList& grads,
                        GradList* out) {
  out->push_back(ops::Concat(scope, grads, op.input(2)));
  out->push_back(NoGradient());
  out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("SplitV", SplitVGrad);

// Slice(x, begin, size): dy padded back to x's shape.
absl::Status SliceGrad(const Scope& scope, const Operation& op, const GradList& grads,
                       GradList* out) {
  const Output x = op.input(0);
  auto begin = ops::Cast(scope, op.input(1), DT_INT32);
  auto in_shape = ops::Shape(scope, x);
  auto out_shape = ops::Shape(scope, op.output(0));
  auto before = ops::ExpandDims(scope, begin, 1);
  auto after =
      ops::ExpandDims(scope, ops::Sub(scope, ops::Sub(scope, in_shape, out_shape), begin), 1);
  out->push_back(ops::Pad(scope, grads[0], ops::Concat(scope, {before, after}, 1)));
  out->push_back(NoGradient());
  out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("Slice", SliceGrad);

absl::Status StridedSliceGrad(const Scope& scope, const Operation& op, const GradList& grads,
                              GradList* out) {
  const AttrSlice a = op.node()->attrs();
  int64_t begin_mask = 0, end_mask = 0, ellipsis_mask = 0, new_axis_mask = 0, shrink_axis_mask = 0;
  RETURN_IF_ERROR(GetNodeAttr(a, "begin_mask", &begin_mask));
  RETURN_IF_ERROR(GetNodeAttr(a, "end_mask", &end_mask));
  RETURN_IF_ERROR(GetNodeAttr(a, "ellipsis_mask", &ellipsis_mask));
  RETURN_IF_ERROR(GetNodeAttr(a, "new_axis_mask", &new_axis_mask));
  RETURN_IF_ERROR(GetNodeAttr(a, "shrink_axis_mask", &shrink_axis_mask));
  const Output begin = op.input(1);
  auto shape = ops::Shape(scope, op.input(0), ops::Shape::OutType(begin.type()));
  out->push_back(ops::StridedSliceGrad(scope, shape, begin, op.input(2), op.input(3), grads[0],
                                       ops::StridedSliceGrad::BeginMask(begin_mask)
                                           .EndMask(end_mask)
                                           .EllipsisMask(ellipsis_mask)
                                           .NewAxisMask(new_axis_mask)
                                           .ShrinkAxisMask(shrink_axis_mask)));
  out->push_back(NoGradient());
  out->push_back(NoGradient());
  out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("StridedSlice", StridedSliceGrad);

// Pad and PadV2 (x, paddings[, constant]): the slice of dy where x lies.
absl::Status PadGrad(const Scope& scope, const Operation& op, const GradList& grads,
                     GradList* out) {
  const Output x = op.input(0);
  auto before = ops::Slice(scope, op.input(1), {0, 0}, ops::Stack(scope, {ops::Rank(scope, x), 1}));
  out->push_back(ops::Slice(scope, grads[0], ops::Reshape(scope, before, {-1}),
                            ops::Shape(scope, x, ops::Shape::OutType(op.input(1).type()))));
  for (int i = 1; i < op.num_inputs(); ++i) out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("Pad", PadGrad);
REGISTER_GRADIENT_OP("PadV2", PadGrad);

// MirrorPad's gradient folds the padded gradient back (MirrorPadGrad, the same paddings and
// mode); MirrorPadGrad is linear too, and its gradient pads again.
absl::Status MirrorPadGradient(const Scope& scope, const Operation& op, const GradList& grads,
                               GradList* out) {
  std::string mode;
  RETURN_IF_ERROR(GetNodeAttr(op.node()->attrs(), "mode", &mode));
  out->push_back(ops::internal::MirrorPadGrad(scope, grads[0], op.input(1), mode));
  out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("MirrorPad", MirrorPadGradient);

absl::Status MirrorPadGradGradient(const Scope& scope, const Operation& op, const GradList& grads,
                                   GradList* out) {
  std::string mode;
  RETURN_IF_ERROR(GetNodeAttr(op.node()->attrs(), "mode", &mode));
  out->push_back(ops::MirrorPad(scope, grads[0], op.input(1), mode));
  out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("MirrorPadGrad", MirrorPadGradGradient);

// Tile(x, multiples): dy viewed as [m0, s0, m1, s1, ...] and summed over the m axes.
absl::Status TileGrad(const Scope& scope, const Operation& op, const GradList& grads,
                      GradList* out) {
  const Output x = op.input(0);
  auto multiples = ops::Cast(scope, op.input(1), DT_INT32);
  auto in_shape = ops::Shape(scope, x);
  auto split_shape = ops::Reshape(
      scope, ops::Transpose(scope, ops::Stack(scope, {multiples, in_shape}), {1, 0}), {-1});
  auto axes = ops::Range(scope, 0, ops::Size(scope, split_shape), 2);
  out->push_back(ops::Sum(scope, ops::Reshape(scope, grads[0], split_shape), axes));
  out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("Tile", TileGrad);

absl::Status BroadcastToGrad(const Scope& scope, const Operation& op, const GradList& grads,
                             GradList* out) {
  out->push_back(ReduceToShapeOf(scope, grads[0], op.input(0), op.output(0)));
  out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("BroadcastTo", BroadcastToGrad);

// Fill(dims, value): every element came from `value`.
absl::Status FillGrad(const Scope& scope, const Operation&, const GradList& grads, GradList* out) {
  out->push_back(NoGradient());
  out->push_back(ops::Sum(scope, grads[0], ops::Range(scope, 0, ops::Rank(scope, grads[0]), 1)));
  return scope.status();
}
REGISTER_GRADIENT_OP("Fill", FillGrad);

// Gather along axis 0 (Gather, and GatherV2/ResourceGather... with axis 0 and no batch
// dimensions): the rows of dy summed into the rows they were read from.
absl::Status GatherRowsGrad(const Scope& scope, const Output& params, const Output& indices,
                            const Output& dy, GradList* out) {
  auto params_shape = ops::Shape(scope, params);
  auto num_rows = ops::Slice(scope, params_shape, {0}, {1});
  auto row_shape = ops::Slice(scope, params_shape, {1}, {-1});
  auto flat_indices = ops::Reshape(scope, indices, {-1});
  auto values_shape =
      ops::Concat(scope, {ops::ExpandDims(scope, ops::Size(scope, indices), 0), row_shape}, 0);
  auto values = ops::Reshape(scope, dy, values_shape);
  out->push_back(ops::UnsortedSegmentSum(scope, values, flat_indices,
                                         ops::Reshape(scope, num_rows, ops::Const(scope, 0, {0}))));
  out->push_back(NoGradient());
  return scope.status();
}

absl::Status GatherGrad(const Scope& scope, const Operation& op, const GradList& grads,
                        GradList* out) {
  return GatherRowsGrad(scope, op.input(0), op.input(1), grads[0], out);
}
REGISTER_GRADIENT_OP("Gather", GatherGrad);

// GatherV2(params, indices, axis) with `batch_dims` leading dimensions shared by params and
// indices. dy's dimensions are [batch, outer, index dims, inner] and params' are
// [batch, outer, N, inner]: dy is transposed to [batch, index dims, outer, inner], the batches
// are flattened with each batch's indices offset by batch * N, the rows summed into their
// segments of params transposed to [batch, N, outer, inner], and that transposition undone.
absl::Status GatherV2Grad(const Scope& scope, const Operation& op, const GradList& grads,
                          GradList* out) {
  int64_t batch_dims = 0;
  RETURN_IF_ERROR(GetNodeAttr(op.node()->attrs(), "batch_dims", &batch_dims));
  if (batch_dims < 0) {
    return absl::InvalidArgumentError(
        "C++ GatherV2 gradient does not support negative batch_dims.");
  }
  const Output params = op.input(0), indices = op.input(1), dy = grads[0];
  const int batch = static_cast<int>(batch_dims);
  auto params_shape = ops::Shape(scope, params);
  auto params_rank = ops::Size(scope, params_shape);
  auto axis = ops::FloorMod(scope, ops::Cast(scope, op.input(2), DT_INT32), params_rank);
  auto index_end =
      ops::Add(scope, axis, ops::Sub(scope, ops::Rank(scope, indices), batch));  // in dy
  auto batch_axes = ops::Range(scope, 0, batch, 1);
  auto dy_perm = ops::Concat(
      scope,
      {batch_axes, ops::Range(scope, axis, index_end, 1), ops::Range(scope, batch, axis, 1),
       ops::Range(scope, index_end, ops::Rank(scope, dy), 1)},
      0);
  auto params_perm =
      ops::Concat(scope,
                  {batch_axes, ops::ExpandDims(scope, axis, 0), ops::Range(scope, batch, axis, 1),
                   ops::Range(scope, ops::Add(scope, axis, 1), params_rank, 1)},
                  0);
  auto moved_params_shape = ops::Gather(scope, params_shape, params_perm);
  auto num_batches = ops::Prod(scope, ops::Slice(scope, params_shape, {0}, {batch}), 0);
  auto rows_per_batch = ops::Gather(scope, params_shape, axis);
  // Indices as [batch, K], offset to their batch's rows, flattened.
  auto offsets = ops::Cast(
      scope,
      ops::Reshape(scope, ops::Mul(scope, ops::Range(scope, 0, num_batches, 1), rows_per_batch),
                   {-1, 1}),
      indices.type());
  auto flat_indices = ops::Reshape(
      scope,
      ops::Add(scope, ops::Reshape(scope, indices, ops::Stack(scope, {num_batches, -1})), offsets),
      {-1});
  auto row_shape = ops::Slice(scope, moved_params_shape, {batch + 1}, {-1});
  auto values_shape =
      ops::Concat(scope, {ops::ExpandDims(scope, ops::Size(scope, indices), 0), row_shape}, 0);
  auto values = ops::Reshape(scope, ops::Transpose(scope, dy, dy_perm), values_shape);
  auto summed = ops::UnsortedSegmentSum(scope, values, flat_indices,
                                        ops::Mul(scope, num_batches, rows_per_batch));
  out->push_back(ops::Transpose(scope, ops::Reshape(scope, summed, moved_params_shape),
                                ops::InvertPermutation(scope, params_perm)));
  out->push_back(NoGradient());
  out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("GatherV2", GatherV2Grad);

// SpaceToBatchND and BatchToSpaceND undo each other, with the same block shape and
// paddings (crops).
absl::Status SpaceToBatchNDGrad(const Scope& scope, const Operation& op, const GradList& grads,
                                GradList* out) {
  out->push_back(ops::BatchToSpaceND(scope, grads[0], op.input(1), op.input(2)));
  out->push_back(NoGradient());
  out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("SpaceToBatchND", SpaceToBatchNDGrad);

absl::Status BatchToSpaceNDGrad(const Scope& scope, const Operation& op, const GradList& grads,
                                GradList* out) {
  out->push_back(ops::SpaceToBatchND(scope, grads[0], op.input(1), op.input(2)));
  out->push_back(NoGradient());
  out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("BatchToSpaceND", BatchToSpaceNDGrad);

// SpaceToDepth and DepthToSpace: the other one, with the same block size and data format.
absl::Status SpaceToDepthGrad(const Scope& scope, const Operation& op, const GradList& grads,
                              GradList* out) {
  int64_t block_size = 0;
  std::string data_format = "NHWC";
  RETURN_IF_ERROR(GetNodeAttr(op.node()->attrs(), "block_size", &block_size));
  TryGetNodeAttr(op.node()->attrs(), "data_format", &data_format);
  out->push_back(
      ops::DepthToSpace(scope, grads[0], block_size, ops::DepthToSpace::DataFormat(data_format)));
  return scope.status();
}
REGISTER_GRADIENT_OP("SpaceToDepth", SpaceToDepthGrad);

absl::Status DepthToSpaceGrad(const Scope& scope, const Operation& op, const GradList& grads,
                              GradList* out) {
  int64_t block_size = 0;
  std::string data_format = "NHWC";
  RETURN_IF_ERROR(GetNodeAttr(op.node()->attrs(), "block_size", &block_size));
  TryGetNodeAttr(op.node()->attrs(), "data_format", &data_format);
  out->push_back(
      ops::SpaceToDepth(scope, grads[0], block_size, ops::SpaceToDepth::DataFormat(data_format)));
  return scope.status();
}
REGISTER_GRADIENT_OP("DepthToSpace", DepthToSpaceGrad);

// The gradient is checked too, with TensorFlow's message naming the forward op's.
absl::Status CheckNumericsGrad(const Scope& scope, const Operation& op, const GradList& grads,
                               GradList* out) {
  std::string message;
  RETURN_IF_ERROR(GetNodeAttr(op.node()->attrs(), "message", &message));
  out->push_back(ops::CheckNumerics(
      scope, grads[0],
      absl::StrCat("Not a number (NaN) or infinity (Inf) values detected in gradient. ", message)));
  return scope.status();
}
REGISTER_GRADIENT_OP("CheckNumerics", CheckNumericsGrad);

// Diagonals: placing and reading them are each other's gradients.
absl::Status DiagGrad(const Scope& scope, const Operation&, const GradList& grads, GradList* out) {
  out->push_back(ops::DiagPart(scope, grads[0]));
  return scope.status();
}
REGISTER_GRADIENT_OP("Diag", DiagGrad);

absl::Status DiagPartGrad(const Scope& scope, const Operation&, const GradList& grads,
                          GradList* out) {
  out->push_back(ops::Diag(scope, grads[0]));
  return scope.status();
}
REGISTER_GRADIENT_OP("DiagPart", DiagPartGrad);

absl::Status MatrixDiagGrad(const Scope& scope, const Operation&, const GradList& grads,
                            GradList* out) {
  out->push_back(ops::MatrixDiagPart(scope, grads[0]));
  return scope.status();
}
REGISTER_GRADIENT_OP("MatrixDiag", MatrixDiagGrad);

absl::Status MatrixBandPartGrad(const Scope& scope, const Operation& op, const GradList& grads,
                                GradList* out) {
  out->push_back(ops::MatrixBandPart(scope, grads[0], op.input(1), op.input(2)));
  out->push_back(NoGradient());
  out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("MatrixBandPart", MatrixBandPartGrad);

// GatherNd(params, indices) and ScatterNd(indices, updates, shape) move the same slices in
// opposite directions; repeated indices sum in ScatterNd, as their gradients must.
absl::Status GatherNdGrad(const Scope& scope, const Operation& op, const GradList& grads,
                          GradList* out) {
  const Output indices = op.input(1);
  auto shape = ops::Shape(scope, op.input(0), ops::Shape::OutType(indices.type()));
  out->push_back(ops::ScatterNd(scope, indices, grads[0], shape));
  out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("GatherNd", GatherNdGrad);

absl::Status ScatterNdGrad(const Scope& scope, const Operation& op, const GradList& grads,
                           GradList* out) {
  out->push_back(NoGradient());
  out->push_back(ops::GatherNd(scope, grads[0], op.input(0)));
  out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("ScatterNd", ScatterNdGrad);

absl::Status ReverseSequenceGrad(const Scope& scope, const Operation& op, const GradList& grads,
                                 GradList* out) {
  int64_t seq_dim = 0, batch_dim = 0;
  RETURN_IF_ERROR(GetNodeAttr(op.node()->attrs(), "seq_dim", &seq_dim));
  RETURN_IF_ERROR(GetNodeAttr(op.node()->attrs(), "batch_dim", &batch_dim));
  out->push_back(ops::ReverseSequence(scope, grads[0], op.input(1), seq_dim,
                                      ops::ReverseSequence::BatchDim(batch_dim)));
  out->push_back(NoGradient());
  return scope.status();
}
REGISTER_GRADIENT_OP("ReverseSequence", ReverseSequenceGrad);

}  // namespace
}  // namespace gradients
}  // namespace sluice
