#include "graph/core/tensor_proto.h"

#include <cstdint>
#include <string>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "graph/core/tensor_types.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

// A distinct, exactly representable value of type T for element i.
template <typename T>
T ValueAt(int64_t i) {
  if constexpr (std::is_same_v<T, std::string>) {
    return absl::StrCat("s", i, std::string(i % 3, '\0'));
  } else if constexpr (std::is_same_v<T, ResourceHandleProto>) {
    ResourceHandleProto handle;
    handle.set_name(absl::StrCat("var", i));
    handle.set_hash_code(static_cast<uint64_t>(i) * 7);
    return handle;
  } else if constexpr (std::is_same_v<T, bool>) {
    return i % 2 == 1;
  } else if constexpr (std::is_same_v<T, complex64> || std::is_same_v<T, complex128>) {
    return T(static_cast<double>(i) + 0.5, -static_cast<double>(i));
  } else if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16>) {
    return T(static_cast<float>(i) * 0.5f - 1.0f);
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(i) * static_cast<T>(0.25) - static_cast<T>(3);
  } else {
    // Integers, quantized included: exercise the sign bit where the type has one.
    return static_cast<T>(static_cast<int64_t>(i) * 37 - 50);
  }
}

template <typename T>
bool ElementsEqual(const T& a, const T& b) {
  if constexpr (std::is_same_v<T, ResourceHandleProto>) {
    return a.SerializeAsString() == b.SerializeAsString();
  } else if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16>) {
    return static_cast<float>(a) == static_cast<float>(b);
  } else if constexpr (std::is_same_v<T, qint8> || std::is_same_v<T, quint8> ||
                       std::is_same_v<T, qint16> || std::is_same_v<T, quint16> ||
                       std::is_same_v<T, qint32>) {
    return a.value == b.value;
  } else {
    return a == b;
  }
}

template <typename T>
Tensor Sample(const TensorShape& shape) {
  Tensor t(DataTypeToEnum<T>::value, shape);
  for (int64_t i = 0; i < t.NumElements(); ++i) t.base<T>()[i] = ValueAt<T>(i);
  return t;
}

template <typename T>
void ExpectRoundTrip() {
  const DataType dtype = DataTypeToEnum<T>::value;
  const Tensor original = Sample<T>(TensorShape({2, 3}));
  for (bool content : {true, false}) {
    SCOPED_TRACE(absl::StrCat(DataTypeString(dtype), content ? " content" : " field"));
    TensorProto proto;
    if (content) {
      TensorToProtoContent(original, &proto);
    } else {
      TensorToProtoField(original, &proto);
    }
    EXPECT_EQ(proto.dtype(), dtype);
    EXPECT_EQ(proto.tensor_shape().dim_size(), 2);
    EXPECT_EQ(content && DataTypeCanUseMemcpy(dtype), !proto.tensor_content().empty());
    Tensor parsed;
    const absl::Status status = TensorFromProto(proto, &parsed);
    ASSERT_TRUE(status.ok()) << status;
    EXPECT_EQ(parsed.dtype(), dtype);
    EXPECT_EQ(parsed.shape(), original.shape());
    for (int64_t i = 0; i < 6; ++i) {
      EXPECT_TRUE(ElementsEqual(parsed.base<T>()[i], original.base<T>()[i])) << "element " << i;
    }
  }
}

TEST(TensorProtoTest, RoundTripsEveryType) {
#define SLUICE_ROUND_TRIP(T) ExpectRoundTrip<T>();
  SLUICE_CALL_ALL_TYPES(SLUICE_ROUND_TRIP)
  SLUICE_ROUND_TRIP(ResourceHandleProto)
#undef SLUICE_ROUND_TRIP
}

