// Reading and writing NumPy's .npy format (numpy.lib.format), for feeding models from files and
// saving their outputs.
//
// Supported: every numeric dtype numpy and TensorFlow share (bool, int8..int64, uint8..uint64,
// float16, float32, float64, complex64, complex128), C (row-major) order, format versions 1.0,
// 2.0 and 3.0, any byte order ('<', '>', '=', '|'; big-endian data is swapped on read).
// Writing produces version 1.0, little-endian C-order data and a header padded to 64 bytes as
// numpy does, so a file is byte-identical to np.save's of the same array.
//
// Errors (absl::Status, TensorFlow's codes); nothing crashes on malformed input:
//   NOT_FOUND, PERMISSION_DENIED  the file cannot be read (graph_def_io's ReadFileToString);
//   INVALID_ARGUMENT  not a .npy file (bad magic), an unknown version, a header that is not a
//                     dict with 'descr', 'fortran_order' and 'shape', a negative or
//                     overflowing shape;
//   UNIMPLEMENTED     Fortran-order arrays, object arrays (dtype=object, which hold pickles),
//                     structured, string and other dtypes TensorFlow has no type for; writing a
//                     dtype numpy cannot name (bfloat16, quantized, string, resource, variant);
//   DATA_LOSS         the data is shorter or longer than the header's shape and dtype imply.
//
// Thread-safe: no shared state.
#ifndef SLUICE_IO_NPY_H_
#define SLUICE_IO_NPY_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "graph/core/tensor.h"
#include "proto/types.pb.h"

namespace sluice {

// Parses the bytes of a .npy file into a new tensor on DefaultCpuAllocator().
absl::Status ParseNpy(absl::string_view bytes, Tensor* tensor);
// Reads and parses `path`; errors name the file.
absl::Status ReadNpyFile(const std::string& path, Tensor* tensor);

// Encodes `tensor` as .npy bytes.
absl::Status EncodeNpy(const Tensor& tensor, std::string* bytes);
// Writes `tensor` to `path`, replacing the file. A failed open, write or close is the errno's
// status (absl::ErrnoToStatus: ENOSPC is RESOURCE_EXHAUSTED, EACCES PERMISSION_DENIED, ...)
// naming the file.
absl::Status WriteNpyFile(const std::string& path, const Tensor& tensor);

// numpy's name of `dtype` ("float32", "int64", "bool"), or "" when numpy has none.
std::string NumpyDtypeName(DataType dtype);
// The inverse of NumpyDtypeName; INVALID_ARGUMENT for a name with no DataType.
absl::Status DataTypeFromNumpyName(absl::string_view name, DataType* dtype);

}  // namespace sluice

#endif  // SLUICE_IO_NPY_H_
