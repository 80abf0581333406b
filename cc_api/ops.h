// The values a client graph is built from (TensorFlow's tensorflow/cc/framework/ops.h):
//
//   Operation  a node of the graph being built (a handle; the Scope's graph owns the node).
//   Output     one output of an Operation, "node:index"; what op wrappers return and what a
//              ClientSession fetches or feeds.
//   Input      what an op wrapper accepts for a tensor input: an Output, or a C++ value
//              (scalar, string, nested initializer list, Tensor) that becomes a Const node.
//   InputList  what a wrapper accepts for a list input (N * T or list(type) args).
//
// Contract: these are cheap value types holding a Node* into the graph of the Scope that made
// them; they are valid while that graph lives. A default Output (node() == nullptr) is what a
// wrapper leaves when construction failed; the Scope holds the error.
//
// Input::Initializer turns C++ values into a Tensor. Its failures (ragged nested lists,
// mixed element types, a value count that does not match an explicit shape) do not throw or
// abort: they are kept in `status` and reported on the Scope by whatever consumes the Input.
//
// Thread safety: as for the Graph: reading from several threads is safe while no thread adds
// nodes.
#ifndef SLUICE_CC_API_OPS_H_
#define SLUICE_CC_API_OPS_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "graph/core/tensor.h"
#include "graph/core/tensor_shape.h"
#include "graph/core/types.h"
#include "graph/graph.h"

namespace sluice {

class Output;

class Operation {
 public:
  Operation() = default;
  explicit Operation(Node* n) : node_(n) {}

  int32_t num_inputs() const { return node_->num_inputs(); }
  DataType input_type(int32_t i) const { return node_->input_type(i); }
  // The output feeding input i; a default Output if input i has no edge.
  Output input(int32_t i) const;

  int32_t num_outputs() const { return node_->num_outputs(); }
  DataType output_type(int32_t o) const { return node_->output_type(o); }
  Output output(int32_t i) const;

  Node* node() const { return node_; }

  uint64_t hash(int32_t index) const;
  bool operator==(const Operation& other) const { return node_ == other.node_; }

 private:
  Node* node_ = nullptr;
};

class Output {
 public:
  Output() = default;
  explicit Output(Node* n) : op_(n) {}
  Output(Node* n, int32_t index) : op_(n), index_(index) {}
  Output(const Operation& op, int32_t index) : op_(op), index_(index) {}

  Operation op() const { return op_; }
  Node* node() const { return op_.node(); }
  int32_t index() const { return index_; }
  // REQUIRES: node() != nullptr.
  DataType type() const { return op_.output_type(index_); }
  // "node:index", the name a Session feeds and fetches by.
  std::string name() const;
  bool operator==(const Output& other) const { return op_ == other.op_ && index_ == other.index_; }
  uint64_t hash() const { return op_.hash(index_); }

 private:
  Operation op_;
  int32_t index_ = 0;
};

struct OutputHash {
  std::size_t operator()(const Output& output) const { return output.hash(); }
};

using OutputList = std::vector<Output>;

class Input {
 public:
  // A C++ value as a Tensor, with the first error met while converting it.
  struct Initializer {
    // Strings (anything convertible to std::string) become DT_STRING; arithmetic types their
    // own dtype.
    template <typename T, bool = std::is_convertible<T, std::string>::value>
    struct RealType {
      using type = std::string;
    };
    template <typename T>
    struct RealType<T, false> {
      using type = T;
    };

    // A scalar.
    template <typename T,
              typename = typename std::enable_if<std::is_arithmetic<T>::value ||
                                                 std::is_convertible<T, std::string>::value>::type>
    Initializer(const T& v) {  // NOLINT(google-explicit-constructor)
      using RealT = typename RealType<T>::type;
      tensor = Tensor(DataTypeToEnum<RealT>::v(), TensorShape());
      *tensor.base<RealT>() = RealT(v);
    }
    Initializer(const Tensor& t) : tensor(t) {}  // NOLINT(google-explicit-constructor)

