// Test helpers for code that transforms Graphs: build a Graph from text, and print one as a
// canonical string to compare against a golden value.
//
// Canonical form (TensorFlow's pass-test style):
//   "A(Const);B(Placeholder);C(Mul)@/device:CPU:0|A->C;B:1->C:1;^A->C"
// Op nodes sorted by name, each "name(op)", with "@device" appended when a device is
// assigned; then '|'; then the edges between op nodes sorted as strings: data edges
// "src[:k]->dst[:j]" (":k"/":j" shown only when non-zero), control edges "^src->dst".
// Edges touching _SOURCE or _SINK are left out.
#ifndef SLUICE_GRAPH_IMPORT_GRAPH_TESTUTIL_H_
#define SLUICE_GRAPH_IMPORT_GRAPH_TESTUTIL_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graph/graph.h"
#include "graph/import/graph_constructor.h"

namespace sluice {

std::string CanonicalGraphString(const Graph& g);

// Parses `graph_def_pbtxt` (a text-format GraphDef: "node { name: 'a' op: 'Const' ... }")
// and converts it into `*g` (which must hold no op nodes) with ConvertGraphDefToGraph and
// `opts`. The default options allow internal ops, so that tests may write _Send/_Recv nodes.
// Parse errors are INVALID_ARGUMENT; import errors are returned unchanged.
absl::Status GraphFromTextForTest(absl::string_view graph_def_pbtxt, Graph* g);
absl::Status GraphFromTextForTest(absl::string_view graph_def_pbtxt,
                                  const GraphConstructorOptions& opts, Graph* g);

// The text of a float Placeholder node named `name` whose shape attr is `dims` (-1 for an
// unknown dim), to put in a GraphDef given to GraphFromTextForTest.
std::string FloatPlaceholderText(absl::string_view name, absl::Span<const int64_t> dims);

// The node of `graph_def` named `name`, or nullptr.
const NodeDef* FindNodeDefForTest(const GraphDef& graph_def, absl::string_view name);

}  // namespace sluice

#endif  // SLUICE_GRAPH_IMPORT_GRAPH_TESTUTIL_H_
