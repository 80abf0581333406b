// Hand-written wrappers the generator cannot produce, and the helpers generated wrappers
// call (TensorFlow's tensorflow/cc/ops/const_op.h).
//
//   ops::Const(scope, value)            a Const node holding any Input::Initializer value:
//                                       Const(s, 1.5f), Const(s, {{1, 2}, {3, 4}}),
//                                       Const(s, "text"), Const(s, tensor).
//   ops::Const(scope, 10, {2, 2})       a value repeated over a shape.
//   ops::Const(scope, {1, 2, 3, 4}, {2, 2})   values laid out in a shape.
//   ops::Const<T>(scope, value)         the value cast to T first (Const<float>(s, {1, 2})).
//   ops::ConstFromProto(scope, proto)   a Const node from a TensorProto.
//   ops::AsNodeOut(scope, input)        the Output an Input denotes, making a Const (in a
//                                       "Const" sub-scope) for a C++ value.
//   ops::AsNodeOutList(scope, inputs)   the same for a list.
//
// Errors (a malformed initializer, a failed scope) are recorded on the scope; the result is
// then a default Output.
#ifndef SLUICE_CC_API_CONST_OP_H_
#define SLUICE_CC_API_CONST_OP_H_

#include <algorithm>
#include <initializer_list>
#include <vector>

#include "absl/types/span.h"
#include "cc_api/ops.h"
#include "cc_api/scope.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "proto/tensor.pb.h"

namespace sluice {

class NodeBuilder;

namespace ops {

Output Const(const Scope& scope, const Input::Initializer& val);
Output ConstFromProto(const Scope& scope, const TensorProto& proto);

// `val` converted to T's dtype (numbers and bools convert as static_cast does; strings only
// to strings). INVALID_ARGUMENT on the scope for other conversions.
Output CastConst(const Scope& scope, const Input::Initializer& val, DataType dtype);
template <typename T>
Output Const(const Scope& scope, const Input::Initializer& val) {
  return CastConst(scope, val, DataTypeToEnum<typename Input::Initializer::RealType<T>::type>::v());
}

template <typename T>
Output Const(const Scope& scope, const T& v, const TensorShape shape) {
  using RealT = typename Input::Initializer::RealType<T>::type;
  Tensor t(DataTypeToEnum<RealT>::v(), shape);
  std::fill_n(t.base<RealT>(), t.NumElements(), RealT(v));
  return Const(scope, Input::Initializer(t));
}

template <typename T>
Output Const(const Scope& scope, const std::initializer_list<T>& v, const TensorShape shape) {
  Input::Initializer init(v, shape);
  if (!init.status.ok()) {
    scope.UpdateStatus(init.status);
    return Output();
  }
  return Const(scope, init);
}

Output AsNodeOut(const Scope& scope, const Input& inp);
std::vector<Output> AsNodeOutList(const Scope& scope, const InputList& inp);

namespace internal {

// Finishes a generated wrapper: applies the scope to `builder`, adds the node and infers its
// shapes. nullptr (with the error recorded on `scope`) on failure.
Node* FinishOp(const Scope& scope, NodeBuilder* builder);
// The outputs of `node` that output arg `arg_name` covers; empty (error recorded) on failure.
OutputList OutputsOf(const Scope& scope, Node* node, const char* arg_name);

}  // namespace internal
}  // namespace ops
}  // namespace sluice

#endif  // SLUICE_CC_API_CONST_OP_H_
