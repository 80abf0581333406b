// What the fixtures cannot show: a large batch checked value by value against the protos it
// was written from, error messages holding bytes that are not UTF-8 (TensorFlow's Python
// client cannot decode them, so the oracle cannot record them), and the inputs on which
// TensorFlow's kernel aborts (a variable-length shape of zero-sized rows, a non-scalar v1 key).
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/core/tensor.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"
#include "kernels/kernel_test_util.h"
#include "proto/example.pb.h"

namespace sluice {
namespace test {
namespace {

class ParseExampleTest : public KernelTest {
 protected:
  // ParseExampleV2 with sparse "s" (int64), dense "d" (float [2], default {-1, -2}),
  // variable-length dense "v" (string [-1], padded with "pad") and ragged "r" (float,
  // int32 splits).
  void InitMixed() {
    ASSERT_TRUE(
        InitOp(NodeDefBuilder("p", "ParseExampleV2")
                   .Input("serialized")
                   .Input("names")
                   .Input("sparse_keys")
                   .Input("dense_keys")
                   .Input("ragged_keys")
                   .Input("d_default")
                   .Input("v_default")
                   .Attr("Tdense", std::vector<DataType>{DT_FLOAT, DT_STRING})
                   .Attr("num_sparse", int64_t{1})
                   .Attr("sparse_types", std::vector<DataType>{DT_INT64})
                   .Attr("ragged_value_types", std::vector<DataType>{DT_FLOAT})
                   .Attr("ragged_split_types", std::vector<DataType>{DT_INT32})
                   .Attr("dense_shapes", std::vector<PartialTensorShape>{PartialTensorShape({2}),
                                                                         PartialTensorShape({-1})})
                   .Build())
            .ok());
  }
  void AddKeysAndDefaults(const std::vector<std::string>& names) {
    AddInputFromArray<std::string>(TensorShape({static_cast<int64_t>(names.size())}), names);
    AddInputFromArray<std::string>(TensorShape({1}), {"s"});
    AddInputFromArray<std::string>(TensorShape({2}), {"d", "v"});
    AddInputFromArray<std::string>(TensorShape({1}), {"r"});
    AddInputFromArray<float>(TensorShape({2}), {-1, -2});
    AddInputFromArray<std::string>(TensorShape({}), {"pad"});
  }
};

TEST_F(ParseExampleTest, LargeBatchMatchesTheProtos) {
  InitMixed();
  constexpr int64_t kBatch = 3000;
  std::vector<std::string> records;
  std::vector<Example> examples(kBatch);
  for (int64_t i = 0; i < kBatch; ++i) {
    auto& f = *examples[i].mutable_features()->mutable_feature();
    for (int64_t j = 0; j < i % 4; ++j) f["s"].mutable_int64_list()->add_value(i * 10 + j);
    if (i % 3 != 0) {
      f["d"].mutable_float_list()->add_value(static_cast<float>(i));
      f["d"].mutable_float_list()->add_value(0.5f);
    }
    for (int64_t j = 0; j < i % 5; ++j)
      f["v"].mutable_bytes_list()->add_value(absl::StrCat(i, "/", j));
    for (int64_t j = 0; j < i % 3; ++j) f["r"].mutable_float_list()->add_value(j + 0.25f);
    f["unused"].mutable_int64_list()->add_value(1);
    records.push_back(examples[i].SerializeAsString());
  }
  AddInputFromArray<std::string>(TensorShape({kBatch}), records);
  AddKeysAndDefaults({});
  ASSERT_TRUE(RunOpKernel().ok());
  const Tensor& indices = *GetOutput(0);
  const Tensor& values = *GetOutput(1);
  const Tensor& shape = *GetOutput(2);
  const Tensor& dense = *GetOutput(3);
  const Tensor& varlen = *GetOutput(4);
  const Tensor& ragged = *GetOutput(5);
  const Tensor& splits = *GetOutput(6);
  EXPECT_EQ(shape.base<int64_t>()[0], kBatch);
  EXPECT_EQ(shape.base<int64_t>()[1], 3);
  EXPECT_EQ(varlen.shape().DebugString(), absl::StrCat("[", kBatch, ",4]"));
  EXPECT_EQ(splits.dtype(), DT_INT32);
  ASSERT_EQ(splits.NumElements(), kBatch + 1);
  int64_t n = 0;
  int64_t r = 0;
  EXPECT_EQ(splits.base<int32_t>()[0], 0);
  for (int64_t i = 0; i < kBatch; ++i) {
    for (int64_t j = 0; j < i % 4; ++j, ++n) {
      ASSERT_EQ(indices.base<int64_t>()[2 * n], i);
      ASSERT_EQ(indices.base<int64_t>()[2 * n + 1], j);
      ASSERT_EQ(values.base<int64_t>()[n], i * 10 + j);
    }
    ASSERT_EQ(dense.base<float>()[2 * i], i % 3 != 0 ? static_cast<float>(i) : -1.0f);
    ASSERT_EQ(dense.base<float>()[2 * i + 1], i % 3 != 0 ? 0.5f : -2.0f);
    for (int64_t j = 0; j < 4; ++j) {
      ASSERT_EQ(varlen.base<std::string>()[4 * i + j],
                j < i % 5 ? absl::StrCat(i, "/", j) : std::string("pad"));
    }
    for (int64_t j = 0; j < i % 3; ++j, ++r) ASSERT_EQ(ragged.base<float>()[r], j + 0.25f);
    ASSERT_EQ(splits.base<int32_t>()[i + 1], r);
  }
  EXPECT_EQ(values.NumElements(), n);
  EXPECT_EQ(ragged.NumElements(), r);
}

TEST_F(ParseExampleTest, MalformedRecordIsNamedByItsBytes) {
  InitMixed();
  const std::string bad("\x0a\x05\xff\xfe", 4);
  AddInputFromArray<std::string>(TensorShape({2}), {"", bad});
  AddKeysAndDefaults({"first", "second"});
  const absl::Status status = RunOpKernel();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("Could not parse example input, value: '" + bad + "'"),
            std::string::npos)
      << status;
}

TEST_F(ParseExampleTest, WrongTypeNamesTheRecordAndKey) {
  InitMixed();
  Example example;
  (*example.mutable_features()->mutable_feature())["d"].mutable_bytes_list()->add_value("\xff");
  AddInputFromArray<std::string>(TensorShape({1}), {example.SerializeAsString()});
  AddKeysAndDefaults(
      {"r\xe9"
       "cord"});
  const absl::Status status = RunOpKernel();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(),
            "Name: r\xe9"
            "cord, Key: d, Index: 0.  Data types don't match. Data type: string but expected "
            "type: float");
}

// dense_shape [-1, 0]: rows of no values. TensorFlow divides by the zero stride; Sluice gives
// no rows when no values come, and an error otherwise.
TEST_F(ParseExampleTest, VariableLengthRowsOfNoValues) {
  auto init = [this]() {
    return InitOp(
        NodeDefBuilder("p", "ParseSingleExample")
            .Input("serialized")
            .Input("default")
            .Attr("num_sparse", int64_t{0})
            .Attr("sparse_keys", std::vector<std::string>{})
            .Attr("dense_keys", std::vector<std::string>{"z"})
            .Attr("sparse_types", std::vector<DataType>{})
            .Attr("Tdense", std::vector<DataType>{DT_INT64})
            .Attr("dense_shapes", std::vector<PartialTensorShape>{PartialTensorShape({-1, 0})})
            .Build());
  };
  Example example;
  auto& list = *(*example.mutable_features()->mutable_feature())["z"].mutable_int64_list();
  ASSERT_TRUE(init().ok());
  AddInputFromArray<std::string>(TensorShape({}), {example.SerializeAsString()});
  AddInputFromArray<int64_t>(TensorShape({}), {0});
  ASSERT_TRUE(RunOpKernel().ok());
  EXPECT_EQ(GetOutput(0)->shape().DebugString(), "[0,0]");

  list.add_value(4);
  ASSERT_TRUE(init().ok());
  AddInputFromArray<std::string>(TensorShape({}), {example.SerializeAsString()});
  AddInputFromArray<int64_t>(TensorShape({}), {0});
  EXPECT_EQ(RunOpKernel().code(), absl::StatusCode::kInvalidArgument);
}

// ParseExample's keys are scalars; TensorFlow's kernel aborts on another shape.
TEST_F(ParseExampleTest, V1KeyMustBeAScalar) {
  ASSERT_TRUE(InitOp(NodeDefBuilder("p", "ParseExample")
                         .Input("serialized")
                         .Input("names")
                         .Input("sparse_key")
                         .Attr("Nsparse", int64_t{1})
                         .Attr("Ndense", int64_t{0})
                         .Attr("sparse_types", std::vector<DataType>{DT_FLOAT})
                         .Attr("Tdense", std::vector<DataType>{})
                         .Attr("dense_shapes", std::vector<PartialTensorShape>{})
                         .Build())
                  .ok());
  AddInputFromArray<std::string>(TensorShape({1}), {""});
  AddInputFromArray<std::string>(TensorShape({0}), {});
  AddInputFromArray<std::string>(TensorShape({2}), {"a", "b"});
  const absl::Status status = RunOpKernel();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("Expected sparse_keys[0] to be a scalar"), std::string::npos)
      << status;
}

}  // namespace
}  // namespace test
}  // namespace sluice
