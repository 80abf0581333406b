// ShapeRefiner: the shapes of the outputs of a graph's nodes, inferred node by node as the
// graph is built (the importer calls AddNode for every node it adds, in topological order).
//
// AddNode runs the node's shape function (from the registry) in an InferenceContext whose
// input shapes are the output shapes of the producers already added. When the function asks
// for the value of an input (InferenceContext::input_tensor) or for the shape an input
// denotes (request_input_tensor_as_partial_shape), the refiner computes what it can (see
// ConstantEvaluator in eval_const_tensor.h, and below) and runs the function again, until it
// asks for nothing new. So `Reshape(x, Const)`, `Fill(Pack(2, 3), v)` and
// `Reshape(x, Shape(y))` get known shapes.
//
// The shape an input denotes (TensorFlow's ConstantPartialShape) is read through Shape,
// ShapeN, Pack of scalars, Concat/ConcatV2, Cast to int32/int64 and StridedSlice (scalar
// begin/end/stride, no special masks) of shape tensors, so that partially known shapes
// survive (`Reshape(x, Pack(Shape(y)[0], -1))`); a scalar input of value -1 denotes an
// unknown shape.
//
// Loops: a producer not yet added (the NextIteration feeding a Merge, which is added after
// it) reads as an unknown shape, as in TensorFlow; Merge then gives an unknown shape unless
// all its inputs agree. UpdateNode re-runs a node once its inputs have changed.
//
// Ops without a shape function: INVALID_ARGUMENT ("No shape inference function exists for
// op 'X', did you forget to define it?") while require_shape_inference_fns() (the default,
// as in TensorFlow); unknown output shapes otherwise. Function calls get their shape
// functions' unknown shapes here; the importer then merges in what their bodies infer
// (graph/import, ImportShapes).
//
// Errors name the node: shape function failures carry InferenceContext::Run's message
// (" for '{{node r}} = Reshape[...](x, s)' with input shapes: [2,3], [2] and with computed
// input tensors: input[1] = <4 2>."); the others have the node attached (AttachDef).
//
// Ownership: `ops` and every Node added must outlive the refiner. Contexts live as long as
// the refiner; ShapeHandles from GetContext stay valid that long. A node re-added (or a new
// node at the address of a removed one) gets a fresh context.
//
// Thread safety: not thread-safe; one refiner per graph being built.
#ifndef SLUICE_GRAPH_SHAPE_REFINER_H_
#define SLUICE_GRAPH_SHAPE_REFINER_H_

#include <memory>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "graph/core/partial_tensor_shape.h"
#include "graph/eval_const_tensor.h"
#include "graph/graph.h"
#include "graph/op/op_registry.h"
#include "graph/shape/shape_inference.h"

namespace sluice {

class ShapeRefiner {
 public:
  explicit ShapeRefiner(const OpRegistryInterface* ops);
  ~ShapeRefiner();
  ShapeRefiner(const ShapeRefiner&) = delete;
  ShapeRefiner& operator=(const ShapeRefiner&) = delete;

  // Infers the output shapes of `node` from those of its producers (see above). Adding a
  // node again replaces its context. On error the node has no context.
  absl::Status AddNode(const Node* node);

  // Merges `shape` (a handle from any of this refiner's contexts) into output `output_port`
  // of `node`. INTERNAL if the node was not added, INVALID_ARGUMENT for a port out of range
  // or a shape incompatible with the inferred one. Consumers already added are not updated.
  absl::Status SetShape(const Node* node, int output_port, shape_inference::ShapeHandle shape);

  // Re-reads the output shapes of `node`'s producers into its input shapes, merged with what
  // was known (or, with `relax`, relaxed to what both allow), and re-runs the shape function
  // if an input changed. Sets *refined to true when an input changed (or the node was not
  // yet added, which adds it) and leaves it alone otherwise, so one flag can collect several
  // updates. Two unknown shapes are not known to be the same, so an unknown input read
  // again counts as changed (as in TensorFlow). FAILED_PRECONDITION if a producer was not
  // added.
  absl::Status UpdateNode(const Node* node, bool relax, bool* refined);

  // Keeps `node`'s context when it is still what AddNode would compute, else adds the node
  // again (returning AddNode's status). The context is kept when AddNode made it for this
  // very node (not for an earlier one at the same address; not changed since by SetShape or
  // UpdateNode) and each data input either still comes from the same producer output, whose
  // context was itself kept with the same inputs, or now has the same fully known shape
  // from a producer whose value, partial shape and handle data the shape function did not
  // ask for (so a fed Placeholder replaced by an _Arg of its shape changes nothing below
  // it). For passes that start from the shapes of a graph inferred earlier (the importer's)
  // after nodes were removed, added or rewired: refreshing every node in topological order
  // gives the shapes a new refiner would infer, and re-runs only the shape functions of
  // what changed. REQUIRES: the graph has no back edges, and nodes' attrs have not changed
  // since they were added.
  absl::Status RefreshNode(const Node* node);

