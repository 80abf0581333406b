#include "cc_api/scope.h"

#include <algorithm>
#include <memory>
#include <set>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "cc_api/node_builder.h"
#include "glog/logging.h"
#include "graph/core/errors.h"
#include "graph/op/op_registry.h"

namespace sluice {
namespace {

constexpr char kScopeSeparator[] = "/";
constexpr char kSuffixSeparator[] = "_";
constexpr char kColocationAttrName[] = "_class";
constexpr char kColocationGroupPrefix[] = "loc:@";

// What every Scope derived from one root shares: the graph, its refiner and the first error.
// A root scope owns them; an internal scope (NewInternalScope) points at a caller's.
struct SharedState {
  SharedState()
      : owned_graph(std::make_unique<Graph>(OpRegistry::Global())),
        owned_refiner(std::make_unique<ShapeRefiner>(OpRegistry::Global())),
        graph(owned_graph.get()),
        refiner(owned_refiner.get()),
        status(&owned_status) {}
  SharedState(Graph* graph, ShapeRefiner* refiner, absl::Status* status)
      : graph(graph), refiner(refiner), status(status) {}

  std::unique_ptr<Graph> owned_graph;
  // Declared after the graph, so destroyed first: it holds pointers to the graph's nodes.
  std::unique_ptr<ShapeRefiner> owned_refiner;
  absl::Status owned_status;
  Graph* graph;
  ShapeRefiner* refiner;
  absl::Status* status;
};

// Names taken in one sub-scope, with the last suffix handed out for each.
using NameMap = absl::flat_hash_map<std::string, int>;

}  // namespace

class Scope::Impl {
 public:
  Impl() : shared_(std::make_shared<SharedState>()), name_map_(std::make_shared<NameMap>()) {}
  Impl(const Impl& other) = default;

  std::string GetUniqueName(const std::string& prefix) const {
    auto entry = name_map_->find(prefix);
    if (entry == name_map_->end()) {
      name_map_->emplace(prefix, 0);
      return prefix;
    }
    std::string unique_name;
    do {
      unique_name = absl::StrCat(prefix, kSuffixSeparator, ++entry->second);
    } while (name_map_->contains(unique_name));
    name_map_->emplace(unique_name, 0);
    return unique_name;
  }

  std::string GetNameForOp(const std::string& default_name) const {
    const std::string unique_name = GetUniqueName(default_name);
    const char* sep = name_.empty() || unique_name.empty() ? "" : kScopeSeparator;
    return absl::StrCat(name_, sep, unique_name);
  }

