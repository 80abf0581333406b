#include "io/npy.h"

#include <complex>
#include <string>

#include "absl/strings/str_cat.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

std::string TestFile(const std::string& name) { return "io/testdata/" + name; }

Tensor ReadOk(const std::string& name) {
  Tensor t;
  absl::Status status = ReadNpyFile(TestFile(name), &t);
  EXPECT_TRUE(status.ok()) << status;
  return t;
}

TEST(NpyTest, ReadsVersionOneFloat) {
  Tensor t = ReadOk("f32_2x3_v1.npy");
  ASSERT_EQ(t.dtype(), DT_FLOAT);
  EXPECT_EQ(t.shape(), TensorShape({2, 3}));
  for (int i = 0; i < 6; ++i) EXPECT_EQ(t.flat<float>()(i), i);
}

TEST(NpyTest, ReadsVersionTwoAndThree) {
  Tensor i64 = ReadOk("i64_4_v2.npy");
  ASSERT_EQ(i64.dtype(), DT_INT64);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(i64.flat<int64_t>()(i), i - 2);
  Tensor b = ReadOk("bool_3_v3.npy");
  ASSERT_EQ(b.dtype(), DT_BOOL);
  EXPECT_TRUE(b.flat<bool>()(0));
  EXPECT_FALSE(b.flat<bool>()(1));
  EXPECT_TRUE(b.flat<bool>()(2));
}

TEST(NpyTest, SwapsBigEndianData) {
  Tensor f64 = ReadOk("f64_big_endian.npy");
  ASSERT_EQ(f64.dtype(), DT_DOUBLE);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(f64.flat<double>()(i), i);
  Tensor c64 = ReadOk("c64_big_endian.npy");
  ASSERT_EQ(c64.dtype(), DT_COMPLEX64);
  EXPECT_EQ(c64.flat<complex64>()(1), complex64(1, 1));
}

TEST(NpyTest, ReadsHalfScalarsAndEmptyArrays) {
  Tensor f16 = ReadOk("f16_2.npy");
  ASSERT_EQ(f16.dtype(), DT_HALF);
  EXPECT_EQ(static_cast<float>(f16.flat<half>()(1)), 1.0f);
  Tensor scalar = ReadOk("u16_scalar.npy");
  ASSERT_EQ(scalar.dtype(), DT_UINT16);
  EXPECT_EQ(scalar.dims(), 0);
  EXPECT_EQ(scalar.scalar<uint16_t>()(), 7);
  Tensor empty = ReadOk("i32_0x3.npy");
  EXPECT_EQ(empty.shape(), TensorShape({0, 3}));
}

TEST(NpyTest, RejectsFortranObjectAndStringArrays) {
  Tensor t;
  absl::Status fortran = ReadNpyFile(TestFile("f32_fortran.npy"), &t);
  EXPECT_EQ(fortran.code(), absl::StatusCode::kUnimplemented);
  EXPECT_NE(fortran.message().find("Fortran"), std::string::npos) << fortran;
  absl::Status object = ReadNpyFile(TestFile("object.npy"), &t);
  EXPECT_EQ(object.code(), absl::StatusCode::kUnimplemented);
  EXPECT_NE(object.message().find("dtype=object"), std::string::npos) << object;
  absl::Status unicode = ReadNpyFile(TestFile("unicode.npy"), &t);
  EXPECT_EQ(unicode.code(), absl::StatusCode::kUnimplemented);
  EXPECT_NE(unicode.message().find("<U2"), std::string::npos) << unicode;
}

TEST(NpyTest, WritesNumpysBytes) {
  std::string numpy_bytes;
  {
    std::FILE* f = std::fopen(TestFile("f32_2x3_v1.npy").c_str(), "rb");
    ASSERT_NE(f, nullptr);
    char buf[512];
    size_t n = std::fread(buf, 1, sizeof(buf), f);
    std::fclose(f);
    numpy_bytes.assign(buf, n);
  }
  Tensor t = ReadOk("f32_2x3_v1.npy");
  std::string ours;
  ASSERT_TRUE(EncodeNpy(t, &ours).ok());
  EXPECT_EQ(ours, numpy_bytes);
  ASSERT_TRUE(EncodeNpy(ReadOk("bool_3_v3.npy"), &ours).ok());
  EXPECT_NE(ours.find("'descr': '|b1', 'fortran_order': False, 'shape': (3,), }"),
            std::string::npos);
  EXPECT_EQ(ours.size() % 64, 3u);  // header padded to 64, then 3 bools
}