TEST(TensorProtoTest, FieldPerType) {
  TensorProto proto;
  TensorToProtoField(Sample<int8_t>(TensorShape({2})), &proto);
  EXPECT_EQ(proto.int_val_size(), 2);
  EXPECT_EQ(proto.int_val(0), -50);
  TensorToProtoField(Sample<uint16_t>(TensorShape({2})), &proto);
  EXPECT_EQ(proto.int_val_size(), 2);
  TensorToProtoField(Sample<qint32>(TensorShape({2})), &proto);
  EXPECT_EQ(proto.int_val(1), -13);
  TensorToProtoField(Sample<int64_t>(TensorShape({2})), &proto);
  EXPECT_EQ(proto.int64_val_size(), 2);
  TensorToProtoField(Sample<uint32_t>(TensorShape({2})), &proto);
  EXPECT_EQ(proto.uint32_val_size(), 2);
  TensorToProtoField(Sample<uint64_t>(TensorShape({2})), &proto);
  EXPECT_EQ(proto.uint64_val_size(), 2);
  TensorToProtoField(Sample<bool>(TensorShape({2})), &proto);
  EXPECT_EQ(proto.bool_val(1), true);
  TensorToProtoField(Sample<double>(TensorShape({2})), &proto);
  EXPECT_EQ(proto.double_val(1), -2.75);
  TensorToProtoField(Sample<complex64>(TensorShape({2})), &proto);
  ASSERT_EQ(proto.scomplex_val_size(), 4);
  EXPECT_EQ(proto.scomplex_val(2), 1.5f);
  EXPECT_EQ(proto.scomplex_val(3), -1.0f);
  TensorToProtoField(Sample<complex128>(TensorShape({1})), &proto);
  EXPECT_EQ(proto.dcomplex_val_size(), 2);
  TensorToProtoField(Sample<std::string>(TensorShape({2})), &proto);
  EXPECT_EQ(proto.string_val(1), std::string("s1\0", 3));
  TensorToProtoField(Sample<ResourceHandleProto>(TensorShape({1})), &proto);
  EXPECT_EQ(proto.resource_handle_val(0).name(), "var0");
}

TEST(TensorProtoTest, SixteenBitFloatsAsBitPatterns) {
  // Bit patterns and bytes as TensorFlow writes them for [1.5, -2.0].
  Tensor h(DT_HALF, TensorShape({2}));
  h.vec<half>()(0) = half(1.5f);
  h.vec<half>()(1) = half(-2.0f);
  TensorProto proto;
  TensorToProtoField(h, &proto);
  ASSERT_EQ(proto.half_val_size(), 2);
  EXPECT_EQ(proto.half_val(0), 0x3e00);
  EXPECT_EQ(proto.half_val(1), 0xc000);
  TensorToProtoContent(h, &proto);
  EXPECT_EQ(proto.tensor_content(), std::string("\x00\x3e\x00\xc0", 4));

  Tensor b(DT_BFLOAT16, TensorShape({2}));
  b.vec<bfloat16>()(0) = bfloat16(1.5f);
  b.vec<bfloat16>()(1) = bfloat16(-2.0f);
  TensorToProtoField(b, &proto);
  ASSERT_EQ(proto.half_val_size(), 2);
  EXPECT_EQ(proto.half_val(0), 0x3fc0);
  EXPECT_EQ(proto.half_val(1), 0xc000);
  TensorToProtoContent(b, &proto);
  EXPECT_EQ(proto.tensor_content(), std::string("\xc0\x3f\x00\xc0", 4));
}

TensorProto ProtoOf(DataType dtype, std::initializer_list<int64_t> dims) {
  TensorProto proto;
  proto.set_dtype(dtype);
  for (int64_t d : dims) proto.mutable_tensor_shape()->add_dim()->set_size(d);
  return proto;
}

TEST(TensorProtoTest, ShortListsPadWithLastValue) {
  TensorProto proto = ProtoOf(DT_FLOAT, {5});
  proto.add_float_val(1);
  proto.add_float_val(2);
  Tensor t;
  ASSERT_TRUE(TensorFromProto(proto, &t).ok());
  EXPECT_EQ(t.SummarizeValue(10), "1 2 2 2 2");

  proto = ProtoOf(DT_COMPLEX64, {3});
  proto.add_scomplex_val(1);
  proto.add_scomplex_val(2);
  ASSERT_TRUE(TensorFromProto(proto, &t).ok());
  EXPECT_EQ(t.vec<complex64>()(2), complex64(1, 2));

  proto = ProtoOf(DT_STRING, {2, 2});
  proto.add_string_val("a");
  proto.add_string_val("b");
  ASSERT_TRUE(TensorFromProto(proto, &t).ok());
  EXPECT_EQ(t.flat<std::string>()(3), "b");

  proto = ProtoOf(DT_BFLOAT16, {3});
  proto.add_half_val(0x3fc0);
  ASSERT_TRUE(TensorFromProto(proto, &t).ok());
  EXPECT_EQ(static_cast<float>(t.vec<bfloat16>()(2)), 1.5f);

  proto = ProtoOf(DT_INT8, {2});
  proto.add_int_val(300);  // truncated as TensorFlow does
  ASSERT_TRUE(TensorFromProto(proto, &t).ok());
  EXPECT_EQ(t.vec<int8_t>()(1), 44);
}

