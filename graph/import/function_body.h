// InstantiateFunctionBody: a FunctionDef of a graph's library as a GraphDef that can be
// imported into the graph in place of a call.
//
// A function body names tensors in function form: an input arg by its name ("x"), a node's
// output by node, output arg and index ("mul:z:0"), a control input as "^node". The GraphDef
// made here uses graph form ("mul:0"), with:
//  - one "_Arg" node per input arg, named as the arg (T, index), for the caller to map away
//    (ImportGraphDefOptions::input_map with skip_mapped_nodes);
//  - the body's nodes, their attr placeholders ({placeholder: "T"}) replaced by the call's
//    attr values (`attrs`, the NameAttrList's attrs of the calling node);
//  - *rets: per output arg, in signature order, the tensor that gives it ("node:k");
//  - *control_rets: the nodes named by control_ret (side effects the call must wait for).
// Errors: INVALID_ARGUMENT naming the function for a malformed body (an input naming no
// node or arg, a ret naming no tensor, a placeholder without a value); UNIMPLEMENTED for
// list-valued input or output args (N * T, list(type)), which TensorFlow's frozen functions
// do not use.
#ifndef SLUICE_GRAPH_IMPORT_FUNCTION_BODY_H_
#define SLUICE_GRAPH_IMPORT_FUNCTION_BODY_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "graph/op/node_def_util.h"
#include "graph/op/op_registry.h"
#include "proto/function.pb.h"
#include "proto/graph.pb.h"

namespace sluice {

struct FunctionBody {
  GraphDef graph;
  std::vector<std::string> arg_nodes;  // per input arg, in signature order
  std::vector<std::string> rets;       // per output arg: "node:k"
  std::vector<std::string> control_rets;
};

// `library` resolves nested calls (a body node whose op is a function's name); `registry`
// resolves every other op.
absl::Status InstantiateFunctionBody(const FunctionDef& fdef, const AttrValueMap& attrs,
                                     const FunctionDefLibrary& library,
                                     const OpRegistryInterface& registry, FunctionBody* body);

// The function named `name` in `library`, or nullptr.
const FunctionDef* FindFunction(const FunctionDefLibrary& library, const std::string& name);

}  // namespace sluice

#endif  // SLUICE_GRAPH_IMPORT_FUNCTION_BODY_H_
