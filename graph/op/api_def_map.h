// ApiDefMap: the ApiDefs of a set of ops as a client language's op code generator sees them,
// behind the C API's TF_ApiDefMap (TensorFlow's Go and other bindings generate their op
// wrappers from it).
//
// Each op's ApiDef starts as its OpDef gives it (one endpoint named for the op, VISIBLE, every
// argument and attr under its own name, the OpDef's docs and attr defaults) and then takes the
// overrides of the api_def text files loaded into it, later ones over earlier ones, as
// TensorFlow merges them: a visibility other than DEFAULT_VISIBILITY replaces it; any endpoint
// replaces all of them; an argument's or attr's non-empty rename_to and description, and an
// attr's default, replace theirs; an arg_order must be a permutation of all the inputs; a
// summary or description replaces it, and description_prefix/_suffix are joined to it with
// newlines. Before it is read, UpdateDocs renames `backticked` mentions in the docs.
#ifndef SLUICE_GRAPH_OP_API_DEF_MAP_H_
#define SLUICE_GRAPH_OP_API_DEF_MAP_H_

#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "proto/api_def.pb.h"
#include "proto/op_def.pb.h"

namespace sluice {

class ApiDefMap {
 public:
  // The ApiDef of each op of `ops`, from its OpDef alone.
  explicit ApiDefMap(const OpList& ops);

  // Merges the ApiDefs of `text`, a text-format ApiDefs message that may use multi-line
  // strings (multiline_pbtxt.h), into those of the same ops; ApiDefs of ops the map does not
  // hold are skipped. INVALID_ARGUMENT when the text does not parse ("line(column): what\n"
  // per error, both counted from 1; nothing is merged then); FAILED_PRECONDITION when an
  // ApiDef names an argument or attr its op does not have, or an arg_order that is not a
  // permutation of the inputs. As in TensorFlow, the ApiDefs before the failing one stay
  // merged, and so do the failing one's fields merged before the failing field.
  absl::Status Load(absl::string_view text);

  // Rewrites the docs (summary, description and every argument's and attr's description) of
  // each ApiDef to use the API's names: `Op` becomes `CanonicalEndpoint`, and each renamed
  // argument or attr `name` becomes `rename_to`, in that order.
  void UpdateDocs();

  // The ApiDef of `op_name`, or null when the map does not hold that op.
  const ApiDef* Find(absl::string_view op_name) const;

 private:
  absl::flat_hash_map<std::string, ApiDef> api_defs_;
};

}  // namespace sluice

#endif  // SLUICE_GRAPH_OP_API_DEF_MAP_H_
