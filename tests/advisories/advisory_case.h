// One op of a TensorFlow security advisory, built as a graph and run through a Sluice session:
// with Const inputs (import-time shape inference and constant folding see the values) or with
// Placeholders of unknown shape fed at run time (only the kernel sees them).
#ifndef SLUICE_TESTS_ADVISORIES_ADVISORY_CASE_H_
#define SLUICE_TESTS_ADVISORIES_ADVISORY_CASE_H_

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "graph/op/node_def_util.h"
#include "proto/graph.pb.h"

namespace sluice {
namespace advisories {

// A tensor of `dtype` and `dims`, every element zero (empty string for DT_STRING).
Tensor Zeros(DataType dtype, const std::vector<int64_t>& dims);

template <typename T>
Tensor Scalar(T value) {
  Tensor t(DataTypeToEnum<T>::value, TensorShape({}));
  *t.base<T>() = value;
  return t;
}

// A tensor of `dims` holding `values` in row-major order; a vector when `dims` is empty.
template <typename T>
Tensor Values(const std::vector<T>& values, std::vector<int64_t> dims = {}) {
  if (dims.empty()) dims.push_back(static_cast<int64_t>(values.size()));
  Tensor t(DataTypeToEnum<T>::value, TensorShape(dims));
  std::copy(values.begin(), values.end(), t.base<T>());
  return t;
}

// The elements of `t` in row-major order.
template <typename T>
std::vector<T> Elements(const Tensor& t) {
  std::vector<T> v;
  v.assign(t.base<T>(), t.base<T>() + t.NumElements());
  return v;
}

// How a case's inputs reach the op.
enum class Feed { kConst, kPlaceholder };

class AdvisoryCase {
 public:
  explicit AdvisoryCase(std::string op) : op_(std::move(op)) {}

  // The next input of the op.
  AdvisoryCase& Input(Tensor value);
  // The next input, a list (an OpDef argument with a number or type-list attr).
  AdvisoryCase& InputList(std::vector<Tensor> values);
  // The next input is a tensor that `make` adds to the graph (always, fed or not): it adds
  // its nodes and returns the tensor's name.
  AdvisoryCase& InputFrom(std::function<std::string(GraphDef*)> make);
  // What is fetched is what `consume` makes of the op's output (a tensor name, such as
  // "op:0"): for ops whose output cannot be compared directly, such as a TensorList.
  AdvisoryCase& FetchThrough(std::function<std::string(GraphDef*, const std::string&)> consume);
  template <typename T>
  AdvisoryCase& Attr(const std::string& name, T value) {
    attrs_.push_back([name, value](NodeDef* node) { AddNodeAttr(name, value, node); });
    return *this;
  }
  AdvisoryCase& Attr(const std::string& name, std::initializer_list<int64_t> value) {
    return Attr(name, std::vector<int64_t>(value));
  }
  AdvisoryCase& Attr(const std::string& name, const char* value) {
    return Attr(name, std::string(value));
  }

  // The GraphDef: inputs named in0, in1_0, ..., the op named "op".
  GraphDef Graph(Feed feed) const;
  // Creates a session on Graph(feed) and fetches output `output` of the op; the first error
  // of Create or Run.
  absl::Status Run(Feed feed, std::vector<Tensor>* outputs = nullptr, int output = 0) const;

 private:
  std::string op_;
  std::vector<std::vector<Tensor>> inputs_;
  std::vector<bool> is_list_;
  std::vector<std::function<std::string(GraphDef*)>> makers_;  // per input; empty for fed
  std::function<std::string(GraphDef*, const std::string&)> consume_;
  std::vector<std::function<void(NodeDef*)>> attrs_;
};

// Expects `c` to fail with `code` both with Const inputs and with fed Placeholders, with
// `message` (when not empty) in both messages.
void ExpectFailsBothWays(const AdvisoryCase& c, absl::StatusCode code,
                         const std::string& message = "");

// Adds a node `name` of `op` with `inputs` to `graph`.
NodeDef* AddNode(GraphDef* graph, const std::string& name, const std::string& op,
                 const std::vector<std::string>& inputs);
// Adds a Const `name` holding `value`.
NodeDef* AddConst(GraphDef* graph, const std::string& name, const Tensor& value);

// Runs `graph` in a new session, feeding `feeds` and fetching `fetches`.
absl::Status CreateAndRun(const GraphDef& graph,
                          const std::vector<std::pair<std::string, Tensor>>& feeds,
                          const std::vector<std::string>& fetches,
                          std::vector<Tensor>* outputs = nullptr);

}  // namespace advisories
}  // namespace sluice

#endif  // SLUICE_TESTS_ADVISORIES_ADVISORY_CASE_H_
