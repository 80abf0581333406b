// FoldAffineIntoContractions: match each chain from its contraction, compute the scaled
// filter and the combined bias on the host, then splice a BiasAdd in place of the chain.
#include "passes/affine_folding.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graph/core/errors.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_proto.h"
#include "graph/core/tensor_types.h"
#include "graph/core/types.h"
#include "graph/graph.h"
#include "graph/op/node_def_util.h"
#include "proto/attr_value.pb.h"
#include "proto/tensor.pb.h"

namespace sluice {
namespace {

struct Chain {
  Node* contraction = nullptr;
  Node* filter = nullptr;  // the Const feeding the contraction's input 1
  Node* bias_add = nullptr;
  Node* mul = nullptr;
  Node* add = nullptr;
  Tensor bias, scale, shift;  // per channel; empty when the node is absent
  Node* last() const { return add != nullptr ? add : mul != nullptr ? mul : bias_add; }
};

// The single data consumer of n's output 0, when that is n's only out-edge.
Node* SoleConsumer(const Node* n, int* input) {
  Node* consumer = nullptr;
  for (const Edge* e : n->out_edges()) {
    if (e->IsControlEdge() || e->src_output() != 0 || consumer != nullptr) return nullptr;
    consumer = e->dst();
    *input = e->dst_input();
  }
  return consumer;
}

// The float Const producing n's input `index`, or null.
Node* ConstInput(const Node* n, int index) {
  const Node* src = nullptr;
  if (!n->input_node(index, &src).ok() || !src->IsConstant()) return nullptr;
  if (src->output_type(0) != DT_FLOAT) return nullptr;
  return const_cast<Node*>(src);
}

absl::Status ConstValue(const Node* n, Tensor* value) {
  const auto it = n->def().attr().find("value");
  if (it == n->def().attr().end()) {
    return errors::InvalidArgument("Const node ", n->name(), " has no value");
  }
  absl::Status s = TensorFromProto(it->second.tensor(), value);
  if (!s.ok()) return AttachDef(s, n->def());
  return absl::OkStatus();
}

// Whether `t` broadcasts per output channel over an output of `rank` dims and `channels`
// channels without changing its shape; `t` is then expanded to [channels] in *per_channel.
bool PerChannel(const Tensor& t, int rank, int64_t channels, Tensor* per_channel) {
  if (t.dims() > rank) return false;
  for (int d = 0; d + 1 < t.dims(); ++d) {
    if (t.dim_size(d) != 1) return false;
  }
  const int64_t n = t.NumElements();
  if (n != 1 && n != channels) return false;
  *per_channel = Tensor(DT_FLOAT, TensorShape({channels}));
  for (int64_t i = 0; i < channels; ++i) {
    per_channel->flat<float>()(i) = t.flat<float>()(n == 1 ? 0 : i);
  }
  return true;
}

class AffineFolder {
 public:
  AffineFolder(const AffineFoldingOptions& opts, Graph* g) : opts_(opts), g_(g) {}

  absl::Status Run(bool* changed) {
    *changed = false;
    std::vector<int> candidates;
    for (Node* n : g_->op_nodes()) {
      const std::string& op = n->type_string();
      if (op == "Conv2D" || op == "DepthwiseConv2dNative" || op == "MatMul") {
        candidates.push_back(n->id());
      }
    }
    for (int id : candidates) {
      Node* n = g_->FindNodeId(id);
      if (n == nullptr) continue;
      Chain chain;
      bool matched = false;
      RETURN_IF_ERROR(Match(n, &chain, &matched));
      if (!matched) continue;
      RETURN_IF_ERROR(Rewrite(&chain));
      *changed = true;
    }
    return absl::OkStatus();
  }

 private:
  bool Foldable(const Node* n, const Node* prev) const {
    // A consumer without outputs (a fetch's _Retval or _Send) ends the chain.
    return n->num_outputs() > 0 && n->output_type(0) == DT_FLOAT &&
           !opts_.protected_names.contains(n->name()) &&
           n->assigned_device_name() == prev->assigned_device_name() &&
           n->requested_device() == prev->requested_device();
  }

