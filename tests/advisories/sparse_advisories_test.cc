// Advisories of the sparse ops (SparseConcat, SparseSplit, SparseFillEmptyRows(Grad),
// SparseDenseCwiseMul/Div, SparseAdd, SparseSparseMinimum/Maximum, SparseReshape,
// SparseReduceSum/Max, SparseTensorDenseAdd): sparse tensors whose indices, values and shape do
// not agree, or whose shape overflows. Expectations are TensorFlow 2.21's, from
// check_with_tensorflow.py.
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

TEST(Advisories, Tfsa2021_024_SparseConcatShapeOverflow) {
  // A shape of nine large dimensions overflowed TensorShape's element count (a CHECK).
  // TensorFlow's shape function refuses the Const graph (the shapes differ); its kernel reports
  // the overflow as INTERNAL before comparing the shapes, and Sluice's does since this case
  // (it reported the differing shapes first, INVALID_ARGUMENT).
  AdvisoryCase c("SparseConcat");
  c.InputList({Values<int64_t>({514, 514, 514, 514}, {2, 2}),
               Values<int64_t>({514, 530, 599, 877}, {2, 2})})
      .InputList({Zeros(DT_INT64, {0}), Zeros(DT_INT64, {0})})
      .InputList(
          {Values<int64_t>({442, 514, 514, 515, 606, 347, 943, 61, 2}), Zeros(DT_INT64, {9})});
  c.Attr("N", int64_t{2}).Attr("T", DT_INT64).Attr("concat_dim", int64_t{2});
  EXPECT_EQ(c.Run(Feed::kConst).code(), kInvalid) << c.Run(Feed::kConst);
  const absl::Status fed = c.Run(Feed::kPlaceholder);
  EXPECT_EQ(fed.code(), absl::StatusCode::kInternal) << fed;
  EXPECT_NE(std::string(fed.message()).find("Encountered overflow from large input shape."),
            std::string::npos)
      << fed;
}

AdvisoryCase SparseSplit(const Tensor& split_dim, const Tensor& indices, const Tensor& values,
                         const Tensor& shape, int64_t num_split) {
  AdvisoryCase c("SparseSplit");
  c.Input(split_dim).Input(indices).Input(values).Input(shape);
  c.Attr("num_split", num_split).Attr("T", values.dtype());
  return c;
}

TEST(Advisories, Tfsa2021_046_SparseSplitIndexOutsideShape) {
  // An index of 1 in a dimension of size 1 picked a slice past the end of the split.
  ExpectFailsBothWays(SparseSplit(Scalar<int64_t>(0), Values<int64_t>({1}, {1, 1}),
                                  Values<int64_t>({1}), Values<int64_t>({1}), 1),
                      kInvalid);
}

TEST(Advisories, Tfsa2021_071_SparseSplitShapeOverflow) {
  // A shape of (2^60 - 1, 2^60 - 1) overflowed TensorShape's element count (a CHECK).
  const int64_t big = (int64_t{1} << 60) - 1;
  ExpectFailsBothWays(
      SparseSplit(Scalar<int64_t>(1), Values<int64_t>({0, 0, 0, 1, 0, 2, 4, 3, 5, 0, 5, 1}, {6, 2}),
                  Values<float>({1, 1, 1, 1, 1, 1}), Values<int64_t>({big, big}), 2),
      kInvalid);
}

TEST(Advisories, Tfsa2022_029_SparseSplitVectorSplitDim) {
  // A split_dim of two elements (tf.sparse.split with a tuple axis) was read as a scalar.
  ExpectFailsBothWays(
      SparseSplit(Values<int64_t>({1, 2}), Values<int64_t>({0, 0, 0, 0, 1, 1}, {2, 3}),
                  Values<float>({1, 2}), Values<int64_t>({1, 32, 32}), 3),
      kInvalid);
}

TEST(Advisories, Tfsa2021_053_SparseFillEmptyRowsEmptyDenseShape) {
  // An empty dense_shape was read through a null pointer, by the kernel (-053) and by the shape
  // function (TFSA-2021-149, which the Const variant runs).
  AdvisoryCase c("SparseFillEmptyRows");
  c.Input(Zeros(DT_INT64, {0, 0}))
      .Input(Zeros(DT_INT64, {0}))
      .Input(Zeros(DT_INT64, {0}))
      .Input(Scalar<int64_t>(0));
  c.Attr("T", DT_INT64);
  ExpectFailsBothWays(c, kInvalid);
}