TEST(TensorProtoTest, EmptyListsGiveZeros) {
  Tensor t;
  ASSERT_TRUE(TensorFromProto(ProtoOf(DT_DOUBLE, {3}), &t).ok());
  EXPECT_EQ(t.SummarizeValue(10), "0 0 0");
  ASSERT_TRUE(TensorFromProto(ProtoOf(DT_HALF, {2}), &t).ok());
  EXPECT_EQ(static_cast<float>(t.vec<half>()(1)), 0.0f);
  ASSERT_TRUE(TensorFromProto(ProtoOf(DT_COMPLEX128, {2}), &t).ok());
  EXPECT_EQ(t.vec<complex128>()(1), complex128(0, 0));
  ASSERT_TRUE(TensorFromProto(ProtoOf(DT_QUINT8, {2}), &t).ok());
  EXPECT_EQ(t.vec<quint8>()(1).value, 0);
  ASSERT_TRUE(TensorFromProto(ProtoOf(DT_STRING, {2}), &t).ok());
  EXPECT_EQ(t.vec<std::string>()(1), "");
  ASSERT_TRUE(TensorFromProto(ProtoOf(DT_RESOURCE, {1}), &t).ok());
  EXPECT_EQ(t.vec<ResourceHandleProto>()(0).name(), "");
  ASSERT_TRUE(TensorFromProto(ProtoOf(DT_INT32, {}), &t).ok());
  EXPECT_EQ(t.dims(), 0);
  EXPECT_EQ(t.scalar<int32_t>()(), 0);
  ASSERT_TRUE(TensorFromProto(ProtoOf(DT_INT32, {0, 4}), &t).ok());
  EXPECT_EQ(t.shape(), TensorShape({0, 4}));
}

TEST(TensorProtoTest, ContentBeatsFields) {
  TensorProto proto = ProtoOf(DT_FLOAT, {2});
  proto.set_tensor_content(std::string(8, '\0'));
  proto.add_float_val(5);
  Tensor t;
  ASSERT_TRUE(TensorFromProto(proto, &t).ok());
  EXPECT_EQ(t.SummarizeValue(10), "0 0");
}

TEST(TensorProtoTest, StringListContent) {
  // TensorFlow's string-list encoding: varint lengths, then the bytes.
  TensorProto proto = ProtoOf(DT_STRING, {2});
  proto.set_tensor_content(
      std::string("\x01\x02"
                  "abc",
                  5));
  Tensor t;
  ASSERT_TRUE(TensorFromProto(proto, &t).ok());
  EXPECT_EQ(t.vec<std::string>()(0), "a");
  EXPECT_EQ(t.vec<std::string>()(1), "bc");

  ResourceHandleProto handle;
  handle.set_name("h");
  const std::string bytes = handle.SerializeAsString();
  proto = ProtoOf(DT_RESOURCE, {1});
  proto.set_tensor_content(std::string(1, static_cast<char>(bytes.size())) + bytes);
  ASSERT_TRUE(TensorFromProto(proto, &t).ok());
  EXPECT_EQ(t.vec<ResourceHandleProto>()(0).name(), "h");
}

absl::Status ParseError(const TensorProto& proto) {
  Tensor t = Tensor(42);
  const absl::Status status = TensorFromProto(proto, &t);
  EXPECT_EQ(t.scalar<int32_t>()(), 42) << "output changed on error";
  return status;
}

