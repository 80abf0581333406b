// TF_DataTypeSize (tensorflow/c/tf_datatype.h).
#include "tensorflow/c/tf_datatype.h"

extern "C" {

// Bytes per element of the fixed-size types; 0 for the variable-length ones (string,
// resource, variant) and for values that name no type. Sub-byte types take a byte each, as
// TensorFlow stores them.
size_t TF_DataTypeSize(TF_DataType dt) {
  switch (dt) {
    case TF_FLOAT:
    case TF_INT32:
    case TF_QINT32:
    case TF_UINT32:
      return 4;
    case TF_DOUBLE:
    case TF_INT64:
    case TF_UINT64:
    case TF_COMPLEX64:
      return 8;
    case TF_COMPLEX128:
      return 16;
    case TF_INT16:
    case TF_UINT16:
    case TF_QINT16:
    case TF_QUINT16:
    case TF_BFLOAT16:
    case TF_HALF:
      return 2;
    case TF_UINT8:
    case TF_INT8:
    case TF_BOOL:
    case TF_QINT8:
    case TF_QUINT8:
    case TF_FLOAT8_E5M2:
    case TF_FLOAT8_E4M3FN:
    case TF_FLOAT8_E4M3FNUZ:
    case TF_FLOAT8_E4M3B11FNUZ:
    case TF_FLOAT8_E5M2FNUZ:
    case TF_INT4:
    case TF_UINT4:
    case TF_INT2:
    case TF_UINT2:
    case TF_FLOAT4_E2M1FN:
      return 1;
    default:
      return 0;
  }
}

}  // extern "C"
