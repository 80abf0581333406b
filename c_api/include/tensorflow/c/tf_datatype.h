/* Sluice's TensorFlow C API: TF_DataType, the element type of a tensor, and its byte size. */
#ifndef TENSORFLOW_C_TF_DATATYPE_H_
#define TENSORFLOW_C_TF_DATATYPE_H_

#include <stddef.h>

#include "tensorflow/c/c_api_macros.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The type of one element of a tensor. Each value equals the DataType number of types.proto,
 * so it can be stored in and read from GraphDefs and TensorProtos unchanged. */
typedef enum TF_DataType {
  TF_FLOAT = 1,
  TF_DOUBLE = 2,
  TF_INT32 = 3,
  TF_UINT8 = 4,
  TF_INT16 = 5,
  TF_INT8 = 6,
  TF_STRING = 7, /* elements are 24-byte TF_TStrings (see tf_tstring.h) */
  TF_COMPLEX64 = 8,
  TF_COMPLEX = 8, /* the older name of TF_COMPLEX64 */
  TF_INT64 = 9,
  TF_BOOL = 10,
  TF_QINT8 = 11,
  TF_QUINT8 = 12,
  TF_QINT32 = 13,
  TF_BFLOAT16 = 14,
  TF_QINT16 = 15,
  TF_QUINT16 = 16,
  TF_UINT16 = 17,
  TF_COMPLEX128 = 18,
  TF_HALF = 19,
  TF_RESOURCE = 20,
  TF_VARIANT = 21,
  TF_UINT32 = 22,
  TF_UINT64 = 23,
  TF_FLOAT8_E5M2 = 24,
  TF_FLOAT8_E4M3FN = 25,
  TF_FLOAT8_E4M3FNUZ = 26,
  TF_FLOAT8_E4M3B11FNUZ = 27,
  TF_FLOAT8_E5M2FNUZ = 28,
  TF_INT4 = 29,
  TF_UINT4 = 30,
  TF_INT2 = 31,
  TF_UINT2 = 32,
  TF_FLOAT4_E2M1FN = 33
} TF_DataType;

/* The size in bytes of one element of type `dt`; the 4- and 2-bit types take one byte per
 * element. Returns 0 for types whose elements have no fixed size (TF_STRING, TF_RESOURCE,
 * TF_VARIANT) and for values that are not a TF_DataType. */
TF_CAPI_EXPORT extern size_t TF_DataTypeSize(TF_DataType dt);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_C_TF_DATATYPE_H_ */
