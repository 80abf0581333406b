// The C++ names TensorFlow's client API gives ops and args where they differ from the graph
// op's (TensorFlow's api_def "endpoint" and "rename_to" entries), for the ops Sluice
// registers, so that code written against tensorflow::ops compiles unchanged: ConcatV2 is
// ops::Concat, Pack ops::Stack, TopKV2 ops::TopK, Sum also ops::ReduceSum, Sum's
// reduction_indices is `axis`. Ops not listed keep their graph names.
#ifndef SLUICE_TOOLS_OP_GEN_API_NAMES_H_
#define SLUICE_TOOLS_OP_GEN_API_NAMES_H_

#include <string>
#include <vector>

namespace sluice {
namespace op_gen {

struct ApiNames {
  // False for ops TensorFlow's C++ API does not expose (superseded versions).
  bool visible = true;
  // The class name.
  std::string class_name;
  // More names for the same class (emitted as type aliases).
  std::vector<std::string> aliases;
};

ApiNames ApiNamesForOp(const std::string& op_name);

// The C++ name of input arg `arg_name` of `op_name`.
std::string ApiArgName(const std::string& op_name, const std::string& arg_name);

}  // namespace op_gen
}  // namespace sluice

#endif  // SLUICE_TOOLS_OP_GEN_API_NAMES_H_
