// Gradient function of Einsum, the one linear-algebra op TensorFlow's C++ registry
// differentiates. Contractions, transposes and generalized traces are linear maps whose
// vector-Jacobian products are einsums themselves (the equation with the differentiated
// operand's subscripts moved to the output); labels summed away ("reduced": in one operand
// only) are broadcast back separately, and batch dimensions an ellipsis broadcast are summed.
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "cc_api/const_op.h"
#include "cc_api/grad_op_registry.h"
#include "cc_api/gradients.h"
#include "cc_api/gradients/grad_helpers.h"
#include "cc_api/standard_ops.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/op/node_def_util.h"

namespace sluice {
namespace gradients {
namespace {

using GradList = std::vector<Output>;

constexpr absl::string_view kEllipsis = "...";

// A set of labels, in label order (the order the reduced labels are prepended in).
using LabelSet = std::set<char>;

// The axis of `label` in an operand with `subscripts`: from the front before an ellipsis,
// negative (from the back) after it. The leftmost occurrence counts.
std::optional<int> AxisOfLabel(absl::string_view subscripts, char label) {
  std::vector<absl::string_view> halves = absl::StrSplit(subscripts, kEllipsis);
  size_t at = halves[0].find(label);
  if (at != absl::string_view::npos) return static_cast<int>(at);
  if (halves.size() < 2) return std::nullopt;
  at = halves[1].find(label);
  if (at == absl::string_view::npos) return std::nullopt;
  return static_cast<int>(at) - static_cast<int>(halves[1].size());
}

// The labels of `subscripts` that are not in `removed`, in order.
std::string WithoutLabels(absl::string_view subscripts, const LabelSet& removed) {
  std::string kept;
  for (char c : subscripts) {
    if (!removed.count(c)) kept.push_back(c);
  }
  return kept;
}

// The gradient of the unary einsum "input_subs->output_subs" with respect to its input,
// where the labels `reduced` of the input are summed away.
absl::Status ReducedEinsumGrad(const Scope& scope, const Output& dy, absl::string_view output_subs,
                               absl::string_view input_subs, const Output& input_shape,
                               const LabelSet& reduced, Output* dx) {
  const std::string reduced_subs(reduced.begin(), reduced.end());
  std::vector<int> axes;
  std::vector<Output> dims;
  auto rank = ops::Size(scope, input_shape);
  for (char label : reduced_subs) {
    const std::optional<int> axis = AxisOfLabel(input_subs, label);
    if (!axis.has_value()) {
      return absl::InternalError(absl::StrCat("Missing axis", std::string(1, label)));
    }
    axes.push_back(*axis);
    dims.push_back(ops::Gather(
        scope, input_shape,
        *axis < 0 ? Output(ops::Add(scope, rank, *axis)) : Output(ops::Const(scope, *axis))));
  }
  const LabelSet input_labels(input_subs.begin(), input_subs.end());
  const LabelSet output_labels(output_subs.begin(), output_subs.end());
  const bool repeated_labels =
      input_labels.size() + output_labels.size() < input_subs.size() + output_subs.size();
  // A plain sum ("abcd->ac"): dy broadcast back over the summed axes.
  if (!repeated_labels && WithoutLabels(input_subs, reduced) == output_subs) {
    Tensor axes_tensor(DT_INT32, TensorShape({static_cast<int64_t>(axes.size())}));
    for (size_t i = 0; i < axes.size(); ++i) axes_tensor.flat<int32_t>()(i) = axes[i];
    auto kept = ReducedShapeKeepingDims(scope, input_shape, ops::Const(scope, axes_tensor));
    *dx = ops::BroadcastTo(scope, ops::Reshape(scope, dy, kept), input_shape);
    return scope.status();
  }
  // Traces or transposes too ("aabbcd->ca"): dy broadcast along the reduced labels put in
  // front ("bdca"), then the einsum "bdca->aabbcd" places it.
  auto dy_shape = ops::Shape(scope, dy);
  auto widened_shape = ops::Concat(scope, {ops::Stack(scope, dims), dy_shape}, 0);
  auto ones_then_dy_shape = ops::Concat(
      scope, {ops::Fill(scope, ops::Const(scope, {static_cast<int>(dims.size())}), 1), dy_shape},
      0);
  auto widened =
      ops::BroadcastTo(scope, ops::Reshape(scope, dy, ones_then_dy_shape), widened_shape);
  *dx = ops::Einsum(scope, {widened}, absl::StrCat(reduced_subs, output_subs, "->", input_subs));
  return scope.status();
}

// The gradient of a binary einsum with respect to the operand with `input_subs`, before any
// summing over broadcast batch dimensions.
absl::Status BinaryEinsumGrad(const Scope& scope, const Output& dy, const Output& other,
                              const Output& input_shape, absl::string_view input_subs,
                              absl::string_view other_subs, absl::string_view output_subs,
                              Output* dx) {
  LabelSet reduced(input_subs.begin(), input_subs.end());
  for (char c : output_subs) reduced.erase(c);
  for (char c : other_subs) reduced.erase(c);
  reduced.erase('.');
  const std::string left_subs = WithoutLabels(input_subs, reduced);
  Output partial =
      ops::Einsum(scope, {dy, other}, absl::StrCat(output_subs, ",", other_subs, "->", left_subs));
  if (reduced.empty()) {
    *dx = partial;
    return scope.status();
  }
  return ReducedEinsumGrad(scope, partial, left_subs, input_subs, input_shape, reduced, dx);
}

// The dimensions of `shape` an ellipsis in `subscripts` stands for.
Output EllipsisDims(const Scope& scope, const Output& shape, absl::string_view subscripts) {
  const size_t start = subscripts.find(kEllipsis);
  const int after = static_cast<int>(subscripts.size() - start - kEllipsis.size());
  auto size = ops::Sub(scope, ops::Size(scope, shape), static_cast<int>(start) + after);
  return ops::Slice(scope, shape, ops::Const(scope, {static_cast<int>(start)}),
                    ops::ExpandDims(scope, size, 0));
}

absl::Status EinsumGrad(const Scope& scope, const Operation& op, const GradList& grads,
                        GradList* out) {
  std::string equation;
  RETURN_IF_ERROR(GetNodeAttr(op.node()->attrs(), "equation", &equation));
  std::vector<std::string> sides = absl::StrSplit(equation, "->");
  if (sides.size() != 2) {
    return absl::InvalidArgumentError("Equation must contain a single ->");
  }
  const std::string& input_subs = sides[0];
  const std::string& output_subs = sides[1];
  const Output dy = grads[0];

  if (op.num_inputs() == 1) {
    const Output x = op.input(0);
    LabelSet reduced(input_subs.begin(), input_subs.end());
    for (char c : output_subs) reduced.erase(c);
    reduced.erase('.');
    if (reduced.empty()) {
      out->push_back(ops::Einsum(scope, {dy}, absl::StrCat(output_subs, "->", input_subs)));
      return scope.status();
    }
    Output dx;
    RETURN_IF_ERROR(
        ReducedEinsumGrad(scope, dy, output_subs, input_subs, ops::Shape(scope, x), reduced, &dx));
    out->push_back(dx);
    return scope.status();
  }

  std::vector<std::string> operands = absl::StrSplit(input_subs, ',');
  if (operands.size() != 2) return absl::InvalidArgumentError("Only 2 inputs are supported");
  std::string x_subs = operands[0], y_subs = operands[1];
  // "...ij,jk->...ik" is valid with x alone having batch dimensions, but its gradient's
  // equation would have an ellipsis in the output only: give both operands one.
  const bool output_ellipsis = absl::StrContains(output_subs, kEllipsis);
  if (output_ellipsis) {
    if (!absl::StrContains(x_subs, kEllipsis)) absl::StrAppend(&x_subs, kEllipsis);
    if (!absl::StrContains(y_subs, kEllipsis)) absl::StrAppend(&y_subs, kEllipsis);
  }
  const Output x = ConjugateIfComplex(scope, op.input(0));
  const Output y = ConjugateIfComplex(scope, op.input(1));
  auto x_shape = ops::Shape(scope, x);
  auto y_shape = ops::Shape(scope, y);
  Output dx, dy_other;
  RETURN_IF_ERROR(BinaryEinsumGrad(scope, dy, y, x_shape, x_subs, y_subs, output_subs, &dx));
  RETURN_IF_ERROR(BinaryEinsumGrad(scope, dy, x, y_shape, y_subs, x_subs, output_subs, &dy_other));
  if (!output_ellipsis) {
    out->push_back(dx);
    out->push_back(dy_other);
    return scope.status();
  }
  // Sum over the batch dimensions each operand was broadcast along.
  auto axes = ops::internal::BroadcastGradientArgs(scope, EllipsisDims(scope, x_shape, x_subs),
                                                   EllipsisDims(scope, y_shape, y_subs));
  const int x_start = static_cast<int>(x_subs.find("..."));
  const int y_start = static_cast<int>(y_subs.find("..."));
  out->push_back(
      ops::Reshape(scope, ops::Sum(scope, dx, ops::Add(scope, axes.r0, x_start)), x_shape));
  out->push_back(
      ops::Reshape(scope, ops::Sum(scope, dy_other, ops::Add(scope, axes.r1, y_start)), y_shape));
  return scope.status();
}
REGISTER_GRADIENT_OP("Einsum", EinsumGrad);

}  // namespace
}  // namespace gradients
}  // namespace sluice
