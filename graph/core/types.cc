// DataType names, sizes and type classes, following TensorFlow's definitions.
#include "graph/core/types.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace sluice {
namespace {

constexpr int kRefOffset = 100;

// Names of the non-ref types as TensorFlow prints them, indexed by enum value.
const char* BaseTypeName(DataType dtype) {
  switch (dtype) {
    case DT_INVALID:
      return "INVALID";
    case DT_FLOAT:
      return "float";
    case DT_DOUBLE:
      return "double";
    case DT_INT32:
      return "int32";
    case DT_UINT8:
      return "uint8";
    case DT_INT16:
      return "int16";
    case DT_INT8:
      return "int8";
    case DT_STRING:
      return "string";
    case DT_COMPLEX64:
      return "complex64";
    case DT_INT64:
      return "int64";
    case DT_BOOL:
      return "bool";
    case DT_QINT8:
      return "qint8";
    case DT_QUINT8:
      return "quint8";
    case DT_QINT32:
      return "qint32";
    case DT_BFLOAT16:
      return "bfloat16";
    case DT_QINT16:
      return "qint16";
    case DT_QUINT16:
      return "quint16";
    case DT_UINT16:
      return "uint16";
    case DT_COMPLEX128:
      return "complex128";
    case DT_HALF:
      return "half";
    case DT_RESOURCE:
      return "resource";
    case DT_VARIANT:
      return "variant";
    case DT_UINT32:
      return "uint32";
    case DT_UINT64:
      return "uint64";
    case DT_FLOAT8_E5M2:
      return "float8_e5m2";
    case DT_FLOAT8_E4M3FN:
      return "float8_e4m3fn";
    case DT_FLOAT8_E4M3FNUZ:
      return "float8_e4m3fnuz";
    case DT_FLOAT8_E4M3B11FNUZ:
      return "float8_e4m3b11fnuz";
    case DT_FLOAT8_E5M2FNUZ:
      return "float8_e5m2fnuz";
    case DT_INT4:
      return "int4";
    case DT_UINT4:
      return "uint4";
    default:
      return nullptr;
  }
}

constexpr DataType kAllTypes[] = {DT_FLOAT,
                                  DT_DOUBLE,
                                  DT_INT32,
                                  DT_UINT8,
                                  DT_INT16,
                                  DT_INT8,
                                  DT_STRING,
                                  DT_COMPLEX64,
                                  DT_INT64,
                                  DT_BOOL,
                                  DT_QINT8,
                                  DT_QUINT8,
                                  DT_QINT32,
                                  DT_BFLOAT16,
                                  DT_QINT16,
                                  DT_QUINT16,
                                  DT_UINT16,
                                  DT_COMPLEX128,
                                  DT_HALF,
                                  DT_RESOURCE,
                                  DT_VARIANT,
                                  DT_UINT32,
                                  DT_UINT64,
                                  DT_FLOAT8_E5M2,
                                  DT_FLOAT8_E4M3FN,
                                  DT_FLOAT8_E4M3FNUZ,
                                  DT_FLOAT8_E4M3B11FNUZ,
                                  DT_FLOAT8_E5M2FNUZ,
                                  DT_INT4,
                                  DT_UINT4};

// TensorFlow's RealNumberTypes, NumberTypes and QuantizedTypes, in its order.
constexpr DataType kRealNumberTypes[] = {DT_FLOAT,  DT_DOUBLE, DT_INT32,  DT_UINT8,
                                         DT_INT16,  DT_INT8,   DT_INT64,  DT_BFLOAT16,
                                         DT_UINT16, DT_HALF,   DT_UINT32, DT_UINT64};
constexpr DataType kNumberTypes[] = {DT_FLOAT,      DT_DOUBLE,    DT_INT32,  DT_UINT8,   DT_INT16,
                                     DT_INT8,       DT_COMPLEX64, DT_INT64,  DT_QINT8,   DT_QUINT8,
                                     DT_QINT32,     DT_BFLOAT16,  DT_QINT16, DT_QUINT16, DT_UINT16,
                                     DT_COMPLEX128, DT_HALF,      DT_UINT32, DT_UINT64};
constexpr DataType kQuantizedTypes[] = {DT_QINT8, DT_QUINT8, DT_QINT32, DT_QINT16, DT_QUINT16};

}  // namespace

bool IsValidDataType(DataType dtype) {
  DataType base = IsRefType(dtype) ? DataType(dtype - kRefOffset) : dtype;
  return base != DT_INVALID && BaseTypeName(base) != nullptr;
}