TEST(Advisories, Tfsa2021_172_SparseFillEmptyRowsFewerValuesThanIndices) {
  // Three indices with one value: the kernel read values past the end.
  AdvisoryCase c("SparseFillEmptyRows");
  c.Input(Values<int64_t>({0, 0, 0, 0, 0, 0}, {3, 2}))
      .Input(Values<std::string>({std::string(63, 's')}))
      .Input(Values<int64_t>({5, 3}))
      .Input(Scalar<std::string>("o"));
  c.Attr("T", DT_STRING);
  ExpectFailsBothWays(c, kInvalid);
}

AdvisoryCase FillEmptyRowsGrad(const Tensor& reverse_index_map, const Tensor& grad_values) {
  AdvisoryCase c("SparseFillEmptyRowsGrad");
  c.Input(reverse_index_map).Input(grad_values);
  c.Attr("T", grad_values.dtype());
  return c;
}

TEST(Advisories, Tfsa2020_021_SparseFillEmptyRowsGradIndexOutOfRange) {
  // reverse_index_map indexed grad_values unchecked: 5 is past its two elements.
  ExpectFailsBothWays(FillEmptyRowsGrad(Values<int64_t>({0, 5}), Values<float>({1, 2})), kInvalid);
}

TEST(Advisories, Tfsa2020_022_SparseFillEmptyRowsGradMatrixGradValues) {
  // grad_values of rank 2 was read as a vector (a CHECK).
  ExpectFailsBothWays(FillEmptyRowsGrad(Values<int64_t>({0, 1}), Values<float>({1, 2}, {1, 2})),
                      kInvalid);
}

TEST(Advisories, Tfsa2022_160_SparseFillEmptyRowsGradEmpty) {
  // Empty inputs failed a CHECK; the gradients are empty.
  const AdvisoryCase c = FillEmptyRowsGrad(Zeros(DT_INT64, {0}), Zeros(DT_FLOAT, {0}));
  for (Feed feed : {Feed::kConst, Feed::kPlaceholder}) {
    for (int output : {0, 1}) {
      std::vector<Tensor> out;
      ASSERT_TRUE(c.Run(feed, &out, output).ok()) << c.Run(feed, nullptr, output);
      EXPECT_EQ(out[0].shape(), output == 0 ? TensorShape({0}) : TensorShape({}));
      if (output == 1) EXPECT_EQ(Elements<float>(out[0]), std::vector<float>{0.0f});
    }
  }
}

AdvisoryCase SparseDenseCwise(const char* op, const Tensor& indices, const Tensor& values,
                              const Tensor& shape, const Tensor& dense) {
  AdvisoryCase c(op);
  c.Input(indices).Input(values).Input(shape).Input(dense);
  c.Attr("T", values.dtype());
  return c;
}

TEST(Advisories, Tfsa2021_056_SparseDenseCwiseMulIndicesOfNoColumns) {
  // Ten indices of zero columns, no values and a shape of two dimensions: only ranks were
  // checked.
  ExpectFailsBothWays(
      SparseDenseCwise("SparseDenseCwiseMul", Zeros(DT_INT64, {10, 0}), Zeros(DT_INT64, {0}),
                       Values<int64_t>({0, 0}), Zeros(DT_INT64, {0})),
      kInvalid);
}

TEST(Advisories, Tfsa2021_110_SparseDenseCwiseDivIntegerByZero) {
  // An integer division by a dense zero.
  ExpectFailsBothWays(
      SparseDenseCwise("SparseDenseCwiseDiv", Values<int64_t>({4}, {1, 1}), Values<int64_t>({-400}),
                       Values<int64_t>({647}), Values<int64_t>({0})),
      kInvalid);
}

TEST(Advisories, Tfsa2022_011_SparseDenseCwiseDivShapeOverflow) {
  // A shape of two dimensions of 92233720368 (overflowing the element count) for indices of
  // one column.
  ExpectFailsBothWays(
      SparseDenseCwise("SparseDenseCwiseDiv", Values<int64_t>({9}, {1, 1}), Values<int64_t>({5}),
                       Values<int64_t>({92233720368, 92233720368}), Values<int64_t>({4})),
      kInvalid);
}

TEST(Advisories, Tfsa2021_096_SparseAddEmptyShapes) {
  // Empty shapes, and indices of 97 columns for them, reached null pointers and wrote out of
  // bounds.
  AdvisoryCase c("SparseAdd");
  c.Input(Zeros(DT_INT64, {10, 97}))
      .Input(Zeros(DT_INT64, {10}))
      .Input(Zeros(DT_INT64, {0}))
      .Input(Zeros(DT_INT64, {0, 0}))
      .Input(Zeros(DT_INT64, {0}))
      .Input(Zeros(DT_INT64, {0}))
      .Input(Scalar<int64_t>(0));
  c.Attr("T", DT_INT64).Attr("Treal", DT_INT64);
  ExpectFailsBothWays(c, kInvalid);
}

