#include "graph/core/tensor.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "graph/core/tensor_types.h"
#include "gtest/gtest.h"

namespace sluice {
namespace {

template <typename T>
Tensor MakeTensor(const TensorShape& shape, const std::vector<T>& values) {
  Tensor t(DataTypeToEnum<T>::value, shape);
  EXPECT_EQ(static_cast<int64_t>(values.size()), t.NumElements());
  for (size_t i = 0; i < values.size(); ++i) t.base<T>()[i] = values[i];
  return t;
}

Tensor Iota(const TensorShape& shape) {
  Tensor t(DT_INT32, shape);
  for (int64_t i = 0; i < t.NumElements(); ++i) t.base<int32_t>()[i] = static_cast<int32_t>(i);
  return t;
}

TEST(TensorTest, DefaultIsEmptyFloatVector) {
  Tensor t;
  EXPECT_EQ(t.dtype(), DT_FLOAT);
  EXPECT_EQ(t.shape(), TensorShape({0}));
  EXPECT_EQ(t.NumElements(), 0);
  EXPECT_TRUE(t.IsInitialized());
  EXPECT_EQ(t.TotalBytes(), 0u);
  EXPECT_EQ(t.raw_data(), nullptr);
  EXPECT_FALSE(t.SharesBufferWith(Tensor()));
  EXPECT_FALSE(t.RefCountIsOne());
  EXPECT_EQ(Tensor(DT_INT64).dtype(), DT_INT64);
  EXPECT_EQ(Tensor(DT_INT64).shape(), TensorShape({0}));
  EXPECT_EQ(Tensor(DT_INVALID).NumElements(), 0);
}

TEST(TensorTest, AllocateShapesAndAligns) {
  Tensor t(DT_FLOAT, TensorShape({3, 5}));
  EXPECT_EQ(t.dims(), 2);
  EXPECT_EQ(t.dim_size(1), 5);
  EXPECT_EQ(t.NumElements(), 15);
  EXPECT_EQ(t.TotalBytes(), 60u);
  EXPECT_EQ(t.AllocatedBytes(), 60u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(t.raw_data()) % kAllocatorAlignment, 0u);
  EXPECT_TRUE(t.IsAligned());
  EXPECT_EQ(t.tensor_data().size(), 60u);
  EXPECT_TRUE(t.RefCountIsOne());
}

TEST(TensorTest, AllocateErrors) {
  CpuAllocator allocator;
  EXPECT_EQ(Tensor::Allocate(&allocator, DT_INVALID, TensorShape({1})).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Tensor::Allocate(&allocator, DT_FLOAT_REF, TensorShape({1})).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Tensor::Allocate(&allocator, DataType(77), TensorShape({1})).status().code(),
            absl::StatusCode::kInvalidArgument);
  for (DataType dtype : {DT_FLOAT8_E5M2, DT_INT4, DT_UINT4}) {
    const absl::Status status = Tensor::Allocate(&allocator, dtype, TensorShape({1})).status();
    EXPECT_EQ(status.code(), absl::StatusCode::kUnimplemented) << DataTypeString(dtype);
    EXPECT_NE(status.message().find(DataTypeString(dtype)), std::string::npos) << status;
  }
  // Elements fit in int64 but their bytes do not.
  const absl::Status overflow =
      Tensor::Allocate(&allocator, DT_DOUBLE, TensorShape({int64_t{1} << 61})).status();
  EXPECT_EQ(overflow.code(), absl::StatusCode::kResourceExhausted);
  // 2^40 floats is more memory than any test machine has: refused, not attempted.
  const absl::Status huge =
      Tensor::Allocate(&allocator, DT_FLOAT, TensorShape({int64_t{1} << 40})).status();
  EXPECT_EQ(huge.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_NE(huge.message().find("[1099511627776]"), std::string::npos) << huge;
  EXPECT_EQ(allocator.GetStats().num_allocs, 0);

  CpuAllocator small(100);
  EXPECT_EQ(Tensor::Allocate(&small, DT_FLOAT, TensorShape({26})).status().code(),
            absl::StatusCode::kResourceExhausted);
  EXPECT_TRUE(Tensor::Allocate(&small, DT_FLOAT, TensorShape({25})).ok());
  // No elements, no allocation.
  absl::StatusOr<Tensor> empty = Tensor::Allocate(&small, DT_FLOAT, TensorShape({0, 1000}));
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->raw_data(), nullptr);
}

TEST(TensorTest, BufferReturnsToAllocator) {
  CpuAllocator allocator;
  {
    Tensor a(&allocator, DT_INT64, TensorShape({10}));
    EXPECT_EQ(allocator.GetStats().bytes_in_use, 80);
    Tensor b = a;
    Tensor c;
    c = b;
    EXPECT_EQ(allocator.GetStats().num_allocs, 1);
    a = Tensor();
    EXPECT_EQ(allocator.GetStats().bytes_in_use, 80);
  }
  EXPECT_EQ(allocator.GetStats().bytes_in_use, 0);
  EXPECT_EQ(allocator.GetStats().peak_bytes_in_use, 80);
}

TEST(TensorTest, ReadOnlyMarkTravelsWithTheBufferAndBlocksForwarding) {
  Tensor a = MakeTensor<float>(TensorShape({2, 2}), {1, 2, 3, 4});
  EXPECT_FALSE(a.IsReadOnly());
  EXPECT_TRUE(a.RefCountIsOne());
  a.MarkReadOnly();
  EXPECT_TRUE(a.IsReadOnly());
  // The only reference, but no kernel may overwrite it.
  EXPECT_FALSE(a.RefCountIsOne());
  Tensor copy = a;
  Tensor row = a.Slice(1, 2);
  Tensor reshaped;
  ASSERT_TRUE(reshaped.CopyFrom(a, TensorShape({4})));
  EXPECT_TRUE(copy.IsReadOnly());
  EXPECT_TRUE(row.IsReadOnly());
  EXPECT_TRUE(reshaped.IsReadOnly());
  // A fresh buffer with the same values is not read-only; an empty tensor never is.
  EXPECT_FALSE(MakeTensor<float>(TensorShape({2, 2}), {1, 2, 3, 4}).IsReadOnly());
  Tensor empty(DT_FLOAT, TensorShape({0}));
  empty.MarkReadOnly();
  EXPECT_FALSE(empty.IsReadOnly());
}

TEST(TensorTest, CopiesShareMovesTransfer) {
  Tensor a = MakeTensor<float>(TensorShape({2}), {1, 2});
  EXPECT_TRUE(a.RefCountIsOne());
  Tensor b = a;
  EXPECT_TRUE(a.SharesBufferWith(b));
  EXPECT_FALSE(a.RefCountIsOne());
  b.flat<float>()(0) = 9;
  EXPECT_EQ(a.flat<float>()(0), 9);

  Tensor c = std::move(b);
  EXPECT_TRUE(c.SharesBufferWith(a));
  EXPECT_EQ(b.NumElements(), 0);  // NOLINT(bugprone-use-after-move): moved-from is empty
  EXPECT_FALSE(a.RefCountIsOne());
  c = Tensor();
  EXPECT_TRUE(a.RefCountIsOne());

  // Moved-from tensors, by construction and by assignment, are empty [0] tensors that may
  // be reused.
  Tensor d = a;
  Tensor e = std::move(d);
  EXPECT_EQ(d.shape(), TensorShape({0}));  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(d.dims(), 1);
  Tensor f;
  f = std::move(e);
  EXPECT_EQ(e.shape(), TensorShape({0}));  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(e.raw_data(), nullptr);
  EXPECT_TRUE(f.SharesBufferWith(a));
  e = a;
  EXPECT_EQ(e.flat<float>()(1), 2);

  Tensor self = a;
  self = self;
  EXPECT_TRUE(self.SharesBufferWith(a));
  EXPECT_EQ(self.flat<float>()(1), 2);
}

TEST(TensorTest, ScalarConstructors) {
  EXPECT_EQ(Tensor(1.5f).scalar<float>()(), 1.5f);
  EXPECT_EQ(Tensor(2.5).scalar<double>()(), 2.5);
  EXPECT_EQ(Tensor(int32_t{-7}).scalar<int32_t>()(), -7);
  EXPECT_EQ(Tensor(int64_t{1} << 40).scalar<int64_t>()(), int64_t{1} << 40);
  EXPECT_EQ(Tensor(uint8_t{200}).dtype(), DT_UINT8);
  EXPECT_EQ(Tensor(uint16_t{7}).dtype(), DT_UINT16);
  EXPECT_EQ(Tensor(int16_t{7}).dtype(), DT_INT16);
  EXPECT_EQ(Tensor(int8_t{7}).dtype(), DT_INT8);
  EXPECT_EQ(Tensor(uint32_t{7}).dtype(), DT_UINT32);
  EXPECT_EQ(Tensor(uint64_t{7}).dtype(), DT_UINT64);
  EXPECT_EQ(Tensor(true).scalar<bool>()(), true);
  EXPECT_EQ(Tensor(half(0.5f)).dtype(), DT_HALF);
  EXPECT_EQ(Tensor(bfloat16(0.5f)).dtype(), DT_BFLOAT16);
  EXPECT_EQ(Tensor(complex64(1, 2)).scalar<complex64>()(), complex64(1, 2));
  EXPECT_EQ(Tensor(complex128(3, 4)).dtype(), DT_COMPLEX128);
  EXPECT_EQ(Tensor(qint8(-3)).scalar<qint8>()().value, -3);
  EXPECT_EQ(Tensor(quint8(3)).dtype(), DT_QUINT8);
  EXPECT_EQ(Tensor(qint16(3)).dtype(), DT_QINT16);
  EXPECT_EQ(Tensor(quint16(3)).dtype(), DT_QUINT16);
  EXPECT_EQ(Tensor(qint32(3)).dtype(), DT_QINT32);
  EXPECT_EQ(Tensor("abc").scalar<std::string>()(), "abc");
  EXPECT_EQ(Tensor(std::string("de")).dtype(), DT_STRING);
  ResourceHandleProto handle;
  handle.set_name("v");
  EXPECT_EQ(Tensor(handle).scalar<ResourceHandleProto>()().name(), "v");
  EXPECT_EQ(Tensor(1.5f).dims(), 0);
}

TEST(TensorTest, StringsAreConstructedAndDestroyed) {
  CpuAllocator allocator;
  {
    Tensor t(&allocator, DT_STRING, TensorShape({3}));
    for (int i = 0; i < 3; ++i) EXPECT_TRUE(t.flat<std::string>()(i).empty());
    // Long enough to live on the heap, so a missing destructor would leak (ASan checks).
    t.flat<std::string>()(1) = std::string(100, 'x');
    EXPECT_EQ(t.TotalBytes(), 3 * sizeof(std::string) + 100);
    Tensor copy = t.DeepCopy();
    t.flat<std::string>()(1) = "changed";
    EXPECT_EQ(copy.flat<std::string>()(1), std::string(100, 'x'));
  }
  EXPECT_EQ(allocator.GetStats().bytes_in_use, 0);

  Tensor handles(DT_RESOURCE, TensorShape({2}));
  handles.flat<ResourceHandleProto>()(0).set_device("/cpu:0");
  EXPECT_EQ(handles.flat<ResourceHandleProto>()(1).device(), "");
  EXPECT_GT(handles.TotalBytes(), 2 * sizeof(ResourceHandleProto));
}

TEST(TensorTest, SliceSharesRows) {
  Tensor t = Iota(TensorShape({4, 3}));
  Tensor s = t.Slice(1, 3);
  EXPECT_EQ(s.shape(), TensorShape({2, 3}));
  EXPECT_TRUE(s.SharesBufferWith(t));
  EXPECT_EQ(s.unaligned_flat<int32_t>()(0), 3);
  EXPECT_EQ(s.unaligned_flat<int32_t>()(5), 8);
  s.unaligned_flat<int32_t>()(0) = 100;
  EXPECT_EQ(t.matrix<int32_t>()(1, 0), 100);
  EXPECT_EQ(s.AllocatedBytes(), t.AllocatedBytes());
  EXPECT_EQ(s.TotalBytes(), 24u);
  EXPECT_EQ(s.tensor_data().size(), 24u);

  Tensor whole = t.Slice(0, 4);
  EXPECT_TRUE(whole.SharesBufferWith(t));
  EXPECT_EQ(whole.shape(), t.shape());

  Tensor empty = t.Slice(2, 2);
  EXPECT_EQ(empty.shape(), TensorShape({0, 3}));
  EXPECT_EQ(empty.NumElements(), 0);

  // The slice alone keeps the buffer alive and then owns it.
  Tensor survivor = Iota(TensorShape({2, 2})).Slice(1, 2);
  EXPECT_TRUE(survivor.RefCountIsOne());
  EXPECT_EQ(survivor.unaligned_flat<int32_t>()(1), 3);
}

TEST(TensorTest, SliceOfAlignedRowsIsAligned) {
  Tensor t(DT_FLOAT, TensorShape({4, 16}));  // 64-byte rows
  EXPECT_TRUE(t.Slice(1, 2).IsAligned());
  Tensor odd(DT_FLOAT, TensorShape({4, 1}));
  EXPECT_FALSE(odd.Slice(1, 2).IsAligned());
}

TEST(TensorTest, SubSlice) {
  Tensor t = Iota(TensorShape({3, 2, 2}));
  Tensor row = t.SubSlice(2);
  EXPECT_EQ(row.shape(), TensorShape({2, 2}));
  EXPECT_TRUE(row.SharesBufferWith(t));
  EXPECT_EQ(row.unaligned_flat<int32_t>()(0), 8);
  EXPECT_EQ(Iota(TensorShape({3})).SubSlice(1).shape(), TensorShape({}));
}

TEST(TensorTest, CopyFromReshapes) {
  Tensor t = Iota(TensorShape({2, 3}));
  Tensor r;
  ASSERT_TRUE(r.CopyFrom(t, TensorShape({3, 2})));
  EXPECT_EQ(r.dtype(), DT_INT32);
  EXPECT_EQ(r.shape(), TensorShape({3, 2}));
  EXPECT_TRUE(r.SharesBufferWith(t));
  EXPECT_EQ(r.matrix<int32_t>()(2, 1), 5);
  EXPECT_FALSE(r.CopyFrom(t, TensorShape({7})));
  EXPECT_EQ(r.shape(), TensorShape({3, 2}));
  ASSERT_TRUE(r.CopyFrom(r, TensorShape({6})));
  EXPECT_EQ(r.vec<int32_t>()(4), 4);
}

TEST(TensorTest, BitcastFrom) {
  Tensor f = MakeTensor<float>(TensorShape({2}), {1.0f, -2.0f});
  Tensor u;
  ASSERT_TRUE(u.BitcastFrom(f, DT_UINT32, TensorShape({2})).ok());
  EXPECT_EQ(u.vec<uint32_t>()(0), 0x3f800000u);
  EXPECT_TRUE(u.SharesBufferWith(f));
  Tensor bytes;
  ASSERT_TRUE(bytes.BitcastFrom(f, DT_UINT8, TensorShape({2, 4})).ok());
  EXPECT_EQ(bytes.matrix<uint8_t>()(0, 3), 0x3f);

  EXPECT_EQ(u.BitcastFrom(f, DT_INT64, TensorShape({2})).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(u.BitcastFrom(f, DT_STRING, TensorShape({2})).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(u.BitcastFrom(Tensor("s"), DT_UINT8, TensorShape({1})).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(u.BitcastFrom(f, DT_FLOAT_REF, TensorShape({2})).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(u.BitcastFrom(f, DT_FLOAT8_E5M2, TensorShape({8})).code(),
            absl::StatusCode::kUnimplemented);
  EXPECT_EQ(u.dtype(), DT_UINT32);  // unchanged by the failures
}

TEST(TensorTest, DeepCopyIsIndependent) {
  Tensor t = MakeTensor<double>(TensorShape({3}), {1, 2, 3});
  Tensor copy = t.DeepCopy();
  EXPECT_FALSE(copy.SharesBufferWith(t));
  t.flat<double>()(0) = 7;
  EXPECT_EQ(copy.flat<double>()(0), 1);
  EXPECT_EQ(copy.shape(), t.shape());
  Tensor sliced = Iota(TensorShape({3, 1})).Slice(1, 3).DeepCopy();
  EXPECT_TRUE(sliced.IsAligned());
  EXPECT_EQ(sliced.flat<int32_t>()(1), 2);
}

TEST(TensorTest, FromExternalData) {
  static float storage[4] = {1, 2, 3, 4};
  int released = 0;
  {
    absl::StatusOr<Tensor> t = Tensor::FromExternalData(DT_FLOAT, TensorShape({2, 2}), storage,
                                                        sizeof(storage), [&released](void* p) {
                                                          ++released;
                                                          EXPECT_EQ(p, storage);
                                                        });
    ASSERT_TRUE(t.ok());
    EXPECT_EQ(t->matrix<float>()(1, 0), 3);
    Tensor copy = *t;
    EXPECT_EQ(released, 0);
  }
  EXPECT_EQ(released, 1);
  const absl::Status bad_size =
      Tensor::FromExternalData(DT_FLOAT, TensorShape({3}), storage, sizeof(storage),
                               [&released](void*) { ++released; })
          .status();
  EXPECT_EQ(bad_size.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(released, 2);
  EXPECT_EQ(Tensor::FromExternalData(DT_STRING, TensorShape({1}), storage, 32,
                                     [&released](void*) { ++released; })
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(released, 3);
}

TEST(TensorTest, TypedViews) {
  Tensor t = Iota(TensorShape({2, 3, 4}));
  EXPECT_EQ(t.flat<int32_t>()(23), 23);
  auto t3 = t.tensor<int32_t, 3>();
  EXPECT_EQ(t3(1, 2, 3), 23);
  EXPECT_EQ(t3.dimension(1), 3);
  auto shaped = t.shaped<int32_t, 2>({6, 4});
  EXPECT_EQ(shaped(5, 0), 20);
  auto inner = t.flat_inner_dims<int32_t>();
  EXPECT_EQ(inner.dimension(0), 6);
  EXPECT_EQ(inner.dimension(1), 4);
  auto outer = t.flat_outer_dims<int32_t>();
  EXPECT_EQ(outer.dimension(0), 2);
  EXPECT_EQ(outer.dimension(1), 12);
  auto padded_inner = t.flat_inner_dims<int32_t, 4>();
  EXPECT_EQ(padded_inner.dimension(0), 1);
  EXPECT_EQ(padded_inner.dimension(3), 4);
  auto padded_outer = t.flat_outer_dims<int32_t, 4>();
  EXPECT_EQ(padded_outer.dimension(2), 4);
  EXPECT_EQ(padded_outer.dimension(3), 1);
  EXPECT_EQ((t.flat_inner_dims<int32_t, 1>().dimension(0)), 24);

  const Tensor& ct = t;
  EXPECT_EQ(ct.flat<int32_t>()(5), 5);
  EXPECT_EQ((ct.tensor<int32_t, 3>()(0, 1, 0)), 4);
  EXPECT_EQ((ct.shaped<int32_t, 1>({24})(7)), 7);

  Tensor m = Iota(TensorShape({2, 2}));
  m.matrix<int32_t>() = m.matrix<int32_t>() * 2;  // Eigen expressions write through
  EXPECT_EQ(m.flat<int32_t>()(3), 6);
  EXPECT_EQ(Iota(TensorShape({1, 1})).scalar<int32_t>()(), 0);
}

TEST(TensorDeathTest, TypedViewsCheck) {
  Tensor t = Iota(TensorShape({2, 3}));
  EXPECT_DEATH(t.flat<float>(), "int32 accessed as type float");
  EXPECT_DEATH(t.vec<int32_t>(), "rank");
  EXPECT_DEATH((t.tensor<int32_t, 3>()), "rank");
  EXPECT_DEATH(t.scalar<int32_t>(), "one element");
  EXPECT_DEATH((t.shaped<int32_t, 2>({4, 2})), "do not match");
  EXPECT_DEATH(t.base<int64_t>(), "accessed as type int64");
  Tensor unaligned = Tensor(DT_INT32, TensorShape({4, 1})).Slice(1, 2);
  EXPECT_DEATH(unaligned.flat<int32_t>(), "unaligned");
  EXPECT_DEATH(Tensor(1.0f).Slice(0, 0), "Slice of a scalar");
  EXPECT_DEATH(t.Slice(1, 3), "");
  EXPECT_DEATH({ Tensor ref(DT_FLOAT_REF); }, "float_ref");
}

TEST(TensorDeathTest, ConstructorChecksAllocation) {
  CpuAllocator small(8);
  EXPECT_DEATH(Tensor(&small, DT_FLOAT, TensorShape({100})), "OOM");
}

TEST(TensorTest, DebugString) {
  Tensor t = MakeTensor<float>(TensorShape({2, 2}), {1, 2, 3, 4});
  EXPECT_EQ(t.DebugString(), "Tensor<type: float shape: [2,2] values: [1 2][3...]...>");
  EXPECT_EQ(t.DebugString(10), "Tensor<type: float shape: [2,2] values: [1 2][3 4]>");
  EXPECT_EQ(Tensor(7).DebugString(), "Tensor<type: int32 shape: [] values: 7>");
  EXPECT_EQ(Tensor().DebugString(), "Tensor<type: float shape: [0] values: >");
}

// Expected strings below were printed by TensorFlow 2.21 (tf.debugging.Assert in a graph for
// v1, tf.strings.format for v2).
TEST(TensorTest, SummarizeFloats) {
  EXPECT_EQ(MakeTensor<float>(TensorShape({3}), {1.0f / 3, 0.1f, 1e10f}).SummarizeValue(3),
            "0.333333343 0.1 1e+10");
  EXPECT_EQ(MakeTensor<double>(TensorShape({3}), {1.0 / 3, 0.1, 1e20}).SummarizeValue(3),
            "0.33333333333333331 0.1 1e+20");
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(
      MakeTensor<float>(TensorShape({8}), {-nan, nan, 1e-5f, 123456789.0f, 1e5f, 1e6f, 0.0f, -0.0f})
          .SummarizeValue(-1),
      "-nan nan 1e-05 123456792 100000 1e+06 0 -0");
  EXPECT_EQ(MakeTensor<float>(TensorShape({2}), {inf, -inf}).SummarizeValue(-1), "inf -inf");
  EXPECT_EQ(MakeTensor<double>(TensorShape({5}), {1e-5, 123456789, 1e15, 1e16, 0.1 + 0.2})
                .SummarizeValue(-1),
            "1e-05 123456789 1e+15 1e+16 0.30000000000000004");
  EXPECT_EQ(
      MakeTensor<bfloat16>(TensorShape({2}), {bfloat16(1.5f), bfloat16(2.25f)}).SummarizeValue(3),
      "1.5 2.25");
  EXPECT_EQ(MakeTensor<half>(TensorShape({2}), {half(1.5f), half(0.1f)}).SummarizeValue(3),
            "1.5 0.0999755859");
}

TEST(TensorTest, SummarizeOtherTypes) {
  EXPECT_EQ(MakeTensor<bool>(TensorShape({4}), {true, false, true, true}).SummarizeValue(3),
            "1 0 1...");
  EXPECT_EQ(MakeTensor<int8_t>(TensorShape({2}), {-5, 3}).SummarizeValue(3), "-5 3");
  EXPECT_EQ(MakeTensor<uint8_t>(TensorShape({1}), {255}).SummarizeValue(3), "255");
  EXPECT_EQ(MakeTensor<uint64_t>(TensorShape({2}), {UINT64_MAX, 5}).SummarizeValue(-1),
            "18446744073709551615 5");
  EXPECT_EQ(MakeTensor<qint8>(TensorShape({2}), {qint8(-1), qint8(2)}).SummarizeValue(-1), "-1 2");
  EXPECT_EQ(MakeTensor<complex64>(TensorShape({2}), {complex64(1, 2), complex64(0, 3)})
                .SummarizeValue(-1),
            "? ?");
  EXPECT_EQ(MakeTensor<complex64>(TensorShape({2}), {complex64(1, 2), complex64(0, 3)})
                .SummarizeValue(-1, true),
            "[? ?]");
  EXPECT_EQ(MakeTensor<qint32>(TensorShape({2}), {qint32(1), qint32(2)}).SummarizeValue(-1), "? ?");
  EXPECT_EQ(MakeTensor<complex128>(TensorShape({3}), {0, 0, 0}).SummarizeValue(2), "? ?...");
  const Tensor strings = MakeTensor<std::string>(TensorShape({2}), {"a\n\"b", "\xc3\xa9\x01"});
  EXPECT_EQ(strings.SummarizeValue(3), "a\\n\\\"b \xc3\xa9\\001");
  EXPECT_EQ(strings.SummarizeValue(3, true), "[\"a\\n\\\"b\" \"\xc3\xa9\\001\"]");
  EXPECT_EQ(Tensor("s").SummarizeValue(3, true), "\"s\"");
  ResourceHandleProto handle;
  handle.set_name("v");
  handle.set_device("/cpu:0");
  EXPECT_EQ(Tensor(handle).SummarizeValue(3),
            "<ResourceHandle(name=\"v\", device=\"/cpu:0\", container=\"\", type=\"\", "
            "dtype and shapes : \"[  ]\")>");
}

TEST(TensorTest, SummarizeNestedV1) {
  const Tensor t = Iota(TensorShape({2, 3, 4}));
  EXPECT_EQ(t.SummarizeValue(3), "[[0 1 2...]]...");
  EXPECT_EQ(t.SummarizeValue(5), "[[0 1 2 3][4...]]...");
  EXPECT_EQ(t.SummarizeValue(100),
            "[[0 1 2 3][4 5 6 7][8 9 10 11]][[12 13 14 15][16 17 18 19][20 21 22 23]]");
  EXPECT_EQ(Iota(TensorShape({2, 3})).SummarizeValue(3), "[0 1 2]...");
  EXPECT_EQ(Iota(TensorShape({6, 1})).SummarizeValue(3), "[0][1][2]...");
  EXPECT_EQ(Iota(TensorShape({1, 6})).SummarizeValue(3), "[0 1 2...]...");
  EXPECT_EQ(Iota(TensorShape({3, 2})).SummarizeValue(0), "...");
  EXPECT_EQ(Tensor(DT_FLOAT, TensorShape({0, 3})).SummarizeValue(3), "");
  EXPECT_EQ(Tensor(DT_FLOAT, TensorShape({2, 0, 3})).SummarizeValue(3), "");
  // A huge leading dim does not mean a huge loop once the limit is reached.
  EXPECT_EQ(Tensor(DT_INT8, TensorShape({int64_t{1} << 24, 1})).SummarizeValue(0), "...");
}

TEST(TensorTest, SummarizeNestedV2) {
  const Tensor t = Iota(TensorShape({2, 3, 4}));
  EXPECT_EQ(t.SummarizeValue(1, true),
            "[[[0 ... 3]\n  ...\n  [8 ... 11]]\n\n [[12 ... 15]\n  ...\n  [20 ... 23]]]");
  EXPECT_EQ(t.SummarizeValue(-1, true),
            "[[[0 1 2 3]\n  [4 5 6 7]\n  [8 9 10 11]]\n\n"
            " [[12 13 14 15]\n  [16 17 18 19]\n  [20 21 22 23]]]");
  EXPECT_EQ(Iota(TensorShape({2, 2})).SummarizeValue(3, true), "[[0 1]\n [2 3]]");
  EXPECT_EQ(Iota(TensorShape({1, 5})).SummarizeValue(2, true), "[[0 1 ... 3 4]]");
  EXPECT_EQ(Iota(TensorShape({4})).SummarizeValue(2, true), "[0 1 2 3]");
  EXPECT_EQ(Tensor(DT_FLOAT, TensorShape({2, 0, 3})).SummarizeValue(3, true), "[\n\n ...]");
  EXPECT_EQ(Tensor(DT_FLOAT, TensorShape({0, 3})).SummarizeValue(3, true), "[]");
  EXPECT_EQ(Iota(TensorShape({3, 2})).SummarizeValue(0, true), "[\n ...]");
  EXPECT_EQ(MakeTensor<bool>(TensorShape({2}), {true, false}).SummarizeValue(3, true), "[1 0]");
  EXPECT_EQ(Tensor(7).SummarizeValue(3, true), "7");
}

TEST(VisitElementTypeTest, CoversValueTypesOnly) {
  size_t size = 0;
  EXPECT_TRUE(
      VisitElementType(DT_DOUBLE, [&](auto tag) { size = sizeof(typename decltype(tag)::type); }));
  EXPECT_EQ(size, sizeof(double));
  EXPECT_TRUE(VisitElementType(DT_RESOURCE, [](auto) {}));
  EXPECT_FALSE(VisitElementType(DT_VARIANT, [](auto) {}));
  EXPECT_FALSE(VisitElementType(DT_INVALID, [](auto) {}));
  EXPECT_FALSE(VisitElementType(DT_INT32_REF, [](auto) {}));
}

// A payload that counts its live instances, so the tests see when a buffer destroys it.
class CountedPayload : public VariantPayload {
 public:
  explicit CountedPayload(int value) : value(value) { ++live; }
  ~CountedPayload() override { --live; }
  std::string TypeName() const override { return "sluice::CountedPayload"; }
  std::string DebugString() const override { return "<Counted>"; }
  size_t ByteSize() const override { return 100; }
  int value;
  static int live;
};
int CountedPayload::live = 0;

TEST(VariantTensorTest, ElementsAreConstructedEmptySharedAndDestroyed) {
  {
    Tensor t(DT_VARIANT, TensorShape({3}));
    EXPECT_TRUE(t.flat<Variant>()(0).is_empty());
    EXPECT_EQ(t.flat<Variant>()(0).get<CountedPayload>(), nullptr);
    t.flat<Variant>()(1) = Variant::Make<CountedPayload>(7);
    EXPECT_EQ(CountedPayload::live, 1);
    EXPECT_EQ(t.flat<Variant>()(1).get<CountedPayload>()->value, 7);
    EXPECT_EQ(t.flat<Variant>()(1).TypeName(), "sluice::CountedPayload");
    EXPECT_EQ(t.TotalBytes(), 3 * sizeof(Variant) + 100);
    EXPECT_EQ(t.SummarizeValue(3), "<empty variant> <Counted> <empty variant>");

    // A copy of the tensor shares the buffer; a deep copy shares the payload, which then
    // has two holders and may not be changed in place.
    Tensor copy = t.DeepCopy();
    EXPECT_FALSE(copy.SharesBufferWith(t));
    EXPECT_EQ(CountedPayload::live, 1);
    EXPECT_FALSE(t.flat<Variant>()(1).RefCountIsOne());
    EXPECT_EQ(t.flat<Variant>()(1).mutable_get<CountedPayload>(), nullptr);
    copy = Tensor();
    ASSERT_TRUE(t.flat<Variant>()(1).RefCountIsOne());
    t.flat<Variant>()(1).mutable_get<CountedPayload>()->value = 8;
    EXPECT_EQ(t.flat<Variant>()(1).get<CountedPayload>()->value, 8);
  }
  EXPECT_EQ(CountedPayload::live, 0);

  Tensor scalar(Variant::Make<CountedPayload>(5));
  EXPECT_EQ(scalar.dtype(), DT_VARIANT);
  EXPECT_EQ(scalar.scalar<Variant>()().get<CountedPayload>()->value, 5);
  scalar = Tensor();
  EXPECT_EQ(CountedPayload::live, 0);
}

TEST(TensorTest, AllocationsPastTheAllocatorsLimitAreResourceExhausted) {
  std::unique_ptr<CpuAllocator> allocator = CpuAllocator::WithBytesLimit(4096);
  absl::StatusOr<Tensor> held = Tensor::Allocate(allocator.get(), DT_FLOAT, TensorShape({512}));
  ASSERT_TRUE(held.ok()) << held.status();
  absl::StatusOr<Tensor> refused = Tensor::Allocate(allocator.get(), DT_FLOAT, TensorShape({1024}));
  ASSERT_EQ(refused.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_NE(refused.status().message().find("2048 bytes of its limit of 4096 are in use"),
            std::string::npos)
      << refused.status();
}

}  // namespace
}  // namespace sluice
