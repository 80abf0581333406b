// Re-sorting the map entries of serialized protobuf bytes into protobuf C++'s deterministic
// order, so that bytes written by another runtime can be compared byte for byte.
//
// Why: TensorFlow 2.x writes GraphDefs from Python, whose protobuf runtime (upb) sorts map
// entries under deterministic serialization with a different rule from protobuf C++ (which
// Sluice, and TensorFlow's C++ side, use): upb puts a key before its own prefixes ("Tidx"
// before "T"), C++ compares keys lexicographically ("T" before "Tidx"). Everything else is
// encoded identically. So a NodeDef with attrs T and Tidx re-serializes from C++ with the
// same bytes in a different order, and byte-identity holds only once map order is
// normalized.
//
// ReorderMapEntriesLikeCpp parses nothing into messages: it walks the wire format with
// `descriptor` as a guide, recursing into known message fields, and within each run of
// consecutive entries of one map field it stably sorts the entries by key (strings
// bytewise, integers numerically, as protobuf C++ does). All other bytes (field order,
// varint encodings, packed arrays, unknown fields) are copied unchanged. Returns false if
// `bytes` are not well-formed wire format or nest deeper than kProtoRecursionLimit.
#ifndef SLUICE_TESTS_MAP_ENTRY_ORDER_H_
#define SLUICE_TESTS_MAP_ENTRY_ORDER_H_

#include <string>

#include "absl/strings/string_view.h"
#include "google/protobuf/descriptor.h"

namespace sluice {
namespace fixtures {

bool ReorderMapEntriesLikeCpp(absl::string_view bytes,
                              const google::protobuf::Descriptor& descriptor, std::string* out);

}  // namespace fixtures
}  // namespace sluice

#endif  // SLUICE_TESTS_MAP_ENTRY_ORDER_H_
