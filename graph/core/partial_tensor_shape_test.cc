#include "graph/core/partial_tensor_shape.h"

#include <limits>

#include "gtest/gtest.h"

namespace sluice {
namespace {

TEST(PartialTensorShapeTest, UnknownRankByDefault) {
  PartialTensorShape s;
  EXPECT_TRUE(s.unknown_rank());
  EXPECT_EQ(s.dims(), -1);
  EXPECT_EQ(s.num_elements(), -1);
  EXPECT_FALSE(s.IsFullyDefined());
  EXPECT_EQ(s.DebugString(), "<unknown>");
  TensorShape t({4});
  EXPECT_FALSE(s.AsTensorShape(&t));
  EXPECT_EQ(t, TensorShape({4}));
}

TEST(PartialTensorShapeTest, UnknownDims) {
  PartialTensorShape s({-1, 3});
  EXPECT_EQ(s.dims(), 2);
  EXPECT_EQ(s.dim_size(0), -1);
  EXPECT_EQ(s.dim_size(1), 3);
  EXPECT_EQ(s.num_elements(), -1);
  EXPECT_FALSE(s.IsFullyDefined());
  EXPECT_EQ(s.DebugString(), "[?,3]");
}

TEST(PartialTensorShapeTest, FullyDefined) {
  PartialTensorShape s(TensorShape({2, 5}));
  EXPECT_TRUE(s.IsFullyDefined());
  EXPECT_EQ(s.num_elements(), 10);
  TensorShape t;
  ASSERT_TRUE(s.AsTensorShape(&t));
  EXPECT_EQ(t, TensorShape({2, 5}));
  EXPECT_EQ(PartialTensorShape({}).num_elements(), 1);
  EXPECT_EQ(PartialTensorShape({}).DebugString(), "[]");
}

TEST(PartialTensorShapeTest, BuildErrors) {
  PartialTensorShape s({7});
  EXPECT_EQ(PartialTensorShape::BuildPartialTensorShape({-2}, &s).code(),
            absl::StatusCode::kInvalidArgument);
  const int64_t big = int64_t{1} << 40;
  EXPECT_EQ(PartialTensorShape::BuildPartialTensorShape({big, -1, big}, &s).code(),
            absl::StatusCode::kInvalidArgument);
  std::vector<int64_t> too_many(TensorShape::kMaxDims + 1, -1);
  EXPECT_EQ(PartialTensorShape::BuildPartialTensorShape(too_many, &s).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(s.IsIdenticalTo(PartialTensorShape({7})));
}

TEST(PartialTensorShapeTest, ProtoRoundTrip) {
  TensorShapeProto proto;
  proto.add_dim()->set_size(-1);
  proto.add_dim()->set_size(4);
  PartialTensorShape s;
  ASSERT_TRUE(PartialTensorShape::BuildFromProto(proto, &s).ok());
  EXPECT_TRUE(s.IsIdenticalTo(PartialTensorShape({-1, 4})));
  EXPECT_EQ(s.AsProto().SerializeAsString(), proto.SerializeAsString());

  TensorShapeProto unknown;
  unknown.set_unknown_rank(true);
  ASSERT_TRUE(PartialTensorShape::BuildFromProto(unknown, &s).ok());
  EXPECT_TRUE(s.unknown_rank());
  EXPECT_TRUE(s.AsProto().unknown_rank());
  EXPECT_EQ(s.AsProto().dim_size(), 0);
}

TEST(PartialTensorShapeTest, ProtoErrors) {
  TensorShapeProto both;
  both.set_unknown_rank(true);
  both.add_dim()->set_size(2);
  PartialTensorShape s;
  EXPECT_EQ(PartialTensorShape::BuildFromProto(both, &s).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(PartialTensorShape::IsValid(both));
  TensorShapeProto negative;
  negative.add_dim()->set_size(-5);
  EXPECT_FALSE(PartialTensorShape::IsValid(negative));
}

TEST(PartialTensorShapeTest, Compatibility) {
  const PartialTensorShape unknown;
  const PartialTensorShape a({-1, 3});
  const PartialTensorShape b({2, -1});
  const PartialTensorShape c({2, 4});
  EXPECT_TRUE(a.IsCompatibleWith(b));
  EXPECT_TRUE(unknown.IsCompatibleWith(c));
  EXPECT_TRUE(c.IsCompatibleWith(unknown));
  EXPECT_FALSE(a.IsCompatibleWith(c));
  EXPECT_FALSE(a.IsCompatibleWith(PartialTensorShape({-1})));
}

TEST(PartialTensorShapeTest, Merge) {
  PartialTensorShape result;
  ASSERT_TRUE(PartialTensorShape({-1, 3}).MergeWith(PartialTensorShape({2, -1}), &result).ok());
  EXPECT_TRUE(result.IsIdenticalTo(PartialTensorShape({2, 3})));
  ASSERT_TRUE(PartialTensorShape().MergeWith(PartialTensorShape({5}), &result).ok());
  EXPECT_TRUE(result.IsIdenticalTo(PartialTensorShape({5})));
  ASSERT_TRUE(PartialTensorShape({5}).MergeWith(PartialTensorShape(), &result).ok());
  EXPECT_TRUE(result.IsIdenticalTo(PartialTensorShape({5})));

  absl::Status status = PartialTensorShape({1, 2}).MergeWith(PartialTensorShape({1}), &result);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("Incompatible ranks"), std::string::npos) << status;
  status = PartialTensorShape({1, 2}).MergeWith(PartialTensorShape({-1, 3}), &result);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("[1,2] vs. [?,3]"), std::string::npos) << status;

  PartialTensorShape self({-1, 7});
  ASSERT_TRUE(self.MergeWith(PartialTensorShape({4, -1}), &self).ok());
  EXPECT_TRUE(self.IsIdenticalTo(PartialTensorShape({4, 7})));
}

TEST(PartialTensorShapeTest, Concatenate) {
  EXPECT_TRUE(PartialTensorShape({2}).Concatenate(-1).IsIdenticalTo(PartialTensorShape({2, -1})));
  EXPECT_TRUE(PartialTensorShape().Concatenate(3).unknown_rank());
  EXPECT_TRUE(PartialTensorShape({1})
                  .Concatenate(PartialTensorShape({-1, 2}))
                  .IsIdenticalTo(PartialTensorShape({1, -1, 2})));
  EXPECT_TRUE(PartialTensorShape({1}).Concatenate(PartialTensorShape()).unknown_rank());
  PartialTensorShape out;
  const int64_t big = int64_t{1} << 40;
  EXPECT_EQ(PartialTensorShape({big}).ConcatenateWithStatus(big, &out).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(PartialTensorShape({big}).ConcatenateWithStatus(PartialTensorShape({big}), &out).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(PartialTensorShape({1}).ConcatenateWithStatus(-3, &out).code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(PartialTensorShapeTest, Identity) {
  EXPECT_TRUE(PartialTensorShape().IsIdenticalTo(PartialTensorShape()));
  EXPECT_FALSE(PartialTensorShape().IsIdenticalTo(PartialTensorShape({})));
  EXPECT_FALSE(PartialTensorShape({-1}).IsIdenticalTo(PartialTensorShape({1})));
}

TEST(PartialTensorShapeDeathTest, ProgrammerErrorsCheck) {
  EXPECT_DEATH(PartialTensorShape({-3}), "-3");
  EXPECT_DEATH(PartialTensorShape().dim_size(0), "unknown rank");
}

}  // namespace
}  // namespace sluice
