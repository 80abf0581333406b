// FuseContractions: find each chain, build the fused NodeDef, ask for a kernel, then splice
// the fused node in place of the chain.
#include "passes/remapper.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/string_view.h"
#include "graph/core/errors.h"
#include "graph/graph.h"
#include "graph/op/node_def_util.h"
#include "graph/op/op_registry.h"
#include "graph/shape/shape_inference.h"
#include "graph/shape_refiner.h"
#include "passes/fused_node_splice.h"
#include "passes/symbolic_shapes.h"
#include "proto/attr_value.pb.h"

namespace sluice {
namespace {

// One matched chain: the contraction, its bias or batch norm, the optional residual add and
// the optional activation.
struct Chain {
  Node* contraction = nullptr;
  Node* post = nullptr;
  // Conv2D → BiasAdd only: the Add/AddV2 of post's output and `addend`, of the same shape.
  Node* residual = nullptr;
  const Edge* addend = nullptr;
  Node* activation = nullptr;  // for swish, the final Mul
  // Swish only: the Sigmoid, and the Mul by one that Keras' silu puts before it (or null).
  Node* swish_sigmoid = nullptr;
  Node* swish_scale = nullptr;
  Node* last() const {
    if (activation != nullptr) return activation;
    return residual != nullptr ? residual : post;
  }
  bool swish() const { return swish_sigmoid != nullptr; }
};

bool IsAdd(const Node* n) { return n->type_string() == "AddV2" || n->type_string() == "Add"; }

bool IsConvActivation(absl::string_view op) {
  return op == "Relu" || op == "Relu6" || op == "Elu" || op == "LeakyRelu";
}

bool IsMatMulActivation(absl::string_view op) {
  return IsConvActivation(op) || op == "Tanh" || op == "Sigmoid";
}

// Whether a one-element tensor of type T, given as a value list or as raw content, is one.
template <typename T, typename Values>
bool SingleValueIsOne(const Values& values, const std::string& content) {
  T value;
  if (values.size() == 1) {
    value = values.Get(0);
  } else if (content.size() == sizeof(value)) {
    std::memcpy(&value, content.data(), sizeof(value));
  } else {
    return false;
  }
  return value == T(1);
}

// Whether n is a Const scalar (or one-element vector) equal to one, float or double.
bool IsConstOne(const Node* n) {
  if (n->type_string() != "Const") return false;
  const auto it = n->def().attr().find("value");
  if (it == n->def().attr().end()) return false;
  const TensorProto& t = it->second.tensor();
  // Rank 0 or 1 only, so that multiplying by it never changes the other operand's shape.
  if (t.tensor_shape().dim_size() > 1) return false;
  if (t.tensor_shape().dim_size() == 1 && t.tensor_shape().dim(0).size() != 1) return false;
  if (t.dtype() == DT_FLOAT) return SingleValueIsOne<float>(t.float_val(), t.tensor_content());
  if (t.dtype() == DT_DOUBLE) return SingleValueIsOne<double>(t.double_val(), t.tensor_content());
  return false;
}

// The data source of n's input `index`, or null.
const Edge* DataInput(const Node* n, int index) {
  for (const Edge* e : n->in_edges()) {
    if (!e->IsControlEdge() && e->dst_input() == index) return e;
  }
  return nullptr;
}

// The single data consumer of n's output 0 at its input 0 (at any input when
// `any_input`), when n has exactly that one consumer and no control consumers; else null.
// Data edges from other outputs disqualify n too (the fused node has one output).
Node* SoleConsumer(const Node* n, bool any_input = false) {
  Node* consumer = nullptr;
  for (const Edge* e : n->out_edges()) {
    if (e->IsControlEdge() || e->src_output() != 0 || (e->dst_input() != 0 && !any_input) ||
        consumer != nullptr) {
      return nullptr;
    }
    consumer = e->dst();
  }
  return consumer;
}

class Remapper {
 public:
  Remapper(const RemapperOptions& opts, Graph* g) : opts_(opts), g_(g) {}