  // Output channels of the contraction, from its filter's shape; -1 if unsupported.
  static int64_t Channels(const Node* c, const Tensor& filter) {
    const std::string& op = c->type_string();
    if (op == "MatMul") {
      if (filter.dims() != 2 || GetNodeAttrOr(c->attrs(), "transpose_a", false)) return -1;
      return filter.dim_size(GetNodeAttrOr(c->attrs(), "transpose_b", false) ? 0 : 1);
    }
    if (filter.dims() != 4) return -1;
    const std::string format = GetNodeAttrOr<std::string>(c->attrs(), "data_format", "");
    if (!format.empty() && format != "NHWC") return -1;
    if (op == "DepthwiseConv2dNative") return filter.dim_size(2) * filter.dim_size(3);
    return filter.dim_size(3);
  }

  absl::Status Match(Node* c, Chain* chain, bool* matched) {
    *matched = false;
    if (c->output_type(0) != DT_FLOAT) return absl::OkStatus();
    Node* filter = ConstInput(c, 1);
    if (filter == nullptr) return absl::OkStatus();
    Tensor w;
    RETURN_IF_ERROR(ConstValue(filter, &w));
    const int64_t channels = Channels(c, w);
    if (channels <= 0) return absl::OkStatus();
    const int rank = c->type_string() == "MatMul" ? 2 : 4;
    chain->contraction = c;
    chain->filter = filter;
    Node* prev = c;
    int input = 0;
    Node* next = SoleConsumer(prev, &input);
    auto take_const = [&](Node* n, int other, Tensor* out) -> absl::Status {
      Node* k = ConstInput(n, other);
      Tensor value;
      if (k == nullptr) return absl::OkStatus();
      RETURN_IF_ERROR(ConstValue(k, &value));
      if (!PerChannel(value, rank, channels, out)) *out = Tensor();
      return absl::OkStatus();
    };
    if (next != nullptr && Foldable(next, prev) && next->type_string() == "BiasAdd" && input == 0 &&
        GetNodeAttrOr<std::string>(next->attrs(), "data_format", "") != "NCHW") {
      RETURN_IF_ERROR(take_const(next, 1, &chain->bias));
      if (chain->bias.NumElements() == channels) {
        chain->bias_add = next;
        prev = next;
        next = SoleConsumer(prev, &input);
      }
    }
    if (next != nullptr && Foldable(next, prev) && next->type_string() == "Mul") {
      RETURN_IF_ERROR(take_const(next, 1 - input, &chain->scale));
      if (chain->scale.NumElements() == channels) {
        chain->mul = next;
        prev = next;
        next = SoleConsumer(prev, &input);
      }
    }
    if (next != nullptr && Foldable(next, prev) &&
        (next->type_string() == "AddV2" || next->type_string() == "Add")) {
      RETURN_IF_ERROR(take_const(next, 1 - input, &chain->shift));
      if (chain->shift.NumElements() == channels) chain->add = next;
    }
    // Only the last node of the chain may have other consumers or be observed by name.
    if (chain->mul == nullptr && chain->add == nullptr) return absl::OkStatus();
    *matched = true;
    return absl::OkStatus();
  }

  // W scaled along its output channels: the last dim (Conv2D, MatMul), the last two
  // flattened (depthwise: channel c * multiplier + m), or rows for a transposed MatMul.
  static Tensor ScaledFilter(const Node* c, const Tensor& w, const Tensor& scale) {
    Tensor out(DT_FLOAT, w.shape());
    const float* src = w.flat<float>().data();
    float* dst = out.flat<float>().data();
    const float* s = scale.flat<float>().data();
    const int64_t channels = scale.NumElements();
    const int64_t n = w.NumElements();
    if (c->type_string() == "MatMul" && GetNodeAttrOr(c->attrs(), "transpose_b", false)) {
      const int64_t row = w.dim_size(1);
      for (int64_t i = 0; i < n; ++i) dst[i] = src[i] * s[i / row];
    } else {
      for (int64_t i = 0; i < n; ++i) dst[i] = src[i] * s[i % channels];
    }
    return out;
  }

  static NodeDef ConstDef(const std::string& name, const Tensor& value, const std::string& device) {
    NodeDef def;
    def.set_name(name);
    def.set_op("Const");
    def.set_device(device);
    AddNodeAttr("dtype", DT_FLOAT, &def);
    TensorProto proto;
    TensorToProtoContent(value, &proto);
    AddNodeAttr("value", proto, &def);
    return def;
  }

