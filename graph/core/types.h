// DataType helpers and the mapping between DataType enums and C++ element types.
//
// DataType (proto/types.proto) carries TensorFlow's numbering. This header adds:
//  - names as TensorFlow prints them ("float", "int32", "float_ref") and parsing of them;
//  - element sizes, ref-type conversions, type classes (numbertype, realnumbertype, ...);
//  - DataTypeToEnum<T> / EnumToDataType<dt> traits for every element type, including
//    Eigen::half, Eigen::bfloat16, complex64/128, bool, std::string and the quantized types;
//  - SLUICE_CALL_* macros that apply a macro to each type of a class, so registrations loop
//    over type lists instead of repeating themselves.
#ifndef SLUICE_GRAPH_CORE_TYPES_H_
#define SLUICE_GRAPH_CORE_TYPES_H_

#include <complex>
#include <cstdint>
#include <string>

#include "Eigen/Core"
#include "absl/container/inlined_vector.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "proto/resource_handle.pb.h"
#include "proto/types.pb.h"

namespace sluice {

using complex64 = std::complex<float>;
using complex128 = std::complex<double>;
using half = Eigen::half;
using bfloat16 = Eigen::bfloat16;

// Quantized element types: distinct C++ types around a plain integer, so that traits and
// kernel type constraints can tell DT_QINT8 from DT_INT8.
#define SLUICE_DECLARE_QUANTIZED_TYPE(Name, Underlying)                         \
  struct Name {                                                                 \
    Underlying value = 0;                                                       \
    Name() = default;                                                           \
    constexpr Name(Underlying v) : value(v) {} /* NOLINT: implicit by design */ \
    constexpr operator Underlying() const { return value; }                     \
  };
SLUICE_DECLARE_QUANTIZED_TYPE(qint8, int8_t)
SLUICE_DECLARE_QUANTIZED_TYPE(quint8, uint8_t)
SLUICE_DECLARE_QUANTIZED_TYPE(qint16, int16_t)
SLUICE_DECLARE_QUANTIZED_TYPE(quint16, uint16_t)
SLUICE_DECLARE_QUANTIZED_TYPE(qint32, int32_t)
#undef SLUICE_DECLARE_QUANTIZED_TYPE

using DataTypeVector = absl::InlinedVector<DataType, 4>;
using DataTypeSlice = absl::Span<const DataType>;

// "float", "int32", "float_ref", ... exactly as TensorFlow prints them; "INVALID" for
// DT_INVALID and "unknown dtype enum (N)" for values outside the enum.
std::string DataTypeString(DataType dtype);
// "DT_FLOAT", "DT_INT32_REF": the proto enum name.
std::string DataTypeEnumName(DataType dtype);
// Inverse of DataTypeString (also accepts the "_ref" suffix). Returns false if unknown.
bool DataTypeFromString(absl::string_view name, DataType* dtype);
// "[float, int32]".
std::string DataTypeSliceString(DataTypeSlice types);

inline bool IsRefType(DataType dtype) { return dtype > DataType(100); }
DataType MakeRefType(DataType dtype);
DataType RemoveRefType(DataType dtype);
inline DataType BaseType(DataType dtype) { return IsRefType(dtype) ? RemoveRefType(dtype) : dtype; }
// True for values of the enum other than DT_INVALID (ref types included).
bool IsValidDataType(DataType dtype);

// Size in bytes of one element; 0 for variable-length and opaque types (string, resource,
// variant) and for DT_INVALID. Ref types have their base type's size.
int DataTypeSize(DataType dtype);
// True when elements are plain bytes that can be memcpy'd (everything but string, resource,
// variant).
bool DataTypeCanUseMemcpy(DataType dtype);

bool DataTypeIsFloating(DataType dtype);   // half, bfloat16, float, double, float8 types
bool DataTypeIsComplex(DataType dtype);    // complex64, complex128
bool DataTypeIsInteger(DataType dtype);    // int8..int64, uint8..uint64 (not quantized)
bool DataTypeIsSigned(DataType dtype);     // signed integers
bool DataTypeIsUnsigned(DataType dtype);   // unsigned integers
bool DataTypeIsQuantized(DataType dtype);  // qint8, quint8, qint16, quint16, qint32

// The type classes of the op spec grammar, as TensorFlow defines them.
DataTypeSlice AllTypes();         // every type an unconstrained "type" attr accepts
DataTypeSlice NumberTypes();      // "numbertype"
DataTypeSlice RealNumberTypes();  // "realnumbertype"
DataTypeSlice QuantizedTypes();   // "quantizedtype"

// Elements of DT_RESOURCE tensors are ResourceHandleProtos (which device, container and name
// hold the resource). DT_VARIANT elements are Variants (variant.h): values whose type the
// layers above define.
class Variant;

// DataTypeToEnum<T>::value is the DataType of C++ type T; EnumToDataType<dt>::Type inverts it.
template <typename T>
struct DataTypeToEnum {
  static_assert(sizeof(T) == 0, "No DataType for this C++ type");
};
template <DataType dt>
struct EnumToDataType {};

#define SLUICE_MATCH_TYPE_AND_ENUM(TYPE, ENUM)                       \
  template <>                                                        \
  struct DataTypeToEnum<TYPE> {                                      \
    static constexpr DataType v() { return ENUM; }                   \
    static constexpr DataType ref() { return DataType(ENUM + 100); } \
    static constexpr DataType value = ENUM;                          \
  };                                                                 \
  template <>                                                        \
  struct EnumToDataType<ENUM> {                                      \
    using Type = TYPE;                                               \
  }

SLUICE_MATCH_TYPE_AND_ENUM(float, DT_FLOAT);
SLUICE_MATCH_TYPE_AND_ENUM(double, DT_DOUBLE);
SLUICE_MATCH_TYPE_AND_ENUM(int32_t, DT_INT32);
SLUICE_MATCH_TYPE_AND_ENUM(uint32_t, DT_UINT32);
SLUICE_MATCH_TYPE_AND_ENUM(uint16_t, DT_UINT16);
SLUICE_MATCH_TYPE_AND_ENUM(uint8_t, DT_UINT8);
SLUICE_MATCH_TYPE_AND_ENUM(int16_t, DT_INT16);
SLUICE_MATCH_TYPE_AND_ENUM(int8_t, DT_INT8);
SLUICE_MATCH_TYPE_AND_ENUM(std::string, DT_STRING);
SLUICE_MATCH_TYPE_AND_ENUM(complex64, DT_COMPLEX64);
SLUICE_MATCH_TYPE_AND_ENUM(complex128, DT_COMPLEX128);
SLUICE_MATCH_TYPE_AND_ENUM(int64_t, DT_INT64);
SLUICE_MATCH_TYPE_AND_ENUM(uint64_t, DT_UINT64);
SLUICE_MATCH_TYPE_AND_ENUM(bool, DT_BOOL);
SLUICE_MATCH_TYPE_AND_ENUM(qint8, DT_QINT8);
SLUICE_MATCH_TYPE_AND_ENUM(quint8, DT_QUINT8);
SLUICE_MATCH_TYPE_AND_ENUM(qint16, DT_QINT16);
SLUICE_MATCH_TYPE_AND_ENUM(quint16, DT_QUINT16);
SLUICE_MATCH_TYPE_AND_ENUM(qint32, DT_QINT32);
SLUICE_MATCH_TYPE_AND_ENUM(bfloat16, DT_BFLOAT16);
SLUICE_MATCH_TYPE_AND_ENUM(half, DT_HALF);
SLUICE_MATCH_TYPE_AND_ENUM(ResourceHandleProto, DT_RESOURCE);
SLUICE_MATCH_TYPE_AND_ENUM(Variant, DT_VARIANT);

#undef SLUICE_MATCH_TYPE_AND_ENUM

// Per-type macro application. SLUICE_CALL_<type>(m) expands to m(<C++ type>); the class
// macros apply m to every member, so a registration reads
//   SLUICE_CALL_REAL_NUMBER_TYPES(REGISTER_ADD_KERNEL);
#define SLUICE_CALL_float(m) m(float)
#define SLUICE_CALL_double(m) m(double)
#define SLUICE_CALL_int32(m) m(::int32_t)
#define SLUICE_CALL_uint32(m) m(::uint32_t)
#define SLUICE_CALL_uint8(m) m(::uint8_t)
#define SLUICE_CALL_uint16(m) m(::uint16_t)
#define SLUICE_CALL_int16(m) m(::int16_t)
#define SLUICE_CALL_int8(m) m(::int8_t)
#define SLUICE_CALL_int64(m) m(::int64_t)
#define SLUICE_CALL_uint64(m) m(::uint64_t)
#define SLUICE_CALL_bool(m) m(bool)
#define SLUICE_CALL_string(m) m(::std::string)
#define SLUICE_CALL_half(m) m(::sluice::half)
#define SLUICE_CALL_bfloat16(m) m(::sluice::bfloat16)
#define SLUICE_CALL_complex64(m) m(::sluice::complex64)
#define SLUICE_CALL_complex128(m) m(::sluice::complex128)
#define SLUICE_CALL_qint8(m) m(::sluice::qint8)
#define SLUICE_CALL_quint8(m) m(::sluice::quint8)
#define SLUICE_CALL_qint16(m) m(::sluice::qint16)
#define SLUICE_CALL_quint16(m) m(::sluice::quint16)
#define SLUICE_CALL_qint32(m) m(::sluice::qint32)

#define SLUICE_CALL_INTEGRAL_TYPES(m)                                                   \
  SLUICE_CALL_uint64(m) SLUICE_CALL_int64(m) SLUICE_CALL_uint32(m) SLUICE_CALL_int32(m) \
      SLUICE_CALL_uint16(m) SLUICE_CALL_int16(m) SLUICE_CALL_uint8(m) SLUICE_CALL_int8(m)
#define SLUICE_CALL_FLOAT_TYPES(m) \
  SLUICE_CALL_half(m) SLUICE_CALL_bfloat16(m) SLUICE_CALL_float(m) SLUICE_CALL_double(m)
#define SLUICE_CALL_COMPLEX_TYPES(m) SLUICE_CALL_complex64(m) SLUICE_CALL_complex128(m)
#define SLUICE_CALL_REAL_NUMBER_TYPES(m) SLUICE_CALL_INTEGRAL_TYPES(m) SLUICE_CALL_FLOAT_TYPES(m)
#define SLUICE_CALL_NUMBER_TYPES(m) SLUICE_CALL_REAL_NUMBER_TYPES(m) SLUICE_CALL_COMPLEX_TYPES(m)
#define SLUICE_CALL_QUANTIZED_TYPES(m)                                                    \
  SLUICE_CALL_qint8(m) SLUICE_CALL_quint8(m) SLUICE_CALL_qint16(m) SLUICE_CALL_quint16(m) \
      SLUICE_CALL_qint32(m)
// Every type whose elements are plain bytes.
#define SLUICE_CALL_POD_TYPES(m) \
  SLUICE_CALL_NUMBER_TYPES(m) SLUICE_CALL_bool(m) SLUICE_CALL_QUANTIZED_TYPES(m)
// Every type a Tensor can hold values of (resource and variant excluded).
#define SLUICE_CALL_ALL_TYPES(m) SLUICE_CALL_POD_TYPES(m) SLUICE_CALL_string(m)

}  // namespace sluice

#endif  // SLUICE_GRAPH_CORE_TYPES_H_
