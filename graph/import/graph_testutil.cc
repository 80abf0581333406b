// Canonical graph strings and text-GraphDef import for tests.
#include "graph/import/graph_testutil.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/import/graph_def_io.h"
#include "proto/graph.pb.h"

namespace sluice {
namespace {

std::string Slot(const std::string& name, int slot) {
  return slot > 0 ? absl::StrCat(name, ":", slot) : name;
}

}  // namespace

std::string CanonicalGraphString(const Graph& g) {
  std::vector<std::string> nodes;
  for (const Node* n : g.op_nodes()) {
    std::string s = absl::StrCat(n->name(), "(", n->type_string(), ")");
    if (n->has_assigned_device_name()) absl::StrAppend(&s, "@", n->assigned_device_name());
    nodes.push_back(std::move(s));
  }
  std::vector<std::string> edges;
  for (const Edge* e : g.edges()) {
    if (!e->src()->IsOp() || !e->dst()->IsOp()) continue;
    if (e->IsControlEdge()) {
      edges.push_back(absl::StrCat("^", e->src()->name(), "->", e->dst()->name()));
    } else {
      edges.push_back(absl::StrCat(Slot(e->src()->name(), e->src_output()), "->",
                                   Slot(e->dst()->name(), e->dst_input())));
    }
  }
  std::sort(nodes.begin(), nodes.end());
  std::sort(edges.begin(), edges.end());
  return absl::StrCat(absl::StrJoin(nodes, ";"), "|", absl::StrJoin(edges, ";"));
}

absl::Status GraphFromTextForTest(absl::string_view graph_def_pbtxt, Graph* g) {
  GraphConstructorOptions opts;
  opts.allow_internal_ops = true;
  return GraphFromTextForTest(graph_def_pbtxt, opts, g);
}

absl::Status GraphFromTextForTest(absl::string_view graph_def_pbtxt,
                                  const GraphConstructorOptions& opts, Graph* g) {
  // Parsed onto the graph's arena, as a tool that reads a file does: the graph then takes
  // the NodeDefs over instead of copying them.
  GraphDef* graph_def = google::protobuf::Arena::CreateMessage<GraphDef>(g->arena());
  absl::Status s = ParseTextProto(graph_def_pbtxt, graph_def);
  if (!s.ok()) return s;
  return ConvertGraphDefToGraph(opts, std::move(*graph_def), g);
}

const NodeDef* FindNodeDefForTest(const GraphDef& graph_def, absl::string_view name) {
  for (const NodeDef& node : graph_def.node()) {
    if (node.name() == name) return &node;
  }
  return nullptr;
}

std::string FloatPlaceholderText(absl::string_view name, absl::Span<const int64_t> dims) {
  std::string shape;
  for (int64_t d : dims) absl::StrAppend(&shape, " dim { size: ", d, " }");
  return absl::StrCat("node { name: '", name,
                      "' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } }"
                      " attr { key: 'shape' value { shape {",
                      shape, " } } } }");
}

}  // namespace sluice