    // Values filling `shape` in row-major order; their count must match.
    template <typename T,
              typename = typename std::enable_if<std::is_arithmetic<T>::value ||
                                                 std::is_convertible<T, std::string>::value>::type>
    Initializer(const std::initializer_list<T>& v, const TensorShape& shape) {
      using RealT = typename RealType<T>::type;
      if (shape.num_elements() != static_cast<int64_t>(v.size())) {
        status = absl::InvalidArgumentError(
            "Cannot construct a tensor with " + std::to_string(shape.num_elements()) +
            " from an initializer list with " + std::to_string(v.size()) + " elements");
        return;
      }
      Fill<RealT>(v, shape);
    }

    // A vector.
    template <typename T,
              typename = typename std::enable_if<std::is_arithmetic<T>::value ||
                                                 std::is_convertible<T, std::string>::value>::type>
    Initializer(const std::initializer_list<T>& v) {  // NOLINT(google-explicit-constructor)
      using RealT = typename RealType<T>::type;
      Fill<RealT>(v, TensorShape({static_cast<int64_t>(v.size())}));
    }

    // Nested lists: the components must share a dtype and a shape, which gains a leading
    // dimension. An empty list is an empty float vector.
    Initializer(const std::initializer_list<Initializer>& v);  // NOLINT

    // The tensor as a TensorProto (for a Const's value attr).
    TensorProto AsTensorProto() const;

    absl::Status status;
    Tensor tensor;

   private:
    template <typename RealT, typename T>
    void Fill(const std::initializer_list<T>& v, const TensorShape& shape) {
      tensor = Tensor(DataTypeToEnum<RealT>::v(), shape);
      if (v.size() == 0) return;
      RealT* out = tensor.base<RealT>();
      for (const T& e : v) *out++ = RealT(e);
    }
  };

  // A value of any kind Initializer accepts.
  template <typename T,
            typename = typename std::enable_if<std::is_arithmetic<T>::value ||
                                               std::is_convertible<T, std::string>::value>::type>
  Input(const T& v)  // NOLINT(google-explicit-constructor)
      : Input(Initializer(v)) {}
  Input(const Initializer& init)  // NOLINT(google-explicit-constructor)
      : status_(init.status), tensor_(init.tensor) {}
  Input(const Tensor& t)  // NOLINT(google-explicit-constructor)
      : tensor_(t) {}
  Input(const std::initializer_list<Initializer>& init);  // NOLINT
  Input(const Output& o)                                  // NOLINT(google-explicit-constructor)
      : output_(o) {}
  // Output `i` of the node named `name` in the scope's graph, of dtype `dt`; resolved when
  // the consuming op is built.
  Input(const std::string& name, int32_t i, DataType dt)
      : node_name_(name), index_(i), data_type_(dt) {}

  Node* node() const { return output_.node(); }
  const std::string& node_name() const { return node_name_; }
  int32_t index() const { return node() != nullptr ? output_.index() : index_; }
  DataType data_type() const { return data_type_; }
  const absl::Status& status() const { return status_; }
  const Tensor& tensor() const { return tensor_; }

 private:
  absl::Status status_;
  Output output_;
  Tensor tensor_;
  std::string node_name_;
  int32_t index_ = 0;
  DataType data_type_ = DT_INVALID;
};

// The inputs of a list argument.
class InputList {
 public:
  InputList(const OutputList& out) {  // NOLINT(google-explicit-constructor)
    inputs_.reserve(out.size());
    for (const Output& o : out) inputs_.emplace_back(o);
  }
  InputList(std::initializer_list<Input> inputs)  // NOLINT(google-explicit-constructor)
      : inputs_(inputs.begin(), inputs.end()) {}
  InputList(const std::vector<Input>& inputs)  // NOLINT(google-explicit-constructor)
      : inputs_(inputs) {}

  std::vector<Input>::iterator begin() { return inputs_.begin(); }
  std::vector<Input>::iterator end() { return inputs_.end(); }
  std::vector<Input>::const_iterator begin() const { return inputs_.begin(); }
  std::vector<Input>::const_iterator end() const { return inputs_.end(); }
  size_t size() const { return inputs_.size(); }

 private:
  std::vector<Input> inputs_;
};

}  // namespace sluice

#endif  // SLUICE_CC_API_OPS_H_