  absl::Status Run(bool* changed) {
    *changed = false;
    if (!opts_.kernel_exists) return absl::OkStatus();
    std::vector<int> candidates;
    for (Node* n : g_->op_nodes()) {
      if (n->type_string() == "Conv2D" || n->type_string() == "DepthwiseConv2dNative" ||
          n->type_string() == "MatMul") {
        candidates.push_back(n->id());
      }
    }
    FindSameShapeAdds();
    for (int id : candidates) {
      Node* n = g_->FindNodeId(id);
      if (n == nullptr) continue;
      Chain chain;
      if (!Match(n, &chain)) continue;
      NodeDef fused = MakeFusedDef(chain);
      if (!opts_.kernel_exists(fused, chain.last()->assigned_device_name())) continue;
      RETURN_IF_ERROR(Splice(chain, std::move(fused)));
      *changed = true;
    }
    return absl::OkStatus();
  }

 private:
  bool Inner(const Node* n) const { return !opts_.protected_names.contains(n->name()); }

  // A residual add's operands are compared by inferred shape, which the graph does not hold:
  // before anything is spliced, the adds that could end a Conv2D → BiasAdd chain are found
  // and, if there are any, the graph's shapes inferred once (best effort) to keep those
  // whose two operands have the same shape. Splicing keeps each add's operands' shapes.
  void FindSameShapeAdds() {
    std::vector<const Node*> adds;
    for (const Node* n : g_->op_nodes()) {
      if (!IsAdd(n) || n->num_inputs() != 2) continue;
      for (const Edge* e : n->in_edges()) {
        const Node* b = e->src();
        if (e->IsControlEdge() || b->type_string() != "BiasAdd") continue;
        const Edge* c = DataInput(b, 0);
        if (c != nullptr && c->src()->type_string() == "Conv2D") {
          adds.push_back(n);
          break;
        }
      }
    }
    if (adds.empty()) return;
    ShapeRefiner refiner(g_->op_registry());
    InferShapesBestEffort(*g_, &refiner);
    for (const Node* add : adds) {
      const Edge* x = DataInput(add, 0);
      const Edge* y = DataInput(add, 1);
      if (x == nullptr || y == nullptr) continue;
      const shape_inference::InferenceContext* cx = refiner.GetContext(x->src());
      const shape_inference::InferenceContext* cy = refiner.GetContext(y->src());
      if (cx == nullptr || cy == nullptr) continue;
      if (SymbolicallyEqual(cx->output(x->src_output()), cy->output(y->src_output()))) {
        same_shape_adds_.insert(add->id());
      }
    }
  }

  // Whether b (a Conv2D's BiasAdd) feeds only a same-shape Add that may join its chain;
  // fills the chain's residual and addend.
  bool MatchResidual(Node* b, Chain* chain) const {
    Node* add = SoleConsumer(b, /*any_input=*/true);
    if (add == nullptr || !IsAdd(add) || !same_shape_adds_.contains(add->id()) ||
        !SameDevice(b, add)) {
      return false;
    }
    const Edge* x = DataInput(add, 0);
    const Edge* y = DataInput(add, 1);
    if (x == nullptr || y == nullptr) return false;
    chain->residual = add;
    chain->addend = x->src() == b ? y : x;
    return true;
  }

  bool SameDevice(const Node* a, const Node* b) const {
    return a->assigned_device_name() == b->assigned_device_name() &&
           a->requested_device() == b->requested_device();
  }

