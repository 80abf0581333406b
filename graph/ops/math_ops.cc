// Math ops that are not plain elementwise maps: sums of many tensors, selection, casts,
// clipping, running sums and products, ranges, histograms of integers (Bincount) and matrix
// products (MatMul, BatchMatMul, Einsum).
#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "graph/core/errors.h"
#include "graph/core/integer_tensor.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/op/op_registry.h"
#include "graph/ops/range_count.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"

namespace sluice {
namespace {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;
using shape_inference::UnchangedShape;

// All inputs must have compatible shapes; the output is what they say together.
absl::Status AddNShape(InferenceContext* c) {
  ShapeHandle merged = c->input(c->num_inputs() - 1);
  for (int i = c->num_inputs() - 2; i >= 0; --i) {
    absl::Status s = c->Merge(c->input(i), merged, &merged);
    if (!s.ok()) {
      return errors::AppendToMessage(s, " From merging shape ", i, " with other shapes.");
    }
  }
  c->set_output(0, merged);
  return absl::OkStatus();
}

// `t` and `e` must agree. A scalar condition picks one of them whole; a vector condition
// picks rows, so it must match their first dimension; otherwise it must match them exactly.
absl::Status SelectShape(InferenceContext* c) {
  ShapeHandle data;
  RETURN_IF_ERROR(c->Merge(c->input(1), c->input(2), &data));
  ShapeHandle cond = c->input(0);
  if (!c->RankKnown(cond) || !c->RankKnown(data)) {
    c->set_output(0, data);
    return absl::OkStatus();
  }
  const int32_t cond_rank = c->Rank(cond);
  const int32_t data_rank = c->Rank(data);
  if (cond_rank == 1 && data_rank > 0) {
    ShapeHandle unused;
    RETURN_IF_ERROR(c->Merge(cond, c->Vector(c->Dim(data, 0)), &unused));
  } else if (cond_rank != 0) {
    RETURN_IF_ERROR(c->Merge(data, cond, &data));
  }
  c->set_output(0, data);
  return absl::OkStatus();
}

// SelectV2 broadcasts all three inputs against each other.
absl::Status SelectV2Shape(InferenceContext* c) {
  ShapeHandle values;
  RETURN_IF_ERROR(shape_inference::BroadcastBinaryOpOutputShapeFnHelper(
      c, c->input(1), c->input(2),
      /*incompatible_shape_error=*/true, &values));
  ShapeHandle out;
  RETURN_IF_ERROR(shape_inference::BroadcastBinaryOpOutputShapeFnHelper(
      c, c->input(0), values,
      /*incompatible_shape_error=*/true, &out));
  c->set_output(0, out);
  return absl::OkStatus();
}

// `v` in a form absl::StrCat prints as a number (int8 would print as a character, and
// half / bfloat16 not at all).
template <typename T>
auto Printable(T v) {
  if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    return static_cast<int64_t>(v);
  } else if constexpr (std::is_integral_v<T>) {
    return static_cast<uint64_t>(v);
  } else {
    return static_cast<double>(v);
  }
}

// The length of Range(start, limit, delta): the quotient is taken in T as TensorFlow does (so
// half and bfloat16 ranges round like theirs), and RangeCount, shared with the kernel, counts
// it.
template <typename T>
absl::Status RangeLength(T start, T limit, T delta, int64_t* length) {
  const T zero = T(0);
  if (start > limit && delta > zero) {
    return errors::InvalidArgument("Requires start <= limit when delta > 0: ", Printable(start),
                                   "/", Printable(limit));
  }
  if (start < limit && delta < zero) {
    return errors::InvalidArgument("Requires start >= limit when delta < 0: ", Printable(start),
                                   "/", Printable(limit));
  }
  if (delta == zero) return errors::InvalidArgument("Requires delta != 0");
  return RangeCount(start, limit, delta, length);
}

template <typename T>
absl::Status RangeLengthFromTensors(const Tensor& start, const Tensor& limit, const Tensor& delta,
                                    int64_t* length) {
  for (const Tensor* t : {&start, &limit, &delta}) {
    if (t->dtype() != DataTypeToEnum<T>::value || t->NumElements() != 1) {
      return errors::InvalidArgument("Range's inputs must be scalars of type ",
                                     DataTypeString(DataTypeToEnum<T>::value));
    }
  }
  return RangeLength<T>(start.unaligned_flat<T>()(0), limit.unaligned_flat<T>()(0),
                        delta.unaligned_flat<T>()(0), length);
}

// A vector of `num` elements; start, stop and num are scalars and a known num is positive.
absl::Status LinSpaceShape(InferenceContext* c) {
  ShapeHandle unused;
  const char* const kNames[] = {"start", "stop", "num"};
  for (int i = 0; i < 3; ++i) {
    absl::Status s = c->WithRank(c->input(i), 0, &unused);
    if (!s.ok()) return errors::AppendToMessage(s, " for '", kNames[i], "'");
  }
  const Tensor* num_t = c->input_tensor(2);
  if (num_t == nullptr) {
    c->set_output(0, c->Vector(InferenceContext::kUnknownDim));
    return absl::OkStatus();
  }
  int64_t num = 0;
  RETURN_IF_ERROR(IntegerTensorScalar(*num_t, &num));
  if (num <= 0) return errors::InvalidArgument("Requires num > 0: ", num);
  c->set_output(0, c->Vector(num));
  return absl::OkStatus();
}

absl::Status RangeShape(InferenceContext* c) {
  ShapeHandle unused;
  const char* const kNames[] = {"start", "limit", "delta"};
  for (int i = 0; i < 3; ++i) {
    absl::Status s = c->WithRank(c->input(i), 0, &unused);
    if (!s.ok()) return errors::AppendToMessage(s, " for '", kNames[i], "'");
  }
  DataType dtype;
  RETURN_IF_ERROR(c->GetAttr("Tidx", &dtype));
  const Tensor* start = c->input_tensor(0);
  const Tensor* limit = c->input_tensor(1);
  const Tensor* delta = c->input_tensor(2);
  if (start == nullptr || limit == nullptr || delta == nullptr) {
    c->set_output(0, c->Vector(InferenceContext::kUnknownDim));
    return absl::OkStatus();
  }
  int64_t length = 0;
  absl::Status s;
  switch (dtype) {
#define SLUICE_RANGE_CASE(T)                                        \
  case DataTypeToEnum<T>::value:                                    \
    s = RangeLengthFromTensors<T>(*start, *limit, *delta, &length); \
    break;
    SLUICE_RANGE_CASE(float)
    SLUICE_RANGE_CASE(double)
    SLUICE_RANGE_CASE(half)
    SLUICE_RANGE_CASE(bfloat16)
    SLUICE_RANGE_CASE(int8_t)
    SLUICE_RANGE_CASE(int16_t)
    SLUICE_RANGE_CASE(int32_t)
    SLUICE_RANGE_CASE(int64_t)
    SLUICE_RANGE_CASE(uint16_t)
    SLUICE_RANGE_CASE(uint32_t)
    SLUICE_RANGE_CASE(uint64_t)
#undef SLUICE_RANGE_CASE
    default:
      return errors::InvalidArgument("Unsupported dtype for Range: ", DataTypeString(dtype));
  }
  RETURN_IF_ERROR(s);
  c->set_output(0, c->Vector(length));
  return absl::OkStatus();
}

// Bincount: [size] when the scalar size is known (and non-negative), else a vector.
absl::Status BincountShape(InferenceContext* c) {
  ShapeHandle unused;
  RETURN_IF_ERROR(c->WithRank(c->input(1), 0, &unused));
  const Tensor* size = c->input_tensor(1);
  if (size == nullptr) {
    c->set_output(0, c->UnknownShapeOfRank(1));
    return absl::OkStatus();
  }
  int64_t size_val = 0;
  RETURN_IF_ERROR(c->GetScalarFromTensor(size, &size_val));
  if (size_val < 0) {
    return errors::InvalidArgument("size (", size_val, ") must be non-negative");
  }
  c->set_output(0, c->Vector(size_val));
  return absl::OkStatus();
}

// DenseBincount: input of rank <= 2. A known (non-negative) size gives [rows, size] for a
// matrix, [size] for a vector or scalar; an unknown size leaves dims unknown but keeps the
// input's rank.
absl::Status DenseBincountShape(InferenceContext* c) {
  ShapeHandle input;
  RETURN_IF_ERROR(c->WithRankAtMost(c->input(0), 2, &input));
  ShapeHandle unused;
  RETURN_IF_ERROR(c->WithRank(c->input(1), 0, &unused));
  const Tensor* size = c->input_tensor(1);
  const bool rank_known = c->RankKnown(input);
  if (size == nullptr) {
    c->set_output(0, rank_known ? c->UnknownShapeOfRank(c->Rank(input)) : c->UnknownShape());
    return absl::OkStatus();
  }
  int64_t size_val = 0;
  RETURN_IF_ERROR(c->GetScalarFromTensor(size, &size_val));
  if (size_val < 0) {
    return errors::InvalidArgument("size (", size_val, ") must be non-negative");
  }
  if (!rank_known) {
    c->set_output(0, c->UnknownShape());
  } else if (c->Rank(input) == 2) {
    c->set_output(0, c->MakeShape({c->Dim(input, 0), size_val}));
  } else {
    c->set_output(0, c->Vector(size_val));
  }
  return absl::OkStatus();
}

// ---- Einsum --------------------------------------------------------------------------
//
// The equation is "<in0>->out" or "<in0>,<in1>->out". Each subscript is a string of
// one-character labels (any character but '.') with at most one ellipsis "...", which stands
// for the dims the labels leave over (numpy-broadcast between the two inputs). Labels are not
// restricted to letters, as in TensorFlow's kernel. The kernel
// (kernels/cpu/linalg/einsum_op.cc) parses the same form.

// Splits the equation into input subscripts and the output subscript.
absl::Status SplitEinsumEquation(const std::string& equation, std::vector<std::string>* inputs,
                                 std::string* output) {
  const std::vector<std::string> sides = absl::StrSplit(equation, "->");
  if (sides.size() != 2) {
    return errors::InvalidArgument("Expecting exactly one '->' in einsum equation: ", equation);
  }
  *inputs = absl::StrSplit(sides[0], ',');
  *output = sides[1];
  if (inputs->size() != 1 && inputs->size() != 2) {
    return errors::InvalidArgument("Expecting 1 or 2 input subscripts in equation '", equation,
                                   "' but got: ", inputs->size());
  }
  return absl::OkStatus();
}

// Whether `subscript` holds an ellipsis; periods elsewhere are an error.
absl::Status FindEinsumEllipsis(absl::string_view subscript, bool* has_ellipsis) {
  const size_t periods = std::count(subscript.begin(), subscript.end(), '.');
  if (periods != 0 && periods != 3) {
    return errors::InvalidArgument("Expected at most one ellipsis (...), but found ", periods,
                                   " periods (.) in the subscript: ", subscript);
  }
  if (periods == 3 && subscript.find("...") == absl::string_view::npos) {
    return errors::InvalidArgument("Periods found outside of ellipsis in subscript: ", subscript);
  }
  *has_ellipsis = periods == 3;
  return absl::OkStatus();
}

// Each label's dimension is merged over all its occurrences; the dims under the inputs'
// ellipses broadcast to the output's ellipsis. Unknown ranks leave their labels unknown, and
// an unknown broadcast shape makes an output with an ellipsis of unknown rank.
absl::Status EinsumShape(InferenceContext* c) {
  std::string equation;
  RETURN_IF_ERROR(c->GetAttr("equation", &equation));
  std::vector<std::string> inputs;
  std::string output;
  RETURN_IF_ERROR(SplitEinsumEquation(equation, &inputs, &output));
  if (c->num_inputs() != static_cast<int>(inputs.size())) {
    return errors::InvalidArgument("Expected ", inputs.size(), " inputs for equation ", equation,
                                   " but got: ", c->num_inputs());
  }
  absl::flat_hash_map<char, DimensionHandle> label_dims;
  std::vector<ShapeHandle> ellipsis_shapes(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::string& labels = inputs[i];
    bool has_ellipsis = false;
    RETURN_IF_ERROR(FindEinsumEllipsis(labels, &has_ellipsis));
    const int64_t named = static_cast<int64_t>(labels.size()) - (has_ellipsis ? 3 : 0);
    ShapeHandle shape = c->input(i);
    if (c->RankKnown(shape)) {
      const absl::Status s = has_ellipsis ? c->WithRankAtLeast(shape, named, &shape)
                                          : c->WithRank(shape, named, &shape);
      if (!s.ok()) return errors::AppendToMessage(s, " for input ", i, " of equation ", equation);
    }
    const bool rank_known = c->RankKnown(shape);
    const int64_t rank = c->Rank(shape);
    ellipsis_shapes[i] = c->Scalar();
    // Axis of label k: k before the ellipsis, k + (rank - size) after it.
    int64_t shift = 0;
    for (int64_t k = 0; k < static_cast<int64_t>(labels.size()); ++k) {
      if (labels[k] == '.') {
        if (rank_known) {
          RETURN_IF_ERROR(c->Subshape(shape, k, k + rank - named, &ellipsis_shapes[i]));
        } else {
          ellipsis_shapes[i] = c->UnknownShape();
        }
        shift = rank - static_cast<int64_t>(labels.size());
        k += 2;
        continue;
      }
      const DimensionHandle dim = rank_known ? c->Dim(shape, k + shift) : c->UnknownDim();
      auto [it, inserted] = label_dims.try_emplace(labels[k], dim);
      if (!inserted) RETURN_IF_ERROR(c->Merge(it->second, dim, &it->second));
    }
  }
  ShapeHandle broadcast = ellipsis_shapes[0];
  if (ellipsis_shapes.size() == 2) {
    RETURN_IF_ERROR(shape_inference::BroadcastBinaryOpOutputShapeFnHelper(
        c, ellipsis_shapes[0], ellipsis_shapes[1], /*incompatible_shape_error=*/true, &broadcast));
  }
  bool output_has_ellipsis = false;
  RETURN_IF_ERROR(FindEinsumEllipsis(output, &output_has_ellipsis));
  if (output_has_ellipsis && !c->RankKnown(broadcast)) {
    c->set_output(0, c->UnknownShape());
    return absl::OkStatus();
  }
  if (!output_has_ellipsis) {
    const absl::Status s = c->WithRankAtMost(broadcast, 0, &broadcast);
    if (!s.ok()) {
      return errors::AppendToMessage(s, " for einsum equation '", equation,
                                     "' without ellipsis (...) in the output subscripts where "
                                     "input(s) have non-empty broadcasting shape");
    }
  }
  std::vector<DimensionHandle> dims;
  for (size_t k = 0; k < output.size(); ++k) {
    if (output[k] == '.') {
      for (int32_t d = 0; d < c->Rank(broadcast); ++d) dims.push_back(c->Dim(broadcast, d));
      k += 2;
      continue;
    }
    const auto it = label_dims.find(output[k]);
    if (it == label_dims.end()) {
      return errors::InvalidArgument("Einsum output subscripts for equation '", equation,
                                     "' has label '", std::string(1, output[k]),
                                     "' which is not present in the input subscripts");
    }
    dims.push_back(it->second);
  }
  c->set_output(0, c->MakeShape(dims));
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("AddN")
    .Input("inputs: N * T")
    .Output("sum: T")
    .Attr("N: int >= 1")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, "
        "qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64, "
        "variant}")
    .SetIsCommutative()
    .SetIsAggregate()
    .SetShapeFn(AddNShape);

REGISTER_OP("Select")
    .Input("condition: bool")
    .Input("t: T")
    .Input("e: T")
    .Output("output: T")
    .Attr("T: type")
    .SetShapeFn(SelectShape);

REGISTER_OP("SelectV2")
    .Input("condition: bool")
    .Input("t: T")
    .Input("e: T")
    .Output("output: T")
    .Attr("T: type")
    .SetShapeFn(SelectV2Shape);

REGISTER_OP("Cast")
    .Input("x: SrcT")
    .Output("y: DstT")
    .Attr("SrcT: type")
    .Attr("DstT: type")
    .Attr("Truncate: bool = false")
    .SetShapeFn(UnchangedShape);

// TensorFlow infers only from `t`: the bounds may be scalars or of t's shape.
REGISTER_OP("ClipByValue")
    .Input("t: T")
    .Input("clip_value_min: T")
    .Input("clip_value_max: T")
    .Output("output: T")
    .Attr("T: numbertype")
    .SetShapeFn(UnchangedShape);

REGISTER_OP("Cumsum")
    .Input("x: T")
    .Input("axis: Tidx")
    .Output("out: T")
    .Attr("exclusive: bool = false")
    .Attr("reverse: bool = false")
    .Attr("T: numbertype")
    .Attr("Tidx: {int32, int64} = DT_INT32")
    .SetShapeFn(UnchangedShape);

REGISTER_OP("Cumprod")
    .Input("x: T")
    .Input("axis: Tidx")
    .Output("out: T")
    .Attr("exclusive: bool = false")
    .Attr("reverse: bool = false")
    .Attr("T: numbertype")
    .Attr("Tidx: {int32, int64} = DT_INT32")
    .SetShapeFn(UnchangedShape);

// Counts (or sums the weights of) each value of arr in [0, size); larger values are dropped,
// negative ones are an error. Empty weights count 1 per value.
REGISTER_OP("Bincount")
    .Input("arr: int32")
    .Input("size: int32")
    .Input("weights: T")
    .Attr("T: {int32, int64, float, double}")
    .Output("bins: T")
    .SetShapeFn(BincountShape);

// Bincount of a vector, or of each row of a matrix; binary_output records presence (1) only.
REGISTER_OP("DenseBincount")
    .Input("input: Tidx")
    .Input("size: Tidx")
    .Input("weights: T")
    .Attr("Tidx: {int32, int64}")
    .Attr("T: {int32, int64, float, double}")
    .Attr("binary_output: bool = false")
    .Output("output: T")
    .SetShapeFn(DenseBincountShape);

REGISTER_OP("Range")
    .Input("start: Tidx")
    .Input("limit: Tidx")
    .Input("delta: Tidx")
    .Output("output: Tidx")
    .Attr(
        "Tidx: {bfloat16, half, float, double, int8, int16, int32, int64, uint16, uint32, "
        "uint64} = DT_INT32")
    .SetShapeFn(RangeShape);

// num evenly spaced values from start to stop, both included.
REGISTER_OP("LinSpace")
    .Input("start: T")
    .Input("stop: T")
    .Input("num: Tidx")
    .Output("output: T")
    .Attr("T: {bfloat16, half, float, double}")
    .Attr("Tidx: {int32, int64} = DT_INT32")
    .SetShapeFn(LinSpaceShape);

// ---- Matrix products -----------------------------------------------------------------

// grad_a/grad_b only tell kernels that the product is part of a gradient.
REGISTER_OP("MatMul")
    .Input("a: T")
    .Input("b: T")
    .Output("product: T")
    .Attr("transpose_a: bool = false")
    .Attr("transpose_b: bool = false")
    .Attr(
        "T: {bfloat16, half, float, double, int32, int64, uint8, uint16, uint32, uint64, "
        "complex64, complex128}")
    .Attr("grad_a: bool = false")
    .Attr("grad_b: bool = false")
    .SetShapeFn(shape_inference::MatMulShape);

REGISTER_OP("BatchMatMul")
    .Input("x: T")
    .Input("y: T")
    .Output("output: T")
    .Attr("T: {bfloat16, half, float, double, int32, int64, complex64, complex128}")
    .Attr("adj_x: bool = false")
    .Attr("adj_y: bool = false")
    .Attr("grad_x: bool = false")
    .Attr("grad_y: bool = false")
    .SetShapeFn(shape_inference::BatchMatMulShape);

REGISTER_OP("BatchMatMulV2")
    .Input("x: T")
    .Input("y: T")
    .Output("output: T")
    .Attr(
        "T: {bfloat16, half, float, double, int16, int32, int64, uint8, uint16, uint32, "
        "uint64, complex64, complex128}")
    .Attr("adj_x: bool = false")
    .Attr("adj_y: bool = false")
    .Attr("grad_x: bool = false")
    .Attr("grad_y: bool = false")
    .SetShapeFn(shape_inference::BatchMatMulV2Shape);

// V2 with operand and output types of their own (the kernels cast the operands to Tout).
REGISTER_OP("BatchMatMulV3")
    .Input("x: Ta")
    .Input("y: Tb")
    .Output("output: Tout")
    .Attr(
        "Ta: {bfloat16, half, float, double, uint8, int8, int16, int32, int64, complex64, "
        "complex128}")
    .Attr(
        "Tb: {bfloat16, half, float, double, uint8, int8, int16, int32, int64, complex64, "
        "complex128}")
    .Attr("Tout: {bfloat16, half, float, double, int16, int32, int64, complex64, complex128}")
    .Attr("adj_x: bool = false")
    .Attr("adj_y: bool = false")
    .Attr("grad_x: bool = false")
    .Attr("grad_y: bool = false")
    .SetShapeFn(shape_inference::BatchMatMulV2Shape);

// TensorFlow's CPU kernel takes one or two inputs (the equation says how many); T is any type,
// kernels exist for the floating-point, int32, int64 and complex types.
REGISTER_OP("Einsum")
    .Input("inputs: N * T")
    .Output("output: T")
    .Attr("equation: string")
    .Attr("N: int >= 1")
    .Attr("T: type")
    .SetShapeFn(EinsumShape);

}  // namespace sluice
