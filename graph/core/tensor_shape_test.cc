#include "graph/core/tensor_shape.h"

#include <limits>
#include <vector>

#include "graph/core/errors.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

TEST(MultiplyWithoutOverflowTest, Products) {
  EXPECT_EQ(MultiplyWithoutOverflow(6, 7), 42);
  EXPECT_EQ(MultiplyWithoutOverflow(0, kInt64Max), 0);
  EXPECT_EQ(MultiplyWithoutOverflow(kInt64Max, 1), kInt64Max);
  EXPECT_EQ(MultiplyWithoutOverflow(int64_t{1} << 32, int64_t{1} << 31), -1);
  EXPECT_EQ(MultiplyWithoutOverflow(int64_t{1} << 31, int64_t{1} << 31), int64_t{1} << 62);
  EXPECT_EQ(MultiplyWithoutOverflow(-1, 5), -1);
}

TEST(TensorShapeTest, ScalarByDefault) {
  TensorShape s;
  EXPECT_EQ(s.dims(), 0);
  EXPECT_EQ(s.num_elements(), 1);
  EXPECT_EQ(s.DebugString(), "[]");
}

TEST(TensorShapeTest, DimsAndElements) {
  TensorShape s({2, 3, 4});
  EXPECT_EQ(s.dims(), 3);
  EXPECT_EQ(s.dim_size(1), 3);
  EXPECT_EQ(s.num_elements(), 24);
  EXPECT_EQ(s.DebugString(), "[2,3,4]");
  EXPECT_EQ(std::vector<int64_t>(s.dim_sizes().begin(), s.dim_sizes().end()),
            std::vector<int64_t>({2, 3, 4}));
  EXPECT_EQ(TensorShape({5, 0, 7}).num_elements(), 0);
}

TEST(TensorShapeTest, BuildRejectsNegativeDims) {
  TensorShape s({9});
  const absl::Status status = TensorShape::BuildTensorShape({2, -3}, &s);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("-3"), std::string::npos) << status;
  EXPECT_EQ(s, TensorShape({9}));  // unchanged on error
}

TEST(TensorShapeTest, BuildRejectsOverflow) {
  TensorShape s;
  const int64_t big = int64_t{1} << 40;
  EXPECT_EQ(TensorShape::BuildTensorShape({big, big}, &s).code(),
            absl::StatusCode::kInvalidArgument);
  // A zero dim does not excuse the non-zero ones from overflowing.
  EXPECT_EQ(TensorShape::BuildTensorShape({0, big, big}, &s).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(TensorShape::BuildTensorShape({kInt64Max}, &s).ok());
  EXPECT_EQ(s.num_elements(), kInt64Max);
  EXPECT_TRUE(TensorShape::BuildTensorShape({0, kInt64Max}, &s).ok());
  EXPECT_EQ(s.num_elements(), 0);
}

TEST(TensorShapeTest, BuildRejectsTooManyDims) {
  TensorShape s;
  std::vector<int64_t> dims(TensorShape::kMaxDims, 1);
  EXPECT_TRUE(TensorShape::BuildTensorShape(dims, &s).ok());
  EXPECT_EQ(s.dims(), TensorShape::kMaxDims);
  dims.push_back(1);
  EXPECT_EQ(TensorShape::BuildTensorShape(dims, &s).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.AddDimWithStatus(1).code(), absl::StatusCode::kInvalidArgument);
}

TEST(TensorShapeTest, FromProto) {
  TensorShapeProto proto;
  proto.add_dim()->set_size(3);
  proto.add_dim()->set_size(2);
  TensorShape s;
  ASSERT_TRUE(TensorShape::BuildTensorShapeFromProto(proto, &s).ok());
  EXPECT_EQ(s, TensorShape({3, 2}));
  EXPECT_TRUE(TensorShape::IsValid(proto));
  TensorShapeProto round_trip;
  s.AsProto(&round_trip);
  EXPECT_EQ(round_trip.SerializeAsString(), proto.SerializeAsString());
}

TEST(TensorShapeTest, FromProtoErrors) {
  TensorShape s;
  TensorShapeProto unknown_rank;
  unknown_rank.set_unknown_rank(true);
  EXPECT_FALSE(TensorShape::IsValid(unknown_rank));
  EXPECT_EQ(TensorShape::BuildTensorShapeFromProto(unknown_rank, &s).code(),
            absl::StatusCode::kInvalidArgument);

  TensorShapeProto unknown_dim;
  unknown_dim.add_dim()->set_size(-1);
  const absl::Status status = TensorShape::BuildTensorShapeFromProto(unknown_dim, &s);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("[?]"), std::string::npos) << status;

  TensorShapeProto negative;
  negative.add_dim()->set_size(-7);
  EXPECT_FALSE(TensorShape::IsValid(negative));

  TensorShapeProto huge;
  huge.add_dim()->set_size(int64_t{1} << 40);
  huge.add_dim()->set_size(int64_t{1} << 40);
  EXPECT_FALSE(TensorShape::IsValid(huge));

  TensorShapeProto too_many;
  for (int i = 0; i <= TensorShape::kMaxDims; ++i) too_many.add_dim()->set_size(1);
  EXPECT_FALSE(TensorShape::IsValid(too_many));
}

