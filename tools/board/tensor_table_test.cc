#include "tools/board/tensor_table.h"

#include <cmath>
#include <limits>
#include <string>

#include "graph/core/tensor_types.h"
#include "gtest/gtest.h"

namespace sluice {
namespace board {
namespace {

Tensor Iota(const TensorShape& shape) {
  Tensor tensor(DT_FLOAT, shape);
  for (int64_t i = 0; i < tensor.NumElements(); ++i) tensor.flat<float>()(i) = i;
  return tensor;
}

// The members WriteTable adds, inside braces; or the error message.
std::string Table(const Tensor& tensor, const std::string& index) {
  cli::JsonWriter json;
  json.BeginObject();
  absl::Status status = WriteTable(tensor, index, &json);
  json.EndObject();
  if (!status.ok()) {
    EXPECT_EQ(json.str(), "{}\n") << "an error must leave the JSON alone";
    return std::string(status.message());
  }
  std::string text = json.str();
  text.pop_back();
  return text;
}

TEST(TensorTableTest, TwoDimensionsWithTheirPositions) {
  EXPECT_EQ(Table(Iota(TensorShape({2, 3, 4})), "[1, :, 1:3]"),
            R"({"index":"[1, :, 1:3]","selection":"[1, :, 1:3]","shape":[3,2],"dims":[1,2],)"
            R"("rows":[0,1,2],"columns":[1,2],"values":[[13,14],[17,18],[21,22]]})");
}

TEST(TensorTableTest, OneDimensionIsARow) {
  EXPECT_EQ(Table(Iota(TensorShape({2, 5})), "-1, ::-2"),
            R"({"index":"-1, ::-2","selection":"[1, 4::-2]","shape":[3],"dims":[1],)"
            R"("rows":[],"columns":[4,2,0],"values":[9,7,5]})");
}

TEST(TensorTableTest, ScalarsAndEmptySelections) {
  Tensor scalar(DT_FLOAT, TensorShape({}));
  scalar.scalar<float>()() = 0.1f;
  EXPECT_EQ(Table(scalar, ""),
            R"({"index":"","selection":"[]","shape":[],"dims":[],"rows":[],"columns":[],)"
            R"("values":0.1})");
  EXPECT_EQ(Table(Iota(TensorShape({2, 5})), "0, 3:3"),
            R"({"index":"0, 3:3","selection":"[0, 3:3]","shape":[0],"dims":[1],"rows":[],)"
            R"("columns":[],"values":[]})");
}

TEST(TensorTableTest, NonFiniteFloatsAreNamedStrings) {
  Tensor tensor(DT_FLOAT, TensorShape({4}));
  tensor.flat<float>().setValues({std::numeric_limits<float>::quiet_NaN(),
                                  std::numeric_limits<float>::infinity(),
                                  -std::numeric_limits<float>::infinity(), -1.5f});
  EXPECT_EQ(Table(tensor, ":"),
            R"({"index":":","selection":"[:]","shape":[4],"dims":[0],"rows":[],)"
            R"("columns":[0,1,2,3],"values":["NaN","Infinity","-Infinity",-1.5]})");
}

TEST(TensorTableTest, EveryShownDtype) {
  Tensor b(DT_BOOL, TensorShape({2}));
  b.flat<bool>().setValues({true, false});
  EXPECT_NE(Table(b, "").find(R"("values":[true,false])"), std::string::npos);
  Tensor i8(DT_INT8, TensorShape({2}));
  i8.flat<int8_t>().setValues({-128, 7});
  EXPECT_NE(Table(i8, "").find(R"("values":[-128,7])"), std::string::npos);
  Tensor u8(DT_UINT8, TensorShape({1}));
  u8.flat<uint8_t>().setValues({255});
  EXPECT_NE(Table(u8, "").find(R"("values":[255])"), std::string::npos);
  Tensor i64(DT_INT64, TensorShape({1}));
  i64.flat<int64_t>().setValues({std::numeric_limits<int64_t>::min()});
  EXPECT_NE(Table(i64, "").find(R"("values":[-9223372036854775808])"), std::string::npos);
  Tensor d(DT_DOUBLE, TensorShape({1}));
  d.flat<double>().setValues({0.1});
  EXPECT_NE(Table(d, "").find(R"("values":[0.1])"), std::string::npos);
  Tensor h(DT_HALF, TensorShape({1}));
  h.flat<half>().setValues({half(0.5f)});
  EXPECT_NE(Table(h, "").find(R"("values":[0.5])"), std::string::npos);
}

TEST(TensorTableTest, StringsArePrintableAndCut) {
  Tensor s(DT_STRING, TensorShape({3}));
  s.flat<std::string>()(0) = "plain";
  s.flat<std::string>()(1) = std::string("\x1b[31m\xff\"", 7);
  s.flat<std::string>()(2) = std::string(kMaxTableStringBytes + 10, 'a');
  const std::string table = Table(s, "");
  EXPECT_NE(table.find(R"("values":["plain","\\x1b[31m\\xff\"",")"), std::string::npos) << table;
  EXPECT_NE(table.find(std::string(kMaxTableStringBytes, 'a') + "...\"]"), std::string::npos);
}

TEST(TensorTableTest, MoreThanTwoDimensionsSuggestsAnIndex) {
  EXPECT_EQ(Table(Iota(TensorShape({2, 3, 4, 5})), "[0]"),
            "the selection [0, :, :, :] has 3 dimensions (shape [3,4,5]); the table shows at "
            "most 2: pick single positions of the others with integers, e.g. [0, 0, :, :]");
  EXPECT_EQ(Table(Iota(TensorShape({2, 3, 4})), "..., 1:3, :"),
            "the selection [:, 1:3, :] has 3 dimensions (shape [2,2,4]); the table shows at most "
            "2: pick single positions of the others with integers, e.g. [0, 1:3, :]");
}

TEST(TensorTableTest, RefusesMoreThanTheLimitNamingIt) {
  Tensor big(DT_FLOAT, TensorShape({1001, 1000}));
  EXPECT_EQ(Table(big, ""),
            "the selection [:, :] holds 1001000 values; the board sends at most 1000000 at once: "
            "narrow it with integers or shorter slices");
  EXPECT_EQ(Table(big, "5").substr(0, 24), R"({"index":"5","selection")");
}

TEST(TensorTableTest, IndexErrorsAndUnshownDtypes) {
  EXPECT_EQ(Table(Iota(TensorShape({2})), "[2]"),
            "index 2 is out of range for dimension 0 of size 2");
  EXPECT_EQ(Table(Tensor(DT_COMPLEX64, TensorShape({2})), ""),
            "values of dtype complex64 cannot be shown in the table");
}

}  // namespace
}  // namespace board
}  // namespace sluice
