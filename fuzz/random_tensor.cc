#include "fuzz/random_tensor.h"

#include <algorithm>
#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/types/span.h"
#include "graph/core/allocator.h"
#include "graph/core/errors.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"

namespace sluice {
namespace fuzz {
namespace {

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();

// Integer extremes: type bounds of every width (they wrap or saturate differently when a
// kernel narrows them), the powers of two where products overflow, and sizes a little and a
// lot past what the fuzzers' allocation cap serves.
// The third row is 2^20, 2^28, 2^31, 2^32 and 2^62.
constexpr int64_t kExtremeInts[] = {
    0,         -1,        1,          127,        -128,
    255,       32767,     65535,      INT32_MAX,  INT32_MIN,
    1048576,   268435456, 2147483648, 4294967296, 4611686018427387904,
    kInt64Max, kInt64Min, -kInt64Max, 1000000,    -1000000};

constexpr double kExtremeDoubles[] = {
    std::numeric_limits<double>::quiet_NaN(),
    std::numeric_limits<double>::infinity(),
    -std::numeric_limits<double>::infinity(),
    -0.0,
    std::numeric_limits<double>::denorm_min(),
    std::numeric_limits<double>::max(),
    std::numeric_limits<double>::lowest(),
    std::numeric_limits<double>::epsilon(),
    1e10,
    -1e10,
    9.3e18,  // just past INT64_MAX: float-to-integer casts overflow
    65504.0,
    1e-7};

// Casts a drawn double to a floating type without undefined behaviour: values past the
// type's range become its infinities, as a saturating cast would.
template <typename T>
T ToFloating(double value) {
  if constexpr (std::is_same_v<T, double>) {
    return value;
  } else {
    const double max = static_cast<double>(std::numeric_limits<float>::max());
    if (value > max) return T(std::numeric_limits<float>::infinity());
    if (value < -max) return T(-std::numeric_limits<float>::infinity());
    return T(static_cast<float>(value));
  }
}

template <typename T>
T DrawElement(ByteSource* bytes) {
  if constexpr (std::is_same_v<T, bool>) {
    return bytes->Bool();
  } else if constexpr (std::is_same_v<T, std::string>) {
    return bytes->String(8);
  } else if constexpr (std::is_same_v<T, complex64> || std::is_same_v<T, complex128>) {
    using Part = typename T::value_type;
    const Part re = ToFloating<Part>(RandomDouble(bytes));
    return T(re, ToFloating<Part>(RandomDouble(bytes)));
  } else if constexpr (std::is_integral_v<T>) {
    // Narrowing keeps the low bits: INT64_MAX becomes -1 in int32, as a kernel's cast would.
    return static_cast<T>(static_cast<uint64_t>(RandomInt(bytes)));
  } else if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, half> ||
                       std::is_same_v<T, bfloat16>) {
    return ToFloating<T>(RandomDouble(bytes));
  } else {
    // The quantized types: a struct over an integer.
    using Underlying = decltype(T().value);
    return T(static_cast<Underlying>(static_cast<uint64_t>(RandomInt(bytes))));
  }
}

template <typename T>
T Iota(int64_t i) {
  if constexpr (std::is_same_v<T, bool>) {
    return (i & 1) != 0;
  } else if constexpr (std::is_same_v<T, std::string>) {
    return std::to_string(i);
  } else if constexpr (std::is_same_v<T, complex64> || std::is_same_v<T, complex128>) {
    return T(static_cast<typename T::value_type>(i), 0);
  } else if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16>) {
    return T(static_cast<float>(i));
  } else if constexpr (std::is_arithmetic_v<T>) {
    return static_cast<T>(i);
  } else {
    using Underlying = decltype(T().value);
    return T(static_cast<Underlying>(i));
  }
}

template <typename T>
void Fill(ByteSource* bytes, Tensor* tensor) {
  auto flat = tensor->flat<T>();
  const int64_t n = tensor->NumElements();
  switch (bytes->Below(4)) {
    case 0: {  // one value everywhere (an extreme reaches every element)
      const T value = DrawElement<T>(bytes);
      for (int64_t i = 0; i < n; ++i) flat(i) = value;
      break;
    }
    case 1:
      for (int64_t i = 0; i < n; ++i) flat(i) = Iota<T>(i);
      break;
    default:
      for (int64_t i = 0; i < n; ++i) flat(i) = DrawElement<T>(bytes);
  }
}

}  // namespace

