#include "graph/ops/ops_test_util.h"
#include "gtest/gtest.h"

namespace sluice {
namespace ops_test {
namespace {

TEST(MatrixDiagShapeTest, V1) {
  EXPECT_EQ(Infer("MatrixDiag", "T=DT_FLOAT", "[2,3]"), "[2,3,3]");
  EXPECT_EQ(Infer("MatrixDiag", "T=DT_FLOAT", "[?]"), "[?,?]");
  EXPECT_EQ(Infer("MatrixDiag", "T=DT_FLOAT", "?"), "?");
  EXPECT_THAT(Infer("MatrixDiag", "T=DT_FLOAT", "[]"), IsInvalidArgument("at least rank 1"));
}

TEST(MatrixDiagShapeTest, V3) {
  EXPECT_EQ(Infer("MatrixDiagV3", "T=DT_FLOAT", "[2,3];[];[];[];[]", {{1, Int(0)}}), "[2,3,3]");
  EXPECT_EQ(Infer("MatrixDiagV3", "T=DT_FLOAT", "[3];[];[];[];[]", {{1, Int(2)}}), "[5,5]");
  EXPECT_EQ(Infer("MatrixDiagV3", "T=DT_FLOAT", "[3];[];[];[];[]", {{1, Int(-1)}}), "[4,4]");
  EXPECT_EQ(Infer("MatrixDiagV3", "T=DT_FLOAT", "[3];[];[];[];[]",
                  {{1, Int(0)}, {2, Int(3)}, {3, Int(5)}}),
            "[3,5]");
  EXPECT_EQ(Infer("MatrixDiagV3", "T=DT_FLOAT", "[3];[];[];[];[]", {{1, Int(1)}, {2, Int(6)}}),
            "[6,4]");
  EXPECT_EQ(Infer("MatrixDiagV3", "T=DT_FLOAT", "[4,2,3];[2];[];[];[]", {{1, Ints({-1, 0})}}),
            "[4,3,3]");
  EXPECT_EQ(Infer("MatrixDiagV3", "T=DT_FLOAT", "[4,2,3];[1];[];[];[]", {{1, Ints({1})}}),
            "[4,2,4,4]");
  // Unknown k or diagonal rank: nothing is known.
  EXPECT_EQ(Infer("MatrixDiagV3", "T=DT_FLOAT", "[3];[];[];[];[]"), "?");
  EXPECT_EQ(Infer("MatrixDiagV3", "T=DT_FLOAT", "?;[];[];[];[]", {{1, Int(0)}}), "?");
  EXPECT_EQ(Infer("MatrixDiagV2", "T=DT_INT32", "[2,3];[];[];[];[]", {{1, Int(0)}}), "[2,3,3]");

  EXPECT_THAT(Infer("MatrixDiagV3", "T=DT_FLOAT", "[];[];[];[];[]"),
              IsInvalidArgument("at least rank 1"));
  EXPECT_THAT(Infer("MatrixDiagV3", "T=DT_FLOAT", "[3];[1,1];[];[];[]"),
              IsInvalidArgument("at most rank 1"));
  EXPECT_THAT(Infer("MatrixDiagV3", "T=DT_FLOAT", "[3];[];[1];[];[]"),
              IsInvalidArgument("must be rank 0"));
  EXPECT_THAT(Infer("MatrixDiagV3", "T=DT_FLOAT", "[3];[];[];[];[2]"),
              IsInvalidArgument("must be rank 0"));
  EXPECT_THAT(Infer("MatrixDiagV3", "T=DT_FLOAT", "[3];[3];[];[];[]", {{1, Ints({0, 1, 2})}}),
              IsInvalidArgument("one or two elements"));
  EXPECT_THAT(Infer("MatrixDiagV3", "T=DT_FLOAT", "[2,3];[2];[];[];[]", {{1, Ints({1, 0})}}),
              IsInvalidArgument("lower_diag_index is greater than upper_diag_index"));
  EXPECT_THAT(Infer("MatrixDiagV3", "T=DT_FLOAT", "[3,3];[2];[];[];[]", {{1, Ints({0, 1})}}),
              IsInvalidArgument("doesn't match the number of diagonals"));
  EXPECT_THAT(Infer("MatrixDiagV3", "T=DT_FLOAT", "[3];[];[];[];[]", {{1, Int(0)}, {2, Int(2)}}),
              IsInvalidArgument("num_rows is too small"));
  EXPECT_THAT(Infer("MatrixDiagV3", "T=DT_FLOAT", "[3];[];[];[];[]", {{1, Int(0)}, {3, Int(2)}}),
              IsInvalidArgument("num_cols is too small"));
  EXPECT_THAT(Infer("MatrixDiagV3", "T=DT_FLOAT", "[3];[];[];[];[]",
                    {{1, Int(0)}, {2, Int(4)}, {3, Int(4)}}),
              IsInvalidArgument("not consistent"));
}

TEST(MatrixDiagPartShapeTest, V1) {
  EXPECT_EQ(Infer("MatrixDiagPart", "T=DT_FLOAT", "[2,3,4]"), "[2,3]");
  EXPECT_EQ(Infer("MatrixDiagPart", "T=DT_FLOAT", "[5,2]"), "[2]");
  EXPECT_EQ(Infer("MatrixDiagPart", "T=DT_FLOAT", "?"), "?");
  EXPECT_THAT(Infer("MatrixDiagPart", "T=DT_FLOAT", "[3]"), IsInvalidArgument("at least rank 2"));
}

TEST(MatrixDiagPartShapeTest, V3) {
  EXPECT_EQ(Infer("MatrixDiagPartV3", "T=DT_FLOAT", "[2,3,4];[];[]", {{1, Int(0)}}), "[2,3]");
  EXPECT_EQ(Infer("MatrixDiagPartV3", "T=DT_FLOAT", "[2,3,4];[];[]", {{1, Int(2)}}), "[2,2]");
  EXPECT_EQ(Infer("MatrixDiagPartV3", "T=DT_FLOAT", "[2,3,4];[2];[]", {{1, Ints({-2, 1})}}),
            "[2,4,3]");
  EXPECT_EQ(Infer("MatrixDiagPartV3", "T=DT_FLOAT", "[2,?,4];[2];[]", {{1, Ints({-2, 1})}}),
            "[2,4,?]");
  EXPECT_EQ(Infer("MatrixDiagPartV3", "T=DT_FLOAT", "[0,0];[];[]", {{1, Int(0)}}), "[0]");
  EXPECT_EQ(Infer("MatrixDiagPartV3", "T=DT_FLOAT", "[2,3,4];[];[]"), "?");
  EXPECT_EQ(Infer("MatrixDiagPartV2", "T=DT_FLOAT", "[3,4];[];[]", {{1, Int(-1)}}), "[2]");
  EXPECT_THAT(Infer("MatrixDiagPartV3", "T=DT_FLOAT", "[3];[];[]"),
              IsInvalidArgument("at least rank 2"));
  EXPECT_THAT(Infer("MatrixDiagPartV3", "T=DT_FLOAT", "[3,3];[];[2]"),
              IsInvalidArgument("must be rank 0"));
  EXPECT_THAT(Infer("MatrixDiagPartV3", "T=DT_FLOAT", "[3,3];[];[]", {{1, Int(3)}}),
              IsInvalidArgument("lower_diag_index is out of bound"));
  EXPECT_THAT(Infer("MatrixDiagPartV3", "T=DT_FLOAT", "[3,3];[2];[]", {{1, Ints({0, 3})}}),
              IsInvalidArgument("upper_diag_index is out of bound"));
  EXPECT_THAT(Infer("MatrixDiagPartV3", "T=DT_FLOAT", "[3,3];[0];[]", {{1, Ints({})}}),
              IsInvalidArgument("one or two elements"));
}

TEST(MatrixSetDiagShapeTest, V1) {
  EXPECT_EQ(Infer("MatrixSetDiag", "T=DT_FLOAT", "[2,3,4];[2,3]"), "[2,3,4]");
  EXPECT_EQ(Infer("MatrixSetDiag", "T=DT_FLOAT", "[?,3,4];[2,3]"), "[2,3,4]");
  EXPECT_EQ(Infer("MatrixSetDiag", "T=DT_FLOAT", "?;[2,3]"), "[2,?,?]");
  EXPECT_THAT(Infer("MatrixSetDiag", "T=DT_FLOAT", "[2,3,4];[3]"),
              IsInvalidArgument("must be rank 2"));
  EXPECT_THAT(Infer("MatrixSetDiag", "T=DT_FLOAT", "[2,3,4];[2,4]"),
              IsInvalidArgument("Dimensions must be equal"));
}

TEST(MatrixSetDiagShapeTest, V3) {
  EXPECT_EQ(Infer("MatrixSetDiagV3", "T=DT_FLOAT", "[2,3,4];[2,3];[]", {{2, Int(0)}}), "[2,3,4]");
  EXPECT_EQ(Infer("MatrixSetDiagV3", "T=DT_FLOAT", "[2,3,4];[2,2,3];[2]", {{2, Ints({0, 1})}}),
            "[2,3,4]");
  EXPECT_EQ(Infer("MatrixSetDiagV3", "T=DT_FLOAT", "?;[2,3];[]", {{2, Int(0)}}), "[2,?,?]");
  EXPECT_EQ(Infer("MatrixSetDiagV3", "T=DT_FLOAT", "[?,3,4];[2,3];[]"), "[2,3,4]");
  EXPECT_EQ(Infer("MatrixSetDiagV2", "T=DT_FLOAT", "[3,4];[3];[]", {{2, Int(0)}}), "[3,4]");
  EXPECT_THAT(Infer("MatrixSetDiagV3", "T=DT_FLOAT", "[3,3];[3];[2]", {{2, Ints({0, 1})}}),
              IsInvalidArgument("must be rank 2"));
  EXPECT_THAT(Infer("MatrixSetDiagV3", "T=DT_FLOAT", "[3,3];[3];[]", {{2, Int(-3)}}),
              IsInvalidArgument("lower_diag_index is out of bound"));
  EXPECT_THAT(Infer("MatrixSetDiagV3", "T=DT_FLOAT", "[3,3];[2,3];[2]", {{2, Ints({1, 0})}}),
              IsInvalidArgument("lower_diag_index is greater than upper_diag_index"));
  EXPECT_THAT(Infer("MatrixSetDiagV3", "T=DT_FLOAT", "[2,3,4];[3,2,2,3];[]"),
              IsInvalidArgument("at most rank 3"));
}

TEST(DiagShapeTest, DiagAndDiagPart) {
  EXPECT_EQ(Infer("Diag", "T=DT_FLOAT", "[2,3]"), "[2,3,2,3]");
  EXPECT_EQ(Infer("Diag", "T=DT_FLOAT", "?"), "?");
  EXPECT_THAT(Infer("Diag", "T=DT_FLOAT", "[]"), IsInvalidArgument("at least rank 1"));
  EXPECT_EQ(Infer("DiagPart", "T=DT_FLOAT", "[2,3,2,3]"), "[2,3]");
  EXPECT_EQ(Infer("DiagPart", "T=DT_FLOAT", "[2,?,?,3]"), "[2,3]");
  EXPECT_EQ(Infer("DiagPart", "T=DT_FLOAT", "?"), "?");
  EXPECT_THAT(Infer("DiagPart", "T=DT_FLOAT", "[2,3,4]"), IsInvalidArgument("even and non-zero"));
  EXPECT_THAT(Infer("DiagPart", "T=DT_FLOAT", "[]"), IsInvalidArgument("even and non-zero"));
  EXPECT_THAT(Infer("DiagPart", "T=DT_FLOAT", "[2,3]"),
              IsInvalidArgument("Dimensions must be equal"));
}

}  // namespace
}  // namespace ops_test
}  // namespace sluice
