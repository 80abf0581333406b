// Shape inference for imported nodes, through a ShapeRefiner, and the "_output_shapes" attr
// that TensorFlow's exporters attach (it may sharpen, but not contradict, what the shape
// functions infer).
#include <utility>
#include <vector>

#include "glog/logging.h"
#include "graph/core/errors.h"
#include "graph/import/graph_constructor_internal.h"
#include "graph/op/node_def_util.h"
#include "graph/shape/shape_inference.h"
#include "graph/shape_refiner.h"
#include "proto/tensor_shape.pb.h"

namespace sluice {
namespace import_internal {
namespace {

constexpr char kOutputShapesAttr[] = "_output_shapes";

}  // namespace

ImportShapes::ImportShapes(ShapeRefiner* refiner, const Graph& g)
    : own_(refiner == nullptr ? std::make_unique<ShapeRefiner>(g.op_registry()) : nullptr),
      refiner_(refiner == nullptr ? own_.get() : refiner) {}

ImportShapes::~ImportShapes() = default;

void ImportShapes::Forget(const Node* node) { refiner_->RemoveNode(node); }

absl::Status ImportShapes::Check(Node* node) {
  RETURN_IF_ERROR(refiner_->AddNode(node));
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
