#include "graph/ops/strided_slice_spec.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "graph/core/tensor_types.h"
#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

using ops_test::Ints;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

absl::Status Compute(const Tensor& begin, const Tensor& end, const Tensor& strides,
                     const PartialTensorShape& shape, const StridedSliceMasks& masks,
                     StridedSliceSpec* spec) {
  return ComputeStridedSliceSpec(&begin, &end, strides, shape, masks, spec);
}

TEST(StridedSliceSpecTest, CanonicalBoundsPerInputDim) {
  // x[1:-1, ::-2] on [5, 6, 7]: the third dim is taken whole.
  StridedSliceMasks masks;
  masks.begin_mask = 2;
  masks.end_mask = 2;
  StridedSliceSpec spec;
  ASSERT_TRUE(Compute(Ints({1, 0}), Ints({-1, 0}), Ints({1, -2}), PartialTensorShape({5, 6, 7}),
                      masks, &spec)
                  .ok());
  EXPECT_THAT(spec.begin, ElementsAre(1, 5, 0));
  EXPECT_THAT(spec.end, ElementsAre(4, -1, 7));
  EXPECT_THAT(spec.strides, ElementsAre(1, -2, 1));
  EXPECT_EQ(spec.processing_shape.DebugString(), PartialTensorShape({3, 3, 7}).DebugString());
  EXPECT_EQ(spec.final_shape.DebugString(), PartialTensorShape({3, 3, 7}).DebugString());
  EXPECT_FALSE(spec.is_identity);
  EXPECT_FALSE(spec.is_simple_slice);
  EXPECT_FALSE(spec.slice_dim0);
}

// Issue 25: an ellipsis and new axes can take the output past rank 254, which is
// INVALID_ARGUMENT rather than a CHECK failure in PartialTensorShape.
TEST(StridedSliceSpecTest, NewAxesPastRank254) {
  StridedSliceMasks masks;
  masks.ellipsis_mask = 1;
  masks.new_axis_mask = 0x7fe;  // ten new axes after the ellipsis
  const Tensor begin = ops_test::Vector<int32_t>({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  const Tensor strides = ops_test::Vector<int32_t>({1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1});
  StridedSliceSpec spec;
  absl::Status s = Compute(begin, begin, strides, PartialTensorShape(std::vector<int64_t>(250, 1)),
                           masks, &spec);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr("254"));
  s = Compute(begin, begin, strides, PartialTensorShape(std::vector<int64_t>(244, 1)), masks,
              &spec);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(spec.final_shape.dims(), 254);
}

TEST(StridedSliceSpecTest, ShrinkKeepsAUnitProcessingDim) {
  // x[-1] on [4, 3]: processing [1, 3], output [3].
  StridedSliceMasks masks;
  masks.shrink_axis_mask = 1;
  StridedSliceSpec spec;
  ASSERT_TRUE(
      Compute(Ints({-1}), Ints({0}), Ints({1}), PartialTensorShape({4, 3}), masks, &spec).ok());
  EXPECT_THAT(spec.begin, ElementsAre(3, 0));
  EXPECT_THAT(spec.end, ElementsAre(4, 3));
  EXPECT_EQ(spec.processing_shape.DebugString(), PartialTensorShape({1, 3}).DebugString());
  EXPECT_EQ(spec.final_shape.DebugString(), PartialTensorShape({3}).DebugString());
  EXPECT_TRUE(spec.is_simple_slice);
  EXPECT_TRUE(spec.slice_dim0);
  EXPECT_FALSE(spec.is_identity);
}

TEST(StridedSliceSpecTest, IdentityAndFirstDimSlices) {
  StridedSliceSpec spec;
  ASSERT_TRUE(Compute(Ints({0, 0}), Ints({4, 3}), Ints({1, 1}), PartialTensorShape({4, 3}),
                      StridedSliceMasks(), &spec)
                  .ok());
  EXPECT_TRUE(spec.is_identity);
  EXPECT_TRUE(spec.slice_dim0);
  ASSERT_TRUE(Compute(Ints({1}), Ints({3}), Ints({1}), PartialTensorShape({4, 3}),
                      StridedSliceMasks(), &spec)
                  .ok());
  EXPECT_FALSE(spec.is_identity);
  EXPECT_TRUE(spec.slice_dim0);
  EXPECT_TRUE(spec.is_simple_slice);
}

TEST(StridedSliceSpecTest, UnknownBoundsLeaveRangesUnknown) {
  StridedSliceMasks masks;
  masks.begin_mask = 1;
  masks.end_mask = 1;
  StridedSliceSpec spec;
  const Tensor strides = Ints({1, 1});
  ASSERT_TRUE(
      ComputeStridedSliceSpec(nullptr, nullptr, strides, PartialTensorShape({4, 3}), masks, &spec)
          .ok());
  EXPECT_EQ(spec.final_shape.DebugString(), PartialTensorShape({4, -1}).DebugString());
}

TEST(StridedSliceSpecTest, RejectsMalformedSpecs) {
  StridedSliceSpec spec;
  const Tensor strides = Ints({1, 1});
  absl::Status s = Compute(Ints({0}), Ints({1, 1}), strides, PartialTensorShape({4, 3}),
                           StridedSliceMasks(), &spec);
  EXPECT_TRUE(absl::IsInvalidArgument(s));
  EXPECT_THAT(s.message(), HasSubstr("Expected begin, end, and strides to be 1D equal size"));

  // Masks are 32 bits wide, so longer specs cannot be addressed.
  Tensor long_strides(DT_INT32, TensorShape({32}));
  for (int i = 0; i < 32; ++i) long_strides.flat<int32_t>()(i) = 1;
  s = ComputeStridedSliceSpec(nullptr, nullptr, long_strides, PartialTensorShape({4}),
                              StridedSliceMasks(), &spec);
  EXPECT_TRUE(absl::IsInvalidArgument(s));

  Tensor float_strides(DT_FLOAT, TensorShape({1}));
  float_strides.flat<float>()(0) = 1;
  s = ComputeStridedSliceSpec(nullptr, nullptr, float_strides, PartialTensorShape({4}),
                              StridedSliceMasks(), &spec);
  EXPECT_TRUE(absl::IsInvalidArgument(s));

  s = ComputeStridedSliceSpec(nullptr, nullptr, strides, PartialTensorShape(), StridedSliceMasks(),
                              &spec);
  EXPECT_TRUE(absl::IsInvalidArgument(s));
}

TEST(StridedSliceSpecTest, ExtremeBoundsDoNotOverflow) {
  StridedSliceSpec spec;
  const Tensor begin = ops_test::Int64s({INT64_MIN});
  const Tensor end = ops_test::Int64s({INT64_MAX});
  ASSERT_TRUE(Compute(begin, end, ops_test::Int64s({INT64_MAX}), PartialTensorShape({5}),
                      StridedSliceMasks(), &spec)
                  .ok());
  EXPECT_EQ(spec.final_shape.DebugString(), PartialTensorShape({1}).DebugString());
  ASSERT_TRUE(Compute(end, begin, ops_test::Int64s({INT64_MIN}), PartialTensorShape({5}),
                      StridedSliceMasks(), &spec)
                  .ok());
  EXPECT_EQ(spec.final_shape.DebugString(), PartialTensorShape({1}).DebugString());
  StridedSliceMasks shrink;
  shrink.shrink_axis_mask = 1;
  EXPECT_TRUE(absl::IsInvalidArgument(
      Compute(end, begin, ops_test::Int64s({1}), PartialTensorShape({5}), shrink, &spec)));
}

}  // namespace
}  // namespace sluice
