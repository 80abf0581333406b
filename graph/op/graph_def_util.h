// Whole-GraphDef checks and rewrites against an op registry, and GraphDef version checks.
//
// These work node by node, as TensorFlow's graph_def_util does: they check each NodeDef
// against its OpDef but not the graph's structure (duplicate names, dangling inputs, cycles),
// which is the importer's job. Errors name the node and its op. A node whose op is the name
// of a function of the GraphDef's own library is checked against the function's signature,
// as TensorFlow does (its FunctionLibraryDefinition is an op registry whose OpDefs are the
// functions' signatures); LibraryOpRegistry is that registry for a Graph.
//
// All functions are thread-compatible: they read the registry (itself thread-safe) and
// mutate only the GraphDef they are given.
#ifndef SLUICE_GRAPH_OP_GRAPH_DEF_UTIL_H_
#define SLUICE_GRAPH_OP_GRAPH_DEF_UTIL_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/repeated_field.h"
#include "graph/op/op_registry.h"
#include "proto/function.pb.h"
#include "proto/graph.pb.h"
#include "proto/node_def.pb.h"
#include "proto/versions.pb.h"

namespace sluice {

// GraphDef versions, with TensorFlow's meaning (tensorflow/core/public/version.h):
//  - kGraphDefVersion: the version Sluice produces and consumes. It equals TensorFlow 2.21's
//    TF_GRAPH_DEF_VERSION, so Sluice reads whatever TensorFlow up to 2.21 reads.
//  - kGraphDefVersionMinConsumer: the oldest consumer able to read graphs Sluice writes.
//  - kGraphDefVersionMinProducer: the oldest producer whose graphs Sluice reads. TensorFlow
//    still reads graphs of producer 0, and so does Sluice.
inline constexpr int kGraphDefVersion = 2474;
inline constexpr int kGraphDefVersionMinConsumer = 0;
inline constexpr int kGraphDefVersionMinProducer = 0;

// OK if a GraphDef with these versions may be consumed by Sluice: producer >= the minimum
// producer, min_consumer <= kGraphDefVersion, and kGraphDefVersion not in bad_consumers.
// INVALID_ARGUMENT otherwise, worded as TensorFlow words it:
//   "GraphDef producer version -1 below min producer 0 supported by Sluice.  Please
//    regenerate your graph."
//   "GraphDef min consumer version 3000 above current version 2474 for Sluice.  Please
//    upgrade Sluice."
//   "GraphDef disallows consumer version 2474.  Please upgrade Sluice: this version is likely
//    buggy."
absl::Status CheckGraphDefVersions(const VersionDef& versions);

// OK if `signature`, a function's, can serve as the OpDef of the nodes that call it: each
// input and output arg has exactly one of a type, a type attr or a type-list attr, a number
// attr only with a single type, and every attr an arg names is declared with the right attr
// type ("type", "list(type)", "int"). INVALID_ARGUMENT naming the function and the arg
// otherwise. (Unlike ValidateOpDef it does not hold the names to an op's grammar:
// TensorFlow names functions "__inference_f_12" or "outer_U5CsHEUyShc".)
absl::Status CheckFunctionSignature(const OpDef& signature);

// An op registry that resolves a name in `base` first, then among the functions added to it,
// as TensorFlow's FunctionLibraryDefinition does: a function's OpDef is its signature, so a
// node calling a function by name gets its attrs checked and defaulted and its input and
// output types computed like any node. A function's registration has `function_shape_fn` as
// its shape function (a Graph gives calls unknown output shapes; see graph.h).
//
// A function whose signature fails CheckFunctionSignature is still known by name: LookUp
// answers INVALID_ARGUMENT for it. Functions named like an op of `base` are never reached
// (TensorFlow refuses such a library; Graph::AddFunctionLibrary does too).
//
// Thread safety: LookUp may run concurrently with LookUp; adding or retaining functions
// needs exclusive access. Pointers LookUp handed out stay valid for the registry's lifetime
// (a function removed by RetainOnly is retired, not freed).
class LibraryOpRegistry : public OpRegistryInterface {
 public:
  // `base` must outlive the registry.
  explicit LibraryOpRegistry(const OpRegistryInterface* base,
                             OpShapeInferenceFn function_shape_fn = nullptr);
  ~LibraryOpRegistry() override;
  LibraryOpRegistry(const LibraryOpRegistry&) = delete;
  LibraryOpRegistry& operator=(const LibraryOpRegistry&) = delete;

  // Registers the signature of each function of `library` whose name is not yet known. A
  // function of a known name keeps its first signature.
  void AddFunctions(const FunctionDefLibrary& library);
  // Forgets the functions `library` does not name (undoing AddFunctions).
  void RetainOnly(const FunctionDefLibrary& library);

  // Whether `name` is a function added here (whatever `base` says of it).
  bool IsFunction(absl::string_view name) const { return functions_.contains(name); }
  const OpRegistryInterface* base() const { return base_; }

  absl::Status LookUp(const std::string& op_type_name,
                      const OpRegistrationData** op_reg_data) const override;

 private:
  struct Function {
    std::unique_ptr<const OpRegistrationData> data;
    absl::Status signature_status;
  };

  const OpRegistryInterface* const base_;
  const OpShapeInferenceFn function_shape_fn_;
  absl::flat_hash_map<std::string, Function> functions_;
  std::vector<std::unique_ptr<const OpRegistrationData>> retired_;
};

// Checks every node of `graph_def`: its name and inputs are well formed
// (ValidateExternalNodeDefSyntax), its op is in `registry` or names a function of the
// GraphDef's library (checked against the function's signature, which must pass
// CheckFunctionSignature), and, once the op's default attrs are filled in on a copy, it
// satisfies ValidateNodeDef. Stops at the first failure: INVALID_ARGUMENT or NOT_FOUND
// (unknown op), with the node and op named.
absl::Status ValidateGraphDefAgainstOpRegistry(const GraphDef& graph_def,
                                               const OpRegistryInterface& registry);

// Adds, to each node from index `node_offset` on, the default-valued attrs its OpDef
// declares and the node lacks (a node calling a library function: its signature's).
// INVALID_ARGUMENT if node_offset is negative or past the end; the registry's NOT_FOUND (with
// the node named) for an unknown op. Nodes before the
// failing one keep their added defaults.
absl::Status AddDefaultAttrsToGraphDef(GraphDef* graph_def, const OpRegistryInterface& registry,
                                       int node_offset = 0);

// The inverse: removes from each node every attr whose value equals its OpDef's default,
// which is how TensorFlow keeps graphs readable by consumers that predate an attr. Nodes
// of ops unknown to `registry` are left alone, so this cannot fail.
void StripDefaultAttributes(const OpRegistryInterface& registry,
                            google::protobuf::RepeatedPtrField<NodeDef>* nodes);

}  // namespace sluice

#endif  // SLUICE_GRAPH_OP_GRAPH_DEF_UTIL_H_
