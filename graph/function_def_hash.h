// TensorFlow's FunctionDefHash, bit for bit: the value TF_GraphToFunction encodes into a
// function's name when asked to append a hash (graph_to_function_def.h), so that a function
// built by Sluice and one built by TensorFlow from the same graph get the same name.
//
// The scheme, as TensorFlow defines it (framework/function.cc, op_def_util.cc,
// attr_value_util.cc, util/equal_graph_def.cc, platform/hash.cc):
//  - Hash64 is MurmurHash64A over the bytes with seed 0xDECAFCAFFE unless given;
//    Hash64Combine(a, b) = a ^ (b + 0x9e3779b97f4a7800 + (a << 10) + (a >> 4)).
//  - A message hashes as Hash64 of its deterministic serialization.
//  - The signature: its attrs by name (each AttrDef's name, type, default, description,
//    minimum and allowed values), its control outputs as a set, then the rest of the OpDef
//    serialized with the attrs and control outputs cleared.
//  - The function's attrs, the body's NodeDefs (by name; name, op, device, data inputs in
//    order, control inputs as a set, attrs not starting with '_' by name) and ret, then
//    control_ret, each sorted by key. arg_attr and resource_arg_unique_id take no part.
//  - An attr holding a tensor hashes the tensor re-encoded as TensorFlow's
//    Tensor::AsProtoTensorContent writes it (dtype, shape, tensor_content; strings as
//    varint lengths then bytes), so every encoding of one value hashes alike. A tensor that
//    cannot be decoded, or whose dtype has no byte layout in Sluice (resource, variant),
//    hashes its proto as given; TensorFlow re-encodes those, so the two may differ there.
//
// The result equals TensorFlow's wherever Sluice's protos serialize as TensorFlow's do (same
// field numbers, deterministic serialization), i.e. for every FunctionDef whose fields
// Sluice models. Pure functions; thread-compatible.
#ifndef SLUICE_GRAPH_FUNCTION_DEF_HASH_H_
#define SLUICE_GRAPH_FUNCTION_DEF_HASH_H_

#include <cstdint>

#include "absl/strings/string_view.h"
#include "proto/function.pb.h"

namespace sluice {
namespace tf_hash {

inline constexpr uint64_t kDefaultSeed = 0xDECAFCAFFEull;

uint64_t Hash64(absl::string_view data, uint64_t seed = kDefaultSeed);
uint64_t Hash64Combine(uint64_t a, uint64_t b);

// TensorFlow's FunctionDefHash of `fdef`.
uint64_t FunctionDefHash(const FunctionDef& fdef);

}  // namespace tf_hash
}  // namespace sluice

#endif  // SLUICE_GRAPH_FUNCTION_DEF_HASH_H_
