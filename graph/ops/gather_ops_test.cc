#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

constexpr char kGatherV2[] = "Tparams=DT_FLOAT, Tindices=DT_INT32, Taxis=DT_INT32";

TEST(GatherShapeTest, IndicesThenInnerParams) {
  EXPECT_EQ(Infer("Gather", "Tparams=DT_FLOAT, Tindices=DT_INT32", "[5,3];[2,4]"), "[2,4,3]");
  EXPECT_EQ(Infer("Gather", "Tparams=DT_FLOAT, Tindices=DT_INT64", "[5];[]"), "[]");
  EXPECT_EQ(Infer("Gather", "Tparams=DT_FLOAT, Tindices=DT_INT32", "?;[2,4]"), "?");
  EXPECT_EQ(Infer("Gather", "Tparams=DT_FLOAT, Tindices=DT_INT32", "[5,3];?"), "?");
  EXPECT_THAT(Infer("Gather", "Tparams=DT_FLOAT, Tindices=DT_INT32", "[];[2,4]"),
              IsInvalidArgument("Shape must be at least rank 1 but is rank 0"));
}

TEST(GatherV2ShapeTest, KnownAxis) {
  EXPECT_EQ(Infer("GatherV2", kGatherV2, "[5,3,7];[2,4];[]", {{2, Int(1)}}), "[5,2,4,7]");
  EXPECT_EQ(Infer("GatherV2", kGatherV2, "[5,3,7];[2,4];[]", {{2, Int(-1)}}), "[5,3,2,4]");
  EXPECT_EQ(Infer("GatherV2", kGatherV2, "[5,3,7];[];[]", {{2, Int(0)}}), "[3,7]");
  EXPECT_EQ(Infer("GatherV2", "Tparams=DT_FLOAT, Tindices=DT_INT64, Taxis=DT_INT64", "[5,?];[3];[]",
                  {{2, Int64(1)}}),
            "[5,3]");
  EXPECT_EQ(Infer("GatherV2", kGatherV2, "?;[2,4];[]", {{2, Int(1)}}), "?");
  EXPECT_EQ(Infer("GatherV2", kGatherV2, "[5,3];?;[]", {{2, Int(1)}}), "?");
}

TEST(GatherV2ShapeTest, BatchDims) {
  EXPECT_EQ(Infer("GatherV2", "Tparams=DT_FLOAT, Tindices=DT_INT32, Taxis=DT_INT32, batch_dims=1",
                  "[5,3,7];[5,4];[]", {{2, Int(1)}}),
            "[5,4,7]");
  EXPECT_EQ(Infer("GatherV2", "Tparams=DT_FLOAT, Tindices=DT_INT32, Taxis=DT_INT32, batch_dims=-1",
                  "[5,3,7];[5,4];[]", {{2, Int(1)}}),
            "[5,4,7]");
  EXPECT_EQ(Infer("GatherV2", "Tparams=DT_FLOAT, Tindices=DT_INT32, Taxis=DT_INT32, batch_dims=2",
                  "[5,3,7];[5,3];[]", {{2, Int(2)}}),
            "[5,3]");
  EXPECT_THAT(Infer("GatherV2", "Tparams=DT_FLOAT, Tindices=DT_INT32, Taxis=DT_INT32, batch_dims=3",
                    "[5,3,7];[5,4];[]", {{2, Int(2)}}),
              IsInvalidArgument("Shape must be at least rank 3 but is rank 2"));
}

TEST(GatherV2ShapeTest, UnknownAxisKeepsTheRank) {
  EXPECT_EQ(Infer("GatherV2", kGatherV2, "[5,3,7];[2,4];[]"), "[?,?,?,?]");
  EXPECT_EQ(Infer("GatherV2", "Tparams=DT_FLOAT, Tindices=DT_INT32, Taxis=DT_INT32, batch_dims=1",
                  "[5,3,7];[5,4];[]"),
            "[?,?,?]");
  // differs from TensorFlow, which subtracts a negative batch_dims without first adding the
  // rank of indices, and so infers rank 5 here.
  EXPECT_EQ(Infer("GatherV2", "Tparams=DT_FLOAT, Tindices=DT_INT32, Taxis=DT_INT32, batch_dims=-1",
                  "[5,3,7];[5,4];[]"),
            "[?,?,?]");
  EXPECT_EQ(Infer("GatherV2", kGatherV2, "?;[2,4];[]"), "?");
}