  bool Match(Node* c, Chain* chain) const {
    const bool depthwise = c->type_string() == "DepthwiseConv2dNative";
    const bool conv = c->type_string() == "Conv2D" || depthwise;
    if (!Inner(c)) return false;
    // TensorFlow's fused depthwise convolution has no explicit padding.
    if (depthwise && GetNodeAttrOr<std::string>(c->attrs(), "padding", "") == "EXPLICIT")
      return false;
    Node* b = SoleConsumer(c);
    if (b == nullptr || !SameDevice(c, b)) return false;
    const std::string format =
        conv ? GetNodeAttrOr<std::string>(c->attrs(), "data_format", "NHWC") : "NHWC";
    if (b->type_string() == "BiasAdd") {
      if (GetNodeAttrOr<std::string>(b->attrs(), "data_format", "NHWC") != format) return false;
    } else if (conv && !depthwise &&
               (b->type_string() == "FusedBatchNorm" || b->type_string() == "FusedBatchNormV3")) {
      const auto it = b->def().attr().find("is_training");
      if (it == b->def().attr().end() || it->second.b()) return false;
      if (GetNodeAttrOr<std::string>(b->attrs(), "data_format", "NHWC") != format) return false;
      for (const Edge* e : b->out_edges()) {
        if (!e->IsControlEdge() && e->src_output() != 0) return false;
      }
    } else {
      return false;
    }
    chain->contraction = c;
    chain->post = b;
    if (!Inner(b)) return true;
    const bool residual =
        conv && !depthwise && b->type_string() == "BiasAdd" && MatchResidual(b, chain);
    if (!residual && MatchSwish(b, chain)) return true;
    if (residual && !Inner(chain->residual)) return true;
    Node* before_activation = residual ? chain->residual : b;
    Node* a = SoleConsumer(before_activation);
    if (a == nullptr || !SameDevice(before_activation, a)) return true;
    if (conv ? IsConvActivation(a->type_string()) : IsMatMulActivation(a->type_string())) {
      chain->activation = a;
    }
    return true;
  }

  // b → Sigmoid → Mul(b, ·) with b's output used by exactly those two (either operand
  // order), or Keras' silu b → Mul(1, b) → Sigmoid → Mul(b, ·); the inner nodes have no
  // other consumers and are not protected.
  bool MatchSwish(Node* b, Chain* chain) const {
    Node* consumers[2] = {nullptr, nullptr};
    int count = 0;
    for (const Edge* e : b->out_edges()) {
      if (e->IsControlEdge() || e->src_output() != 0 || count == 2) return false;
      consumers[count++] = e->dst();
    }
    if (count != 2 || consumers[0] == consumers[1]) return false;
    return TrySwish(b, consumers[0], consumers[1], chain) ||
           TrySwish(b, consumers[1], consumers[0], chain);
  }

  // Whether `first` (the Sigmoid or the Mul by one) and `product` complete a swish of b.
  bool TrySwish(Node* b, Node* first, Node* product, Chain* chain) const {
    if (product->type_string() != "Mul" || !SwishProduct(b, product) || !Inner(first) ||
        !SameDevice(b, first) || !SameDevice(b, product)) {
      return false;
    }
    Node* scale = nullptr;
    Node* sigmoid = first;
    if (first->type_string() == "Mul") {
      const Edge* one = DataInput(first, 0);
      const Edge* other = DataInput(first, 1);
      if (one == nullptr || other == nullptr) return false;
      if (one->src() == b) std::swap(one, other);
      if (other->src() != b || other->src_output() != 0 || !IsConstOne(one->src())) {
        return false;
      }
      scale = first;
      sigmoid = SoleConsumer(first);
      if (sigmoid == nullptr || !Inner(sigmoid) || !SameDevice(b, sigmoid)) return false;
    }
    if (sigmoid->type_string() != "Sigmoid") return false;
    // The Sigmoid's one use is the product's other operand.
    int uses = 0;
    for (const Edge* e : sigmoid->out_edges()) {
      if (e->IsControlEdge() || e->dst() != product || e->src_output() != 0) return false;
      ++uses;
    }
    if (uses != 1) return false;
    chain->activation = product;
    chain->swish_sigmoid = sigmoid;
    chain->swish_scale = scale;
    return true;
  }

  // Whether `mul` multiplies b's output 0 by something else (its two data inputs).
  static bool SwishProduct(const Node* b, const Node* mul) {
    const Edge* x = DataInput(mul, 0);
    const Edge* y = DataInput(mul, 1);
    if (x == nullptr || y == nullptr) return false;
    return (x->src() == b && y->src() != b) || (y->src() == b && x->src() != b);
  }

  // The data inputs of the fused node: the contraction's two, then the post-op's operands,
  // then the residual add's addend.
  static std::vector<const Edge*> DataInputs(const Chain& chain) {
    std::vector<const Edge*> inputs;
    for (const Node* n : {chain.contraction, chain.post}) {
      std::vector<const Edge*> edges;
      if (!n->input_edges(&edges).ok()) return {};
      if (n == chain.contraction) {
        inputs.insert(inputs.end(), edges.begin(), edges.end());
      } else {
        inputs.insert(inputs.end(), edges.begin() + 1, edges.end());
      }
    }
    if (chain.addend != nullptr) inputs.push_back(chain.addend);
    return inputs;
  }

