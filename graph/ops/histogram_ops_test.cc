#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(HistogramFixedWidthShapeTest, NbinsVector) {
  EXPECT_EQ(Infer("HistogramFixedWidth", "T=DT_FLOAT", "[5];[2];[]", {{2, Int(7)}}), "[7]");
  EXPECT_EQ(Infer("HistogramFixedWidth", "T=DT_INT32", "?;[2];[]"), "[?]");
  EXPECT_THAT(Infer("HistogramFixedWidth", "T=DT_FLOAT", "[5];[2];[]", {{2, Int(0)}}),
              IsInvalidArgument("Requires nbins > 0: 0"));
  EXPECT_THAT(Infer("HistogramFixedWidth", "T=DT_FLOAT", "[5];[3];[]"),
              IsInvalidArgument("must be 2"));
  EXPECT_THAT(Infer("HistogramFixedWidth", "T=DT_FLOAT", "[5];[];[]"),
              IsInvalidArgument("must be rank 1"));
  EXPECT_THAT(Infer("HistogramFixedWidth", "T=DT_FLOAT", "[5];[2];[1]"),
              IsInvalidArgument("must be rank 0"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