int64_t RandomInt(ByteSource* bytes) {
  if (bytes->OneIn(4)) return bytes->Pick(absl::MakeConstSpan(kExtremeInts));
  // 0 first, so that an exhausted input reads zeros.
  static constexpr int64_t kSmall[] = {0, 1, 2, 3, -1, 4, 5, -2, 6};
  return bytes->Pick(absl::MakeConstSpan(kSmall));
}

double RandomDouble(ByteSource* bytes) {
  if (bytes->OneIn(4)) return bytes->Pick(absl::MakeConstSpan(kExtremeDoubles));
  // 0, -0.5, 0.5, -1, 1, ... 4.5: halves of both signs, 0 first.
  const int64_t k = static_cast<int64_t>(bytes->Below(19));
  const double magnitude = static_cast<double>((k + 1) / 2) / 2;
  return k % 2 == 1 ? -magnitude : magnitude;
}

TensorShape RandomShape(ByteSource* bytes) {
  // Now and then a long vector: read as a shape, it asks for ranks past TensorShape::kMaxDims.
  if (bytes->OneIn(16)) return TensorShape({bytes->InRange(5, kMaxGeneratedElements)});
  int rank = static_cast<int>(bytes->Below(5));
  if (rank == 4 && bytes->OneIn(4)) rank += static_cast<int>(bytes->InRange(1, 2));
  std::vector<int64_t> dims;
  int64_t elements = 1;
  for (int d = 0; d < rank; ++d) {
    int64_t dim = bytes->InRange(0, 4);
    // Keep within the element budget; a zero dimension keeps every later one free.
    if (elements * std::max<int64_t>(dim, 1) > kMaxSmallShapeElements) dim = 1;
    elements *= std::max<int64_t>(dim, 1);
    dims.push_back(dim);
  }
  TensorShape shape;
  // Dims are small and few, so this cannot fail.
  TensorShape::BuildTensorShape(dims, &shape).IgnoreError();
  return shape;
}

PartialTensorShape RandomPartialShape(ByteSource* bytes) {
  if (bytes->OneIn(4)) return PartialTensorShape();
  const int rank = static_cast<int>(bytes->Below(6));
  std::vector<int64_t> dims;
  for (int d = 0; d < rank; ++d) {
    dims.push_back(bytes->OneIn(3) ? -1 : RandomInt(bytes));
  }
  PartialTensorShape shape;
  // Dims below -1 or past the element limit are invalid: an unknown rank stands in.
  if (!PartialTensorShape::BuildPartialTensorShape(dims, &shape).ok()) return PartialTensorShape();
  return shape;
}

absl::StatusOr<Tensor> RandomTensor(DataType dtype, ByteSource* bytes) {
  return RandomTensorOfShape(dtype, RandomShape(bytes), bytes);
}

absl::StatusOr<Tensor> RandomTensorOfShape(DataType dtype, const TensorShape& shape,
                                           ByteSource* bytes) {
  switch (dtype) {
#define SLUICE_FUZZ_FILL_CASE(T)                                                            \
  case DataTypeToEnum<T>::value: {                                                          \
    ASSIGN_OR_RETURN(Tensor tensor, Tensor::Allocate(DefaultCpuAllocator(), dtype, shape)); \
    Fill<T>(bytes, &tensor);                                                                \
    return tensor;                                                                          \
  }
    SLUICE_CALL_ALL_TYPES(SLUICE_FUZZ_FILL_CASE)
#undef SLUICE_FUZZ_FILL_CASE
    default:
      return errors::Unimplemented("no generated values of ", DataTypeString(dtype));
  }
}

}  // namespace fuzz
}  // namespace sluice