  // Forgets `node` (its context and cached values), e.g. before the node is deleted, so a
  // later node at the same address never sees them. Contexts that may still point into its
  // arena are kept alive until the refiner is destroyed. No-op if the node was not added.
  void RemoveNode(const Node* node);

  // The node's context (its input and output shapes), or nullptr if it was not added.
  shape_inference::InferenceContext* GetContext(const Node* node) const;

  // The (partial) shape of output `port` of `node`. NOT_FOUND if the node was not added,
  // INVALID_ARGUMENT for a port out of range.
  absl::Status GetOutputShape(const Node* node, int port, PartialTensorShape* shape) const;

  bool require_shape_inference_fns() const { return require_shape_inference_fns_; }
  void set_require_shape_inference_fns(bool require) { require_shape_inference_fns_ = require; }

  // Folds ops the built-in constant evaluation does not know (see eval_const_tensor.h);
  // the runtime can set one that runs CPU kernels.
  void set_node_folder(NodeFolder folder) { evaluator_.set_node_folder(std::move(folder)); }

 private:
  struct NodeState;

  // Whether RefreshNode may keep `state`, found for `node`; sets *changed_inputs when some
  // data input is not the one the state was made from.
  bool CanKeep(const Node& node, const NodeState& state, bool* changed_inputs) const;
  // The registry entry of `node`'s op, checking that it has a shape function when required.
  absl::Status LookUpShapeFn(const Node* node, const OpRegistrationData** op_reg_data) const;
  // Runs the shape function, supplying requested input values and partial shapes, until it
  // requests nothing new.
  absl::Status RunShapeFn(const Node* node, const OpRegistrationData* op_reg_data,
                          NodeState* state);
  // Supplies what the last run requested; sets *rerun when something new is known.
  absl::Status SupplyRequestedInputs(const Node* node, NodeState* state,
                                     std::vector<bool>* attempted_value,
                                     std::vector<bool>* attempted_shape, bool* rerun);
  // The value of data input `input` of `node`, if known.
  absl::StatusOr<std::optional<Tensor>> InputValue(const Node* node, int input);
  absl::StatusOr<std::optional<int64_t>> InputIntScalar(const Node* node, int input);
  // The shape that the 1-D (or -1 scalar) input `input` of `node` denotes, as a shape of
  // `target`'s arena. `depth` bounds the recursion through Concat, Cast and StridedSlice.
  absl::Status ConstantPartialShape(shape_inference::InferenceContext* target, const Node* node,
                                    int input, int depth, shape_inference::ShapeHandle* result);
  absl::Status PartialShapeOfSlice(shape_inference::InferenceContext* target, const Node* slice,
                                   int depth, shape_inference::ShapeHandle* result);
  absl::Status PartialShapeOfConcat(shape_inference::InferenceContext* target, const Node* concat,
                                    int depth, shape_inference::ShapeHandle* result);
  absl::Status PartialShapeOfCast(shape_inference::InferenceContext* target, const Node* node,
                                  int input, int depth, shape_inference::ShapeHandle src_shape,
                                  shape_inference::ShapeHandle* result);

  const OpRegistryInterface* const ops_;
  bool require_shape_inference_fns_ = true;
  ConstantEvaluator evaluator_;
  absl::flat_hash_map<const Node*, std::unique_ptr<NodeState>> states_;
  // Registrations of ops already looked up, by the OpDef of their nodes (a node's op_def()
  // and its type_string() name the same op; ops are never removed from a registry).
  mutable absl::flat_hash_map<const OpDef*, const OpRegistrationData*> registrations_;
  // States replaced by a re-add: other contexts may still hold handles into their arenas.
  std::vector<std::unique_ptr<NodeState>> retired_;
};

// Adds every op node of `g` to `refiner` (which must start empty) in topological order, best
// effort: shape functions need not exist, and a node whose function fails just has no
// context, so its consumers see unknown shapes. For passes that use shapes as an aid only
// (the remapper's residual adds, pad folding).
void InferShapesBestEffort(const Graph& g, ShapeRefiner* refiner);

}  // namespace sluice

#endif  // SLUICE_GRAPH_SHAPE_REFINER_H_