  std::shared_ptr<SharedState> shared_;
  std::shared_ptr<NameMap> name_map_;
  std::string name_;
  std::string op_name_;
  std::vector<Operation> control_deps_;
  std::string device_;
  std::string assigned_device_;
  std::string kernel_label_;
  std::set<std::string> colocation_constraints_;
  bool exit_on_error_ = false;
  bool disable_shape_inference_ = false;
};

Scope::Scope(Impl* impl) : impl_(impl) {}
Scope::Scope(const Scope& other) : impl_(new Impl(*other.impl())) {}
Scope& Scope::operator=(const Scope& other) {
  impl_ = std::make_unique<Impl>(*other.impl());
  return *this;
}
Scope::~Scope() = default;

Scope Scope::NewRootScope() { return Scope(new Impl()); }

Scope Scope::NewInternalScope(Graph* graph, absl::Status* status, ShapeRefiner* refiner) {
  Impl* impl = new Impl();
  impl->shared_ = std::make_shared<SharedState>(graph, refiner, status);
  impl->disable_shape_inference_ = refiner == nullptr;
  // The graph's names and every "/"-separated prefix of them are taken, so that new ops and
  // sub-scopes never collide with what is already there.
  for (const Node* node : graph->op_nodes()) {
    const std::string& name = node->name();
    impl->name_map_->emplace(name, 0);
    for (size_t slash = name.find('/'); slash != std::string::npos;
         slash = name.find('/', slash + 1)) {
      impl->name_map_->emplace(name.substr(0, slash), 0);
    }
  }
  return Scope(impl);
}

Scope Scope::DisabledShapeInferenceScope() {
  Impl* impl = new Impl();
  impl->disable_shape_inference_ = true;
  return Scope(impl);
}

Scope Scope::NewSubScope(const std::string& child_scope_name) const {
  Impl* impl = new Impl(*impl_);
  impl->op_name_.clear();
  if (child_scope_name.empty()) {
    impl->name_map_ = std::make_shared<NameMap>(*impl_->name_map_);
    return Scope(impl);
  }
  const std::string unique_name = impl_->GetUniqueName(child_scope_name);
  const char* sep = impl_->name_.empty() || unique_name.empty() ? "" : kScopeSeparator;
  impl->name_ = absl::StrCat(impl_->name_, sep, unique_name);
  impl->name_map_ = std::make_shared<NameMap>();
  return Scope(impl);
}

Scope Scope::WithOpNameImpl(const std::string& op_name) const {
  Impl* impl = new Impl(*impl_);
  impl->op_name_ = op_name;
  return Scope(impl);
}

Scope Scope::WithControlDependencies(absl::Span<const Operation> control_deps) const {
  Impl* impl = new Impl(*impl_);
  impl->control_deps_.insert(impl->control_deps_.end(), control_deps.begin(), control_deps.end());
  return Scope(impl);
}

Scope Scope::WithControlDependencies(const Output& control_dep) const {
  return WithControlDependencies({control_dep.op()});
}

Scope Scope::WithNoControlDependencies() const {
  Impl* impl = new Impl(*impl_);
  impl->control_deps_.clear();
  return Scope(impl);
}

Scope Scope::WithDevice(const std::string& device) const {
  Impl* impl = new Impl(*impl_);
  impl->device_ = device;
  return Scope(impl);
}

Scope Scope::WithAssignedDevice(const std::string& assigned_device) const {
  Impl* impl = new Impl(*impl_);
  impl->assigned_device_ = assigned_device;
  return Scope(impl);
}

Scope Scope::ColocateWith(const Operation& op) const {
  if (op.node() == nullptr) {
    UpdateStatus(errors::InvalidArgument("Cannot colocate with an empty Operation"));
    return *this;
  }
  Impl* impl = new Impl(*impl_);
  std::vector<std::string> classes;
  if (TryGetNodeAttr(op.node()->attrs(), kColocationAttrName, &classes) && !classes.empty()) {
    for (const std::string& c : classes) {
      if (absl::StartsWith(c, kColocationGroupPrefix)) impl->colocation_constraints_.insert(c);
    }
  } else {
    impl->colocation_constraints_.insert(absl::StrCat(kColocationGroupPrefix, op.node()->name()));
  }
  return Scope(impl);
}

Scope Scope::ClearColocation() const {
  Impl* impl = new Impl(*impl_);
  impl->colocation_constraints_.clear();
  return Scope(impl);
}

Scope Scope::WithKernelLabel(const std::string& kernel_label) const {
  Impl* impl = new Impl(*impl_);
  impl->kernel_label_ = kernel_label;
  return Scope(impl);
}

Scope Scope::ExitOnError() const {
  Impl* impl = new Impl(*impl_);
  impl->exit_on_error_ = true;
  return Scope(impl);
}

std::string Scope::GetUniqueNameForOp(const std::string& default_name) const {
  return impl_->GetNameForOp(impl_->op_name_.empty() ? default_name : impl_->op_name_);
}

void Scope::UpdateStatus(const absl::Status& s) const {
  absl::Status& status = *impl_->shared_->status;
  if (!status.ok() || s.ok()) return;
  status = s;
  if (impl_->exit_on_error_) LOG(FATAL) << status;
}

void Scope::UpdateBuilder(NodeBuilder* builder) const {
  for (const Operation& op : impl_->control_deps_) builder->ControlInput(op.node());
  if (!impl_->kernel_label_.empty()) builder->Attr("_kernel", impl_->kernel_label_);
  if (!impl_->colocation_constraints_.empty()) {
    // std::set iterates sorted, which is the order TensorFlow writes.
    std::vector<std::string> constraints(impl_->colocation_constraints_.begin(),
                                         impl_->colocation_constraints_.end());
    builder->Attr(kColocationAttrName, absl::Span<const std::string>(constraints));
  }
  if (!impl_->device_.empty()) builder->Device(impl_->device_);
  if (!impl_->assigned_device_.empty()) builder->AssignedDevice(impl_->assigned_device_);
}

absl::Status Scope::DoShapeInference(Node* node) const {
  if (impl_->disable_shape_inference_) return absl::OkStatus();
  return impl_->shared_->refiner->AddNode(node);
}

Graph* Scope::graph() const { return impl_->shared_->graph; }

std::shared_ptr<Graph> Scope::graph_as_shared_ptr() const {
  return std::shared_ptr<Graph>(impl_->shared_, impl_->shared_->graph);
}

ShapeRefiner* Scope::refiner() const { return impl_->shared_->refiner; }
absl::Status Scope::status() const { return *impl_->shared_->status; }
bool Scope::ok() const { return impl_->shared_->status->ok(); }
const std::vector<Operation>& Scope::control_deps() const { return impl_->control_deps_; }
const std::string& Scope::name() const { return impl_->name_; }

absl::Status Scope::ToGraphDef(GraphDef* graph_def) const {
  if (!ok()) return status();
  graph()->ToGraphDef(graph_def);
  return absl::OkStatus();
}

absl::Status Scope::ToGraph(Graph* g, GraphConstructorOptions opts) const {
  GraphDef graph_def;
  RETURN_IF_ERROR(ToGraphDef(&graph_def));
  return ConvertGraphDefToGraph(opts, std::move(graph_def), g);
}

}  // namespace sluice
