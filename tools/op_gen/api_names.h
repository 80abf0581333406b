// The C++ names TensorFlow's client API gives an op's wrapper, so that code written against
// tensorflow::ops compiles unchanged over Sluice's: the class (ConcatV2 is ops::Concat, Mul is
// ops::Multiply with the alias ops::Mul), the namespace (hidden ops such as ReluGrad are in
// ops::internal), the constructor's parameters in TensorFlow's order and names (Sum's
// reduction_indices is `axis`, Select's `t` and `e` are ops::Where3's `x` and `y`), the
// Attrs setters (Squeeze's squeeze_dims is `Axis`) and the output members.
//
// TensorFlow derives these from api_def files its pip package does not ship; its generated
// headers, which it does ship, carry them. tools/op_gen/extract_tf_cc_api.py records them in
// tf_cc_api_names.txt, compiled in here. An op TensorFlow generates no wrapper for (a custom op,
// FFT) keeps its graph names, unless its name is taken by another op's wrapper (Concat, the
// version ConcatV2 superseded): such an op gets no wrapper, as in TensorFlow.
#ifndef SLUICE_TOOLS_OP_GEN_API_NAMES_H_
#define SLUICE_TOOLS_OP_GEN_API_NAMES_H_

#include <map>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace sluice {
namespace op_gen {

struct ApiNames {
  // False when TensorFlow's C++ API gives the op no wrapper of its own.
  bool visible = true;
  // True for ops TensorFlow generates into tensorflow::ops::internal.
  bool internal = false;
  std::string class_name;
  // More names for the same class (emitted as type aliases).
  std::vector<std::string> aliases;
  // The constructor's parameters after the scope, in TensorFlow's order: each an input arg or
  // a required attr, by graph name, with its C++ name. Empty when TensorFlow has no wrapper for
  // the op: then the inputs in order, then the required attrs, under their graph names.
  struct Param {
    std::string graph_name;
    std::string cpp_name;
  };
  std::vector<Param> params;
  // Optional attr -> its Attrs setter, where TensorFlow recorded one.
  std::map<std::string, std::string> setters;
  // Output arg -> its member's name, where TensorFlow recorded one.
  std::map<std::string, std::string> outputs;
};

ApiNames ApiNamesForOp(const std::string& op_name);

// tf_cc_api_names.txt, compiled in (tf_cc_api_names_text.cc, generated).
absl::string_view TfCcApiNamesText();

}  // namespace op_gen
}  // namespace sluice

#endif  // SLUICE_TOOLS_OP_GEN_API_NAMES_H_