  static const char* FusedOp(const Node* c) {
    if (c->type_string() == "Conv2D") return "_FusedConv2D";
    if (c->type_string() == "DepthwiseConv2dNative") return "_FusedDepthwiseConv2dNative";
    return "_FusedMatMul";
  }

  NodeDef MakeFusedDef(const Chain& chain) const {
    const Node* c = chain.contraction;
    const bool conv = c->type_string() == "Conv2D";
    const bool batch_norm = chain.post->type_string() != "BiasAdd";
    NodeDef def;
    def.set_name(chain.last()->name());
    def.set_op(FusedOp(c));
    def.set_device(chain.last()->requested_device());
    const OpDef* op_def = nullptr;
    if (!g_->op_registry()->LookUpOpDef(def.op(), &op_def).ok()) return def;
    // The contraction's attrs that the fused op also has (strides, padding, T, ...).
    for (const auto& [name, value] : c->def().attr()) {
      for (const OpDef::AttrDef& attr : op_def->attr()) {
        if (attr.name() == name) (*def.mutable_attr())[name] = value;
      }
    }
    const int num_args = batch_norm ? 4 : chain.residual != nullptr ? 2 : 1;
    AddNodeAttr("num_args", num_args, &def);
    const DataType dtype = c->output_type(0);
    if (conv) {
      AddNodeAttr("TArgs", std::vector<DataType>(num_args, dtype), &def);
    }
    std::vector<std::string> fused_ops = {batch_norm ? "FusedBatchNorm" : "BiasAdd"};
    if (chain.residual != nullptr) fused_ops.push_back("Add");
    if (batch_norm) {
      const auto it = chain.post->def().attr().find("epsilon");
      if (it != chain.post->def().attr().end()) (*def.mutable_attr())["epsilon"] = it->second;
    }
    if (chain.swish()) {
      fused_ops.push_back("_FusedSwish");
    } else if (chain.activation != nullptr) {
      fused_ops.push_back(chain.activation->type_string());
      if (chain.activation->type_string() == "LeakyRelu") {
        const auto it = chain.activation->def().attr().find("alpha");
        if (it != chain.activation->def().attr().end()) {
          (*def.mutable_attr())["leakyrelu_alpha"] = it->second;
        }
      }
    }
    AddNodeAttr("fused_ops", fused_ops, &def);
    AddDefaultsToNodeDef(*op_def, &def);
    return def;
  }

  absl::Status Splice(const Chain& chain, NodeDef def) {
    const std::vector<const Edge*> data_inputs = DataInputs(chain);
    if (data_inputs.empty()) return errors::Internal("remapper: unreadable inputs");
    // Batch norm's operands must be of the contraction's dtype (its U may differ).
    const DataType dtype = chain.contraction->output_type(0);
    for (size_t i = 2; i < data_inputs.size(); ++i) {
      if (data_inputs[i]->src()->output_type(data_inputs[i]->src_output()) != dtype) {
        return absl::OkStatus();
      }
    }
    std::vector<std::pair<Node*, int>> sources;
    for (const Edge* e : data_inputs) sources.emplace_back(e->src(), e->src_output());
    std::vector<Node*> members;
    for (Node* n : {chain.contraction, chain.post, chain.residual, chain.swish_scale,
                    chain.swish_sigmoid, chain.activation}) {
      if (n != nullptr) members.push_back(n);
    }
    return SpliceFusedNode(g_, members, chain.last(), std::move(def), sources).status();
  }

  const RemapperOptions& opts_;
  Graph* g_;
  absl::flat_hash_set<int> same_shape_adds_;  // ids of Adds whose operands' shapes match
};

}  // namespace

absl::Status FuseContractions(const RemapperOptions& opts, Graph* g, bool* changed) {
  return Remapper(opts, g).Run(changed);
}

}  // namespace sluice