  std::string FreshName(const std::string& base) {
    std::string name = base;
    while (g_->FindNodeByName(name) != nullptr) name = g_->NewName(base);
    return name;
  }

  // A Const next to `like` (same devices), not yet connected.
  absl::StatusOr<Node*> AddConst(const std::string& base, const Tensor& value, const Node* like) {
    ASSIGN_OR_RETURN(Node * k,
                     g_->AddNode(ConstDef(FreshName(base), value, like->requested_device())));
    k->set_assigned_device_name(like->assigned_device_name());
    return k;
  }

  absl::Status Rewrite(Chain* chain) {
    Node* c = chain->contraction;
    Tensor w;
    RETURN_IF_ERROR(ConstValue(chain->filter, &w));
    const int64_t channels = Channels(c, w);
    Tensor bias(DT_FLOAT, TensorShape({channels}));
    for (int64_t i = 0; i < channels; ++i) {
      float b = chain->bias_add != nullptr ? chain->bias.flat<float>()(i) : 0.0f;
      if (chain->mul != nullptr) b *= chain->scale.flat<float>()(i);
      if (chain->add != nullptr) b += chain->shift.flat<float>()(i);
      bias.flat<float>()(i) = b;
    }

    if (chain->mul != nullptr) {
      ASSIGN_OR_RETURN(Node * scaled, AddConst(absl::StrCat(c->name(), "/folded_filter"),
                                               ScaledFilter(c, w, chain->scale), chain->filter));
      RETURN_IF_ERROR(g_->UpdateEdge(scaled, 0, c, 1));
      RemoveIfUnused(chain->filter);
    }

    Node* last = chain->last();
    const std::string name = last->name();
    const std::string requested = last->requested_device();
    const std::string assigned = last->assigned_device_name();
    std::vector<Node*> control_sources;
    std::vector<Node*> operands;  // Consts feeding the removed nodes, removed if now unused
    for (Node* n : {chain->bias_add, chain->mul, chain->add}) {
      if (n == nullptr) continue;
      for (const Edge* e : n->in_edges()) {
        if (e->IsControlEdge()) {
          control_sources.push_back(e->src());
        } else if (e->src() != c && e->src()->IsConstant()) {
          operands.push_back(e->src());
        }
      }
    }
    std::vector<std::pair<Node*, int>> consumers;
    for (const Edge* e : last->out_edges()) consumers.emplace_back(e->dst(), e->dst_input());
    for (Node* n : {chain->add, chain->mul, chain->bias_add}) {
      if (n != nullptr) g_->RemoveNode(n);
    }
    for (Node* k : operands) RemoveIfUnused(k);

    NodeDef def;
    def.set_name(name);
    def.set_op("BiasAdd");
    def.set_device(requested);
    AddNodeAttr("T", DT_FLOAT, &def);
    AddNodeAttr("data_format", "NHWC", &def);
    ASSIGN_OR_RETURN(Node * bias_add, g_->AddNode(std::move(def)));
    bias_add->set_assigned_device_name(assigned);
    ASSIGN_OR_RETURN(Node * bias_const, AddConst(absl::StrCat(name, "/folded_bias"), bias, c));
    g_->AddEdge(c, 0, bias_add, 0);
    g_->AddEdge(bias_const, 0, bias_add, 1);
    for (Node* src : control_sources) g_->AddControlEdge(src, bias_add);
    for (const auto& [dst, input] : consumers) {
      if (input == Graph::kControlSlot) {
        g_->AddControlEdge(bias_add, dst);
      } else {
        g_->AddEdge(bias_add, 0, dst, input);
      }
    }
    return absl::OkStatus();
  }

  // Removes a Const nobody reads any more (a control edge to the sink does not count).
  void RemoveIfUnused(Node* k) {
    if (opts_.protected_names.contains(k->name())) return;
    for (const Edge* e : k->out_edges()) {
      if (!e->dst()->IsSink()) return;
    }
    g_->RemoveNode(k);
  }

  const AffineFoldingOptions& opts_;
  Graph* g_;
};

}  // namespace

absl::Status FoldAffineIntoContractions(const AffineFoldingOptions& opts, Graph* g, bool* changed) {
  return AffineFolder(opts, g).Run(changed);
}

}  // namespace sluice