TEST(TensorShapeTest, AddAndAppend) {
  TensorShape s;
  s.AddDim(2);
  ASSERT_TRUE(s.AddDimWithStatus(5).ok());
  EXPECT_EQ(s, TensorShape({2, 5}));
  EXPECT_EQ(s.AddDimWithStatus(-1).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.AddDimWithStatus(kInt64Max).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s, TensorShape({2, 5}));
  s.AppendShape(TensorShape({3}));
  EXPECT_EQ(s, TensorShape({2, 5, 3}));
  EXPECT_EQ(s.num_elements(), 30);
  EXPECT_EQ(s.AppendShapeWithStatus(TensorShape({kInt64Max})).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s, TensorShape({2, 5, 3}));
}

TEST(TensorShapeTest, SetDim) {
  TensorShape s({2, 3});
  s.set_dim(1, 7);
  EXPECT_EQ(s.num_elements(), 14);
  EXPECT_EQ(s.SetDimWithStatus(2, 1), errors::InvalidArgument("Index must be less than 2, got 2"));
  EXPECT_EQ(s.SetDimWithStatus(-1, 1),
            errors::InvalidArgument("Index must be non-negative, got -1"));
  EXPECT_EQ(s.SetDimWithStatus(0, -4),
            errors::InvalidArgument("Expected a non-negative size, got -4"));
  EXPECT_EQ(s.SetDimWithStatus(0, kInt64Max).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s, TensorShape({2, 7}));
  EXPECT_EQ(s.num_elements(), 14);
}

TEST(TensorShapeTest, RemoveInsertClear) {
  TensorShape s({2, 3, 4, 5});
  s.RemoveDim(1);
  EXPECT_EQ(s, TensorShape({2, 4, 5}));
  EXPECT_EQ(s.num_elements(), 40);
  s.RemoveLastDims(2);
  EXPECT_EQ(s, TensorShape({2}));
  s.InsertDim(0, 6);
  s.InsertDim(2, 0);
  EXPECT_EQ(s, TensorShape({6, 2, 0}));
  EXPECT_EQ(s.num_elements(), 0);
  s.RemoveDimRange(2, 3);
  EXPECT_EQ(s.num_elements(), 12);
  EXPECT_EQ(s.InsertDimWithStatus(5, 1).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.InsertDimWithStatus(0, kInt64Max).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s, TensorShape({6, 2}));
  s.Clear();
  EXPECT_EQ(s.dims(), 0);
  EXPECT_EQ(s.num_elements(), 1);
}

TEST(TensorShapeTest, Equality) {
  EXPECT_EQ(TensorShape({1, 2}), TensorShape({1, 2}));
  EXPECT_NE(TensorShape({1, 2}), TensorShape({2, 1}));
  EXPECT_NE(TensorShape({1}), TensorShape({1, 1}));
  EXPECT_TRUE(TensorShape({3}).IsSameSize(TensorShape({3})));
}

TEST(TensorShapeTest, EqualityBeyondInlineRank) {
  EXPECT_EQ(TensorShape({1, 2, 3, 4, 5, 6}), TensorShape({1, 2, 3, 4, 5, 6}));
  EXPECT_NE(TensorShape({1, 2, 3, 4, 5, 6}), TensorShape({1, 2, 3, 4, 6, 5}));
  // Same element count, different dims.
  EXPECT_NE(TensorShape({2, 3}), TensorShape({3, 2}));
  EXPECT_NE(TensorShape({0, 3}), TensorShape({0, 2}));
}

TEST(TensorShapeTest, CopyAssignmentAcrossInlineAndHeapRanks) {
  const TensorShape small({2, 3});
  const TensorShape large({1, 2, 3, 4, 5, 6});
  TensorShape s;
  s = large;
  EXPECT_EQ(s, large);
  EXPECT_EQ(s.num_elements(), 720);
  s = small;
  EXPECT_EQ(s, small);
  EXPECT_EQ(s.num_elements(), 6);
  s = large;
  const TensorShape& alias = s;
  s = alias;
  EXPECT_EQ(s, large);
  s.AddDim(2);
  EXPECT_EQ(s.dims(), 7);
  EXPECT_EQ(large.dims(), 6);  // copies do not share storage
  TensorShape scalar;
  s = scalar;
  EXPECT_EQ(s.dims(), 0);
  EXPECT_EQ(s.num_elements(), 1);
}

TEST(TensorShapeDeathTest, ProgrammerErrorsCheck) {
  EXPECT_DEATH(TensorShape({-1}), "non-negative");
  EXPECT_DEATH(TensorShape({2}).dim_size(1), "out of range");
  TensorShape s({2});
  EXPECT_DEATH(s.AddDim(-2), "non-negative");
  EXPECT_DEATH(s.set_dim(0, -2), "non-negative");
}

}  // namespace
}  // namespace sluice