void ExpectError(const TensorProto& proto, absl::StatusCode code,
                 std::initializer_list<const char*> fragments) {
  const absl::Status status = ParseError(proto);
  EXPECT_EQ(status.code(), code) << status;
  for (const char* fragment : fragments) {
    EXPECT_NE(status.message().find(fragment), std::string::npos)
        << "'" << fragment << "' not in: " << status.message();
  }
}

TEST(TensorProtoTest, SizeMismatches) {
  TensorProto proto = ProtoOf(DT_FLOAT, {5});
  for (int i = 0; i < 6; ++i) proto.add_float_val(i);
  ExpectError(proto, absl::StatusCode::kInvalidArgument, {"float", "[5]", "6", "float_val"});

  proto = ProtoOf(DT_FLOAT, {5});
  proto.set_tensor_content(std::string(8, '\0'));
  ExpectError(proto, absl::StatusCode::kInvalidArgument, {"float", "8 bytes", "expected 20"});

  proto = ProtoOf(DT_INT32, {0});
  proto.set_tensor_content(std::string(4, '\0'));
  ExpectError(proto, absl::StatusCode::kInvalidArgument, {"expected 0"});

  proto = ProtoOf(DT_COMPLEX64, {2});
  for (int i = 0; i < 3; ++i) proto.add_scomplex_val(i);
  ExpectError(proto, absl::StatusCode::kInvalidArgument, {"odd", "scomplex_val"});

  proto = ProtoOf(DT_COMPLEX128, {2});
  for (int i = 0; i < 3; ++i) proto.add_dcomplex_val(i);
  ExpectError(proto, absl::StatusCode::kInvalidArgument, {"odd", "dcomplex_val"});

  proto = ProtoOf(DT_STRING, {2});
  proto.add_string_val("a");
  proto.add_string_val("b");
  proto.add_string_val("c");
  ExpectError(proto, absl::StatusCode::kInvalidArgument, {"string", "3 values"});

  proto = ProtoOf(DT_STRING, {2});
  proto.set_tensor_content(
      std::string("\x01\x02"
                  "abcd",
                  6));
  ExpectError(proto, absl::StatusCode::kInvalidArgument, {"string", "does not encode 2"});
  proto.set_tensor_content(std::string("\x01\x80", 2));
  ExpectError(proto, absl::StatusCode::kInvalidArgument, {"does not encode"});
  // A huge element count cannot be encoded by few bytes: rejected before allocating.
  proto = ProtoOf(DT_STRING, {int64_t{1} << 40});
  proto.set_tensor_content(std::string(1, '\0'));
  ExpectError(proto, absl::StatusCode::kInvalidArgument, {"does not encode"});

  proto = ProtoOf(DT_RESOURCE, {1});
  proto.set_tensor_content(std::string("\x02\xff\xff", 3));
  ExpectError(proto, absl::StatusCode::kInvalidArgument, {"malformed resource handle"});
}

TEST(TensorProtoTest, BadDtypes) {
  ExpectError(ProtoOf(DT_INVALID, {1}), absl::StatusCode::kInvalidArgument, {"INVALID"});
  ExpectError(ProtoOf(DataType(77), {1}), absl::StatusCode::kInvalidArgument, {"dtype"});
  ExpectError(ProtoOf(DT_FLOAT_REF, {1}), absl::StatusCode::kInvalidArgument, {"float_ref"});
  ExpectError(ProtoOf(DT_VARIANT, {1}), absl::StatusCode::kUnimplemented, {"variant"});
  ExpectError(ProtoOf(DT_FLOAT8_E4M3FN, {1}), absl::StatusCode::kUnimplemented, {"float8_e4m3fn"});
  ExpectError(ProtoOf(DT_INT4, {1}), absl::StatusCode::kUnimplemented, {"int4"});
}

