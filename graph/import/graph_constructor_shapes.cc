// Shape inference for imported nodes, through a ShapeRefiner, and the "_output_shapes" attr
// that TensorFlow's exporters attach (it may sharpen, but not contradict, what the shape
// functions infer).
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "glog/logging.h"
#include "graph/core/errors.h"
#include "graph/import/function_body.h"
#include "graph/import/graph_constructor.h"
#include "graph/import/graph_constructor_internal.h"
#include "graph/op/graph_def_util.h"
#include "graph/op/node_def_util.h"
#include "graph/shape/shape_inference.h"
#include "graph/shape_refiner.h"
#include "graph/tensor_id.h"
#include "proto/tensor_shape.pb.h"

namespace sluice {
namespace import_internal {
namespace {

constexpr char kOutputShapesAttr[] = "_output_shapes";

// Bodies are imported (and their own calls inferred) at most this deep, which also ends
// recursive functions.
constexpr int kMaxCallDepth = 8;
thread_local int call_depth = 0;

// The function `node` calls and the attrs it is instantiated with, if `node` is a call.
bool CalledFunction(const Graph& g, const Node& node, NameAttrList* function) {
  const std::string& op = node.type_string();
  if (op == "PartitionedCall" || op == "StatefulPartitionedCall") {
    return TryGetNodeAttr(node.attrs(), "f", function);
  }
  if (!g.IsFunction(op)) return false;
  function->set_name(op);
  *function->mutable_attr() = node.def().attr();
  return true;
}

}  // namespace

ImportShapes::ImportShapes(ShapeRefiner* refiner, const Graph& g)
    : graph_(g),
      own_(refiner == nullptr ? std::make_unique<ShapeRefiner>(g.op_registry()) : nullptr),
      refiner_(refiner == nullptr ? own_.get() : refiner) {}

void ImportShapes::InferCallShapes(const Node& node) {
  NameAttrList function;
  if (!CalledFunction(graph_, node, &function)) return;
  bool disabled = false;
  if (TryGetNodeAttr(node.attrs(), "_disable_call_shape_inference", &disabled) && disabled) {
    return;
  }
  const FunctionDef* fdef = FindFunction(graph_.library(), function.name());
  if (fdef == nullptr || call_depth >= kMaxCallDepth) return;
  FunctionBody body;
  if (!InstantiateFunctionBody(*fdef, function.attr(), graph_.library(), *graph_.op_registry(),
                               &body)
           .ok()) {
    return;
  }
  // Each argument becomes a Placeholder of the shape the call's input has here.
  shape_inference::InferenceContext* outer = refiner_->GetContext(&node);
  const int num_args = std::min<int>(body.arg_nodes.size(), outer->num_inputs());
  for (NodeDef& def : *body.graph.mutable_node()) {
    if (def.op() != "_Arg") continue;
    const auto arg = std::find(body.arg_nodes.begin(), body.arg_nodes.end(), def.name());
    const int index = static_cast<int>(arg - body.arg_nodes.begin());
    DataType dtype;
    if (index >= num_args || !TryGetNodeAttr(AttrSlice(def), "T", &dtype)) return;
    def.set_op("Placeholder");
    def.clear_attr();
    AddNodeAttr("dtype", dtype, &def);
    PartialTensorShape shape;  // unknown where the input's shape is past a Placeholder's
    outer->AsPartialTensorShape(outer->input(index), &shape).IgnoreError();
    AddNodeAttr("shape", shape, &def);
  }
  // The body's graph resolves ops as the caller's does: the same base registry, then the
  // same library (which it takes from the caller's; a registry that already knows the
  // functions would refuse it).
  const auto* library_ops = dynamic_cast<const LibraryOpRegistry*>(graph_.op_registry());
  Graph scratch(library_ops != nullptr ? library_ops->base() : graph_.op_registry());
  ShapeRefiner inner(scratch.op_registry());
  inner.set_require_shape_inference_fns(false);
  GraphConstructorOptions options;
  options.allow_internal_ops = true;
  options.validate_shape = true;
  ++call_depth;
  const absl::Status imported =
      scratch.AddFunctionLibrary(graph_.library()).ok()
          ? ConvertGraphDefToGraph(options, std::move(body.graph), &scratch, &inner)
          : errors::Internal("library");
  --call_depth;
  if (!imported.ok()) return;
  for (int i = 0; i < static_cast<int>(body.rets.size()) && i < node.num_outputs(); ++i) {
    const TensorId ret = ParseTensorName(body.rets[i]);
    const Node* producer = scratch.FindNodeByName(std::string(ret.node));
    PartialTensorShape shape;
    if (producer == nullptr || !inner.GetOutputShape(producer, ret.index, &shape).ok()) continue;
    shape_inference::ShapeHandle handle;
    if (!outer->MakeShapeFromPartialTensorShape(shape, &handle).ok()) continue;
    // A body shape that contradicts the call's own is ignored, as an unknown one would be.
    refiner_->SetShape(&node, i, handle).IgnoreError();
  }
}

ImportShapes::~ImportShapes() = default;

void ImportShapes::Forget(const Node* node) { refiner_->RemoveNode(node); }

absl::Status ImportShapes::Check(Node* node) {
  RETURN_IF_ERROR(refiner_->AddNode(node));
  InferCallShapes(*node);
  std::vector<TensorShapeProto> shapes;
  if (!TryGetNodeAttr(node->attrs(), kOutputShapesAttr, &shapes)) return absl::OkStatus();
  const int num_outputs = node->num_outputs();
  if (static_cast<int>(shapes.size()) < num_outputs) {
    return errors::InvalidArgument("Node '", node->name(), "' has ", num_outputs,
                                   " outputs but the ", kOutputShapesAttr,
                                   " attribute specifies shapes for ", shapes.size(), " outputs");
  }
  if (static_cast<int>(shapes.size()) > num_outputs) {
    LOG(WARNING) << "Node '" << node->name() << "' has " << num_outputs << " outputs but the "
                 << kOutputShapesAttr << " attribute specifies shapes for " << shapes.size()
                 << " outputs. Output shapes may be inaccurate.";
  }
  shape_inference::InferenceContext* ic = refiner_->GetContext(node);
  for (int i = 0; i < num_outputs; ++i) {
    shape_inference::ShapeHandle h;
    absl::Status s = ic->MakeShapeFromShapeProto(shapes[i], &h);
    if (!s.ok()) {
      return errors::InvalidArgument("Node '", node->name(), "' has an invalid ", kOutputShapesAttr,
                                     " attribute (shape #", i, " error:'", s.message(), "')");
    }
    s = refiner_->SetShape(node, i, h);
    if (!s.ok()) {
      return errors::InvalidArgument("Node '", node->name(), "' has an ", kOutputShapesAttr,
                                     " attribute inconsistent with the GraphDef for output #", i,
                                     ": ", s.message());
    }
  }
  node->ClearAttr(kOutputShapesAttr);
  return absl::OkStatus();
}

}  // namespace import_internal
}  // namespace sluice
