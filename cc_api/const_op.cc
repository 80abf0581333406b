#include "cc_api/const_op.h"

#include <string>
#include <type_traits>

#include "cc_api/node_builder.h"
#include "graph/core/errors.h"
#include "graph/core/tensor_proto.h"
#include "graph/op/node_def_util.h"

namespace sluice {
namespace ops {
namespace {

template <typename T>
constexpr bool kCastable = std::is_arithmetic<T>::value;

// Copies `src` into `dst` (same shape) converting each element; false if either dtype is not
// a plain number or bool.
bool CastElements(const Tensor& src, Tensor* dst) {
  bool ok = false;
  VisitElementType(src.dtype(), [&](auto src_tag) {
    using Src = typename decltype(src_tag)::type;
    VisitElementType(dst->dtype(), [&](auto dst_tag) {
      using Dst = typename decltype(dst_tag)::type;
      if constexpr (kCastable<Src> && kCastable<Dst>) {
        const Src* in = src.base<Src>();
        Dst* out = dst->base<Dst>();
        for (int64_t i = 0; i < src.NumElements(); ++i) out[i] = static_cast<Dst>(in[i]);
        ok = true;
      }
    });
  });
  return ok;
}

}  // namespace

Output ConstFromProto(const Scope& scope, const TensorProto& proto) {
  if (!scope.ok()) return Output();
  NodeBuilder builder(scope.GetUniqueNameForOp("Const"), "Const");
  builder.Attr("value", proto).Attr("dtype", proto.dtype());
  Node* node = internal::FinishOp(scope, &builder);
  return node == nullptr ? Output() : Output(node, 0);
}

Output Const(const Scope& scope, const Input::Initializer& val) {
  if (!val.status.ok()) {
    scope.UpdateStatus(val.status);
    return Output();
  }
  return ConstFromProto(scope, val.AsTensorProto());
}

Output CastConst(const Scope& scope, const Input::Initializer& val, DataType dtype) {
  if (!val.status.ok()) {
    scope.UpdateStatus(val.status);
    return Output();
  }
  if (val.tensor.dtype() == dtype) return Const(scope, val);
  Tensor cast(dtype, val.tensor.shape());
  if (!CastElements(val.tensor, &cast)) {
    scope.UpdateStatus(errors::InvalidArgument("Cannot convert a constant of type ",
                                               DataTypeString(val.tensor.dtype()), " to ",
                                               DataTypeString(dtype)));
    return Output();
  }
  return Const(scope, Input::Initializer(cast));
}

Output AsNodeOut(const Scope& scope, const Input& inp) {
  if (!inp.status().ok()) {
    scope.UpdateStatus(inp.status());
    return Output();
  }
  if (inp.node() != nullptr) return Output(inp.node(), inp.index());
  if (!inp.node_name().empty()) {
    Node* node = scope.graph()->FindNodeByName(inp.node_name());
    if (node == nullptr) {
      scope.UpdateStatus(errors::InvalidArgument("Input names node '", inp.node_name(),
                                                 "', which is not in the graph"));
      return Output();
    }
    return Output(node, inp.index());
  }
  return Const(scope.NewSubScope("Const"), Input::Initializer(inp.tensor()));
}

std::vector<Output> AsNodeOutList(const Scope& scope, const InputList& inp) {
  std::vector<Output> out;
  out.reserve(inp.size());
  for (const Input& i : inp) {
    Output o = AsNodeOut(scope, i);
    if (!scope.ok()) return {};
    out.push_back(o);
  }
  return out;
}

namespace internal {

Node* FinishOp(const Scope& scope, NodeBuilder* builder) {
  scope.UpdateBuilder(builder);
  Node* node = nullptr;
  absl::Status s = builder->Finalize(scope.graph(), &node);
  if (!s.ok()) {
    scope.UpdateStatus(s);
    return nullptr;
  }
  scope.UpdateStatus(scope.DoShapeInference(node));
  return scope.ok() ? node : nullptr;
}

OutputList OutputsOf(const Scope& scope, Node* node, const char* arg_name) {
  NameRangeMap ranges;
  absl::Status s = NameRangesForNode(node->attrs(), node->op_def(), nullptr, &ranges);
  if (!s.ok()) {
    scope.UpdateStatus(s);
    return {};
  }
  auto it = ranges.find(arg_name);
  if (it == ranges.end()) {
    scope.UpdateStatus(
        errors::Internal("Op ", node->type_string(), " has no output arg '", arg_name, "'"));
    return {};
  }
  OutputList outputs;
  for (int i = it->second.first; i < it->second.second; ++i) outputs.emplace_back(node, i);
  return outputs;
}

}  // namespace internal
}  // namespace ops
}  // namespace sluice
