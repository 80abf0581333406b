// Advisories of the TensorList ops (EmptyTensorList, TensorListReserve, TensorListFromTensor,
// TensorListConcatV2, TensorListResize, TensorListScatter, TensorListScatterV2, TensorListSplit).
// Expectations are TensorFlow 2.21's, from check_with_tensorflow.py; a list is fetched through
// TensorListLength.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "tests/advisories/advisory_case.h"

namespace sluice {
namespace advisories {
namespace {

constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;

// Fetches the length of the list the op makes.
std::string ListLength(GraphDef* graph, const std::string& list) {
  AddNode(graph, "length", "TensorListLength", {list});
  return "length:0";
}

// A list of the three float scalars 1, 2, 3, made from Consts.
std::string ListOfScalars(GraphDef* graph) {
  AddConst(graph, "elements", Values<float>({1, 2, 3}));
  AddConst(graph, "element_shape", Scalar<int32_t>(-1));
  NodeDef* list = AddNode(graph, "list", "TensorListFromTensor", {"elements", "element_shape"});
  AddNodeAttr("element_dtype", DT_FLOAT, list);
  AddNodeAttr("shape_type", DT_INT32, list);
  return "list:0";
}

TEST(Advisories, Tfsa2022_122_EmptyTensorListRank2ElementShape) {
  // An element_shape of rank 2 (not a shape vector) failed a CHECK.
  AdvisoryCase c("EmptyTensorList");
  c.Input(Values<int32_t>({}, {1, 0})).Input(Scalar<int32_t>(1));
  c.Attr("element_dtype", DT_INT32).Attr("shape_type", DT_INT32).FetchThrough(ListLength);
  ExpectFailsBothWays(c, kInvalid);
}

TEST(Advisories, Tfsa2022_128_TensorListFromTensorRank2ElementShape) {
  // The same for TensorListFromTensor.
  AdvisoryCase c("TensorListFromTensor");
  c.Input(Zeros(DT_FLOAT, {6, 6, 2})).Input(Zeros(DT_INT64, {6, 9}));
  c.Attr("element_dtype", DT_FLOAT).Attr("shape_type", DT_INT64).FetchThrough(ListLength);
  ExpectFailsBothWays(c, kInvalid);
}

TEST(Advisories, Tfsa2022_154_TensorListConcatOfScalars) {
  // Concatenating a list of scalars with element_shape [] crashed.
  AdvisoryCase c("TensorListConcatV2");
  c.InputFrom(ListOfScalars).Input(Values<int32_t>({})).Input(Values<int64_t>({}));
  c.Attr("element_dtype", DT_FLOAT).Attr("shape_type", DT_INT32);
  ExpectFailsBothWays(c, kInvalid);
}

TEST(Advisories, Tfsa2022_155_TensorListResizeNonScalarSize) {
  // A size that is not a scalar failed a CHECK.
  AdvisoryCase c("TensorListResize");
  c.InputFrom(ListOfScalars).Input(Zeros(DT_INT32, {0, 2, 3, 3})).FetchThrough(ListLength);
  ExpectFailsBothWays(c, kInvalid);
}

TEST(Advisories, Tfsa2022_129_TensorListScatterRank3ElementShape) {
  // An element_shape of rank 3 (not a shape vector) failed a CHECK, in both scatter ops
  // (TFSA-2022-170 is the same in eager mode).
  AdvisoryCase scatter("TensorListScatter");
  scatter.Input(Zeros(DT_FLOAT, {2, 2, 2}))
      .Input(Zeros(DT_INT32, {2, 2, 2}))
      .Input(Zeros(DT_INT32, {2, 2, 2}));
  scatter.Attr("element_dtype", DT_FLOAT).Attr("shape_type", DT_INT32).FetchThrough(ListLength);
  ExpectFailsBothWays(scatter, kInvalid);
  AdvisoryCase scatter_v2("TensorListScatterV2");
  scatter_v2.Input(Zeros(DT_FLOAT, {2, 2, 2}))
      .Input(Zeros(DT_INT32, {2, 2, 2}))
      .Input(Zeros(DT_INT32, {2, 2, 2}))
      .Input(Scalar<int32_t>(2));
  scatter_v2.Attr("element_dtype", DT_FLOAT).Attr("shape_type", DT_INT32).FetchThrough(ListLength);
  ExpectFailsBothWays(scatter_v2, kInvalid);
}

TEST(Advisories, Tfsa2023_181_TensorListSplitLengthsShortOfTensor) {
  // lengths [0] for a one-element tensor (a division by zero under XLA): the lengths must
  // add up to the tensor's first dimension.
  AdvisoryCase c("TensorListSplit");
  c.Input(Values<float>({1})).Input(Scalar<int32_t>(-1)).Input(Values<int64_t>({0}));
  c.Attr("element_dtype", DT_FLOAT).Attr("shape_type", DT_INT32).FetchThrough(ListLength);
  ExpectFailsBothWays(c, kInvalid);
}

TEST(Advisories, Tfsa2022_088_TensorListReserveVectorNumElements) {
  // A num_elements of two elements (not one) failed a CHECK reading it as a scalar.
  AdvisoryCase c("TensorListReserve");
  c.Input(Values<int32_t>({1, 1})).Input(Values<int32_t>({1, 1}));
  c.Attr("element_dtype", DT_FLOAT).Attr("shape_type", DT_INT32).FetchThrough(ListLength);
  ExpectFailsBothWays(c, kInvalid);
}

TEST(Advisories, Tfsa2021_117_TensorListReserveNegativeNumElements) {
  // A num_elements of -1 resized the list's vector to a negative size and aborted.
  AdvisoryCase c("TensorListReserve");
  c.Input(Values<int32_t>({1})).Input(Scalar<int32_t>(-1));
  c.Attr("element_dtype", DT_INT32).Attr("shape_type", DT_INT32).FetchThrough(ListLength);
  ExpectFailsBothWays(c, kInvalid, "non negative");
}

}  // namespace
}  // namespace advisories
}  // namespace sluice
