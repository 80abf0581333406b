// Input roles: what an op input's name says about the tensor it wants, so that generated
// inputs often have the shape and values that get an op past its checks.
//
// An op's shape arguments ("shape", "perm", "paddings", "axis", "k", ...) must agree with its
// data input: Reshape wants a vector as long as the new rank whose product is the element
// count, Transpose a permutation, Pad a [rank, 2] matrix, Range and OneHot's depth scalars.
// Random tensors almost never agree, and the op then stops at its first check. Roles are read
// from the input's name in the OpDef, TensorFlow's names for these arguments being few and
// consistent; a role only biases the draw (one time in four the input is drawn as any other),
// so every shape still reaches every op.
//
//   kScalar    a scalar; for integer dtypes a small non-negative value (an axis, a count);
//   kRankVector a vector with one entry per dim of the op's common shape (see
//              op_graph_generator.h): that shape's dims (Reshape, Fill, Tile, Slice sizes),
//              0, 1, 2, ... (a permutation, begin offsets), or drawn values;
//   kRankPairs a [rank, 2] matrix of small values (paddings, crops);
//   kData      anything: the common shape or a random one.
//
// Thread-compatible: no shared state.
#ifndef SLUICE_FUZZ_INPUT_ROLES_H_
#define SLUICE_FUZZ_INPUT_ROLES_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "fuzz/byte_source.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "proto/types.pb.h"

namespace sluice {
namespace fuzz {

enum class InputRole { kData, kScalar, kRankVector, kRankPairs };

// The role of an input named `arg_name` in its OpDef.
InputRole RoleOfInput(absl::string_view arg_name);

// A tensor of `dtype` for an input of `role`, given the op's common shape. Errors as
// RandomTensorOfShape's (UNIMPLEMENTED for handles and variants).
absl::StatusOr<Tensor> TensorForRole(InputRole role, DataType dtype, const TensorShape& common,
                                     ByteSource* bytes);

}  // namespace fuzz
}  // namespace sluice

#endif  // SLUICE_FUZZ_INPUT_ROLES_H_