std::string DataTypeString(DataType dtype) {
  if (IsRefType(dtype)) {
    const char* name = BaseTypeName(DataType(dtype - kRefOffset));
    if (name != nullptr && dtype - kRefOffset != DT_INVALID) return absl::StrCat(name, "_ref");
  } else if (const char* name = BaseTypeName(dtype)) {
    return name;
  }
  return absl::StrCat("unknown dtype enum (", static_cast<int>(dtype), ")");
}

std::string DataTypeEnumName(DataType dtype) {
  if (!DataType_IsValid(dtype)) {
    return absl::StrCat("unknown dtype enum (", static_cast<int>(dtype), ")");
  }
  return DataType_Name(dtype);
}

bool DataTypeFromString(absl::string_view name, DataType* dtype) {
  bool ref = false;
  if (absl::EndsWith(name, "_ref")) {
    name.remove_suffix(4);
    ref = true;
  }
  for (DataType candidate : kAllTypes) {
    if (name == BaseTypeName(candidate)) {
      *dtype = ref ? MakeRefType(candidate) : candidate;
      return true;
    }
  }
  return false;
}

std::string DataTypeSliceString(DataTypeSlice types) {
  return absl::StrCat(
      "[",
      absl::StrJoin(types, ", ",
                    [](std::string* out, DataType t) { out->append(DataTypeString(t)); }),
      "]");
}

DataType MakeRefType(DataType dtype) {
  return IsRefType(dtype) ? dtype : DataType(dtype + kRefOffset);
}

DataType RemoveRefType(DataType dtype) {
  return IsRefType(dtype) ? DataType(dtype - kRefOffset) : dtype;
}

int DataTypeSize(DataType dtype) {
  switch (BaseType(dtype)) {
#define SLUICE_SIZE_CASE(T)      \
  case DataTypeToEnum<T>::value: \
    return static_cast<int>(sizeof(T));
    SLUICE_CALL_POD_TYPES(SLUICE_SIZE_CASE)
#undef SLUICE_SIZE_CASE
    case DT_FLOAT8_E5M2:
    case DT_FLOAT8_E4M3FN:
    case DT_FLOAT8_E4M3FNUZ:
    case DT_FLOAT8_E4M3B11FNUZ:
    case DT_FLOAT8_E5M2FNUZ:
    case DT_INT4:
    case DT_UINT4:
      return 1;
    default:
      return 0;
  }
}

bool DataTypeCanUseMemcpy(DataType dtype) { return DataTypeSize(dtype) > 0; }

bool DataTypeIsFloating(DataType dtype) {
  switch (BaseType(dtype)) {
    case DT_HALF:
    case DT_BFLOAT16:
    case DT_FLOAT:
    case DT_DOUBLE:
    case DT_FLOAT8_E5M2:
    case DT_FLOAT8_E4M3FN:
    case DT_FLOAT8_E4M3FNUZ:
    case DT_FLOAT8_E4M3B11FNUZ:
    case DT_FLOAT8_E5M2FNUZ:
      return true;
    default:
      return false;
  }
}

bool DataTypeIsComplex(DataType dtype) {
  DataType base = BaseType(dtype);
  return base == DT_COMPLEX64 || base == DT_COMPLEX128;
}

bool DataTypeIsSigned(DataType dtype) {
  switch (BaseType(dtype)) {
    case DT_INT4:
    case DT_INT8:
    case DT_INT16:
    case DT_INT32:
    case DT_INT64:
      return true;
    default:
      return false;
  }
}

bool DataTypeIsUnsigned(DataType dtype) {
  switch (BaseType(dtype)) {
    case DT_UINT4:
    case DT_UINT8:
    case DT_UINT16:
    case DT_UINT32:
    case DT_UINT64:
      return true;
    default:
      return false;
  }
}

bool DataTypeIsInteger(DataType dtype) {
  return DataTypeIsSigned(dtype) || DataTypeIsUnsigned(dtype);
}

bool DataTypeIsQuantized(DataType dtype) {
  for (DataType q : kQuantizedTypes) {
    if (BaseType(dtype) == q) return true;
  }
  return false;
}

DataTypeSlice AllTypes() { return kAllTypes; }
DataTypeSlice NumberTypes() { return kNumberTypes; }
DataTypeSlice RealNumberTypes() { return kRealNumberTypes; }
DataTypeSlice QuantizedTypes() { return kQuantizedTypes; }

}  // namespace sluice
