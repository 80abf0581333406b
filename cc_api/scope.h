// Scope: where client code builds a graph (TensorFlow's tensorflow/cc/framework/scope.h).
//
// A Scope is a cheap value naming a graph plus the properties the ops built with it get: a
// name prefix, control dependencies, a device, colocation constraints, a kernel label. Every
// With*/NewSubScope call returns a new Scope and leaves the receiver unchanged. All Scopes
// derived from one root share its Graph, its shape refiner and one Status: the first
// construction error is recorded there (scope.ok(), scope.status()), and op wrappers given a
// failed scope do nothing. ExitOnError() makes a recorded error fatal (LOG(FATAL)) instead.
//
// Naming follows TensorFlow: an op's default name is its type ("MatMul"), made unique within
// its sub-scope by "_1", "_2"... ("Const", "Const_1"); NewSubScope("outer") prefixes
// "outer/"; WithOpName("x") names the next op "x" (also uniquified, "x_1" the second time).
// Names are reserved per sub-scope, and sub-scope names share that table with op names.
//
// Each op is shape-inferred as it is added (through the shared ShapeRefiner); a shape
// function's error is recorded on the Scope like any other.
//
// Thread safety: not thread-safe. Build the graph from one thread (or serialize), as in
// TensorFlow; a ClientSession may run it from many threads.
#ifndef SLUICE_CC_API_SCOPE_H_
#define SLUICE_CC_API_SCOPE_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "cc_api/ops.h"
#include "graph/graph.h"
#include "graph/import/graph_constructor.h"
#include "graph/shape_refiner.h"
#include "proto/graph.pb.h"

namespace sluice {

class NodeBuilder;

class Scope {
 public:
  Scope(const Scope& other);
  Scope& operator=(const Scope& other);
  ~Scope();

  // A scope over a new, empty graph whose ops resolve in OpRegistry::Global().
  static Scope NewRootScope();
  // As NewRootScope, but ops are added without shape inference (for graphs whose shape
  // functions would reject partial information).
  static Scope DisabledShapeInferenceScope();
  // A scope that adds ops to an existing `graph` (TensorFlow's NewInternalScope, used by the C
  // API and the gradient builder), shape-inferring them with `refiner` (none when null) and
  // recording its first error in `*status`. The caller keeps all three alive while the scope
  // and the scopes derived from it are used. The graph's existing names are taken.
  static Scope NewInternalScope(Graph* graph, absl::Status* status, ShapeRefiner* refiner);

  // A scope whose ops are named "<this prefix>/<child_scope_name>/...", the child name made
  // unique like an op name. An empty name gives a scope with this one's prefix and a copy of
  // its name table.
  Scope NewSubScope(const std::string& child_scope_name) const;

  // The next op built with the returned scope is named StrCat(fragments...) (made unique).
  template <typename... Ty>
  Scope WithOpName(Ty... fragments) const {
    return WithOpNameImpl(absl::StrCat(fragments...));
  }

  // Ops get control inputs from these ops too (added to this scope's).
  Scope WithControlDependencies(absl::Span<const Operation> control_deps) const;
  Scope WithControlDependencies(const Output& control_dep) const;
  // Ops get no control inputs from the scope.
  Scope WithNoControlDependencies() const;

  // Ops request `device` (a full or partial device name, e.g. "/cpu:0").
  Scope WithDevice(const std::string& device) const;
  // Ops are already assigned to `assigned_device` (a full device name).
  Scope WithAssignedDevice(const std::string& assigned_device) const;
  // Ops are colocated with `op` (its "_class" constraints, or "loc:@<op name>").
  Scope ColocateWith(const Operation& op) const;
  Scope ColocateWith(const Output& out) const { return ColocateWith(out.op()); }
  Scope ClearColocation() const;
  // Ops ask for kernels registered with this label ("_kernel" attr).
  Scope WithKernelLabel(const std::string& kernel_label) const;
  // Errors recorded through the returned scope abort the process.
  Scope ExitOnError() const;

  // The name the next op with default name `default_name` gets; reserves it.
  std::string GetUniqueNameForOp(const std::string& default_name) const;

  // Records `s` if no error was recorded yet (first error wins).
  void UpdateStatus(const absl::Status& s) const;
  // Applies the scope's control dependencies, device, colocation and kernel label.
  void UpdateBuilder(NodeBuilder* builder) const;
  // Runs shape inference on `node` (unless disabled).
  absl::Status DoShapeInference(Node* node) const;

  Graph* graph() const;
  std::shared_ptr<Graph> graph_as_shared_ptr() const;
  ShapeRefiner* refiner() const;
  absl::Status status() const;
  bool ok() const;
  const std::vector<Operation>& control_deps() const;
  // This scope's name prefix ("outer/inner"), empty at the root.
  const std::string& name() const;

  // The graph built so far; the recorded error if there is one.
  absl::Status ToGraphDef(GraphDef* graph_def) const;
  // Copies the graph built so far into `g` (through its GraphDef).
  absl::Status ToGraph(Graph* g, GraphConstructorOptions opts = GraphConstructorOptions()) const;

 private:
  class Impl;
  explicit Scope(Impl* impl);
  Impl* impl() const { return impl_.get(); }
  Scope WithOpNameImpl(const std::string& op_name) const;

  std::unique_ptr<Impl> impl_;
};

}  // namespace sluice

#endif  // SLUICE_CC_API_SCOPE_H_
