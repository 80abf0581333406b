// KernelRegistry: registration with overlap checks, and lookup by op, device type, label,
// type constraints and priority.
#include "runtime/framework/kernel_registry.h"

#include <algorithm>
#include <map>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "glog/logging.h"
#include "graph/core/errors.h"
#include "graph/op/attr_value_util.h"
#include "graph/op/node_def_util.h"
#include "graph/op/op_registry.h"
#include "proto/kernel_def.pb.h"
#include "proto/node_def.pb.h"

namespace sluice {

struct KernelRegistry::Registration {
  KernelDef def;
  std::string kernel_class_name;
  Factory factory;
};

namespace {

constexpr char kKernelLabelAttr[] = "_kernel";

// The node's "_kernel" attr, or "" when it has none (or it is not a string).
const std::string& KernelLabel(const NodeDef& node_def) {
  static const std::string* const kEmpty = new std::string;
  auto it = node_def.attr().find(kKernelLabelAttr);
  if (it == node_def.attr().end() || it->second.value_case() != AttrValue::kS) return *kEmpty;
  return it->second.s();
}

bool Allows(const KernelDef::AttrConstraint& constraint, int dtype) {
  const auto& allowed = constraint.allowed_values().list().type();
  return std::find(allowed.begin(), allowed.end(), dtype) != allowed.end();
}

// Sets *match to whether every type constraint of `def` accepts the node's attrs.
absl::Status KernelAttrsMatch(const KernelDef& def, const NodeDef& node_def, bool* match) {
  *match = false;
  const AttrSlice attrs(node_def);
  for (const KernelDef::AttrConstraint& constraint : def.constraint()) {
    const AttrValue* value = attrs.Find(constraint.name());
    if (value == nullptr) {
      return errors::InvalidArgument("OpKernel '", def.op(), "' has constraint on attr '",
                                     constraint.name(), "' not in NodeDef '",
                                     SummarizeNodeDef(node_def), "', KernelDef: '",
                                     def.ShortDebugString(), "'");
    }
    if (value->value_case() == AttrValue::kType) {
      if (!Allows(constraint, value->type())) return absl::OkStatus();
      continue;
    }
    if (!AttrValueHasType(*value, "list(type)").ok()) {
      return errors::InvalidArgument(
          "KernelDef '", def.ShortDebugString(), "' has constraint on attr '", constraint.name(),
          "' that has value '", SummarizeAttrValue(*value),
          "' that does not have type 'type' or 'list(type)' in NodeDef '",
          SummarizeNodeDef(node_def), "'");
    }
    for (int dtype : value->list().type()) {
      if (!Allows(constraint, dtype)) return absl::OkStatus();
    }
  }
  *match = true;
  return absl::OkStatus();
}

// Attr name -> the types a kernel allows for it (the intersection when constrained twice).
std::map<std::string, absl::flat_hash_set<int>> AllowedTypes(const KernelDef& def) {
  std::map<std::string, absl::flat_hash_set<int>> allowed;
  for (const KernelDef::AttrConstraint& constraint : def.constraint()) {
    absl::flat_hash_set<int> types(constraint.allowed_values().list().type().begin(),
                                   constraint.allowed_values().list().type().end());
    auto [it, inserted] = allowed.emplace(constraint.name(), types);
    if (!inserted) {
      absl::erase_if(it->second, [&types](int t) { return !types.contains(t); });
    }
  }
  return allowed;
}

// Whether some node could satisfy both kernels' constraints: every attr constrained by both
// has a type both allow (an attr constrained by one only never separates them).
bool ConstraintsOverlap(const KernelDef& a, const KernelDef& b) {
  const auto allowed_a = AllowedTypes(a);
  const auto allowed_b = AllowedTypes(b);
  for (const auto& [name, types_a] : allowed_a) {
    auto it = allowed_b.find(name);
    if (it == allowed_b.end()) continue;
    const bool common = std::any_of(types_a.begin(), types_a.end(),
                                    [&it](int t) { return it->second.contains(t); });
    if (!common) return false;
  }
  return true;
}

// "T=DT_INT8, _kernel=\"x\"": a node's attrs sorted by name, plus its device if any, as
// TensorFlow prints them after "Requested Attributes:".
std::string SummarizeAttrs(const NodeDef& node_def) {
  std::map<std::string, const AttrValue*> sorted;
  for (const auto& [name, value] : node_def.attr()) sorted.emplace(name, &value);
  std::vector<std::string> parts;
  for (const auto& [name, value] : sorted) {
    parts.push_back(absl::StrCat(name, "=", SummarizeAttrValue(*value)));
  }
  if (!node_def.device().empty()) {
    parts.push_back(absl::StrCat("_device=\"", node_def.device(), "\""));
  }
  return absl::StrJoin(parts, ", ");
}

}  // namespace

KernelRegistry::KernelRegistry() = default;
KernelRegistry::~KernelRegistry() = default;

KernelRegistry* KernelRegistry::Global() {
  static KernelRegistry* const registry = new KernelRegistry;
  return registry;
}

absl::Status KernelRegistry::Register(const KernelDefBuilder& builder,
                                      absl::string_view kernel_class_name, Factory factory) {
  absl::Status status;
  Watcher watcher;
  {
    absl::MutexLock lock(&mu_);
    status = AddLocked(builder, kernel_class_name, factory);
    watcher = watcher_;
  }
  if (watcher) watcher(status, builder.kernel_def());
  return status;
}

void KernelRegistry::RegisterFromStaticInitializer(const KernelDefBuilder& builder,
                                                   absl::string_view kernel_class_name,
                                                   Factory factory) {
  absl::Status status;
  Watcher watcher;
  {
    absl::MutexLock lock(&mu_);
    status = AddLocked(builder, kernel_class_name, factory);
    watcher = watcher_;
    if (!status.ok() && !watcher) registration_errors_.push_back(status);
  }
  if (watcher) {
    watcher(status, builder.kernel_def());
  } else if (!status.ok()) {
    LOG(ERROR) << "Kernel registration failed: " << status;
  }
}

absl::Status KernelRegistry::AddLocked(const KernelDefBuilder& builder,
                                       absl::string_view kernel_class_name, Factory factory) {
  RETURN_IF_ERROR(builder.status());
  const KernelDef& def = builder.kernel_def();
  if (def.device_type().empty()) {
    return errors::InvalidArgument("Kernel ", kernel_class_name, " for op '", def.op(),
                                   "' has no device type: call Device()");
  }
  if (factory == nullptr) {
    return errors::InvalidArgument("Kernel ", kernel_class_name, " for op '", def.op(),
                                   "' has no factory");
  }
  auto& registrations = by_op_[def.op()];
  for (const auto& existing : registrations) {
    const KernelDef& other = existing->def;
    if (other.device_type() == def.device_type() && other.label() == def.label() &&
        other.priority() == def.priority() && ConstraintsOverlap(other, def)) {
      return errors::AlreadyExists(
          "Kernel ", kernel_class_name, " ('", def.ShortDebugString(),
          "') conflicts with the registered kernel ", existing->kernel_class_name, " ('",
          other.ShortDebugString(),
          "'): same op, device type, label and priority, and a node could match both");
    }
  }
  auto registration = std::make_unique<Registration>();
  registration->def = def;
  registration->kernel_class_name = std::string(kernel_class_name);
  registration->factory = factory;
  in_order_.push_back(registration.get());
  registrations.push_back(std::move(registration));
  return absl::OkStatus();
}

absl::Status KernelRegistry::FindMatch(const DeviceType& device_type, const NodeDef& node_def,
                                       Match* match) const {
  *match = Match();
  const std::string& label = KernelLabel(node_def);
  absl::ReaderMutexLock lock(&mu_);
  auto it = by_op_.find(node_def.op());
  if (it == by_op_.end()) return absl::OkStatus();
  for (const auto& registration : it->second) {
    const KernelDef& def = registration->def;
    if (def.device_type() != device_type.type_string() || def.label() != label) continue;
    bool attrs_match;
    RETURN_IF_ERROR(KernelAttrsMatch(def, node_def, &attrs_match));
    if (!attrs_match) {
      match->attr_mismatch = true;
      continue;
    }
    const Registration* best = match->registration;
    if (best != nullptr && best->def.priority() == def.priority()) {
      return errors::InvalidArgument(
          "Multiple OpKernel registrations match NodeDef at the same priority '",
          FormatNodeDefForError(node_def), "': '", best->def.ShortDebugString(), "' and '",
          def.ShortDebugString(), "'");
    }
    if (best == nullptr || def.priority() > best->def.priority()) {
      match->registration = registration.get();
    }
  }
  return absl::OkStatus();
}

absl::Status KernelRegistry::FindKernel(const DeviceType& device_type, const NodeDef& node_def,
                                        const KernelDef** def, std::string* kernel_class_name,
                                        Factory* factory) const {
  Match match;
  RETURN_IF_ERROR(FindMatch(device_type, node_def, &match));
  if (match.registration == nullptr) {
    std::string message = absl::StrCat("No registered '", node_def.op(), "' OpKernel for '",
                                       device_type.type_string(), "' devices compatible with node ",
                                       FormatNodeDefForError(node_def));
    // TensorFlow's AppendToMessage puts "\n\t" before each appended part.
    if (match.attr_mismatch) {
      absl::StrAppend(&message, "\n\t (OpKernel was found, but attributes didn't match) ",
                      "Requested Attributes: ", SummarizeAttrs(node_def));
    }
    absl::StrAppend(&message, "\n\t.  Registered:", KernelsRegisteredForOp(node_def.op()));
    return absl::NotFoundError(message);
  }
  if (def != nullptr) *def = &match.registration->def;
  if (kernel_class_name != nullptr) *kernel_class_name = match.registration->kernel_class_name;
  if (factory != nullptr) *factory = match.registration->factory;
  return absl::OkStatus();
}

absl::Status KernelRegistry::HasKernel(const DeviceType& device_type, const NodeDef& node_def,
                                       bool* found, int32_t* priority) const {
  Match match;
  RETURN_IF_ERROR(FindMatch(device_type, node_def, &match));
  *found = match.registration != nullptr;
  if (*found && priority != nullptr) *priority = match.registration->def.priority();
  return absl::OkStatus();
}

std::string KernelRegistry::KernelsRegisteredForOp(absl::string_view op) const {
  const KernelList kernels = GetRegisteredKernelsForOp(op);
  if (kernels.kernel_size() == 0) return "  <no registered kernels>\n";
  std::string result;
  for (const KernelDef& def : kernels.kernel()) {
    absl::StrAppend(&result, "  device='", def.device_type(), "'");
    if (!def.label().empty()) absl::StrAppend(&result, "; label='", def.label(), "'");
    for (const KernelDef::AttrConstraint& constraint : def.constraint()) {
      absl::StrAppend(&result, "; ", constraint.name(), " in ",
                      SummarizeAttrValue(constraint.allowed_values()));
    }
    absl::StrAppend(&result, "\n");
  }
  return result;
}

KernelList KernelRegistry::GetRegisteredKernelsForOp(absl::string_view op) const {
  KernelList kernels;
  absl::ReaderMutexLock lock(&mu_);
  auto it = by_op_.find(op);
  if (it == by_op_.end()) return kernels;
  for (const auto& registration : it->second) *kernels.add_kernel() = registration->def;
  return kernels;
}

KernelList KernelRegistry::GetAllRegisteredKernels() const {
  KernelList kernels;
  absl::ReaderMutexLock lock(&mu_);
  kernels.mutable_kernel()->Reserve(static_cast<int>(in_order_.size()));
  for (const Registration* registration : in_order_) *kernels.add_kernel() = registration->def;
  return kernels;
}

absl::Status KernelRegistry::SetWatcher(Watcher watcher) {
  absl::MutexLock lock(&mu_);
  if (watcher_ && watcher) {
    return errors::FailedPrecondition(
        "A kernel registration watcher is already set; clear it before setting another");
  }
  watcher_ = std::move(watcher);
  return absl::OkStatus();
}

std::vector<absl::Status> KernelRegistry::registration_errors() const {
  absl::ReaderMutexLock lock(&mu_);
  return registration_errors_;
}

size_t KernelRegistry::num_registered() const {
  absl::ReaderMutexLock lock(&mu_);
  return in_order_.size();
}

void KernelRegistry::RemoveRegisteredSince(size_t mark) {
  absl::MutexLock lock(&mu_);
  if (mark >= in_order_.size()) return;
  const absl::flat_hash_set<const Registration*> removed(in_order_.begin() + mark, in_order_.end());
  in_order_.resize(mark);
  for (auto it = by_op_.begin(); it != by_op_.end();) {
    std::vector<std::unique_ptr<const Registration>>& registrations = it->second;
    auto kept = std::stable_partition(registrations.begin(), registrations.end(),
                                      [&removed](const std::unique_ptr<const Registration>& r) {
                                        return !removed.contains(r.get());
                                      });
    for (auto moved = kept; moved != registrations.end(); ++moved) {
      retired_.push_back(std::move(*moved));
    }
    registrations.erase(kept, registrations.end());
    if (registrations.empty()) {
      by_op_.erase(it++);
    } else {
      ++it;
    }
  }
}

absl::Status FindKernelDef(const DeviceType& device_type, const NodeDef& node_def,
                           const KernelDef** def, std::string* kernel_class_name) {
  return KernelRegistry::Global()->FindKernel(device_type, node_def, def, kernel_class_name,
                                              nullptr);
}

absl::Status SupportedDeviceTypesForNode(
    const std::vector<DeviceType>& prioritized_types, const NodeDef& node_def,
    std::vector<std::pair<DeviceType, int32_t>>* device_types) {
  const OpDef* op_def = nullptr;
  if (!OpRegistry::Global()->LookUpOpDef(node_def.op(), &op_def).ok()) {
    for (const DeviceType& type : prioritized_types) device_types->emplace_back(type, 0);
    return absl::OkStatus();
  }
  std::vector<std::pair<DeviceType, int32_t>> supported;
  for (const DeviceType& type : prioritized_types) {
    bool found = false;
    int32_t priority = 0;
    RETURN_IF_ERROR(KernelRegistry::Global()->HasKernel(type, node_def, &found, &priority));
    if (found) supported.emplace_back(type, priority);
  }
  if (supported.empty()) {
    // No kernel anywhere: say why if the node itself is invalid.
    NodeDef with_defaults = node_def;
    AddDefaultsToNodeDef(*op_def, &with_defaults);
    RETURN_IF_ERROR(ValidateNodeDef(with_defaults, *op_def));
  }
  std::stable_sort(supported.begin(), supported.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  device_types->insert(device_types->end(), supported.begin(), supported.end());
  return absl::OkStatus();
}

KernelList GetRegisteredKernelsForOp(absl::string_view op) {
  return KernelRegistry::Global()->GetRegisteredKernelsForOp(op);
}

KernelList GetAllRegisteredKernels() { return KernelRegistry::Global()->GetAllRegisteredKernels(); }

}  // namespace sluice