// Write failures carry the system's error and its code: a full device is RESOURCE_EXHAUSTED
// ("No space left on device"), a missing directory NOT_FOUND.
TEST(NpyTest, WriteErrorsKeepTheErrno) {
  const Tensor t = ReadOk("f32_2x3_v1.npy");
  absl::Status full = WriteNpyFile("/dev/full", t);
  EXPECT_EQ(full.code(), absl::StatusCode::kResourceExhausted) << full;
  EXPECT_NE(full.message().find("error writing /dev/full"), std::string::npos) << full;
  EXPECT_NE(full.message().find("No space left on device"), std::string::npos) << full;
  absl::Status missing = WriteNpyFile("/nonexistent/dir/out.npy", t);
  EXPECT_EQ(missing.code(), absl::StatusCode::kNotFound) << missing;
  EXPECT_NE(missing.message().find("cannot write /nonexistent/dir/out.npy"), std::string::npos)
      << missing;
}

// Every writable dtype survives a round trip, values and shape.
TEST(NpyTest, RoundTripsEveryDtype) {
  for (DataType dtype :
       {DT_BOOL, DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8, DT_UINT16, DT_UINT32, DT_UINT64,
        DT_HALF, DT_FLOAT, DT_DOUBLE, DT_COMPLEX64, DT_COMPLEX128}) {
    SCOPED_TRACE(DataTypeString(dtype));
    Tensor t(dtype, TensorShape({2, 1, 3}));
    char* data = static_cast<char*>(t.raw_data());
    for (size_t i = 0; i < t.tensor_data().size(); ++i) {
      data[i] = dtype == DT_BOOL ? i % 2 : static_cast<char>(i * 7 + 1);
    }
    std::string bytes;
    ASSERT_TRUE(EncodeNpy(t, &bytes).ok());
    Tensor back;
    absl::Status status = ParseNpy(bytes, &back);
    ASSERT_TRUE(status.ok()) << status;
    EXPECT_EQ(back.dtype(), dtype);
    EXPECT_EQ(back.shape(), t.shape());
    EXPECT_EQ(back.tensor_data(), t.tensor_data());
    DataType named;
    ASSERT_TRUE(DataTypeFromNumpyName(NumpyDtypeName(dtype), &named).ok());
    EXPECT_EQ(named, dtype);
  }
}

TEST(NpyTest, RefusesDtypesNumpyCannotName) {
  std::string bytes;
  EXPECT_EQ(EncodeNpy(Tensor(DT_BFLOAT16, TensorShape({1})), &bytes).code(),
            absl::StatusCode::kUnimplemented);
  EXPECT_EQ(EncodeNpy(Tensor(DT_STRING, TensorShape({1})), &bytes).code(),
            absl::StatusCode::kUnimplemented);
  EXPECT_EQ(NumpyDtypeName(DT_QINT8), "");
}

std::string WithHeader(const std::string& dict, const std::string& data = "") {
  std::string header = dict + "\n";
  return absl::StrCat(std::string("\x93NUMPY\x01\x00", 8), std::string(1, header.size()),
                      std::string(1, '\0'), header, data);
}

TEST(NpyTest, RejectsMalformedFiles) {
  Tensor t;
  EXPECT_EQ(ParseNpy("PK\x03\x04 a zip file", &t).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ParseNpy(std::string("\x93NUMPY\x04\x00\x00\x00", 10), &t).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ParseNpy(WithHeader("{'descr': '<f4', 'shape': (1,), }", "abcd"), &t).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(
      ParseNpy(WithHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }"), &t).code(),
      absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ParseNpy(WithHeader("{'descr': '<f4', 'fortran_order': False, 'shape': "
                                "(4611686018427387904, 4), }"),
                     &t)
                .code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ParseNpy(WithHeader("{'descr': [('a', '<f4')], 'fortran_order': False, "
                                "'shape': (1,), }"),
                     &t)
                .code(),
            absl::StatusCode::kUnimplemented);
  absl::Status short_data =
      ParseNpy(WithHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", "abcd"), &t);
  EXPECT_EQ(short_data.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(short_data.message().find("needs 8"), std::string::npos) << short_data;
  EXPECT_EQ(ReadNpyFile("io/testdata/no_such_file.npy", &t).code(), absl::StatusCode::kNotFound);
}

// Every prefix of a valid file is rejected cleanly (no crash, no partial tensor).
TEST(NpyTest, RejectsEveryTruncation) {
  std::string bytes;
  ASSERT_TRUE(EncodeNpy(Tensor(DT_INT32, TensorShape({2, 2})), &bytes).ok());
  for (size_t n = 0; n < bytes.size(); ++n) {
    Tensor t;
    EXPECT_FALSE(ParseNpy(absl::string_view(bytes).substr(0, n), &t).ok()) << n;
  }
}

}  // namespace
}  // namespace sluice
