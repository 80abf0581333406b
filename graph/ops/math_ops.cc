// Math ops that are not plain elementwise maps: sums of many tensors, selection, casts,
// clipping, running sums, ranges and matrix products.
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/op/op_registry.h"
#include "graph/shape/common_shape_fns.h"
#include "graph/shape/shape_inference.h"

namespace sluice {
namespace {

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

// The length of Range(start, limit, delta), computed in T as TensorFlow does (so half and
// bfloat16 ranges round like theirs), with integer magnitudes taken in uint64 so that no
// intermediate overflows.
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
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  if constexpr (std::is_integral_v<T>) {
    auto magnitude = [](T v) {
      return v < 0 ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
    };
    const uint64_t span = start <= limit
                              ? static_cast<uint64_t>(limit) - static_cast<uint64_t>(start)
                              : static_cast<uint64_t>(start) - static_cast<uint64_t>(limit);
    const uint64_t step = magnitude(delta);
    const uint64_t n = span / step + (span % step != 0 ? 1 : 0);
    if (n > static_cast<uint64_t>(kMax)) {
      return errors::InvalidArgument("Requires ((limit - start) / delta) <= ", kMax);
    }
    *length = static_cast<int64_t>(n);
  } else {
    const double n =
        static_cast<double>(Eigen::numext::ceil(Eigen::numext::abs(T((limit - start) / delta))));
    // `!(n <= max)` also rejects NaN.
    if (!(n <= static_cast<double>(kMax))) {
      return errors::InvalidArgument("Requires ((limit - start) / delta) <= ", kMax);
    }
    *length = static_cast<int64_t>(n);
  }
  return absl::OkStatus();
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

REGISTER_OP("Range")
    .Input("start: Tidx")
    .Input("limit: Tidx")
    .Input("delta: Tidx")
    .Output("output: Tidx")
    .Attr(
        "Tidx: {bfloat16, half, float, double, int8, int16, int32, int64, uint16, uint32, "
        "uint64} = DT_INT32")
    .SetShapeFn(RangeShape);

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

}  // namespace sluice