TEST(GatherV2ShapeTest, RejectsBadAxis) {
  EXPECT_THAT(Infer("GatherV2", kGatherV2, "[5,3,7];[2,4];[]", {{2, Int(3)}}),
              IsInvalidArgument("Shape must be at least rank 4 but is rank 3"));
  EXPECT_THAT(Infer("GatherV2", kGatherV2, "[5,3,7];[2,4];[]", {{2, Int(-4)}}),
              IsInvalidArgument("Shape must be at least rank 4 but is rank 3"));
  EXPECT_THAT(Infer("GatherV2", kGatherV2, "[5,3,7];[2,4];[1]", {{2, Ints({1})}}),
              IsInvalidArgument("Shape must be rank 0 but is rank 1"));
  EXPECT_THAT(Infer("GatherV2", kGatherV2, "[];[2,4];[]", {{2, Int(0)}}),
              IsInvalidArgument("Shape must be at least rank 1 but is rank 0"));
  EXPECT_THAT(Infer("GatherV2", kGatherV2, "[5,3,7];[2,4];[]", {{2, Int(INT32_MIN)}}),
              IsInvalidArgument(""));
}

TEST(GatherNdShapeTest, IndexDepthSelectsParamsDims) {
  EXPECT_EQ(Infer("GatherNd", "Tparams=DT_FLOAT, Tindices=DT_INT32", "[5,3,7];[2,4,2]"), "[2,4,7]");
  EXPECT_EQ(Infer("GatherNd", "Tparams=DT_FLOAT, Tindices=DT_INT64", "[5,3,7];[3]"), "[]");
  EXPECT_EQ(Infer("GatherNd", "Tparams=DT_FLOAT, Tindices=DT_INT32", "[5,3,7];[2,4,?]"), "?");
  EXPECT_EQ(Infer("GatherNd", "Tparams=DT_FLOAT, Tindices=DT_INT32", "?;[2,1]"), "?");
  EXPECT_THAT(Infer("GatherNd", "Tparams=DT_FLOAT, Tindices=DT_INT32", "[5,3,7];[2,4,4]"),
              IsInvalidArgument("indices.shape[-1] must be <= params.rank"));
  EXPECT_THAT(Infer("GatherNd", "Tparams=DT_FLOAT, Tindices=DT_INT32", "[5,3,7];[]"),
              IsInvalidArgument("Shape must be at least rank 1 but is rank 0"));
}

TEST(OneHotShapeTest, DepthAtAxis) {
  EXPECT_EQ(Infer("OneHot", "T=DT_FLOAT, TI=DT_INT32", "[2,3];[];[];[]", {{1, Int(4)}}), "[2,3,4]");
  EXPECT_EQ(Infer("OneHot", "T=DT_FLOAT, TI=DT_INT32, axis=0", "[2,3];[];[];[]", {{1, Int(4)}}),
            "[4,2,3]");
  EXPECT_EQ(Infer("OneHot", "T=DT_FLOAT, TI=DT_INT32, axis=1", "[2,3];[];[];[]", {{1, Int(4)}}),
            "[2,4,3]");
  // TensorFlow wraps axes past the end around to the front.
  EXPECT_EQ(Infer("OneHot", "T=DT_FLOAT, TI=DT_INT32, axis=3", "[2,3];[];[];[]", {{1, Int(4)}}),
            "[4,2,3]");
  EXPECT_EQ(Infer("OneHot", "T=DT_FLOAT", "[2,3];[];[];[]"), "[2,3,?]");
  EXPECT_EQ(Infer("OneHot", "T=DT_FLOAT, TI=DT_UINT8", "[];[];[];[]", {{1, Int(5)}}), "[5]");
  EXPECT_EQ(Infer("OneHot", "T=DT_FLOAT, TI=DT_INT32", "?;[];[];[]", {{1, Int(4)}}), "?");
}

TEST(OneHotShapeTest, RejectsBadAxisOrDepth) {
  EXPECT_THAT(Infer("OneHot", "T=DT_FLOAT, TI=DT_INT32, axis=-2", "[2,3];[];[];[]", {{1, Int(4)}}),
              IsInvalidArgument("axis must be >= -1"));
  EXPECT_THAT(Infer("OneHot", "T=DT_FLOAT, TI=DT_INT32", "[2,3];[];[];[]", {{1, Int(-4)}}),
              IsInvalidArgument("must be non-negative but is -4"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
