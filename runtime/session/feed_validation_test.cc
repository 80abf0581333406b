// Feed specs from a graph and the checks of fed values against them.
#include "runtime/session/feed_validation.h"

#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/graph.h"
#include "graph/import/graph_testutil.h"
#include "graph/op/op_registry.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

constexpr char kGraph[] = R"pb(
  node {
    name: "x"
    op: "Placeholder"
    attr {
      key: "dtype"
      value { type: DT_FLOAT }
    }
    attr {
      key: "shape"
      value {
        shape {
          dim { size: -1 }
          dim { size: 3 }
        }
      }
    }
  }
  node {
    name: "any"
    op: "Placeholder"
    attr {
      key: "dtype"
      value { type: DT_INT32 }
    }
    attr {
      key: "shape"
      value { shape { unknown_rank: true } }
    }
  }
  node {
    name: "id"
    op: "Identity"
    input: "x"
    attr {
      key: "T"
      value { type: DT_FLOAT }
    }
  }
)pb";

class FeedValidationTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(GraphFromTextForTest(kGraph, &graph_).ok()); }
  Graph graph_{OpRegistry::Global()};
};

TEST_F(FeedValidationTest, SpecsFromTheGraph) {
  FeedSpec x = MakeFeedSpec(graph_, "x");
  EXPECT_EQ(x.tensor, "x:0");
  EXPECT_EQ(x.dtype, DT_FLOAT);
  ASSERT_TRUE(x.shape.has_value());
  EXPECT_EQ(x.shape->DebugString(), "[?,3]");
  FeedSpec any = MakeFeedSpec(graph_, "any:0");
  EXPECT_EQ(any.dtype, DT_INT32);
  EXPECT_FALSE(any.shape.has_value());
  // Only placeholders declare shapes.
  FeedSpec id = MakeFeedSpec(graph_, "id");
  EXPECT_EQ(id.dtype, DT_FLOAT);
  EXPECT_FALSE(id.shape.has_value());
  EXPECT_EQ(MakeFeedSpec(graph_, "nope").dtype, DT_INVALID);
  EXPECT_EQ(MakeFeedSpec(graph_, "x:1").dtype, DT_INVALID);
  EXPECT_EQ(MakeFeedSpec(graph_, "x:").dtype, DT_INVALID);
}

TEST_F(FeedValidationTest, ChecksDtypeAndShape) {
  FeedSpec x = MakeFeedSpec(graph_, "x");
  EXPECT_TRUE(ValidateFeed(x, 0, Tensor(DT_FLOAT, TensorShape({5, 3}))).ok());
  absl::Status s = ValidateFeed(x, 2, Tensor(DT_INT32, TensorShape({5, 3})));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "Expects arg[2] to be float but int32 is provided for Tensor x:0");
  s = ValidateFeed(x, 0, Tensor(DT_FLOAT, TensorShape({3})));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "Cannot feed value of shape [3] for Tensor x:0, which has shape [?,3]");
  FeedSpec any = MakeFeedSpec(graph_, "any");
  EXPECT_TRUE(ValidateFeed(any, 0, Tensor(DT_INT32, TensorShape({1, 2, 3}))).ok());
  // Unknown tensors are left to pruning's errors.
  EXPECT_TRUE(ValidateFeed(MakeFeedSpec(graph_, "nope"), 0, Tensor(1.0f)).ok());
}

TEST(AlignedFeedTest, CopiesOnlyAnUnalignedSlice) {
  Tensor rows(DT_FLOAT, TensorShape({3, 3}));
  for (int i = 0; i < 9; ++i) rows.flat<float>()(i) = static_cast<float>(i);
  const Tensor aligned = AlignedFeed(rows);
  EXPECT_EQ(aligned.raw_data(), rows.raw_data());  // shared, not copied

  const Tensor row = rows.Slice(1, 2);  // starts 12 bytes into the buffer
  ASSERT_FALSE(row.IsAligned());
  const Tensor copy = AlignedFeed(row);
  ASSERT_TRUE(copy.IsAligned());
  EXPECT_EQ(copy.shape(), TensorShape({1, 3}));
  EXPECT_EQ(copy.flat<float>()(0), 3.0f);
  EXPECT_EQ(copy.flat<float>()(2), 5.0f);
}

}  // namespace
}  // namespace sluice