TEST(TensorProtoTest, BadShapes) {
  ExpectError(ProtoOf(DT_FLOAT, {-1}), absl::StatusCode::kInvalidArgument, {"shape", "[?]"});
  ExpectError(ProtoOf(DT_FLOAT, {2, -5}), absl::StatusCode::kInvalidArgument, {"shape"});
  TensorProto unknown = ProtoOf(DT_FLOAT, {});
  unknown.mutable_tensor_shape()->set_unknown_rank(true);
  ExpectError(unknown, absl::StatusCode::kInvalidArgument, {"unknown rank"});
  const int64_t big = int64_t{1} << 40;
  ExpectError(ProtoOf(DT_FLOAT, {big, big}), absl::StatusCode::kInvalidArgument, {"too large"});
  ExpectError(ProtoOf(DT_FLOAT, {0, big, big}), absl::StatusCode::kInvalidArgument, {"too large"});
  TensorProto too_many = ProtoOf(DT_FLOAT, {});
  for (int i = 0; i <= TensorShape::kMaxDims; ++i) {
    too_many.mutable_tensor_shape()->add_dim()->set_size(1);
  }
  ExpectError(too_many, absl::StatusCode::kInvalidArgument, {"dimensions"});
}

TEST(TensorProtoTest, HugeTensorsAreRefusedNotAttempted) {
  CpuAllocator allocator;
  TensorProto proto = ProtoOf(DT_FLOAT, {int64_t{1} << 40});
  proto.add_float_val(1);
  Tensor t;
  absl::Status status = TensorFromProto(&allocator, proto, &t);
  EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted) << status;
  ExpectError(ProtoOf(DT_COMPLEX128, {int64_t{1} << 60}), absl::StatusCode::kResourceExhausted,
              {"complex128"});
  ExpectError(ProtoOf(DT_STRING, {int64_t{1} << 40}), absl::StatusCode::kResourceExhausted,
              {"string", "[1099511627776]"});
  EXPECT_EQ(allocator.GetStats().num_allocs, 0);
}

TEST(TensorProtoTest, UsesTheGivenAllocator) {
  CpuAllocator allocator;
  TensorProto proto = ProtoOf(DT_INT64, {4});
  proto.add_int64_val(9);
  Tensor t;
  ASSERT_TRUE(TensorFromProto(&allocator, proto, &t).ok());
  EXPECT_EQ(allocator.GetStats().bytes_in_use, 32);
  EXPECT_EQ(t.SummarizeValue(10), "9 9 9 9");
  t = Tensor();
  EXPECT_EQ(allocator.GetStats().bytes_in_use, 0);
}

TEST(TensorProtoTest, WritersOverwriteAndHandleSlices) {
  TensorProto proto = ProtoOf(DT_STRING, {1});
  proto.add_string_val("stale");
  proto.set_version_number(3);
  const Tensor rows = Sample<int32_t>(TensorShape({4, 1})).Slice(1, 3);
  TensorToProtoField(rows, &proto);
  EXPECT_EQ(proto.string_val_size(), 0);
  EXPECT_EQ(proto.version_number(), 0);
  ASSERT_EQ(proto.int_val_size(), 2);
  EXPECT_EQ(proto.int_val(0), -13);
  TensorToProtoContent(rows, &proto);
  EXPECT_EQ(proto.int_val_size(), 0);
  EXPECT_EQ(proto.tensor_content().size(), 8u);
  TensorToProtoContent(Tensor(DT_FLOAT, TensorShape({0, 3})), &proto);
  EXPECT_TRUE(proto.tensor_content().empty());
  EXPECT_EQ(proto.tensor_shape().dim(1).size(), 3);
}

TEST(TensorProtoTest, MakeConstNodeDefHoldsTheTensor) {
  Tensor t(DT_FLOAT, TensorShape({2}));
  t.flat<float>()(0) = 1.5f;
  t.flat<float>()(1) = -2.f;
  const NodeDef def = MakeConstNodeDef("c", t, "/device:CPU:0");
  EXPECT_EQ(def.name(), "c");
  EXPECT_EQ(def.op(), "Const");
  EXPECT_EQ(def.device(), "/device:CPU:0");
  EXPECT_EQ(def.attr().at("dtype").type(), DT_FLOAT);
  Tensor back;
  ASSERT_TRUE(TensorFromProto(def.attr().at("value").tensor(), &back).ok());
  ASSERT_EQ(back.shape(), TensorShape({2}));
  EXPECT_EQ(back.flat<float>()(0), 1.5f);
  EXPECT_EQ(back.flat<float>()(1), -2.f);
}

}  // namespace
}  // namespace sluice
