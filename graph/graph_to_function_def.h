// GraphToFunctionDef: a FunctionDef made from nodes of a Graph, as TensorFlow's
// TF_GraphToFunction makes it (tensorflow/core/framework/graph_to_functiondef.cc), field for
// field, so that bindings which build functions from graphs (TensorFlow Java's
// ConcreteFunction, the Rust crate's Graph::to_function) get the FunctionDef TensorFlow would
// give them.
//
// The caller names the body (the nodes that become the function's node_def, in that order),
// the graph tensors that become its inputs and outputs, and the nodes that become its control
// outputs. The rules:
//  - Argument names. Input and output args are named after their node: lowercased, every
//    character other than a letter or digit replaced by '_', cut to start at the first letter
//    ("unknown" if there is none). Output args take `output_names` instead when given. Names
//    are made unique by appending "_<k>", k counting up per base name; output args are named
//    first, then input args, then body nodes.
//  - Body nodes keep their graph names, made unique against the args' names the same way
//    (not normalized). Each NodeDef is the node's own (debug info's original names sorted,
//    without repeats), with its assigned device when it has one, and inputs in function form: an
//    input arg's name, "<node>:<output arg>:<k>" for output k of one of the node's OpDef output
//    args, then "^<node>" per control input sorted by the source's graph name. A control input from
//    an input node names its arg.
//  - Input arg attrs (arg_attr): the input node's attrs whose names start with '_', and its
//    shape as "_output_shapes" (a list of one shape): from a `shape` attr unless the arg is a
//    resource, or from a Const's `value`. A node's own "_output_shapes" wins over its shape
//    (in TensorFlow the winner depends on the order of its attr map). An input node's
//    "_resource_arg_unique_id" also goes to resource_arg_unique_id, keyed (as in TensorFlow) by the
//    output index of the input.
//  - ret maps each output arg to its tensor in function form (an input arg's name when an
//    output is an input). An output on a _Retval node returns that node's input.
//  - signature.is_stateful is set when a body node's op is stateful; an attr whose value is a
//    placeholder becomes a signature attr of the OpDef attr's type (a node's in attr-name
//    order, where TensorFlow follows its attr map's order).
//  - append_hash_to_name: the name is `name` + "_" + the FunctionDef's TensorFlow hash
//    (function_def_hash.h, computed before control outputs are added) as 8 little-endian
//    bytes in unpadded web-safe base64, with '-' as 'a' and '_' as 'A'.
//  - Control outputs: control_ret maps each name (`control_output_names`, or the node's graph
//    name) to the node's body name; signature.control_output lists the names sorted.
//
// Errors (INVALID_ARGUMENT, TensorFlow's texts):
//  - "Cannot have duplicate output names. Name 'x' appears more than once in 'output_names'
//    array." (also when an output name repeats none of the others but is taken otherwise);
//  - "Input 0, 'a:0', of node 'b' in function 'f' is not available. You might need to include
//    it in inputs or include its source node in the body";
//  - "The source of control edge [id=5 a:-1 -> b:-1] is not in the body. Encountered while
//    creating function 'f'";
//  - "TF_Output a:0 is neither in the function body nor among function inputs. Encountered
//    while creating function 'f'";
//  - "Graph to be converted to function appears to be malformed. Node b is missing input
//    edge 1";
//  - for control outputs: a count of names that differs from the count of nodes, an empty
//    name, "Repeated control output name: x", "Control output node name must be not empty"
//    (the node is not in the body);
//  - OUT_OF_RANGE for an input or output index the node does not have, and UNIMPLEMENTED for
//    a placeholder attr the node's OpDef does not declare.
// On error *fdef is unspecified.
//
// REQUIRES: every node belongs to one graph and outlives the call. Thread-compatible: the
// graph must not change during the call.
#ifndef SLUICE_GRAPH_GRAPH_TO_FUNCTION_DEF_H_
#define SLUICE_GRAPH_GRAPH_TO_FUNCTION_DEF_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "graph/graph.h"
#include "proto/function.pb.h"

namespace sluice {

// Output `index` of `node`.
struct GraphOutput {
  const Node* node = nullptr;
  int index = 0;
};

struct GraphToFunctionDefSpec {
  std::string name;
  bool append_hash_to_name = false;
  std::vector<const Node*> body;
  std::vector<GraphOutput> inputs;
  std::vector<GraphOutput> outputs;
  // Empty, or one name per output.
  std::vector<std::string> output_names;
  std::vector<const Node*> control_outputs;
  // Empty, or one name per control output.
  std::vector<std::string> control_output_names;
  std::optional<std::string> description;
};

absl::Status GraphToFunctionDef(const GraphToFunctionDefSpec& spec, FunctionDef* fdef);

// The name TensorFlow gives an input or output arg for a node named `name` (before it is
// made unique): "Feed A/1" -> "feed_a_1", "1st" -> "st", "_9" -> "unknown".
std::string NormalizeArgName(const std::string& name);

}  // namespace sluice

#endif  // SLUICE_GRAPH_GRAPH_TO_FUNCTION_DEF_H_
