// AddRandomAttrs: attr values for a generated node, drawn from a ByteSource within the
// constraints an OpDef and a kernel declare, with rare departures from them.
//
// Per attr of the OpDef:
//   type, list(type)  from the kernel's type constraint (so that the kernel is found), else
//                     the OpDef's allowed values, else the common dtypes; one time in 16 any
//                     common dtype (constraint errors must be clean too);
//   int               the count of an input list (number_attr): minimum .. minimum + 3; other
//                     ints: RandomInt, raised to the minimum except one time in eight;
//   float, bool       RandomDouble (NaN and infinities included), a coin;
//   string            one of the allowed values, else one of the spellings ops accept
//                     ("SAME", "NHWC", ...), rarely arbitrary bytes;
//   shape             RandomPartialShape, rarely a raw proto with invalid dims;
//   list(int) ...     lengths 0-5 (4 often: strides, ksize), at least the minimum;
//   tensor            a RandomTensor of a common dtype.
// An attr with a default keeps it half of the time. An attr the node already has (set by
// the caller) is left alone.
//
// Errors: UNIMPLEMENTED for an op with func attrs, whose values must name a function.
// Thread-compatible: no shared state.
#ifndef SLUICE_FUZZ_RANDOM_ATTRS_H_
#define SLUICE_FUZZ_RANDOM_ATTRS_H_

#include "absl/status/status.h"
#include "fuzz/byte_source.h"
#include "proto/kernel_def.pb.h"
#include "proto/node_def.pb.h"
#include "proto/op_def.pb.h"

namespace sluice {
namespace fuzz {

// `kernel` may be null (no type constraints beyond the OpDef's).
absl::Status AddRandomAttrs(const OpDef& op_def, const KernelDef* kernel, ByteSource* bytes,
                            NodeDef* node);

}  // namespace fuzz
}  // namespace sluice

#endif  // SLUICE_FUZZ_RANDOM_ATTRS_H_
