// Conversion between Tensor and TensorProto, with TensorFlow's rules.
//
// Reading (TensorFromProto) accepts either representation:
//  - tensor_content: the raw little-endian, row-major element bytes; its size must be exactly
//    elements * element size.
//  - the typed *_val field of the dtype (int_val for int32/int16/int8/uint8/uint16 and the
//    quantized types; half_val for the bit patterns of half and bfloat16; scomplex_val and
//    dcomplex_val as (re, im) pairs; ...). A list shorter than the shape is padded with its
//    last value; an empty list gives zeros (empty strings, default handles); a longer list
//    is an error.
// Every malformed proto is an error, never a crash: INVALID_ARGUMENT for an invalid, ref or
// unknown dtype, an invalid or partly unknown shape, or a size mismatch (the message names
// the dtype and the sizes); UNIMPLEMENTED for dtypes without an element type (variant,
// float8, int4); RESOURCE_EXHAUSTED when the tensor cannot be allocated. `out` is left
// unchanged on error.
//
// Writing: TensorToProtoContent uses tensor_content (string_val and resource_handle_val for
// the dtypes that have no byte layout), TensorToProtoField the typed *_val fields. Both
// overwrite `proto` entirely. MakeConstNodeDef wraps a tensor in a Const NodeDef (dtype and
// value attrs, value in tensor_content), as graph rewrites that compute constants need.
#ifndef SLUICE_GRAPH_CORE_TENSOR_PROTO_H_
#define SLUICE_GRAPH_CORE_TENSOR_PROTO_H_

#include <string>

#include "absl/status/status.h"
#include "graph/core/allocator.h"
#include "graph/core/tensor.h"
#include "proto/node_def.pb.h"
#include "proto/tensor.pb.h"

namespace sluice {

// Allocates from DefaultCpuAllocator().
absl::Status TensorFromProto(const TensorProto& proto, Tensor* out);
absl::Status TensorFromProto(Allocator* allocator, const TensorProto& proto, Tensor* out);

void TensorToProtoContent(const Tensor& tensor, TensorProto* proto);
void TensorToProtoField(const Tensor& tensor, TensorProto* proto);

NodeDef MakeConstNodeDef(const std::string& name, const Tensor& value, const std::string& device);

}  // namespace sluice

#endif  // SLUICE_GRAPH_CORE_TENSOR_PROTO_H_
