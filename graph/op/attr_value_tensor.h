// Tensor-valued attrs (Const's "value", list(tensor) attrs) compared, hashed and printed by
// their contents rather than by their TensorProto encoding. Internal to attr_value_util.cc.
//
// A TensorProto can encode the same tensor several ways: raw tensor_content, a full typed
// *_val list, or a shorter *_val list that is padded with its last value (zeros when empty).
// These functions decode every such encoding into one canonical form. Protos that cannot be
// decoded (invalid shape, size mismatch, element types without a typed field such as
// resource and variant, or tensors over 32 MiB decoded) fall back to their serialized bytes,
// so equality and hashing stay consistent without ever expanding a huge tensor in memory.
//
// Pure functions; thread-compatible.
#ifndef SLUICE_GRAPH_OP_ATTR_VALUE_TENSOR_H_
#define SLUICE_GRAPH_OP_ATTR_VALUE_TENSOR_H_

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "proto/tensor.pb.h"

namespace sluice {
namespace attr_value_internal {

// Deterministic 64-bit hashing (word-wise, MurmurHash64A-like), stable across processes.
uint64_t Hash64(absl::string_view data, uint64_t seed);
uint64_t Hash64Combine(uint64_t a, uint64_t b);

bool AreTensorProtosEqual(const TensorProto& a, const TensorProto& b);
uint64_t TensorProtoHash(const TensorProto& t);

// TensorFlow's Tensor::DebugString format, first three values:
// "Tensor<type: float shape: [2,2] values: [1 2][3...]...>". Undecodable protos print as
// "<Invalid TensorProto: ...>".
std::string SummarizeTensorProto(const TensorProto& t);

// TensorFlow's rendering of a float / double in messages: the shortest of %.6g / %.9g
// (%.15g / %.17g for double) that reads back to the same value.
std::string FloatToString(float value);
std::string DoubleToString(double value);

}  // namespace attr_value_internal
}  // namespace sluice

#endif  // SLUICE_GRAPH_OP_ATTR_VALUE_TENSOR_H_