AdvisoryCase SparseSparse(const char* op, const Tensor& a_indices, const Tensor& a_values,
                          const Tensor& a_shape, const Tensor& b_indices, const Tensor& b_values,
                          const Tensor& b_shape) {
  AdvisoryCase c(op);
  c.Input(a_indices).Input(a_values).Input(a_shape).Input(b_indices).Input(b_values).Input(b_shape);
  c.Attr("T", a_values.dtype());
  return c;
}

TEST(Advisories, Tfsa2021_097_SparseSparseMinimumIndicesWiderThanShape) {
  // Indices of 92 columns for a shape of one dimension.
  ExpectFailsBothWays(
      SparseSparse("SparseSparseMinimum",
                   Values<int64_t>(std::vector<int64_t>(45 * 92, 1), {45, 92}),
                   Values<int64_t>(std::vector<int64_t>(45, 1)), Values<int64_t>({1}),
                   Values<int64_t>({1}, {1, 1}), Values<int64_t>({1}), Values<int64_t>({1})),
      kInvalid);
}

TEST(Advisories, Tfsa2023_006_SparseSparseMaximumIndicesOfNoColumns) {
  // b's indices of zero columns, for a shape of one dimension, dereferenced a null pointer.
  ExpectFailsBothWays(
      SparseSparse("SparseSparseMaximum", Values<int64_t>({1}, {1, 1}), Values<float>({0.1f}),
                   Values<int64_t>({2}), Zeros(DT_INT64, {1, 0}), Values<float>({2}),
                   Values<int64_t>({2})),
      kInvalid);
}

AdvisoryCase SparseReshape(const Tensor& indices, const Tensor& shape, const Tensor& new_shape) {
  AdvisoryCase c("SparseReshape");
  c.Input(indices).Input(shape).Input(new_shape);
  return c;
}

TEST(Advisories, Tfsa2021_098_SparseReshapeIndicesNarrowerThanShape) {
  // Indices of one column for a shape of eleven dimensions failed a CHECK.
  ExpectFailsBothWays(
      SparseReshape(Values<int64_t>({41}, {1, 1}), Zeros(DT_INT64, {11}), Zeros(DT_INT64, {1})),
      kInvalid);
}

TEST(Advisories, Tfsa2021_114_SparseReshapeIntoNoElements) {
  // An index into a shape of no elements, reshaped to another, divided by zero.
  ExpectFailsBothWays(SparseReshape(Values<int64_t>({1, 1, 1}, {1, 3}), Values<int64_t>({1, 1, 0}),
                                    Values<int64_t>({1, 0})),
                      kInvalid);
}

TEST(Advisories, Tfsa2021_109_SparseReductionsIndexOutsideShape) {
  // Indices of 773 in dimensions of 337 were reduced into groups past the output. TensorFlow
  // reports the write index it refuses as INTERNAL, and so does Sluice.
  for (const char* op : {"SparseReduceSum", "SparseReduceMax"}) {
    AdvisoryCase c(op);
    c.Input(Values<int64_t>({773, 773, 773, 773, 773, 773}, {2, 3}))
        .Input(Values<int32_t>({1, 1}))
        .Input(Values<int64_t>({337, 337, 337}))
        .Input(Scalar<int32_t>(1));
    c.Attr("T", DT_INT32).Attr("keep_dims", false);
    ExpectFailsBothWays(
        c, absl::StatusCode::kInternal,
        "Obtained a write index of 261274 which is outside of bounds of [0, 113569)");
  }
}

TEST(Advisories, Tfsa2022_074_SparseTensorDenseAddFewerValuesThanIndices) {
  // Seventeen indices with no values bound a reference to a null pointer.
  AdvisoryCase c("SparseTensorDenseAdd");
  c.Input(Zeros(DT_INT64, {17, 2}))
      .Input(Zeros(DT_FLOAT, {0}))
      .Input(Values<int64_t>({6, 12}))
      .Input(Values<float>(std::vector<float>(72, -0.223668531f), {6, 12}));
  c.Attr("T", DT_FLOAT).Attr("Tindices", DT_INT64);
  ExpectFailsBothWays(c, kInvalid);
}

}  // namespace
}  // namespace advisories
}  // namespace sluice
